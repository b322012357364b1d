#!/bin/bash
# rmaft_sweep.sh: fault sweeps (mpiexec --fault-sweep) of the two window examples on 4 ranks: a
# death at every MPI call of every rank of examples/rma_ft_counter (locks whose holder dies
# included) and of examples/rma_ft_halo over 10 iterations with MINI_MPI_POISON=1 (deaths in
# and between fences, in puts, checkpoints and window creation). Every run must end with the
# verified result, except a death of the printing rank between the final decision and its
# print (MPI_Comm_rank, MPI_Comm_size there), which silences the verdict: no run may deadlock,
# hang, time out, crash or compute a wrong result. About 20 s.
cd "$(dirname "$0")/../.." || exit 1
build=${MINI_MPI_TEST_BUILD:-build}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
sweep() { # name min_runs program args...
    local name=$1 min=$2
    shift 2
    bin/mpiexec --fault-sweep -j 2 --timeout 30 -q --csv "$tmp/$name.csv" -- -n 4 "$@" \
        >"$tmp/$name.out" 2>&1
    local runs bad
    runs=$(tail -n +2 "$tmp/$name.csv" | wc -l)
    bad=$(tail -n +2 "$tmp/$name.csv" | awk -F, '$4 != "passed" &&
        !($1 == 0 && $4 == "failed" && ($3 == "MPI_Comm_rank" || $3 == "MPI_Comm_size"))')
    if [ "$runs" -lt "$min" ] || [ -n "$bad" ]; then
        echo "FAIL $name: $runs runs; unexpected outcomes:"
        echo "$bad"
        tail -20 "$tmp/$name.out"
        status=1
    else
        echo "ok   $name: $runs runs, $(grep -c ',passed,' "$tmp/$name.csv") passed, the rest silenced verdicts"
    fi
}
for p in rma_ft_counter rma_ft_halo; do
    [ -x "$build/examples/$p" ] || { echo "missing $build/examples/$p (run make)"; exit 1; }
done
sweep counter 300 "$build/examples/rma_ft_counter"
MINI_MPI_POISON=1 sweep halo 200 "$build/examples/rma_ft_halo" 10
exit $status
