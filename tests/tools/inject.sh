#!/bin/bash
# inject.sh: the fault injector (MINI_MPI_FAULTS) end to end, on tests/mpi/inject_log:
# each directive form kills the planned rank (it never prints "done") and the survivors finish;
# the same spec gives the same per-rank outcomes on every run (50 runs); a bad spec prints one
# line and exits 2 before any rank starts. Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
prog=${MINI_MPI_TEST_BUILD:-build}/tests/mpi/inject_log
[ -x "$prog" ] || { echo "missing $prog (run make)"; exit 1; }
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

run() { # spec [program argument] -> sorted output on stdout
    MINI_MPI_NP=4 MINI_MPI_FAULTS="$1" timeout 20 "$prog" ${2:+"$2"} 2>/dev/null | sort
}

expect_dead() { # spec, then the ranks that must not finish (timed specs: ranks compute first)
    local spec=$1; shift
    local out arg=
    case $spec in *" ms"*|*" us"*) arg=slow ;; esac
    out=$(run "$spec" $arg)
    for r in 0 1 2 3; do
        local dead=0
        for d in "$@"; do [ "$r" = "$d" ] && dead=1; done
        if grep -q "^rank $r done$" <<<"$out"; then
            [ $dead = 1 ] && fail "'$spec': rank $r should have died"
        else
            [ $dead = 0 ] && fail "'$spec': rank $r should have finished"
        fi
    done
    [ -n "$out" ] && echo "ok   '$spec'"
}

expect_dead "" 
expect_dead "kill 2 at MPI_Barrier#3" 2
expect_dead "kill 1 after MPI_Sendrecv#2" 1
expect_dead "kill 3 at any#1" 3
expect_dead "kill 0 at MPIX_Comm_agree#4; kill 2 at MPI_Init" 0 2
expect_dead "  kill 1 at MPI_Barrier  " 1
expect_dead "kill 2 at 0 ms" 2
expect_dead "kill 3 at 100 us" 3
expect_dead "kill 2 during MPI_Barrier#2" 2
expect_dead "kill 0 during MPIX_Comm_agree#3" 0
expect_dead "kill 1 after MPI_Barrier#6" 1

# Where a rank dies decides what the others see: rank 2 dying on entering its third barrier
# fails round 3's barrier everywhere, and the agreement still succeeds (failure acknowledged).
out=$(run "kill 2 at MPI_Barrier#3")
grep -q "^rank 0 round 2 barrier 0 sendrecv 0 agree 0$" <<<"$out" || fail "round 2 at rank 0"
grep -q "^rank 0 round 3 barrier 62 " <<<"$out" || fail "round 3 barrier at rank 0 should fail"
grep -q "^rank 3 round 3 barrier 62 sendrecv 62 agree 0$" <<<"$out" ||
    fail "rank 3 receives from the dead rank 2 in round 3"

# Determinism: 50 runs, identical per-rank outcomes.
# `during`: rank 1 cuts round 2's barrier: rank 0 completes it, ranks 2 and 3 fail.
out=$(run "kill 1 during MPI_Barrier#2")
grep -q "^rank 0 round 2 barrier 0 " <<<"$out" || fail "during: rank 0 should complete round 2"
grep -q "^rank 2 round 2 barrier 62 " <<<"$out" || fail "during: rank 2 should fail round 2"
grep -q "^rank 3 round 2 barrier 62 " <<<"$out" || fail "during: rank 3 should fail round 2"

# Deaths racing with survivors' sends (rank 2 dies entering the Sendrecv in which rank 1 sends
# to it) are published only once no survivor can progress (deferred publication, rank.h).
for spec in "kill 2 at MPI_Barrier#3" "kill 1 after MPI_Sendrecv#4" "kill random 2 seed 42" \
            "kill 1 during MPI_Barrier#2" "kill 3 at any#1" "kill 2 after MPI_Barrier#3" \
            "kill random 3 seed 1" "kill 0 at MPI_Sendrecv#2; kill 3 at MPIX_Comm_agree#2"; do
    first=$(run "$spec" | md5sum)
    same=1
    for i in $(seq 2 50); do
        [ "$(run "$spec" | md5sum)" = "$first" ] && continue
        fail "'$spec' differs on run $i"
        same=0
        break
    done
    [ $same = 1 ] && echo "ok   50 identical runs of '$spec'"
done

# Bad specs: one line on stderr, status 2, no rank ran (nothing on stdout).
for spec in "kill" "kill 1" "kill 1 at" "kill 4 at any" "kill -1 at any" "kill 1 at MPI_Nope" \
            "kill 1 at any#0" "kill 1 at any#x" "kill 1 at 5" "kill 1 at 5 s" "kill 1 after 5 ms" \
            "die 1 at any" "kill 1 at any extra" "kill random 0" "kill random 5" \
            "kill random 2 seed" "kill random 2 pepper 3" "kill 1 during MPI_Send" \
            "kill 1 during any" "kill 1 during 5 ms"; do
    err=$(MINI_MPI_NP=4 MINI_MPI_FAULTS="$spec" timeout 20 "$prog" 2>&1 >/tmp/inject_out.$$)
    status=$?
    if [ $status -ne 2 ] || [ "$(wc -l <<<"$err")" -ne 1 ] || [ -s /tmp/inject_out.$$ ]; then
        fail "bad spec '$spec': status $status, stderr: $err"
    fi
done
# With a universe of 6, ranks 4 and 5 (spawned ones) may be named by call directives only.
for spec in "kill 6 at any" "kill 5 at 5 ms" "kill 4 at 100 us"; do
    err=$(MINI_MPI_NP=4 MINI_MPI_UNIVERSE_SIZE=6 MINI_MPI_FAULTS="$spec" timeout 20 "$prog" 2>&1 >/tmp/inject_out.$$)
    status=$?
    if [ $status -ne 2 ] || [ "$(wc -l <<<"$err")" -ne 1 ] || [ -s /tmp/inject_out.$$ ]; then
        fail "bad spec '$spec' (universe 6): status $status, stderr: $err"
    fi
done
rm -f /tmp/inject_out.$$
echo "ok   bad specs rejected"
[ $failures -eq 0 ]
