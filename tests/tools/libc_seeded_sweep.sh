#!/bin/bash
# libc_seeded_sweep.sh: a fault sweep of tests/mpi/libc_ft_seeded, the benchmark pattern that
# takes its parameters from getopt_long and draws its victims with srand/rand at every rank: with
# one more death at each possible (rank, call), every run must pass (the ranks agree on the
# victims, the survivors are exactly the others). Both builds (-fPIC, -fPIE). About 6 s.
# Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
build=${MINI_MPI_TEST_BUILD:-build}
failures=0
for prog in "$build/tests/mpi/libc_ft_seeded" "$build/tests/mpi/libc_ft_seeded_pie"; do
    [ -x "$prog" ] || { echo "missing $prog (run make)"; exit 1; }
    out=$(bin/mpiexec --fault-sweep -n 4 "$prog" --seed 3 --victims 1 --iters 3 2>&1)
    if grep -q '^Every run passed.$' <<<"$out"; then
        echo "ok   sweep of $(basename "$prog"): $(grep -o '[0-9]* runs' <<<"$out" | head -1) passed"
    else
        echo "FAIL sweep of $(basename "$prog")"
        tail -20 <<<"$out"
        failures=$((failures + 1))
    fi
done
[ "$failures" -eq 0 ]
