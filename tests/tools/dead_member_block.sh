#!/bin/bash
# dead_member_block.sh: an erroneous program whose every blocked call awaits a failed rank ends
# the same way on every run: MPI_ERR_PROC_FAILED at each such call and status 0, never the hang
# detector's status 123 (runtime/hang.c asks the fault layer whether a wait holds a failure
# report back before it calls the world deadlocked). tests/mpi/dead_member_block.c, 30 runs
# with rank 2 dying by raise(SIGKILL) (published at once) and 30 under
# `kill 2 at MPI_Send#1` (published when nobody can progress). Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
prog=${MINI_MPI_TEST_BUILD:-build}/tests/mpi/dead_member_block
[ -x "$prog" ] || { echo "missing $prog (run make)"; exit 1; }
runs=30
expected='rank 0 MPI_Recv MPI_ERR_PROC_FAILED;rank 1 MPI_Allreduce MPI_ERR_PROC_FAILED;rank 1 MPI_Barrier MPI_ERR_PROC_FAILED;status 0'
failures=0

run() { # spec, program argument -> one line: the sorted outcome lines and the exit status
    local out status
    out=$(MINI_MPI_NP=3 MINI_MPI_FAULTS="$1" timeout 20 "$prog" "$2" 2>/dev/null)
    status=$?
    { sort <<<"$out"; echo "status $status"; } | paste -sd ';'
}

check() { # spec, program argument: every run gives the expected outcome
    local spec=$1 how=$2 tally
    tally=$(for i in $(seq $runs); do run "$spec" "$how"; done | sort | uniq -c)
    if [ "$(sed 's/^ *[0-9]* //' <<<"$tally")" = "$expected" ]; then
        echo "ok   $runs identical runs ($how${spec:+, '$spec'})"
        return
    fi
    echo "FAIL $how${spec:+, '$spec'}: outcomes over $runs runs (count, outcome), expected $expected:"
    echo "$tally"
    failures=$((failures + 1))
}

check "" raise
check "kill 2 at MPI_Send#1" send
[ $failures -eq 0 ]
