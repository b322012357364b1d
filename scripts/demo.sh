#!/bin/bash
# demo.sh: what `make demo` runs after building: the flagship example, a fault-tolerant ring that
# survives ranks killed by the fault injector (MINI_MPI_FAULTS), through our mpiexec.
set -u
cd "$(dirname "$0")/.." || exit 1
run() { echo "\$ $*"; "$@"; echo "(exit status $?)"; echo; }
run bin/mpiexec -n 64 build/examples/private_counter
run bin/mpiexec -n 6 build/examples/resilient_ring
run env MINI_MPI_FAULTS="kill 2 at MPI_Sendrecv#5" bin/mpiexec -n 6 build/examples/resilient_ring
run env MINI_MPI_VERBOSE=1 MINI_MPI_FAULTS="kill 2 at MPI_Sendrecv#5; kill 4 at MPIX_Comm_agree#8" \
    bin/mpiexec -n 6 build/examples/resilient_ring
run bin/mpiexec -n 4 build/examples/rank_dies
