#!/usr/bin/env bash
# io_leftovers.sh: programs that write files remove them in every outcome, a rank's death
# included. Three checks, each in a scratch directory that must be empty afterwards:
#   - examples/ft_io_checkpoint and examples/io_checkpoint under the fault sweep (4 ranks, a
#     death at every MPI call of every rank: mpiexec --fault-sweep), the rank that would have
#     removed the checkpoint among the victims;
#   - bench/run.sh --only io with rank 0 killed in the middle of its run (a run that fails),
#     and bench/run.sh itself stopped by SIGTERM during a run: no bench_io file stays in
#     $BENCH_IO_DIR.
# About 2 minutes (bench/run.sh builds every benchmark). Exit 0 pass, 1 fail.
set -u
cd "$(dirname "$0")/../.." || exit 1
repo=$PWD
build=${MINI_MPI_TEST_BUILD:-build}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0

# Lists what is left in $1 (nothing: passes) under the name of the check $2.
expect_empty() {
    local left
    left=$(ls -A "$1")
    if [ -n "$left" ]; then
        echo "FAIL: $2 left:" $left
        failures=$((failures + 1))
    else
        echo "ok   $2: nothing left"
    fi
}

for prog in ft_io_checkpoint io_checkpoint; do
    [ -x "$build/examples/$prog" ] || { echo "FAIL: missing $build/examples/$prog (make)"; exit 1; }
    mkdir -p "$tmp/$prog"
    TMPDIR=$tmp/$prog MINI_MPI_BUILD=$build bin/mpiexec --fault-sweep -j 2 --timeout 30 -q \
        --csv "$tmp/$prog.csv" -- -n 4 "$build/examples/$prog" >"$tmp/$prog.out" 2>&1
    runs=$(($(wc -l <"$tmp/$prog.csv") - 1))
    [ "$runs" -ge 40 ] || { echo "FAIL: $prog: only $runs sweep runs"; failures=$((failures + 1)); }
    expect_empty "$tmp/$prog" "$prog, $runs runs with a death each"
done

# The benchmark: a failed run, then an interrupted one.
mkdir -p "$tmp/io" "$tmp/io2"
BENCH_OUT=$tmp/out BENCH_IO_DIR=$tmp/io MINI_MPI_BUILD=$build \
    MINI_MPI_FAULTS='kill 0 at MPI_File_write_shared#3' \
    bench/run.sh --only io --ranks 2 --reps 1 --timeout 30 >"$tmp/bench.out" 2>&1
grep -q "io_write_at_all" "$tmp/out/logs/"*-mini-io-2-1.out 2>/dev/null ||
    { echo "FAIL: the benchmark run did not start"; failures=$((failures + 1)); }
expect_empty "$tmp/io" "bench/run.sh, a run whose rank 0 dies"
BENCH_OUT=$tmp/out2 BENCH_IO_DIR=$tmp/io2 MINI_MPI_BUILD=$build \
    bench/run.sh --only io --ranks 2 --reps 1 --timeout 30 >"$tmp/bench2.out" 2>&1 &
bench=$!
for _ in $(seq 1 300); do # until the run has its scratch directory, then stop the script
    [ -n "$(ls -A "$tmp/io2")" ] && break
    sleep 0.1
done
kill -TERM "$bench"
wait "$bench"
expect_empty "$tmp/io2" "bench/run.sh stopped by SIGTERM during a run"
exit $((failures > 0))
