#!/usr/bin/env bash
# tests/conformance/run.sh: runs the public ULFM conformance suites against mini_mpi (a local
# check, `make check-conformance SUITES=dir`; CI has no network and never runs it).
#
# Owns: finding the two suites, building each listed program with bin/mpicc, running it through
# bin/mpiexec under its own suite's pass rule, and the report. It never copies the suites' code
# into the repository: they are read from a checkout given on the command line (or fetched into a
# cache directory on request), and built under $BUILD/conformance.
#
# usage: tests/conformance/run.sh [-v] [--filter ERE] [--mpich DIR] [--ulfm DIR] [--osu DIR]
#                                 [DIR...]
#   --mpich DIR   a checkout of https://github.com/pmodels/mpich (DIR/test/mpi/ft), or of just
#                 those folders (git archive HEAD test/mpi/ft test/mpi/impls/mpich/ulfm)
#   --ulfm DIR    a checkout of https://github.com/ICLDisco/ulfm-testing (DIR/api)
#   --osu DIR     the OSU micro-benchmarks 7.x sources (DIR/c/util, DIR/c/mpi), from
#                 mvapich.cse.ohio-state.edu or a copy on GitHub
#   DIR...        a directory holding such checkouts (e.g. SUITES=/tmp/suites with
#                 /tmp/suites/mpich and /tmp/suites/ulfm-testing): each is searched for both
#   --filter ERE  run only tests whose name (suite/program) matches
#   -v            print the output of failed tests
# Environment: MINI_MPI_CONFORMANCE_CACHE=dir fetches missing suites there with git (network
# needed; sparse, shallow clones), MINI_MPI_TEST_BUILD (default build),
# MINI_MPI_TEST_TIMEOUT_SCALE (multiplies every time limit).
#
# Pass rules, each the suite's own:
#   mpich/*  test/mpi/ft/testlist and impls/mpich/ulfm/testlist give ranks, env, mpiexec options
#            and timeLimit. Compiled with -DMPICH=1 -DMPICH_NUMVERSION=30100102 (MPICH's strict
#            error-class checks) against our mtest shim (shim/). MPICH's runtests rules, stdout
#            and stderr merged: TestStatusNoErrors = a " No Errors" line, no other line, and a
#            non-zero exit status; TestStatus = non-zero status; default = " No Errors", no other
#            line, status 0.
#   ulfm/*   api/run_tests.sh with np=4: each program's mpiexec options and its awk check on the
#            output; the pipeline (pipefail) also needs mpiexec to exit 0.
#   osu/*    benchmarks that every rank starts by parsing its options with getopt_long (ranks that
#            parsed differently disagree on sizes and iterations, and deadlock): exit status 0
#            and the result line of the largest size given with -m (a number for osu_barrier).
# Output: a table `test  result  wall time  note` (result: pass, FAIL, xfail = a known defect
# of the suite, listed below, behaving exactly as a correct MPI must), then `N passed, N failed`
# as the last line. Exit status 0 only when something ran and nothing failed.
set -u

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
build=${MINI_MPI_TEST_BUILD:-build}
case $build in /*) ;; *) build=$repo/$build ;; esac
scale=${MINI_MPI_TEST_TIMEOUT_SCALE:-1}
mpicc=$repo/bin/mpicc
mpiexec=$repo/bin/mpiexec
shim=$repo/tests/conformance/shim

verbose=0
filter=
mpich_dir=
ulfm_dir=
osu_dir=
search=()
while [ $# -gt 0 ]; do
    case $1 in
        -v) verbose=1 ;;
        --filter) filter=$2; shift ;;
        --mpich) mpich_dir=$2; shift ;;
        --ulfm) ulfm_dir=$2; shift ;;
        --osu) osu_dir=$2; shift ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
        *) search+=("$1") ;;
    esac
    shift
done

# A suite folder under one of the search directories (depth 3 at most).
find_suite() { # marker-path
    local d hit
    for d in ${search[@]+"${search[@]}"}; do
        hit=$(find "$d" -maxdepth 4 -path "*/$1" -type d 2>/dev/null | head -n 1)
        if [ -n "$hit" ]; then
            printf '%s\n' "${hit%/"$1"}"
            return 0
        fi
    done
    return 1
}

# Fetches a suite into the cache (shallow, sparse): only when asked to, since it needs network.
fetch_suite() { # url dir folders...
    local url=$1 dir=$2
    shift 2
    [ -d "$dir/.git" ] && return 0
    git clone -q --depth 1 --filter=blob:none --sparse "$url" "$dir" >&2 &&
        git -C "$dir" sparse-checkout set "$@" >&2
}

[ -n "$mpich_dir" ] || mpich_dir=$(find_suite test/mpi/ft) || mpich_dir=
if [ -z "$ulfm_dir" ]; then
    for d in ${search[@]+"${search[@]}"}; do
        hit=$(find "$d" -maxdepth 3 -name run_tests.sh -path '*/api/*' 2>/dev/null | head -n 1)
        [ -n "$hit" ] && { ulfm_dir=${hit%/api/run_tests.sh}; break; }
    done
fi
if [ -n "${MINI_MPI_CONFORMANCE_CACHE:-}" ]; then
    cache=$MINI_MPI_CONFORMANCE_CACHE
    mkdir -p "$cache"
    if [ -z "$mpich_dir" ]; then
        fetch_suite https://github.com/pmodels/mpich "$cache/mpich" test/mpi/ft \
            test/mpi/impls/mpich/ulfm && mpich_dir=$cache/mpich
    fi
    if [ -z "$ulfm_dir" ]; then
        fetch_suite https://github.com/ICLDisco/ulfm-testing "$cache/ulfm-testing" api &&
            ulfm_dir=$cache/ulfm-testing
    fi
fi
if [ -z "$osu_dir" ]; then
    for d in ${search[@]+"${search[@]}"}; do
        hit=$(find "$d" -maxdepth 4 -name osu_util_mpi.c -path '*/c/util/*' 2>/dev/null | head -n 1)
        [ -n "$hit" ] && { osu_dir=${hit%/c/util/osu_util_mpi.c}; break; }
    done
fi
if [ -z "$mpich_dir" ] && [ -z "$ulfm_dir" ] && [ -z "$osu_dir" ]; then
    echo "run.sh: no suite found; give --mpich DIR / --ulfm DIR, a directory holding them, or" \
        "MINI_MPI_CONFORMANCE_CACHE=dir to fetch them (see -h)" >&2
    exit 2
fi
if ! [ -x "$mpicc" ] || ! [ -r "$build/lib/libmini_mpi.so" ]; then
    echo "run.sh: build mini_mpi first (make lib)" >&2
    exit 2
fi

out=$build/conformance
mkdir -p "$out/mpich" "$out/ulfm" "$out/log"
passed=0
failed=0
xfailed=0
printf '%-30s %-8s %9s  %s\n' test result "wall (s)" note

# Prints one table row, counts it, shows the log of a failure with -v.
report() { # name ok(0 pass, 1 fail, 2 expected failure) seconds note log
    local res=pass
    case $2 in
        0) passed=$((passed + 1)) ;;
        2) res=xfail; xfailed=$((xfailed + 1)) ;;
        *) res=FAIL; failed=$((failed + 1)) ;;
    esac
    printf '%-30s %-8s %9s  %s\n' "$1" "$res" "$3" "$4"
    if [ "$2" -eq 1 ] && [ "$verbose" -eq 1 ] && [ -r "$5" ]; then
        tail -n 30 "$5" | sed 's/^/    | /'
    fi
}

selected() { [ -z "$filter" ] || [[ $1 =~ $filter ]]; }

# Runs a command under `timeout`, output (stdout+stderr) to a log; sets rc, secs, timed_out.
run_timed() { # limit log cmd...
    local limit=$1 log=$2 t0 t1
    shift 2
    limit=$(awk -v l="$limit" -v s="$scale" 'BEGIN { printf "%d", l * s + 0.999 }')
    t0=$(date +%s.%N)
    # The braces swallow bash's "Killed" notice when the time limit strikes.
    { (cd "$out/log" && exec timeout -s KILL "$limit" "$@") >"$log" 2>&1 </dev/null; } 2>/dev/null
    rc=$?
    t1=$(date +%s.%N)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    # Status 137 alone is ambiguous: a job whose ranks all died of SIGKILL also ends so.
    timed_out=$(awk -v s="$secs" -v l="$limit" -v rc="$rc" 'BEGIN { print (rc == 137 && s >= l) }')
}

# ---- MPICH test/mpi/ft and impls/mpich/ulfm ----------------------------------------------------

# check_mpich rule log rc: MPICH runtests' check_result + TestStatusNoErrors / TestStatus /
# TestNormal. Sets why.
check_mpich() {
    local rule=$1 log=$2 st=$3 noerr stray
    noerr=$(grep -cE '^\s*No [Ee]rrors\s*$' "$log")
    stray=$(grep -vcE '^\s*No [Ee]rrors\s*$|^\s*Test Skipped\s*$|^(MPICH: |WARNING: |(Abort.*)?application called MPI_Abort)' "$log")
    why=
    case $rule in
        TestStatus) [ "$st" -ne 0 ] || why="exit status 0, expected non-zero" ;;
        TestStatusNoErrors)
            [ "$noerr" -ge 1 ] || why="no ' No Errors' line"
            [ "$stray" -eq 0 ] || why="${why:+$why; }$stray stray output line(s)"
            [ "$st" -ne 0 ] || why="${why:+$why; }exit status 0, expected non-zero" ;;
        *)
            [ "$noerr" -ge 1 ] || why="no ' No Errors' line"
            [ "$stray" -eq 0 ] || why="${why:+$why; }$stray stray output line(s)"
            [ "$st" -eq 0 ] || why="${why:+$why; }exit status $st, expected 0" ;;
    esac
    [ "$timed_out" -eq 1 ] && why="timed out${why:+ ($why)}"
    [ -z "$why" ]
}

# Known defects of the suite: the exact output a correct MPI gives (then the row says xfail and
# counts neither way; any other output is a failure). revoke_shrink.c skips the Allreduce of
# iteration 5 everywhere, so the failure of rank 1 surfaces in iteration 6's Allreduce, whose
# error it counts as a wrong sum (MPICH marks it xfail=ticket2198).
declare -A defects=(
    [revoke_shrink]=$'Incorrect answer: 0 != 4\n Found 1 errors'
)

run_mpich_list() { # srcdir testlist
    local src=$1 line name np words w rule limit log bin
    local -a envs margs
    while IFS= read -r line; do
        line=${line%%#*}
        read -r -a words <<<"$line"
        [ ${#words[@]} -ge 2 ] || continue
        name=${words[0]}
        np=${words[1]}
        selected "mpich/$name" || continue
        envs=()
        margs=()
        rule=TestNormal
        limit=180
        for w in "${words[@]:2}"; do
            case $w in
                env=*) envs+=("${w#env=}") ;;
                mpiexecarg=*) margs+=("${w#mpiexecarg=}") ;;
                resultTest=*) rule=${w#resultTest=} ;;
                timeLimit=*) limit=${w#timeLimit=} ;;
            esac
        done
        bin=$out/mpich/$name
        log=$out/log/mpich-$name.log
        if ! "$mpicc" -DMPICH=1 -DMPICH_NUMVERSION=30100102 -I"$shim" -o "$bin" \
            "$src/$name.c" "$shim/mtest.c" >"$log" 2>&1; then
            report "mpich/$name" 1 - "does not compile" "$log"
            continue
        fi
        run_timed "$limit" "$log" env ${envs[@]+"${envs[@]}"} "$mpiexec" -n "$np" \
            ${margs[@]+"${margs[@]}"} "$bin"
        if check_mpich "$rule" "$log" "$rc"; then
            report "mpich/$name" 0 "$secs" "" "$log"
        elif [ -n "${defects[$name]:-}" ] && [ "$(cat "$log")" = "${defects[$name]}" ]; then
            report "mpich/$name" 2 "$secs" "suite defect: printed exactly what a correct MPI must" "$log"
        else
            report "mpich/$name" 1 "$secs" "$why" "$log"
        fi
    done <"$2"
}

if [ -n "$mpich_dir" ]; then
    for sub in test/mpi/ft test/mpi/impls/mpich/ulfm; do
        [ -r "$mpich_dir/$sub/testlist" ] && run_mpich_list "$mpich_dir/$sub" "$mpich_dir/$sub/testlist"
    done
fi

# ---- ulfm-testing api/ -------------------------------------------------------------------------

# The checks of api/run_tests.sh (np=4), as awk programs over the output; `-` means exit status
# only. Programs run_tests.sh does not list: shrink (its header: "PASSED if rank 0 prints
# COMPLIANT"), revshrinkkillrecover (never terminates by design: not run).
ulfm_np=4
ulfm_tests=(
    "init_errh_info|--initial-errhandler mpi_errors_return|BEGIN{m=0} /mpi_errors_return/{m++} END{if(m != $ulfm_np) {exit 1}}"
    "bindings|--with-ft mpi|BEGIN{m=0} /NOT COMPLIANT/{m++} END{if(0 != m) {exit 1}}"
    "bindings|--with-ft no|BEGIN{m=0} /CAN tolerate/{m++} END{if(0 != m) {exit 1}}"
    "err_returns|--with-ft mpi|BEGIN{m=0} /TEST PASSED/{m++} END{if(0 == m) {exit 1}}"
    "err_handler|--with-ft mpi|BEGIN{m=0} /TEST PASSED/{m++} END{if(0 == m) {exit 1}}"
    "err_any|--with-ft mpi|BEGIN{m=0} /TEST PASSED/{m++} END{if(0 == m) {exit 1}}"
    "err_insulation|--with-ft mpi|BEGIN{m=0} /TEST FAILED/{m++} END{if(0 < m) {exit 1}}"
    "getack|--with-ft mpi|BEGIN{m=0} /TEST FAILED/{m++} END{if(0 < m) {exit 1}}"
    "revoke|--with-ft mpi|-"
    "revshrink|--with-ft mpi|BEGIN{m=0} /COMPLIANT @ repeat 99/{m++} END{if(0 == m) {exit 1}}"
    "revshrinkkill|--with-ft mpi|BEGIN{k=0; f=0} /Finalizing/{f++} /Killing Self/{k++} END{if(1 != f || $((ulfm_np - 1)) != k) {exit 1}}"
    "buddycr|--with-ft mpi|BEGIN{m=0} /starting bcast 5/{m++} END{if(0 == m) {exit 1}}"
    "shrink|--with-ft mpi|BEGIN{m=0} /COMPLIANT/{m++} END{if(0 == m) {exit 1}}"
)

if [ -n "$ulfm_dir" ]; then
    declare -A built=()
    for t in "${ulfm_tests[@]}"; do
        IFS='|' read -r name opts check <<<"$t"
        label="ulfm/$name"
        [ "$name" = bindings ] && label="ulfm/bindings ${opts#--with-ft }"
        selected "$label" || continue
        bin=$out/ulfm/$name
        log=$out/log/ulfm-${label#ulfm/}.log
        log=${log// /-}
        if [ -z "${built[$name]:-}" ]; then
            if "$mpicc" -g -o "$bin" "$ulfm_dir/api/$name.c" -lm >"$log" 2>&1; then
                built[$name]=ok
            else
                built[$name]=no
                cp "$log" "$out/log/ulfm-$name.build.log"
            fi
        fi
        if [ "${built[$name]}" = no ]; then
            cp "$out/log/ulfm-$name.build.log" "$log"
            report "$label" 1 - "does not compile" "$log"
            continue
        fi
        read -r -a oargs <<<"$opts"
        run_timed 120 "$log" "$mpiexec" -np "$ulfm_np" "${oargs[@]}" "$bin"
        why=
        [ "$rc" -eq 0 ] || why="exit status $rc, expected 0"
        [ "$timed_out" -eq 1 ] && why="timed out"
        if [ "$check" != - ] && ! awk "$check" "$log"; then
            why="${why:+$why; }output check failed"
        fi
        report "$label" "$([ -z "$why" ] && echo 0 || echo 1)" "$secs" "$why" "$log"
    done
    selected ulfm/revshrinkkillrecover &&
        printf '%-30s %-8s %9s  %s\n' ulfm/revshrinkkillrecover "not run" - \
            "never terminates by design (soak test)"
fi

# ---- OSU micro-benchmarks ----------------------------------------------------------------------

# name|ranks|source folder under c/mpi|options|ERE the output must match (the last size's line)
osu_tests=(
    "osu_latency|2|pt2pt/standard|-m 1:4096 -i 200 -x 20|^4096[[:space:]]+[0-9.]+$"
    "osu_bw|2|pt2pt/standard|--message-size 1:65536 --iterations 20 --warmup 2 --window-size 16|^65536[[:space:]]+[0-9.]+$"
    "osu_bcast|8|collective/blocking|-m 1:1024 -i 100 -x 10 -f|^1024([[:space:]]+[0-9.]+){4}$"
    "osu_allreduce|8|collective/blocking|-m 4:1024 -i 100 -x 10|^1024[[:space:]]+[0-9.]+$"
    "osu_alltoall|4|collective/blocking|-m 1:256 -i 50 -x 5|^256[[:space:]]+[0-9.]+$"
    "osu_barrier|8|collective/blocking|-i 200 -x 20 -f|^[[:space:]]*[0-9.]+([[:space:]]+[0-9.]+){3}$"
)

if [ -n "$osu_dir" ]; then
    mkdir -p "$out/osu"
    util=$osu_dir/c/util
    # Calls the library does not provide (yet), which the helper library references and these
    # benchmarks never reach: each gets a definition that says so and aborts.
    missing=$out/osu/missing.c
    : >"$missing"
    for f in MPI_Win_allocate MPI_Win_attach MPI_Win_create MPI_Win_create_dynamic MPI_Win_free; do
        nm -D --defined-only "$build/lib/libmini_mpi.so" | grep -qw "$f" ||
            printf '#include <stdio.h>
#include <stdlib.h>
int %s(void);
int %s(void) { fputs("%s is not available\\n", stderr); abort(); }
' \
                "$f" "$f" "$f" >>"$missing"
    done
    for t in "${osu_tests[@]}"; do
        IFS='|' read -r name np dir opts expect <<<"$t"
        selected "osu/$name" || continue
        bin=$out/osu/$name
        log=$out/log/osu-$name.log
        if ! "$mpicc" -O2 -w -I"$util" -DFIELD_WIDTH=18 -DFLOAT_PRECISION=2 -o "$bin" \
            "$osu_dir/c/mpi/$dir/$name.c" "$util/osu_util.c" "$util/osu_util_mpi.c" \
            "$util/osu_util_validation.c" "$util/osu_util_graph.c" "$util/osu_util_papi.c" \
            "$missing" -lm >"$log" 2>&1; then
            report "osu/$name" 1 - "does not compile" "$log"
            continue
        fi
        read -r -a oargs <<<"$opts"
        run_timed 120 "$log" "$mpiexec" -n "$np" "$bin" "${oargs[@]}"
        why=
        [ "$rc" -eq 0 ] || why="exit status $rc, expected 0"
        [ "$timed_out" -eq 1 ] && why="timed out"
        grep -qE "$expect" "$log" || why="${why:+$why; }no result line for the largest size"
        report "osu/$name" "$([ -z "$why" ] && echo 0 || echo 1)" "$secs" "$why" "$log"
    done
fi

echo "logs: $out/log"
[ "$xfailed" -eq 0 ] || echo "$xfailed known suite defect(s) (xfail), counted neither way"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ $((passed + xfailed)) -gt 0 ]
