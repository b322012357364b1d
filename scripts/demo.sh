#!/bin/bash
# demo.sh: what `make demo` runs after building: the flagship examples, through our mpiexec.
# Until the ULFM issue lands, the flagship is a rank dying while the others finish.
set -u
cd "$(dirname "$0")/.." || exit 1
run() { echo "\$ $*"; "$@"; echo "(exit status $?)"; echo; }
run bin/mpiexec -n 64 build/examples/private_counter
run bin/mpiexec -n 4 build/examples/rank_dies
run bin/mpiexec -n 4 -disable-auto-cleanup build/examples/rank_dies
