#!/bin/bash
# ioft_sweep.sh: the fault sweep (mpiexec --fault-sweep) of examples/ft_io_checkpoint on 4
# ranks: a death at every MPI call of every rank, collective file writes, opens and closes
# included. Every run must end with the verified result, except a death of the printing rank
# between the final shrink and its print (MPI_Comm_rank, MPI_Comm_size there), which silences
# the verdict: no run may deadlock, hang, time out, crash or compute a wrong field. About 3 s.
cd "$(dirname "$0")/../.." || exit 1
build=${MINI_MPI_TEST_BUILD:-build}
prog=$build/examples/ft_io_checkpoint
[ -x "$prog" ] || { echo "missing $prog (run make)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
TMPDIR=$tmp bin/mpiexec --fault-sweep -j 2 --timeout 30 -q --csv "$tmp/grid.csv" -- -n 4 \
    "$prog" >"$tmp/out" 2>&1
runs=$(tail -n +2 "$tmp/grid.csv" | wc -l)
bad=$(tail -n +2 "$tmp/grid.csv" | awk -F, '$4 != "passed" &&
    !($1 == 0 && $4 == "failed" && ($3 == "MPI_Comm_rank" || $3 == "MPI_Comm_size") && $2 > 20)')
if [ "$runs" -lt 100 ] || [ -n "$bad" ]; then
    echo "FAIL: $runs runs; unexpected outcomes:"
    echo "$bad"
    tail -20 "$tmp/out"
    exit 1
fi
echo "ok   $runs runs: $(grep -c ',passed,' "$tmp/grid.csv") passed, the rest silenced verdicts"
