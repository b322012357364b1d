#!/bin/bash
# restart_sweep.sh: fault sweeps (bin/mini_mpi_sweep) of the two restart examples: every death
# of a worker in examples/ft_restart_workers (the master restarts it) and every death of the
# master in examples/ft_restart_master (the workers restart it) must end with the right result:
# no failed, deadlocked, hung or crashed run. A seeded sample of 25 runs each (a few seconds);
# with MINI_MPI_TEST_LONG=1 every possible death. Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
build=${MINI_MPI_TEST_BUILD:-build}
failures=0
sample=(--budget 25 --seed 7)
[ "${MINI_MPI_TEST_LONG:-0}" = 1 ] && sample=()
sweep() { # ranks program args...
    local ranks=$1 prog=$build/examples/$2
    shift 2
    [ -x "$prog" ] || { echo "missing $prog (run make)"; failures=$((failures + 1)); return; }
    local out
    out=$(bin/mpiexec --fault-sweep -q -j 2 "${sample[@]}" --ranks "$ranks" -n 4 "$prog" "$@" 2>&1)
    if grep -q '^Every run passed' <<<"$out"; then
        echo "ok   sweep of $prog, ranks $ranks: $(sed -n 3p <<<"$out")"
    else
        echo "FAIL sweep of $prog, ranks $ranks:"
        echo "$out"
        failures=$((failures + 1))
    fi
}
sweep 1,2,3 ft_restart_workers 20
sweep 0 ft_restart_master 20
[ "$failures" = 0 ]
