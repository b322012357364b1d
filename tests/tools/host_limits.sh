#!/bin/bash
# host_limits.sh: a job larger than the host allows is refused before any rank starts, in one
# line naming the limit and how to raise it, with status 2; a job just below a limit runs
# cleanly. The limit lowered here is the address space (ulimit -v in a subshell, which needs no
# privilege); the refusal at the host's own limit (vm.max_map_count, kernel.pid_max, ...) is
# checked too, and under MINI_MPI_TEST_LONG=1 (make check-long) a job of exactly the host's
# largest size runs, several times, each ending with status 0 and no line from the library.
# Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
build=${MINI_MPI_TEST_BUILD:-build}
prog=$build/tests/mpi/hello
[ -x "$prog" ] || { echo "missing $prog (run make)"; exit 1; }
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}

# Runs the program with MINI_MPI_NP=$1 (further arguments: a prefix, e.g. a ulimit), output in
# $tmp/out and $tmp/err, status in $status.
run() {
    local n=$1; shift
    (eval "$*"; MINI_MPI_NP=$n timeout 300 "$prog") >"$tmp/out" 2>"$tmp/err"
    status=$?
}

# A refusal: status 2, exactly one line on stderr naming the limit, nothing started.
expect_refused() { # n, expected limit ERE, prefix
    local n=$1 limit_re=$2; shift 2
    run "$n" "$@"
    if [ "$status" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ] ||
        ! grep -Eq "^mini_mpi: $n ranks exceed this host's limit of [0-9]+: .*$limit_re" \
            "$tmp/err"; then
        fail "$n ranks ($*): expected one refusal line naming $limit_re and status 2, got" \
            "status $status: $(head -c 400 "$tmp/err")"
        return 1
    fi
}

expect_clean() { # n, prefix
    local n=$1; shift
    run "$n" "$@"
    if [ "$status" -ne 0 ] || [ -s "$tmp/err" ] || ! grep -q '^ *No Errors$' "$tmp/out"; then
        fail "$n ranks ($*): expected a clean run, got status $status: $(head -c 400 "$tmp/err")"
        return 1
    fi
}

# The largest job under a limit, read from the refusal line of a larger one.
limit_of() {
    sed -n "s/^mini_mpi: [0-9]* ranks exceed this host's limit of \([0-9]*\):.*/\1/p" "$tmp/err"
}

# 1. Address space: 600 MiB leaves room for a few dozen 8 MiB stacks.
as_limit='ulimit -v 614400'
if expect_refused 1000 'ulimit -v \(RLIMIT_AS\) is 614400 KiB \(raise it: ulimit -v [0-9]+' \
    "$as_limit"; then
    max=$(limit_of)
    if [ -z "$max" ] || [ "$max" -lt 2 ]; then
        fail "address-space limit of '$max' ranks"
    else
        expect_refused $((max + 1)) 'ulimit -v' "$as_limit"
        expect_clean "$max" "$as_limit"
        # Smaller stacks: more ranks under the same limit.
        run 1000 "$as_limit; export MINI_MPI_STACK=1m"
        small=$(limit_of)
        [ -n "$small" ] && [ "$small" -gt $((max * 4)) ] ||
            fail "MINI_MPI_STACK=1m under the same limit allows '$small' ranks, 8m allows $max"
        echo "under ulimit -v 614400: $max ranks with 8 MiB stacks, $small with 1 MiB"
    fi
fi

# 2. The host's own limits: one more rank than the largest job is refused (cheap: nothing
# starts). MINI_MPI_VERBOSE=1 prints the largest job without refusing.
MINI_MPI_VERBOSE=1 MINI_MPI_NP=1 "$prog" >/dev/null 2>"$tmp/verbose"
host_max=$(sed -n 's/^mini_mpi: this host allows \([0-9]*\) ranks.*/\1/p' "$tmp/verbose")
if [ -z "$host_max" ]; then
    fail "MINI_MPI_VERBOSE=1 does not print the host's limit: $(head -c 300 "$tmp/verbose")"
elif [ "$host_max" -lt 32768 ]; then
    echo "this host allows $host_max ranks"
    expect_refused $((host_max + 1)) \
        '(vm\.max_map_count|kernel\.pid_max|kernel\.threads-max|ulimit -u|pids cgroup|ulimit -v|MemAvailable|commit).*raise it'
    if [ "${MINI_MPI_TEST_LONG:-0}" = 1 ]; then
        # The host may have changed since (threads of other processes): measure again, a few
        # runs each just below the limit.
        for i in 1 2 3; do
            MINI_MPI_VERBOSE=1 MINI_MPI_NP=1 "$prog" >/dev/null 2>"$tmp/verbose"
            host_max=$(sed -n 's/^mini_mpi: this host allows \([0-9]*\) ranks.*/\1/p' \
                "$tmp/verbose")
            start=$(date +%s)
            expect_clean "$host_max" || break
            echo "run $i: $host_max ranks (the host's largest job) in $(($(date +%s) - start)) s"
        done
    fi
else
    echo "this host allows every job size up to 32768 ranks: no refusal to check at its limit"
fi

echo "$failures failures"
[ "$failures" = 0 ]
