#!/bin/bash
# inject_other_mpi.sh: libmini_mpi_inject.so, the PMPI fault injector, in jobs of Debian's
# Open MPI and MPICH, against mini_mpi running the same program (tests/mpi/inject_pairs.c) with
# the same MINI_MPI_FAULTS: the same rank dies at the same call (same MINI_MPI_VERBOSE line,
# same last line of output), a pair that never talks to it finishes untouched, `after`, `any#N`,
# a time directive and a seeded `random` behave alike, both count the same calls
# (MINI_MPI_CALL_COUNTS), and what cannot be had on a real MPI is refused with one line.
# An MPI that is not installed is skipped (one SKIP line); with neither, the test is skipped
# (exit 77). scripts/install-compare-mpis.sh installs both (.ci/run calls it). Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
build=${MINI_MPI_TEST_BUILD:-build}
prog=$build/tests/mpi/inject_pairs
[ -x "$prog" ] || { echo "missing $prog (run make)"; exit 1; }
failures=0 tested=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Debian's Open MPI refuses root without these; CI containers run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset MINI_MPI_FAULTS MINI_MPI_VERBOSE MINI_MPI_CALL_COUNTS

# run WHERE SPEC [ARG]: runs 4 ranks with MINI_MPI_FAULTS=SPEC and MINI_MPI_VERBOSE=1;
# $tmp/WHERE.out (stdout), .err, .st. WHERE is mini_mpi or an MPI name.
run() {
    local where=$1 spec=$2 arg=${3:-}
    local -a env=(MINI_MPI_VERBOSE=1 MINI_MPI_FAULTS="$spec")
    [ -n "${counts:-}" ] && env+=(MINI_MPI_CALL_COUNTS="$counts")
    case $where in
        mini_mpi) env "${env[@]}" timeout -s KILL 30 bin/mpiexec -n 4 "$prog" $arg ;;
        openmpi) env "${env[@]}" timeout -s KILL 30 mpiexec.openmpi --oversubscribe -n 4 \
                     -x LD_PRELOAD="$lib" -x MINI_MPI_VERBOSE -x MINI_MPI_FAULTS \
                     ${counts:+-x MINI_MPI_CALL_COUNTS} "$tmp/prog" $arg ;;
        mpich) env "${env[@]}" timeout -s KILL 30 mpiexec.mpich -n 4 -genv LD_PRELOAD "$lib" \
                   "$tmp/prog" $arg ;;
    esac >"$tmp/$where.out" 2>"$tmp/$where.err"
    echo $? >"$tmp/$where.st"
}
last_line() { grep "^rank $2 " "$tmp/$1.out" | tail -n 1; }
deaths() { grep '^mini_mpi: injected death' "$tmp/$1.err"; }

# same SPEC VICTIM [ARG]: both sides kill VICTIM at the same call.
same() {
    local spec=$1 victim=$2 arg=${3:-}
    run mini_mpi "$spec" "$arg"
    run "$mpi" "$spec" "$arg"
    local want got
    want=$(deaths mini_mpi) got=$(deaths "$mpi")
    [ -n "$want" ] || { fail "$mpi '$spec': mini_mpi killed nobody"; return; }
    [ "$got" = "$want" ] || fail "$mpi '$spec': death line '$got', mini_mpi's '$want'"
    grep -q "^rank $victim left MPI_Finalize" "$tmp/$mpi.out" &&
        fail "$mpi '$spec': rank $victim finished"
    if [ -z "$arg" ]; then
        want=$(last_line mini_mpi "$victim") got=$(last_line "$mpi" "$victim")
        [ "$got" = "$want" ] || fail "$mpi '$spec': rank $victim's last line '$got', mini_mpi's '$want'"
    fi
    echo "ok   $mpi '$spec': $(deaths "$mpi" | head -n 1)"
}

# refused SPEC WORDS: one line on stderr containing WORDS, status 2, no rank output.
refused() {
    local spec=$1 words=$2
    run "$mpi" "$spec"
    local lines
    lines=$(grep -c '^mini_mpi: MINI_MPI_FAULTS: ' "$tmp/$mpi.err")
    [ "$lines" = 1 ] || fail "$mpi '$spec': expected one mini_mpi line, got $lines"
    grep -q -- "$words" "$tmp/$mpi.err" || fail "$mpi '$spec': no '$words' on stderr"
    grep -q 'left' "$tmp/$mpi.out" && fail "$mpi '$spec': a rank ran"
    [ "$(cat "$tmp/$mpi.st")" = 0 ] && fail "$mpi '$spec': status 0"
    echo "ok   $mpi refuses '$spec'"
}

for mpi in openmpi mpich; do
    if ! command -v "mpicc.$mpi" >/dev/null || ! command -v "mpiexec.$mpi" >/dev/null; then
        echo "SKIP $mpi: mpicc.$mpi or mpiexec.$mpi not installed (scripts/install-compare-mpis.sh)"
        continue
    fi
    lib=$(realpath -m "$build/inject/$mpi/libmini_mpi_inject.so")
    [ -f "$lib" ] || { fail "$mpi: missing $lib (make inject)"; continue; }
    "mpicc.$mpi" -O1 -o "$tmp/prog" tests/mpi/inject_pairs.c || { fail "$mpi: cannot build"; continue; }
    tested=$((tested + 1))

    # No fault: the library is transparent, and counts the calls as mini_mpi does.
    counts=$tmp/mini_mpi.counts run mini_mpi ''
    counts=$tmp/$mpi.counts run "$mpi" ''
    grep -q '^ No Errors$' "$tmp/$mpi.out" || fail "$mpi: the fault-free run failed"
    [ "$(cat "$tmp/$mpi.st")" = 0 ] || fail "$mpi: fault-free status $(cat "$tmp/$mpi.st")"
    if [ "$(grep -v '^#' "$tmp/$mpi.counts" | sort)" = "$(grep -v '^#' "$tmp/mini_mpi.counts" | sort)" ] &&
        [ -s "$tmp/$mpi.counts" ]; then
        echo "ok   $mpi: same call counts as mini_mpi ($(grep -c . "$tmp/$mpi.counts") lines)"
    else
        fail "$mpi: call counts differ from mini_mpi's"
        diff <(grep -v '^#' "$tmp/mini_mpi.counts" | sort) <(grep -v '^#' "$tmp/$mpi.counts" | sort) | head
    fi

    same "kill 2 at MPI_Sendrecv#2" 2
    # Ranks 0 and 1 finished before rank 2 started (the go-ahead): untouched by its death.
    for r in 0 1; do
        grep -q "^rank $r left MPI_Sendrecv #4$" "$tmp/$mpi.out" ||
            fail "$mpi: rank $r did not finish its exchanges before rank 2 died"
    done
    same "kill 1 after MPI_Sendrecv#3" 1
    grep -q "^rank 1 left MPI_Sendrecv #3$" "$tmp/$mpi.out" || fail "$mpi: after: #3 did not return"
    same "kill 3 at any#6" 3
    same "kill 2 at MPI_Init" 2
    same "kill random 1 seed 3" 1
    # Several directives, blanks around them: the first to fire kills (one process each).
    same "  kill 2 at MPI_Barrier ; kill 2 after MPI_Sendrecv#2" 2
    # Time: T after MPI_Init returned, wherever the process is (here in sleep(2), where a rank of
    # mini_mpi would die only at its next MPI call, so the last lines are not compared).
    same "kill 1 at 300 ms" 1 slow
    grep -q "^rank 1 left MPI_Allreduce #1$" "$tmp/$mpi.out" ||
        fail "$mpi: time: rank 1 died before its sleep"

    refused "kill 1 during MPI_Barrier" "not possible on another MPI"
    refused "kill 1.1 at MPI_Barrier" "no restarted incarnations"
    refused "kill 4 at MPI_Barrier" "rank out of range (MPI_COMM_WORLD has 4 ranks)"
    refused "kill 1 at MPI_Bogus" "unknown MPI function"
    [ "$mpi" = openmpi ] && refused "kill 1 at MPIX_Comm_agree" "this MPI library has no MPIX_Comm_agree"
done
[ "$tested" = 0 ] && [ "$failures" = 0 ] && { echo "SKIP neither Open MPI nor MPICH is installed"; exit 77; }
[ "$failures" = 0 ]
