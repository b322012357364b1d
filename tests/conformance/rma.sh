#!/usr/bin/env bash
# tests/conformance/rma.sh: runs MPICH's one-sided communication suite (test/mpi/rma and
# test/mpi/errors/rma) against mini_mpi, built unmodified with bin/mpicc and MPICH's own test
# harness (test/mpi/util/mtest.c, mtest_common.c, mtest_single.c, dtypes.c). A local check:
# the suite is read from a checkout given on the command line and never copied into the
# repository; everything is built under $BUILD/conformance/rma.
#
# usage: tests/conformance/rma.sh [-v] [--filter ERE] [--all] MPICH_DIR
#   MPICH_DIR     a checkout of https://github.com/pmodels/mpich, or of just test/mpi/{rma,
#                 errors/rma,util,include} (git archive HEAD test/mpi/rma ... | tar -x)
#   --all         every line of the testlists (default: the same, minus lines whose program
#                 needs MPICH's DTPools generator, which is not built here)
#   --filter ERE  run only tests whose name (dir/program/np) matches
#   -v            print the tail of the output of failed tests
# Environment: MINI_MPI_TEST_BUILD (default build), MINI_MPI_TEST_TIMEOUT_SCALE.
#
# Build: each program from <name>.c, or the sources and -D flags its Makefile.am gives
# (`<name>_SOURCES`, `<name>_CPPFLAGS`), with an mpitestconf.h written here (the harness's
# configure results for mini_mpi) and an empty mtest_mpix.h.
# Pass rule (MPICH's runtests): exit status 0 and a " No Errors" line, within the testlist's
# timeLimit (default 180 s). Output: `test  result  wall (s)  note`, then `N passed, N failed`.
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
        --all) ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "rma.sh: unknown option $1" >&2; exit 2 ;;
        *) src=$1 ;;
    esac
    shift
done
if [ -z "$src" ] || ! [ -d "$src/test/mpi/rma" ]; then
    echo "rma.sh: give an MPICH checkout holding test/mpi/rma (see -h)" >&2
    exit 2
fi
if ! [ -x "$mpicc" ] || ! [ -r "$build/lib/libmini_mpi.so" ]; then
    echo "rma.sh: build mini_mpi first (make lib)" >&2
    exit 2
fi
M=$src/test/mpi
out=$build/conformance/rma
mkdir -p "$out/conf" "$out/bin" "$out/log" "$out/run"

# The harness's configure results for mini_mpi.
cat >"$out/conf/mpitestconf.h" <<'CONF'
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_MPI_IO 1
#define MPIO_USES_MPI_REQUEST 1
#define HAVE_STRING_H 1
#define HAVE_STDARG_H 1
#define USE_STDARG 1
#define HAVE_UNISTD_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
CONF
: >"$out/conf/mtest_mpix.h"
cflags=(-O1 -w -I "$out/conf" -I "$M/include")
harness=()
for f in mtest mtest_common mtest_single dtypes; do
    if ! [ "$out/$f.o" -nt "$M/util/$f.c" ]; then
        "$mpicc" "${cflags[@]}" -c "$M/util/$f.c" -o "$out/$f.o" || {
            echo "rma.sh: cannot build the harness ($f.c)" >&2; exit 2; }
    fi
    harness+=("$out/$f.o")
done

passed=0
failed=0
printf '%-44s %-6s %9s  %s\n' test result "wall (s)" note

selected() { [ -z "$filter" ] || [[ $1 =~ $filter ]]; }

# Sources and flags of program $1 in folder $2 (from its Makefile.am).
program_parts() { # name dir -> sets srcs, defs
    local name=$1 dir=$2 line
    srcs=()
    defs=()
    line=$(grep -E "^${name}_SOURCES\s*=" "$dir/Makefile.am" 2>/dev/null | head -n 1)
    if [ -n "$line" ]; then
        for w in ${line#*=}; do
            case $w in *.c) srcs+=("$dir/$w") ;; esac
        done
    else
        srcs=("$dir/$name.c")
    fi
    line=$(grep -E "^${name}_CPPFLAGS\s*=" "$dir/Makefile.am" 2>/dev/null | head -n 1)
    if [ -n "$line" ]; then
        for w in ${line#*=}; do
            case $w in -D*|-I*) defs+=("$w") ;; esac
        done
    fi
}

run_list() { # dir tag
    local dir=$1 tag=$2 line name np words w limit args log bin t0 t1 secs rc why
    while IFS= read -r line; do
        line=${line%%#*}
        read -r -a words <<<"$line"
        [ ${#words[@]} -ge 2 ] || continue
        name=${words[0]}
        np=${words[1]}
        selected "$tag/$name/$np" || continue
        limit=180
        args=()
        skip=
        for w in "${words[@]:2}"; do
            case $w in
                timeLimit=*) limit=${w#timeLimit=} ;;
                arg=*) args+=("${w#arg=}") ;;
                mpiversion=*|mem=*|resultTest=*|strict=*|env=*) ;;
                xfail=*) ;;
                *) ;;
            esac
        done
        bin=$out/bin/$tag-$name
        log=$out/log/$tag-$name-$np.log
        program_parts "$name" "$dir"
        if ! [ -r "${srcs[0]}" ]; then
            printf '%-44s %-6s %9s  %s\n' "$tag/$name $np" FAIL - "no source"
            failed=$((failed + 1))
            continue
        fi
        if ! [ -x "$bin" ] || [ "${srcs[0]}" -nt "$bin" ]; then
            if ! "$mpicc" "${cflags[@]}" ${defs[@]+"${defs[@]}"} "${srcs[@]}" "${harness[@]}" \
                -lm -o "$bin" >"$log" 2>&1; then
                printf '%-44s %-6s %9s  %s\n' "$tag/$name $np" FAIL - "does not build"
                [ "$verbose" -eq 1 ] && grep -m 5 error "$log" | sed 's/^/    | /'
                failed=$((failed + 1))
                continue
            fi
        fi
        limit=$(awk -v l="$limit" -v s="$scale" 'BEGIN { printf "%d", l * s + 0.999 }')
        rm -rf "$out/run/$name" && mkdir -p "$out/run/$name"
        t0=$(date +%s.%N)
        { (cd "$out/run/$name" && exec timeout -s KILL "$limit" "$mpiexec" -n "$np" "$bin" \
            ${args[@]+"${args[@]}"}) >"$log" 2>&1 </dev/null; } 2>/dev/null
        rc=$?
        t1=$(date +%s.%N)
        secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
        why=
        grep -qE '^\s*No [Ee]rrors\s*$' "$log" || why="no ' No Errors' line"
        [ "$rc" -eq 0 ] || why="${why:+$why; }exit status $rc"
        if [ -z "$why" ]; then
            passed=$((passed + 1))
            printf '%-44s %-6s %9s\n' "$tag/$name $np" pass "$secs"
        else
            failed=$((failed + 1))
            printf '%-44s %-6s %9s  %s\n' "$tag/$name $np" FAIL "$secs" "$why"
            [ "$verbose" -eq 1 ] && tail -n 15 "$log" | sed 's/^/    | /'
        fi
    done
}

run_list "$M/rma" rma < <(grep -v '^\s*#' "$M/rma/testlist.in" | grep -v '@')
[ -r "$M/errors/rma/testlist" ] && run_list "$M/errors/rma" errors-rma <"$M/errors/rma/testlist"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
