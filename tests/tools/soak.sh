#!/bin/bash
# soak.sh (make check-long only): repeats the fault-tolerance programs many times, each under the
# watchdog, to catch rare hangs and crashes that one run of make test would miss: ulfm_basic at
# 32 ranks, and each fault-tolerance example under 100 different deaths (random ones; for the
# master/worker examples two workers at varying calls, the master being their single point of
# failure by design). Exit 0 pass, 1 fail,
# 77 skip (outside make check-long).
cd "$(dirname "$0")/../.." || exit 1
[ "${MINI_MPI_TEST_LONG:-0}" = 1 ] || { echo "skipped outside make check-long"; exit 77; }
build=${MINI_MPI_TEST_BUILD:-build}
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

soak() { # count ranks spec program [args]: every run must end 0 and print "No Errors"
    local count=$1 ranks=$2 spec=$3; shift 3
    local i out status
    for ((i = 1; i <= count; i++)); do
        local s=${spec//SEED/$i}
        s=${s//W1/$((1 + i % 7))}
        s=${s//W2/$((1 + (i + 3) % 7))}
        s=${s//K1/$((1 + i * 7 % 40))}
        s=${s//K2/$((1 + i * 13 % 60))}
        out=$(MINI_MPI_TIMEOUT=20 MINI_MPI_FAULTS="$s" timeout -s KILL 40 \
              bin/mpiexec -n "$ranks" "$@" 2>&1)
        status=$?
        if [ $status -ne 0 ] || ! grep -q "No Errors" <<<"$out"; then
            fail "run $i of '$*' -n $ranks with MINI_MPI_FAULTS='$s': status $status"
            tail -5 <<<"$out"
            return
        fi
    done
    echo "ok   $count runs of $* at $ranks ranks${spec:+ with '$spec'}"
}

soak 300 32 "" "$build/tests/mpi/ulfm_basic"
for ex in ft_safe_split ft_iterative; do
    soak 100 8 "kill random 2 seed SEED" "$build/examples/$ex"
done
for ex in ft_master_worker ft_master_worker_hardened; do
    soak 100 8 "kill W1 at any#K1; kill W2 at any#K2" "$build/examples/$ex"
done
[ $failures -eq 0 ]
