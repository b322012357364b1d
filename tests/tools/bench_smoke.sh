#!/usr/bin/env bash
# tests/tools/bench_smoke.sh: `make bench` still works. Runs `bench/run.sh --quick` (mini_mpi
# only, ranks 2 and 16, one short repetition) into a scratch directory and checks that every
# benchmark program built, ran and gave a number for every figure it owns: a program that no
# longer compiles against our mpi.h, crashes or prints no RESULT shows up here instead of in
# the next benchmark run. Numbers are never judged. Exit 0 pass, 1 fail.
set -u

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
[ -e "$repo/build/lib/libmini_mpi.so" ] || { echo "FAIL: build/lib/libmini_mpi.so missing (make lib)"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/mini_mpi_bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

if ! BENCH_OUT=$work/out "$repo/bench/run.sh" --quick >"$work/table" 2>"$work/err"; then
    echo "FAIL: bench/run.sh --quick exited with status $?"
    tail -n 20 "$work/err"
    exit 1
fi

failures=0
# Every figure of every program, at both sizes (ulfm ones need 2 ranks at least: both are).
for figure in 'ping-pong latency 8 B' 'floor: the same two ranks copying 1 KiB' \
    '1 KiB latency / that floor' 'ping-pong bandwidth 4 MiB' 'ring 8 B' 'barrier (µs)' \
    'allreduce 8 B' 'start-up' 'memory, Pss' 'failure detection in MPI_Barrier, first' \
    'MPIX_Comm_agree' 'MPIX_Comm_shrink after 1 failure, repeated' 'restart in place, call to new' \
    'spawn of 1 rank, call to the child' 'write_at_all, strided 4 KiB blocks' \
    'write_shared of 64 B records'; do
    rows=$(grep -F "| $figure" "$work/table")
    if [ -z "$rows" ]; then
        echo "FAIL: no row for '$figure'"
        failures=$((failures + 1))
    elif ! awk -F'|' '{ v = $4; gsub(/ /, "", v); if (v !~ /^[0-9.e+-]+$/) bad = 1 } END { exit bad }' <<<"$rows"; then
        echo "FAIL: '$figure' has a cell that is not a number:"
        echo "$rows"
        failures=$((failures + 1))
    else
        echo "ok   $figure ($(wc -l <<<"$rows") rows)"
    fi
done
grep -q '^Machine: .*floor of failure detection): after 20 ms asleep [0-9.]' "$work/table" ||
    { echo "FAIL: machine floors missing under the table"; tail -n 3 "$work/table"; failures=$((failures + 1)); }
[ $failures = 0 ] || { echo "--- bench/run.sh stderr:"; tail -n 20 "$work/err"; }
exit $((failures > 0))
