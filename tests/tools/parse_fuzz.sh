#!/bin/bash
# parse_fuzz.sh: every MINI_MPI_* variable and every mpiexec option that takes a value, given
# malformed values (signs, bases, blanks, case, trailing garbage, overflow, control characters,
# non-ASCII): each run must print exactly one line on stderr, nothing on stdout, and exit 2.
# Controls: each variable's and option's documented good values must start the program.
# Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
build=${MINI_MPI_TEST_BUILD:-build}
prog=$build/tests/mpi/hello
[ -x "$prog" ] || { echo "missing $prog (run make)"; exit 1; }
failures=0 checked=0

check_bad() { # description, then the command
    local what=$1; shift
    local out err status lines
    out=$(timeout 20 "$@" 2>"$tmp/err")
    status=$?
    lines=$(wc -l <"$tmp/err")
    checked=$((checked + 1))
    if [ "$status" -ne 2 ] || [ "$lines" -ne 1 ] || [ -n "$out" ]; then
        echo "FAIL $what: status $status, $lines stderr lines, stdout: ${out:0:100}"
        sed 's/^/    /' "$tmp/err" | head -3
        failures=$((failures + 1))
    fi
}

check_good() {
    local what=$1; shift
    local out
    out=$(timeout 30 "$@" 2>&1)
    checked=$((checked + 1))
    if ! grep -q '^ *No Errors$' <<<"$out"; then
        echo "FAIL (good value refused) $what: ${out:0:200}"
        failures=$((failures + 1))
    fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Malformed forms of any value: blanks, signs, bases, exponents, control characters, non-ASCII.
generic=('' ' ' ' 1' '1 ' $'1\n' $'\n1' $'1\t' '+1' '-1' '-0' '0x1' '0X1F' '0b1' '1e3' 'inf'
         'nan' '1,0' '1_0' '１' $'1\xc3\xa9' $'\x01' 'é' '1;2' '1 2' "'1'" '"1"' '\1')
# A count from 1 to 32768.
counts=("${generic[@]}" 0 00 01 08 010 32769 99999 999999999999999999999999 1.0 1k 4x x4 abc)
# 0 or 1.
bools=("${generic[@]}" yes no true false on off YES 2 00 01 10 1.0 0x0)
sizes=("${generic[@]}" 8M 8K 8G 8mb 8mm m 8 8t 08m 0x10m 1.5m 4097m 99999999999999999999k)
seconds=("${generic[@]}" 0 00 0.0 .5 5. 1..2 1.2.3 -5 30s 31536001 1e-3 0x10 010)
member_counts=("${generic[@]}" 1048576 01 1k 99999999999999999999)

var_values() { # variable: its malformed values, one per line, NUL-separated
    case $1 in
        MINI_MPI_NP|MINI_MPI_UNIVERSE_SIZE) printf '%s\0' "${counts[@]}" ;;
        MINI_MPI_PRIVATIZE|MINI_MPI_VERBOSE|MINI_MPI_HANG_CHECK) printf '%s\0' "${bools[@]}" ;;
        MINI_MPI_STACK) printf '%s\0' "${sizes[@]}" 63k 5g ;;
        MINI_MPI_COLL_SNAPSHOT) printf '%s\0' "${generic[@]:0:21}" 8M 8mb 1.5k k ;;
        MINI_MPI_COLL_FAST_MAX) printf '%s\0' "${member_counts[@]}" ;;
        MINI_MPI_TIMEOUT|MPIEXEC_TIMEOUT) printf '%s\0' "${seconds[@]}" ;;
        MINI_MPI_FT) printf '%s\0' "${generic[@]}" ULFM Ulfm MPI NO ulfmx ' ulfm' 'ulfm ' yes ;;
        MINI_MPI_EXIT_STATUS) printf '%s\0' "${generic[@]}" OMPI Mpich ompi2 ' ompi' openmpi ;;
        MINI_MPI_BIND) printf '%s\0' "${generic[@]}" CORE None hwthread socket 'core ' core:2 ;;
        MINI_MPI_INITIAL_ERRHANDLER)
            printf '%s\0' "${generic[@]}" MPI_ERRORS_RETURN Mpi_errors_return mpi_errors \
                'mpi_errors_return ' ;;
        MINI_MPI_FAULTS)
            printf '%s\0' 'kill +1 at MPI_Barrier' 'kill 01 at MPI_Barrier' 'kill 0x1 at any' \
                'kill 1 at MPI_Barrier#0' 'kill 1 at MPI_Barrier#+2' 'kill 1 at MPI_Barrier#2x' \
                'kill 1 at MPI_Barrier#02' 'kill 1 at mpi_barrier' 'KILL 1 at any' \
                'kill 1 AT any' 'kill 1 at 5 s' 'kill 1 at 05ms' 'kill 1 at 5MS' \
                'kill 1 at -5ms' 'kill random 0' 'kill random +1' 'kill random 1 seed -3' \
                'kill random 1 seed 0x10' 'kill 99 at any' $'kill 1\x01 at any' \
                $'kill 1 at\nMPI_Bogus' $'kill 1 at MPI_Barrier\nx' 'kill 1 at any;bogus' \
                'kill 1 during MPI_Send' 'kill 1 at any trailing' 'kill' 'kill 1' 'kill 1 at' \
                'kill 1 at MPI_Barrier#' 'kill 1 at #2' ;;
        MINI_MPI_CALL_COUNTS) printf '%s\0' '' / /nonexistent/dir/file $'/no\ndir/x' ;;
    esac
}

vars=(MINI_MPI_NP MINI_MPI_UNIVERSE_SIZE MINI_MPI_PRIVATIZE MINI_MPI_VERBOSE MINI_MPI_HANG_CHECK
      MINI_MPI_STACK MINI_MPI_COLL_SNAPSHOT MINI_MPI_COLL_FAST_MAX MINI_MPI_TIMEOUT
      MPIEXEC_TIMEOUT MINI_MPI_FT MINI_MPI_EXIT_STATUS MINI_MPI_INITIAL_ERRHANDLER
      MINI_MPI_FAULTS MINI_MPI_CALL_COUNTS MINI_MPI_BIND)
for var in "${vars[@]}"; do
    while IFS= read -r -d '' v; do
        check_bad "$var='$v'" env -u MINI_MPI_TIMEOUT MINI_MPI_NP=2 MINI_MPI_UNIVERSE_SIZE=2 \
            "$var=$v" "$prog"
    done < <(var_values "$var")
done
# The rank count alone (above, another value came first).
for v in "${counts[@]}"; do
    check_bad "MINI_MPI_NP='$v' alone" env MINI_MPI_NP="$v" "$prog"
done
# Read by mpiexec.
for v in "${bools[@]}"; do
    check_bad "MINI_MPI_RSEQ='$v'" env MINI_MPI_RSEQ="$v" bin/mpiexec -n 2 "$prog"
done

# mpiexec options.
for opt in -n -np --np -c -usize; do
    for v in "${counts[@]}"; do check_bad "mpiexec $opt '$v'" bin/mpiexec "$opt" "$v" "$prog"; done
done
for opt in --timeout -timeout; do
    for v in "${seconds[@]}"; do check_bad "mpiexec $opt '$v'" bin/mpiexec "$opt" "$v" "$prog"; done
done
for v in "${generic[@]}" ULFM Mpi yes ulfm2; do
    check_bad "mpiexec --with-ft '$v'" bin/mpiexec --with-ft "$v" "$prog"
done
for v in "${generic[@]}" MPI_ERRORS_RETURN Mpi_Errors_Abort errors_return; do
    check_bad "mpiexec --initial-errhandler '$v'" bin/mpiexec --initial-errhandler "$v" "$prog"
done
for v in "${generic[@]}" CORE Core core2 ' core'; do
    check_bad "mpiexec --bind-to '$v'" bin/mpiexec --bind-to "$v" "$prog"
done
for v in '' 1BAD 'A-B' $'A\nB' 'A B'; do
    check_bad "mpiexec -x '$v'" bin/mpiexec -x "$v" "$prog"
done

# Controls: the documented forms are accepted.
check_good "MINI_MPI_NP=3" env MINI_MPI_NP=3 "$prog"
check_good "flags 0/1" env MINI_MPI_PRIVATIZE=0 MINI_MPI_VERBOSE=0 MINI_MPI_HANG_CHECK=1 \
    MINI_MPI_NP=2 "$prog"
check_good "sizes" env MINI_MPI_STACK=512k MINI_MPI_COLL_SNAPSHOT=0 MINI_MPI_COLL_FAST_MAX=0 \
    MINI_MPI_NP=2 "$prog"
check_good "words" env MINI_MPI_FT=mpi MINI_MPI_EXIT_STATUS=mpich MINI_MPI_BIND=none \
    MINI_MPI_INITIAL_ERRHANDLER=mpi_errors_return MINI_MPI_TIMEOUT=30.5 MINI_MPI_NP=2 "$prog"
check_good "mpiexec options" bin/mpiexec -n 2 -usize 4 --timeout 0.5 --with-ft no \
    --initial-errhandler mpi_errors_abort --bind-to core:1 "$prog"
check_good "MINI_MPI_FAULTS" env MINI_MPI_FAULTS='kill 1 at 100000 ms; kill 0 at MPI_Finalize#2' \
    MINI_MPI_NP=2 "$prog"

echo "$checked checks, $failures failures"
[ "$failures" = 0 ]
