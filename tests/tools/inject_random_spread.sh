#!/bin/bash
# inject_random_spread.sh: `kill random K seed S within ...` lands anywhere in a long run, and
# each seed names one position. tests/mpi/inject_long (3 ranks, about 4000 MPI calls each) is
# run once with MINI_MPI_CALL_COUNTS (the calibration), then under
# `kill random 1 seed S within FILE` for 40 seeds: every death must fire, within the rank's
# total, with deaths in each quarter of the run and the latest in its last tenth (a draw
# limited to the first calls, as without `within`, fails this); 8 seeds run again must die at
# the same rank and call. `within N` draws from the same range, and without `within` a seed
# keeps its draw in [1, 32]. Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
prog=${MINI_MPI_TEST_BUILD:-build}/tests/mpi/inject_long
[ -x "$prog" ] || { echo "missing $prog (run make)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

death() { # spec -> "R N": the rank killed and its call index, from MINI_MPI_VERBOSE's line
    MINI_MPI_NP=3 MINI_MPI_VERBOSE=1 MINI_MPI_FAULTS="$1" timeout 20 "$prog" 2>&1 >/dev/null |
        sed -n 's/^mini_mpi: injected death: rank \([0-9]*\) at any call #\([0-9]*\)$/\1 \2/p'
}

MINI_MPI_NP=3 MINI_MPI_CALL_COUNTS=$tmp/counts timeout 20 "$prog" >/dev/null ||
    { echo "FAIL the calibration run"; exit 1; }
total=$(sed -n 's/^0 calls //p' "$tmp/counts")
[ "${total:-0}" -gt 1000 ] || { echo "FAIL calibration: rank 0 made '$total' calls"; exit 1; }

declare -A at
quarters=(0 0 0 0)
latest=0
for seed in $(seq 1 40); do
    d=$(death "kill random 1 seed $seed within $tmp/counts")
    at[$seed]=$d
    n=${d#* }
    if [ -z "$d" ] || [ "$n" -lt 1 ] || [ "$n" -gt "$total" ]; then
        fail "seed $seed: death '$d' (expected one, at a call in 1..$total)"
        continue
    fi
    q=$(((n - 1) * 4 / total))
    quarters[q]=$((quarters[q] + 1))
    [ "$n" -gt "$latest" ] && latest=$n
done
echo "deaths per quarter of $total calls: ${quarters[*]}; latest at call $latest"
for q in 0 1 2 3; do
    [ "${quarters[q]}" -gt 0 ] || fail "no death in quarter $((q + 1)) of the run"
done
[ $((latest * 10)) -ge $((total * 9)) ] || fail "latest death at call $latest of $total"

for seed in 1 5 9 13 17 21 25 29; do
    again=$(death "kill random 1 seed $seed within $tmp/counts")
    [ "$again" = "${at[$seed]}" ] || fail "seed $seed: '${at[$seed]}', then '$again'"
done
echo "ok   8 seeds die at the same rank and call again"

# `within N` with the total: the same draw as the file gives when every rank's total is N
# (the ranks of inject_long make the same number of calls).
for seed in 3 7; do
    d=$(death "kill random 1 seed $seed within $total")
    [ "$d" = "${at[$seed]}" ] || fail "seed $seed: 'within $total' gives '$d', the file '${at[$seed]}'"
done
# Without `within`: the first 32 calls, as the seed always named.
for seed in $(seq 1 10); do
    n=$(death "kill random 1 seed $seed")
    n=${n#* }
    [ -n "$n" ] && [ "$n" -le 32 ] || fail "seed $seed without within: call '$n'"
done
[ $failures -eq 0 ] && echo "ok   random deaths spread over the run"
[ $failures -eq 0 ]
