#!/usr/bin/env bash
# tests/conformance/run_io.sh: runs the public MPI-IO test suites against mini_mpi (a local
# check; CI has no network and never runs it): MPICH's test/mpi/io and test/mpi/errors/io
# (built with MPICH's own harness, test/mpi/util), and ROMIO's portable tests
# (src/mpi/romio/test). Their code is read from the checkout given on the command line and
# built under $BUILD/conformance/io, never copied into the repository.
#
# usage: tests/conformance/run_io.sh [-v] [--filter ERE] MPICH_DIR
#   MPICH_DIR     a checkout of https://github.com/pmodels/mpich, or of just the folders
#                 test/mpi/io test/mpi/errors/io test/mpi/util test/mpi/include
#                 src/mpi/romio/test (git archive HEAD <folders> | tar -x -C MPICH_DIR)
#   --filter ERE  run only tests whose name (suite/program) matches
#   -v            print the output of failed tests
# Environment: MINI_MPI_TEST_BUILD (default build), MINI_MPI_TEST_TIMEOUT_SCALE.
#
# Each program runs in a scratch folder of its own (they write fixed file names), with MPICH's
# default limit of 180 s (a few move gigabytes). Pass rule,
# the suites' own: a line " No Errors" and exit status 0. ROMIO's programs get
# `-fname <scratch>/testfile` as in its runtests; its file_info, fstype_prefix and syshints
# test ROMIO's own hints and prefixes and are not run; ROMIO's external32 prints no verdict
# (passes when it finds external32 big-endian), nor does large_array (passes when every
# process read its data back). ROMIO's ` No Errors` may be indented.
# Compiled with -DMPICH=1 (the strict error-class checks) as MPICH builds them.
# Output: `test  result  wall time`, then `N passed, N failed` as the last line.
set -u

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
build=${MINI_MPI_TEST_BUILD:-build}
case $build in /*) ;; *) build=$repo/$build ;; esac
scale=${MINI_MPI_TEST_TIMEOUT_SCALE:-1}
mpicc=$repo/bin/mpicc
mpiexec=$repo/bin/mpiexec

verbose=0
filter=
src=
while [ $# -gt 0 ]; do
    case $1 in
        -v) verbose=1 ;;
        --filter) filter=$2; shift ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "run_io.sh: unknown option $1" >&2; exit 2 ;;
        *) src=$1 ;;
    esac
    shift
done
if [ -z "$src" ] || [ ! -d "$src/test/mpi/io" ]; then
    echo "run_io.sh: give an MPICH checkout holding test/mpi/io (see --help)" >&2
    exit 2
fi
src=$(cd "$src" && pwd -P)
out=$build/conformance/io
mkdir -p "$out/harness"

# MPICH's harness, with the configure results it needs written by us.
h=$out/harness
cat > "$h/mpitestconf.h" <<'CONF'
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_NONE
#define HAVE_MPI_IO 1
#define MPIO_USES_MPI_REQUEST 1
#define HAVE_STRING_H 1
#define HAVE_UNISTD_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STDARG_H 1
#define USE_STDARG 1
CONF
: > "$h/mtest_mpix.h"
for f in mtest mtest_common mtest_single; do
    if [ ! -e "$h/$f.o" ] || [ "$mpicc" -nt "$h/$f.o" ]; then
        "$mpicc" -c -O1 -w -DMPICH=1 -I"$h" -I"$src/test/mpi/include" \
            "$src/test/mpi/util/$f.c" -o "$h/$f.o" || exit 1
    fi
done

passed=0
failed=0
printf '%-34s %-6s %s\n' test result 'wall time'

# run name np source kind [args...]; kind: mpich (harness) or romio (-fname)
run() {
    local name=$1 np=$2 file=$3 kind=$4
    shift 4
    [ -n "$filter" ] && ! [[ $name =~ $filter ]] && return 0
    local dir=$out/run/${name//\//_}
    rm -rf "$dir" && mkdir -p "$dir"
    local exe=$dir/prog log=$dir/output
    if [ "$kind" = mpich ]; then
        "$mpicc" -O1 -w -DMPICH=1 -I"$h" -I"$src/test/mpi/include" "$file" \
            "$h/mtest.o" "$h/mtest_common.o" "$h/mtest_single.o" -o "$exe" -lm >"$log" 2>&1
    else
        "$mpicc" -O1 -w "$file" -o "$exe" -lm >"$log" 2>&1
    fi
    local rc=$? t0 t1 result
    t0=$(date +%s.%N)
    if [ $rc -eq 0 ]; then
        local limit
        limit=$(awk -v s="$scale" 'BEGIN { print 180 * s }')
        (cd "$dir" && timeout -k 5 "$limit" "$mpiexec" -n "$np" ./prog "$@" >"$log" 2>&1)
        rc=$?
    fi
    t1=$(date +%s.%N)
    # what the program wrote (some write gigabytes) goes; the binary and its output stay
    find "$dir" -type f ! -name prog ! -name output -delete 2>/dev/null
    if [ $rc -eq 0 ] && grep -q "${pass_re:-^ *No Errors}" "$log" &&
        { [ -z "${fail_re:-}" ] || ! grep -q "$fail_re" "$log"; }; then
        result=pass; passed=$((passed + 1))
    else
        result=FAIL; failed=$((failed + 1))
    fi
    printf '%-34s %-6s %6.2f s\n' "$name" "$result" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
    if [ $verbose = 1 ] && [ $result = FAIL ]; then
        sed 's/^/    | /' "$log" | head -n 30
    fi
}

# MPICH test/mpi/io and errors/io: every line of their testlists.
for list in "$src/test/mpi/io/testlist.in" "$src/test/mpi/errors/io/testlist"; do
    dir=$(dirname "$list")
    suite=mpich/$(basename "$dir")
    [ "$suite" = mpich/io ] && [ "$dir" != "$src/test/mpi/io" ] && suite=mpich/errors-io
    [ "$dir" = "$src/test/mpi/errors/io" ] && suite=mpich/errors-io
    while read -r prog np rest; do
        case $prog in ''|'#'*) continue ;; esac
        args=()
        for w in $rest; do
            case $w in arg=*) args+=("${w#arg=}") ;; -*) args+=("$w") ;; esac
        done
        tag=$prog
        [ ${#args[@]} -gt 0 ] && [ "${args[0]}" = -large-count ] && tag=$prog-large-count
        run "$suite/$tag" "$np" "$dir/$prog.c" mpich ${args[@]+"${args[@]}"}
    done < "$list"
done

# ROMIO's tests, ranks as in its runtests.in.
romio=$src/src/mpi/romio/test
sed 's/@LL@/%lld/g' "$romio/misc.c.in" > "$out/misc.c"
while read -r prog np; do
    file=$romio/$prog.c
    [ "$prog" = misc ] && file=$out/misc.c
    fname=testfile
    if [ "$prog" = aggregation1 ]; then
        run "romio/$prog" "$np" "$file" romio -h -f "$fname"
    elif [ "$prog" = external32 ]; then
        # prints no verdict, only what it found: external32 must be big-endian, native not
        pass_re='^external32 datarep is BIG ENDIAN' \
            run "romio/$prog" "$np" "$file" romio -fname "$fname"
    elif [ "$prog" = large_array ]; then
        # prints a verdict per process: each must have read its data back, none a wrong value
        pass_re='^Process 0: data read back is correct' fail_re='expecting\|not enough memory' \
            run "romio/$prog" "$np" "$file" romio -fname "$fname"
    elif [ "$prog" = big_extents ]; then
        run "romio/$prog" "$np" "$file" romio "$fname"
    else
        run "romio/$prog" "$np" "$file" romio -fname "$fname"
    fi
done <<'LIST'
simple 4
async 4
async-multiple 4
atomicity 4
coll_test 4
excl 4
i_noncontig 2
noncontig 2
noncontig_coll 2
noncontig_coll2 4
aggregation1 4
aggregation2 4
hindexed 4
misc 4
shared_fp 4
ordered_fp 4
split_coll 4
psimple 4
error 1
status 1
types_with_zeros 2
darray_read 4
creat_excl 4
big_extents 1
large_array 4
external32 2
LIST

echo "$passed passed, $failed failed"
[ $passed -gt 0 ] && [ $failed -eq 0 ]
