#!/bin/bash
# external_signal.sh: a signal sent from outside the process still ends the whole process
# (docs/design.md "Ranks are threads": only signals a rank raises at itself are made rank-local). A
# 4-rank job blocked
# in a sleep gets SIGINT, then SIGTERM in a second run; both must end it promptly.
cd "$(dirname "$0")/../.." || exit 1
prog=build/tests/mpi/abort # ranks other than 1 sleep 2 s; rank 1 would MPI_Abort: use NP=1
[ -x "$prog" ] || { echo "missing $prog (run make)"; exit 1; }
failures=0
for sig in INT TERM; do
    # A non-interactive shell starts background jobs with SIGINT ignored: restore the default,
    # as a terminal's Ctrl-C would find it.
    MINI_MPI_NP=1 env --default-signal=INT "$prog" >/dev/null 2>&1 &
    pid=$!
    sleep 0.3
    start=$(date +%s%N)
    kill -s "$sig" "$pid"
    wait "$pid"
    status=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    want=$(( 128 + $(kill -l "$sig") ))
    if [ "$status" -ne "$want" ] || [ "$ms" -gt 1000 ]; then
        echo "FAIL SIG$sig: status $status (want $want) after $ms ms"
        failures=$((failures + 1))
    else
        echo "ok   SIG$sig ended the process in $ms ms (status $status)"
    fi
done
[ "$failures" -eq 0 ]
