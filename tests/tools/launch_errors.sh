#!/bin/bash
# launch_errors.sh: every bad launch input (mpiexec option or MINI_MPI_* variable) prints exactly
# one line on stderr and exits with status 2, starting no rank (the program would print).
# Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
prog=build/tests/mpi/hello
[ -x "$prog" ] || { echo "missing $prog (run make)"; exit 1; }
failures=0

expect_error() { # description, then the command
    local what=$1; shift
    local out err status
    out=$(mktemp) err=$(mktemp)
    timeout 20 "$@" >"$out" 2>"$err"
    status=$?
    local lines
    lines=$(wc -l <"$err")
    if [ "$status" -ne 2 ] || [ "$lines" -ne 1 ] || [ -s "$out" ]; then
        echo "FAIL $what: status $status, $lines stderr lines, stdout: $(head -c 200 "$out")"
        sed 's/^/    /' "$err" | head -5
        failures=$((failures + 1))
    else
        echo "ok   $what: $(cat "$err")"
    fi
    rm -f "$out" "$err"
}

expect_error "mpiexec -n 0" bin/mpiexec -n 0 $prog
expect_error "mpiexec -n abc" bin/mpiexec -n abc $prog
expect_error "mpiexec -n -3" bin/mpiexec -n -3 $prog
expect_error "mpiexec -n (no value)" bin/mpiexec -n
expect_error "mpiexec with no program" bin/mpiexec -n 2
expect_error "mpiexec missing program" bin/mpiexec -n 2 ./no/such/program
expect_error "mpiexec unknown flag" bin/mpiexec --frobnicate -n 2 $prog
expect_error "mpiexec --with-ft bogus" bin/mpiexec --with-ft bogus -n 2 $prog
expect_error "mpiexec --initial-errhandler bogus" bin/mpiexec --initial-errhandler bogus $prog
expect_error "MINI_MPI_RSEQ=yes (mpiexec)" env MINI_MPI_RSEQ=yes bin/mpiexec -n 2 $prog
expect_error "MINI_MPI_NP=0" env MINI_MPI_NP=0 $prog
expect_error "MINI_MPI_NP=abc" env MINI_MPI_NP=abc $prog
expect_error "MINI_MPI_NP=4x" env MINI_MPI_NP=4x $prog
expect_error "MINI_MPI_NP=99999999" env MINI_MPI_NP=99999999 $prog
expect_error "MINI_MPI_STACK=lots" env MINI_MPI_STACK=lots $prog
expect_error "MINI_MPI_STACK=1" env MINI_MPI_STACK=1 $prog
expect_error "MINI_MPI_PRIVATIZE=maybe" env MINI_MPI_PRIVATIZE=maybe $prog
expect_error "MINI_MPI_FT=sometimes" env MINI_MPI_FT=sometimes $prog
expect_error "MINI_MPI_EXIT_STATUS=lam" env MINI_MPI_EXIT_STATUS=lam $prog
expect_error "MINI_MPI_INITIAL_ERRHANDLER=x" env MINI_MPI_INITIAL_ERRHANDLER=x $prog
expect_error "MINI_MPI_VERBOSE=loud" env MINI_MPI_VERBOSE=loud $prog
expect_error "MINI_MPI_HANG_CHECK=2" env MINI_MPI_HANG_CHECK=2 $prog
expect_error "MINI_MPI_BIND=socket" env MINI_MPI_BIND=socket $prog
expect_error "mpiexec --bind-to banana" bin/mpiexec --bind-to banana -n 2 $prog
expect_error "mpiexec --bind-to (no value)" bin/mpiexec -n 2 --bind-to
expect_error "MINI_MPI_COLL_SNAPSHOT=banana" env MINI_MPI_COLL_SNAPSHOT=banana $prog
expect_error "MINI_MPI_COLL_SNAPSHOT=-1" env MINI_MPI_COLL_SNAPSHOT=-1 $prog
expect_error "MINI_MPI_COLL_FAST_MAX=banana" env MINI_MPI_COLL_FAST_MAX=banana $prog
expect_error "MINI_MPI_MAX_COMMS=-1" env MINI_MPI_MAX_COMMS=-1 $prog
expect_error "MINI_MPI_COLL_FAST_MAX=-2" env MINI_MPI_COLL_FAST_MAX=-2 $prog
expect_error "MINI_MPI_CALL_COUNTS=" env MINI_MPI_CALL_COUNTS= $prog
for t in 0 -1 abc 1e99 nan 5s ""; do
    expect_error "MINI_MPI_TIMEOUT='$t'" env MINI_MPI_TIMEOUT="$t" $prog
done
expect_error "MPIEXEC_TIMEOUT=soon" env MPIEXEC_TIMEOUT=soon $prog
expect_error "mpiexec --timeout x" bin/mpiexec --timeout x -n 2 $prog
expect_error "mpiexec --timeout (missing value)" bin/mpiexec -n 2 --timeout
expect_error "mpiexec --timeout 1.2.3" bin/mpiexec --timeout 1.2.3 -n 2 $prog
expect_error "MINI_MPI_UNIVERSE_SIZE=0" env MINI_MPI_UNIVERSE_SIZE=0 $prog
expect_error "MINI_MPI_UNIVERSE_SIZE=many" env MINI_MPI_UNIVERSE_SIZE=many $prog
expect_error "mpiexec -usize 0" bin/mpiexec -usize 0 -n 2 $prog
expect_error "mpiexec -usize x" bin/mpiexec -usize x -n 2 $prog
expect_error "mpiexec -usize (missing value)" bin/mpiexec -n 2 -usize

[ "$failures" -eq 0 ]
