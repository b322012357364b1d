#!/usr/bin/env bash
# tests/tools/fortran_sweep.sh: the fault sweep (docs/fault-sweep.md) on a Fortran program,
# tests/fortran/hang_f (a ring under `use mpi`, errors returned): 3 ranks, a death at each of
# the 7 calls of each rank, every run named by the C call the binding made (MPI_Sendrecv_replace
# for MPI_SENDRECV_REPLACE) and classified as the program's code says (a death in MPI_Finalize
# passes; any other fails, none deadlocks, hangs or crashes). docs/fortran.md, "Faults".
# Exit status: 0 pass, 1 fail, 77 skip (no Fortran compiler). Run from anywhere.
set -u

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
build=${MINI_MPI_TEST_BUILD:-build}
export MINI_MPI_BUILD=$build
command -v "${MINI_MPI_FC:-gfortran}" >/dev/null 2>&1 || { echo "SKIP: no Fortran compiler"; exit 77; }
cd "$repo" || exit 1
prog=$build/tests/fortran/hang_f
[ -x "$prog" ] || { echo "FAIL: missing $prog (make fortran)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mini_mpi_fsweep.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

bin/mpiexec --fault-sweep -q -j 2 --csv "$tmp/sweep.csv" -n 3 "$prog" >"$tmp/summary" 2>&1
grep -q '^21 runs: every possible death (21)' "$tmp/summary" ||
    { cat "$tmp/summary"; echo "FAIL: not 21 runs"; exit 1; }
for r in 0 1 2; do
    k=0
    for c in MPI_Init MPI_Comm_rank MPI_Comm_size MPI_Comm_set_errhandler MPI_Sendrecv_replace \
        MPI_Barrier MPI_Finalize; do
        k=$((k + 1))
        outcome=failed
        [ "$c" = MPI_Finalize ] && outcome=passed
        echo "$r,$k,$c,$outcome"
    done
done >"$tmp/expected"
tail -n +2 "$tmp/sweep.csv" | cut -d, -f1-4 >"$tmp/got"
diff "$tmp/expected" "$tmp/got" || { echo "FAIL: the sweep's grid differs (above)"; exit 1; }
echo "PASS: 21 runs, each named by its C call and classified as expected"
