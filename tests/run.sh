#!/usr/bin/env bash
# tests/run.sh: the one test runner (`make test`, `make check-long`, `make check-valgrind`).
#
# Owns discovery, timeouts, pass/fail decisions and the report of three kinds of tests:
#   unit   every executable $BUILD/tests/unit/test_*: each cmocka "[       OK ] t" counts as a
#          pass, each "[  FAILED  ] t" (or "[  ERROR   ] t") as a failure, both outside cmocka's
#          closing summary; a binary that crashes, times out, or exits non-zero without naming a
#          failed test counts as one failure under its own name.
#   mpi    the lines of tests/mpi/testlist (MPICH's format, below), run through bin/mpiexec.
#   tools  every tests/tools/*.sh: exit 0 pass, 77 skip (counted neither way), else fail.
# It does not build anything (the Makefile does) and never runs a test without a timeout
# (`timeout -s KILL`; a test's whole process group dies with it).
#
# testlist: one test per line, `name nprocs [key=value ...]`, comment lines (first word starting
# with `#`; a `#` later in a line is part of a value, as in `grep=MPI_Barrier #3`), blank lines.
# The program is $BUILD/tests/mpi/<name>, run in a fresh scratch directory with
# MINI_MPI_TEST_SRCDIR=<repo>/tests/mpi, as
#   bin/mpiexec -n nprocs [mpiexecarg...] $BUILD/tests/mpi/name [arg...]
# Keys (repeatable where marked; a word that is not key=value continues the previous value,
# joined by one blank, so `grep=called before MPI_Init` is one pattern):
#   timeLimit=S       seconds before the test is killed (default 30)
#   env=VAR=val       (repeatable) environment for the test
#   mpiexecarg=ARG    (repeatable) option for bin/mpiexec, before the program
#   arg=ARG           (repeatable) program argument
#   exitcode=N|nonzero  expected exit status (default 0)
#   resultTest=TestStatusNoErrors (default: expected status and a line /^ *No Errors$/ on stdout)
#             |TestStatus         (expected status only)
#   grep=ERE          (repeatable) stdout+stderr must contain a line matching the ERE
#   stderrEmpty=1     stderr must be empty
#   long=1            only run when MINI_MPI_TEST_LONG=1 (make check-long)
#   tsan=0            not run against a library built with ThreadSanitizer (make check-tsan),
#                     for a case the tool itself misreads (the line's comment says why)
#   dir=examples      the program is $BUILD/examples/<name> (a program of examples/) instead
#   dir=tests/fortran the program is $BUILD/tests/fortran/<name> (built by bin/mpifort; the
#                     line is skipped when there is no Fortran compiler)
# An unknown key fails the test (a typo must not silently weaken it).
#
# Options: --list FILE (names to run, one per line, # comments; a listed name that matches no
# test is a failure), --filter ERE (names to run), -j N (parallel jobs, default 2), -v (show
# commands and output of passing tests too), -h.
# Names: a unit binary (test_foo; its tests report as test_foo/case), an MPI test (a repeated
# name gets #2, #3, ... in reports), a tool script (with or without .sh).
# Environment: MINI_MPI_TEST_TIMEOUT_SCALE (multiplies every time limit, and the seconds of a
# test's own MINI_MPI_TIMEOUT=, MPIEXEC_TIMEOUT= or --timeout; decimal allowed),
# MINI_MPI_TEST_PREFIX (a command put before each unit binary and MPI program, e.g. valgrind;
# MPI programs then run directly with the environment `bin/mpiexec --print-env` gives),
# MINI_MPI_TESTLIST (default tests/mpi/testlist), MINI_MPI_TEST_BUILD (default build),
# MINI_MPI_TEST_LONG, MINI_MPI_TEST_FAIL_GREP (an ERE: a unit or MPI test whose output has a
# matching line fails, whatever its status; make check-tsan/check-asan fail on any sanitizer
# report this way), JUNIT (a file to write the results to as JUnit XML, for CI systems: one
# <testsuite> per kind, one <testcase> per result, <failure> with the reason and the output
# shown, <skipped>; `JUNIT=report.xml make test`).
# Output: one line per result, `PASS name (0.12 s)`, `FAIL name: reason` followed by the last
# output lines, `SKIP name: reason`; the last line is exactly `N passed, M failed`. Exit status 0
# only when something ran and nothing failed.
set -u

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
junit=${JUNIT-}
[ -n "$junit" ] && case $junit in /*) ;; *) junit=$PWD/$junit ;; esac
cd "$repo" || exit 2

build=${MINI_MPI_TEST_BUILD:-build}
tsan_build=0 # the library of $build is built with ThreadSanitizer (Makefile SAN=thread)
grep -qw thread "$build/lib/libmini_mpi.sanitize" 2>/dev/null && tsan_build=1
case $build in /*) ;; *) build=$repo/$build ;; esac
# Default: tests/mpi/testlist plus every tests/mpi/testlist.<subsystem> (one per subsystem, so
# that people working on different subsystems never edit one file).
if [ -n "${MINI_MPI_TESTLIST:-}" ]; then
    testlists=("$MINI_MPI_TESTLIST")
else
    testlists=(tests/mpi/testlist)
    for f in tests/mpi/testlist.*; do [ -r "$f" ] && testlists+=("$f"); done
fi
testlist=${testlists[0]}
scale=${MINI_MPI_TEST_TIMEOUT_SCALE:-1}
read -ra prefix <<<"${MINI_MPI_TEST_PREFIX:-}"
long=${MINI_MPI_TEST_LONG:-0}
fail_grep=${MINI_MPI_TEST_FAIL_GREP:-}
unit_limit=120
tool_limit=600
mpi_default_limit=30
tail_lines=20

usage() {
    sed -n '2,/^set -u/p' "${BASH_SOURCE[0]}" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'
}

die() {
    echo "run.sh: $*" >&2
    exit 2
}

list_file='' filter='' jobs=2 verbose=0
while [ $# -gt 0 ]; do
    case $1 in
        --list) [ $# -ge 2 ] || die "--list needs a file"; list_file=$2; shift 2 ;;
        --list=*) list_file=${1#--list=}; shift ;;
        --filter) [ $# -ge 2 ] || die "--filter needs a regular expression"; filter=$2; shift 2 ;;
        --filter=*) filter=${1#--filter=}; shift ;;
        -j) [ $# -ge 2 ] || die "-j needs a number"; jobs=$2; shift 2 ;;
        -j*) jobs=${1#-j}; shift ;;
        -v|--verbose) verbose=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown argument '$1' (see tests/run.sh --help)" ;;
    esac
done
case $jobs in ''|*[!0-9]*|0) die "-j: '$jobs' is not a positive integer" ;; esac
awk -v s="$scale" 'BEGIN { exit !(s ~ /^[0-9]*\.?[0-9]+$/ && s + 0 > 0) }' ||
    die "MINI_MPI_TEST_TIMEOUT_SCALE='$scale' is not a positive number"
if [ -n "$filter" ]; then
    printf '' | grep -Eq -- "$filter" 2>/dev/null
    [ $? -le 1 ] || die "--filter: invalid regular expression '$filter'"
fi
command -v timeout >/dev/null 2>&1 || die "the timeout command (coreutils) is required"
if [ -n "${JUNIT+set}" ]; then
    [ -n "$junit" ] || die "JUNIT: empty, expected the path of the JUnit XML file to write"
    [ -d "$junit" ] && die "JUNIT: '$JUNIT' is a directory, expected a file to write"
    [ -d "$(dirname -- "$junit")" ] && [ -w "$(dirname -- "$junit")" ] ||
        die "JUNIT: cannot write '$JUNIT' (its directory does not exist or is not writable)"
fi

# In a --list file a comment starts with a `#` at the start of $line or after a blank.
strip_comment() {
    if [[ $line =~ (^|[[:space:]])#.*$ ]]; then
        line=${line%"${BASH_REMATCH[0]}"}
    fi
}
# In a testlist only a line whose first word starts with `#` is a comment: a `#` later in a line
# belongs to a value (a fault spec's `MPI_Allreduce#2`, a grep for `MPI_Barrier #2`).
strip_testlist_comment() {
    if [[ $line =~ ^[[:space:]]*# ]]; then
        line=
    fi
}

# ---- Selection ------------------------------------------------------------------------------
declare -A listed=() list_hit=()
if [ -n "$list_file" ]; then
    [ -r "$list_file" ] || die "--list: cannot read '$list_file'"
    while IFS= read -r line || [ -n "$line" ]; do
        strip_comment
        read -r word _ <<<"$line"
        [ -n "${word:-}" ] && listed[$word]=1
    done <"$list_file"
fi

# selected NAME [ALIAS...]: true when any of the names passes --list and --filter.
selected() {
    local n ok=1
    if [ -n "$list_file" ]; then
        ok=1
        for n in "$@"; do
            if [ -n "${listed[$n]+x}" ]; then ok=0; list_hit[$n]=1; fi
        done
        [ $ok = 0 ] || return 1
    fi
    if [ -n "$filter" ]; then
        for n in "$@"; do
            printf '%s\n' "$n" | grep -Eq -- "$filter" && return 0
        done
        return 1
    fi
    return 0
}

# ---- Discovery: parallel arrays of kind, report name, and what to run -------------------------
kinds=() names=() specs=()
add_job() { kinds+=("$1"); names+=("$2"); specs+=("$3"); }

if [ -d "$build/tests/unit" ]; then
    for f in "$build"/tests/unit/test_*; do
        [ -f "$f" ] && [ -x "$f" ] || continue
        n=${f##*/}
        selected "$n" && add_job unit "$n" "$f"
    done
fi

if [ -r "$testlist" ]; then
    declare -A seen=()
    for testlist in "${testlists[@]}"; do
    while IFS= read -r line || [ -n "$line" ]; do
        strip_testlist_comment
        read -ra tok <<<"$line"
        [ ${#tok[@]} -gt 0 ] || continue
        n=${tok[0]}
        seen[$n]=$(( ${seen[$n]:-0} + 1 ))
        shown=$n
        [ "${seen[$n]}" -gt 1 ] && shown="$n#${seen[$n]}"
        selected "$n" "$shown" || continue
        # long=1 tests belong to make check-long only.
        [ "$long" != 1 ] && [[ " ${tok[*]:1} " == *" long=1 "* ]] && continue
        [ "$tsan_build" = 1 ] && [[ " ${tok[*]:1} " == *" tsan=0 "* ]] && continue
        add_job mpi "$shown" "$line"
    done <"$testlist"
    done
fi

for f in tests/tools/*.sh; do
    [ -f "$f" ] || continue
    n=${f##*/}
    selected "$n" "${n%.sh}" && add_job tool "$n" "$f"
done

# ---- Running one test -----------------------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mini_mpi_tests.XXXXXX") || die "cannot create a temporary directory"

now_us() {
    if [ -n "${EPOCHREALTIME:-}" ]; then
        local t=${EPOCHREALTIME/[.,]/}
        echo $((10#$t))
    else
        echo $(( $(date +%s%N) / 1000 ))
    fi
}

# scaled_limit SECONDS: the limit times the scale, rounded up to whole seconds (at least 1).
scaled_limit() {
    awk -v t="$1" -v s="$scale" 'BEGIN { v = t * s; i = int(v); if (i < v) i++; if (i < 1) i = 1; print i }'
}

# A test's own watchdog (MINI_MPI_TIMEOUT=S or MPIEXEC_TIMEOUT=S in env=, --timeout S in
# mpiexecarg=) scales like its time limit: under valgrind a rank may not even reach its blocking
# call within the unscaled S.
scaled_seconds() {
    awk -v t="$1" -v s="$scale" 'BEGIN { print t * s }'
}

signal_name() {
    local n
    n=$(kill -l "$1" 2>/dev/null) && echo "SIG$n" || echo "signal $1"
}

# describe_status RC: "exit status 3" or "killed by SIGSEGV".
describe_status() {
    if [ "$1" -gt 128 ] && [ "$1" -lt 160 ]; then
        echo "killed by $(signal_name $(($1 - 128)))"
    else
        echo "exit status $1"
    fi
}

# run_timed LIMIT DIR OUT ERR CMD...: runs CMD in DIR under `timeout -s KILL LIMIT`; sets rc,
# elapsed_us and timed_out (1 when the limit killed it).
run_timed() {
    local limit=$1 dir=$2 out=$3 err=$4 start pid
    shift 4
    start=$(now_us)
    (cd "$dir" && exec timeout -s KILL "$limit" "$@") >"$out" 2>"$err" </dev/null &
    pid=$!
    # On interruption, let timeout pass SIGTERM to the test's process group.
    trap 'kill -TERM $pid 2>/dev/null; wait $pid; exit 130' TERM INT
    wait $pid 2>/dev/null # (quiet: bash would report a test killed by a signal)
    rc=$?
    trap - TERM INT
    elapsed_us=$(( $(now_us) - start ))
    timed_out=0
    if [ "$rc" = 137 ] && [ "$elapsed_us" -ge $(( limit * 1000000 - 50000 )) ]; then
        timed_out=1
    fi
}

fmt_time() {
    printf '%d.%02d s' $(( $1 / 1000000 )) $(( $1 % 1000000 / 10000 ))
}

# show_output OUT ERR: the last lines of a test's stdout and stderr, indented.
show_output() {
    if [ -s "$1" ]; then
        echo "    --- stdout (last $tail_lines lines) ---"
        tail -n "$tail_lines" "$1" | sed 's/^/    | /'
    fi
    if [ -s "$2" ]; then
        echo "    --- stderr (last $tail_lines lines) ---"
        tail -n "$tail_lines" "$2" | sed 's/^/    | /'
    fi
    if [ ! -s "$1" ] && [ ! -s "$2" ]; then
        echo "    (no output)"
    fi
}

show_command() {
    local w out=
    for w in "$@"; do out+=" $(printf '%q' "$w")"; done
    echo "    \$${out}"
}

# Each job writes its report to $tmp/<i>.block and "passed failed" to $tmp/<i>.done (last).
pass=0 fail=0
report_pass() { echo "PASS $1${2:+ ($2)}"; pass=$((pass + 1)); }
report_fail() { echo "FAIL $1: $2"; fail=$((fail + 1)); }

run_unit() {
    local name=$1 bin=$2 limit out=$tmp/$3.out err=$tmp/$3.err
    limit=$(scaled_limit $unit_limit)
    local cmd=(env CMOCKA_MESSAGE_OUTPUT=STDOUT "${prefix[@]}" "$bin")
    [ $verbose = 1 ] && show_command "${cmd[@]}"
    run_timed "$limit" "$repo" "$out" "$err" "${cmd[@]}"
    # cmocka prints per-test results, then a summary that repeats the failed names after
    # "[  FAILED  ] N test(s), listed below:"; count only the former.
    local results
    results=$(cat "$out" "$err" | awk '
        /^\[  (FAILED|ERROR|SKIPPED) *\] [0-9]+ test\(s\)/ { insummary = 1; next }
        /^\[==========\]/ || /^\[ RUN      \]/ || /^\[       OK \]/ || /^\[  PASSED  \]/ { insummary = 0 }
        insummary && /^\[  (FAILED|ERROR|SKIPPED) *\] / { next }
        /^\[ RUN      \] / { sub(/^\[ RUN      \] /, ""); running = $0; next }
        /^\[       OK \] / { sub(/^\[       OK \] /, ""); print "P " $0; running = ""; next }
        /^\[  FAILED  \] / { sub(/^\[  FAILED  \] /, ""); print "F " $0; running = ""; next }
        /^\[  ERROR   \] / && !/^\[  ERROR   \] ---/ {
            sub(/^\[  ERROR   \] /, ""); print "F " $0; running = ""; next }
        END { if (running != "") print "R " running }')
    local kind tname nfail=0 unfinished=
    while read -r kind tname; do
        case $kind in
            P) report_pass "$name/$tname" ;;
            F) report_fail "$name/$tname" "cmocka reported a failure"; nfail=$((nfail + 1)) ;;
            R) unfinished=$tname ;;
        esac
    done <<<"$results"
    local reason=
    if [ $timed_out = 1 ]; then
        reason="timeout after ${limit}s"
    elif [ -n "$fail_grep" ] && cat "$out" "$err" | grep -Eq -- "$fail_grep"; then
        reason="output matches MINI_MPI_TEST_FAIL_GREP"
    elif [ "$rc" -gt 128 ] || { [ "$rc" != 0 ] && [ $nfail = 0 ]; }; then
        reason=$(describe_status "$rc")
    fi
    if [ -n "$reason" ]; then
        [ -n "$unfinished" ] && reason="$reason (in $unfinished)"
        report_fail "$name" "$reason"
        nfail=$((nfail + 1))
    elif [ -z "$results" ]; then
        report_pass "$name" "$(fmt_time "$elapsed_us")"
    fi
    if [ $nfail -gt 0 ] || [ $verbose = 1 ]; then
        [ $nfail = 0 ] && [ -n "$results" ] && echo "    ($(fmt_time "$elapsed_us"))"
        show_output "$out" "$err"
    fi
}

run_mpi() {
    local name=$1 line=$2 out=$tmp/$3.out err=$tmp/$3.err dir=$tmp/$3.d
    local words tok kv np limit=$mpi_default_limit expect=0 result=TestStatusNoErrors stderr_empty=0
    local envs=() margs=() pargs=() greps=() prog cmd=() progdir=tests/mpi
    read -ra words <<<"$line"
    # A word that is not key=value continues the previous value, so that grep= can hold blanks.
    tok=("${words[@]:0:2}")
    for kv in "${words[@]:2}"; do
        if [[ $kv =~ ^[A-Za-z_]+= ]] || [ ${#tok[@]} -le 2 ]; then
            tok+=("$kv")
        else
            tok[${#tok[@]} - 1]+=" $kv"
        fi
    done
    np=${tok[1]:-}
    case $np in
        ''|*[!0-9]*|0) report_fail "$name" "testlist: bad process count '$np'"; return ;;
    esac
    for kv in "${tok[@]:2}"; do
        case $kv in
            timeLimit=*) limit=${kv#*=}
                case $limit in ''|*[!0-9.]*) report_fail "$name" "testlist: bad $kv"; return ;; esac ;;
            env=*=*) envs+=("${kv#env=}") ;;
            mpiexecarg=*) margs+=("${kv#*=}") ;;
            arg=*) pargs+=("${kv#*=}") ;;
            exitcode=nonzero) expect=nonzero ;;
            exitcode=*) expect=${kv#*=}
                case $expect in ''|*[!0-9]*) report_fail "$name" "testlist: bad $kv"; return ;; esac ;;
            resultTest=TestStatus|resultTest=TestStatusNoErrors) result=${kv#*=} ;;
            grep=?*) greps+=("${kv#grep=}") ;;
            stderrEmpty=1) stderr_empty=1 ;;
            stderrEmpty=0|long=0|long=1|tsan=0|tsan=1) ;;
            dir=examples) progdir=examples ;;
            dir=tests/fortran) progdir=tests/fortran ;;
            *) report_fail "$name" "testlist: unknown key '$kv'"; return ;;
        esac
    done
    limit=$(scaled_limit "$limit")
    if [ "$scale" != 1 ]; then
        local i
        for i in "${!envs[@]}"; do
            case ${envs[$i]} in
                MINI_MPI_TIMEOUT=*|MPIEXEC_TIMEOUT=*)
                    envs[$i]=${envs[$i]%%=*}=$(scaled_seconds "${envs[$i]#*=}") ;;
            esac
        done
        for ((i = 1; i < ${#margs[@]}; i++)); do
            [ "${margs[$((i - 1))]}" = --timeout ] && margs[$i]=$(scaled_seconds "${margs[$i]}")
        done
    fi
    prog=$build/$progdir/${tok[0]}
    if [ ! -x "$prog" ] && [ "$progdir" = tests/fortran ] &&
        ! command -v "${MINI_MPI_FC:-gfortran}" >/dev/null; then
        echo "SKIP $name: no Fortran compiler"
        return
    fi
    if [ ! -x "$prog" ]; then
        report_fail "$name" "not built: $prog"
        return
    fi
    if [ ${#prefix[@]} -gt 0 ]; then
        # mpiexec execs the program, so a prefix cannot go after it: take its environment.
        local menv=() envout
        envout=$(env "${envs[@]}" "$repo/bin/mpiexec" --print-env -n "$np" "${margs[@]}" 2>&1) ||
            { report_fail "$name" "bin/mpiexec rejected the arguments: $envout"; return; }
        [ -n "$envout" ] && mapfile -t menv <<<"$envout"
        cmd=(env "${envs[@]}" "${menv[@]}" "${prefix[@]}" "$prog" "${pargs[@]}")
    else
        cmd=(env "${envs[@]}" "$repo/bin/mpiexec" -n "$np" "${margs[@]}" "$prog" "${pargs[@]}")
    fi
    [ $verbose = 1 ] && show_command "${cmd[@]}"
    mkdir -p "$dir"
    MINI_MPI_TEST_SRCDIR=$repo/tests/mpi run_timed "$limit" "$dir" "$out" "$err" "${cmd[@]}"
    rm -rf "$dir"

    local reason='' re
    if [ $timed_out = 1 ]; then
        reason="timeout after ${limit}s"
    elif [ -n "$fail_grep" ] && cat "$out" "$err" | grep -Eq -- "$fail_grep"; then
        reason="output matches MINI_MPI_TEST_FAIL_GREP: $(cat "$out" "$err" |
                 grep -Em1 -- "$fail_grep")"
    elif [ "$expect" = nonzero ] && [ "$rc" = 0 ]; then
        reason="exit status 0, expected non-zero"
    elif [ "$expect" != nonzero ] && [ "$rc" != "$expect" ]; then
        reason="$(describe_status "$rc"), expected $expect"
    elif [ "$result" = TestStatusNoErrors ] && ! grep -Eq '^ *No Errors$' "$out"; then
        reason="no 'No Errors' line on stdout"
    elif [ $stderr_empty = 1 ] && [ -s "$err" ]; then
        reason="stderr is not empty"
    else
        for re in "${greps[@]}"; do
            if ! cat "$out" "$err" | grep -Eq -- "$re"; then
                reason="no output line matches grep=$re"
                break
            fi
        done
    fi
    if [ -n "$reason" ]; then
        report_fail "$name" "$reason"
        show_output "$out" "$err"
    else
        report_pass "$name" "$(fmt_time "$elapsed_us")"
        [ $verbose = 1 ] && show_output "$out" "$err"
    fi
}

run_tool() {
    local name=$1 script=$2 out=$tmp/$3.out err=$tmp/$3.err limit cmd
    limit=$(scaled_limit $tool_limit)
    if [ -x "$script" ]; then cmd=("$repo/$script"); else cmd=(bash "$repo/$script"); fi
    [ $verbose = 1 ] && show_command "${cmd[@]}"
    MINI_MPI_TEST_BUILD=$build run_timed "$limit" "$repo" "$out" "$err" "${cmd[@]}"
    if [ $timed_out = 1 ]; then
        report_fail "$name" "timeout after ${limit}s"
        show_output "$out" "$err"
    elif [ "$rc" = 77 ]; then
        echo "SKIP $name: $(cat "$out" "$err" | grep -v '^[[:space:]]*$' | tail -n 1)"
    elif [ "$rc" != 0 ]; then
        report_fail "$name" "$(describe_status "$rc")"
        show_output "$out" "$err"
    else
        report_pass "$name" "$(fmt_time "$elapsed_us")"
        [ $verbose = 1 ] && show_output "$out" "$err"
    fi
}

run_job() {
    local i=$1
    case ${kinds[$i]} in
        unit) run_unit "${names[$i]}" "${specs[$i]}" "$i" ;;
        mpi) run_mpi "${names[$i]}" "${specs[$i]}" "$i" ;;
        tool) run_tool "${names[$i]}" "${specs[$i]}" "$i" ;;
    esac >"$tmp/$i.block" 2>&1
    rm -f "$tmp/$i.out" "$tmp/$i.err"
    echo "$pass $fail" >"$tmp/$i.done.tmp" && mv "$tmp/$i.done.tmp" "$tmp/$i.done"
}

# ---- JUnit XML (JUNIT=file) ------------------------------------------------------------------
# From the reports above, each preceded by "@@ <kind>": a PASS/FAIL/SKIP line starts a test case,
# the indented lines after it are its output. XML 1.0 holds only valid UTF-8 and no control
# characters other than tab and newline: others become '?'.
write_junit() {
    [ -e "$tmp/junit.log" ] || : >"$tmp/junit.log"
    iconv -f UTF-8 -t UTF-8 -c <"$tmp/junit.log" 2>/dev/null |
        tr '\000-\010\013\014\016-\037' '?' | LC_ALL=C awk -v stamp="$(date -u +%Y-%m-%dT%H:%M:%S)" '
        function repl(s, c, r,    out, i) {   # literal replacement (awks differ on gsub and \\)
            out = ""
            while ((i = index(s, c)) > 0) { out = out substr(s, 1, i - 1) r; s = substr(s, i + 1) }
            return out s
        }
        function xt(s) { return repl(repl(repl(s, "&", "&amp;"), "<", "&lt;"), ">", "&gt;") }
        function xa(s) { return repl(repl(repl(xt(s), "\"", "&quot;"), "\n", "&#10;"), "\t", "&#9;") }
        function add(st, rest,    p) {
            n++; kind[n] = cur_kind; status[n] = st; time[n] = ""; msg[n] = ""; out[n] = ""
            if (st == "pass") {
                if (match(rest, / \([0-9]+\.[0-9]+ s\)$/)) {
                    time[n] = substr(rest, RSTART + 2, RLENGTH - 5); rest = substr(rest, 1, RSTART - 1)
                }
                name[n] = rest
            } else {
                p = index(rest, ": ")
                name[n] = p ? substr(rest, 1, p - 1) : rest; msg[n] = p ? substr(rest, p + 2) : ""
            }
            if (!(cur_kind in tests)) order[++nkinds] = cur_kind
            tests[cur_kind]++
            if (st == "fail") fails[cur_kind]++
            if (st == "skip") skips[cur_kind]++
        }
        /^@@ / { cur_kind = substr($0, 4); in_case = 0; next }
        /^PASS / { add("pass", substr($0, 6)); in_case = 1; next }
        /^FAIL / { add("fail", substr($0, 6)); in_case = 1; next }
        /^SKIP / { add("skip", substr($0, 6)); in_case = 1; next }
        in_case { out[n] = out[n] (substr($0, 1, 4) == "    " ? substr($0, 5) : $0) "\n" }
        END {
            for (k in tests) { all += tests[k]; allf += fails[k]; alls += skips[k] }
            print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            printf "<testsuites name=\"mini_mpi tests\" tests=\"%d\" failures=\"%d\" errors=\"0\" " \
                "skipped=\"%d\">\n", all, allf, alls
            for (j = 1; j <= nkinds; j++) {
                k = order[j]
                printf "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" " \
                    "skipped=\"%d\" timestamp=\"%s\">\n", xa(k), tests[k], fails[k], skips[k], stamp
                for (i = 1; i <= n; i++) {
                    if (kind[i] != k) continue
                    printf "    <testcase classname=\"%s\" name=\"%s\"%s", xa(k), xa(name[i]), \
                        (time[i] != "" ? " time=\"" time[i] "\"" : "")
                    if (status[i] == "pass") { print "/>"; continue }
                    if (status[i] == "skip")
                        printf ">\n      <skipped message=\"%s\"/>\n", xa(msg[i])
                    else
                        printf ">\n      <failure message=\"%s\">%s</failure>\n", xa(msg[i]), \
                            xt(msg[i] "\n" out[i])
                    print "    </testcase>"
                }
                print "  </testsuite>"
            }
            print "</testsuites>"
        }' >"$junit.tmp" && mv -f -- "$junit.tmp" "$junit"
}

# ---- Scheduling: up to $jobs at once, each report printed whole when its test ends -------------
total_pass=0 total_fail=0
declare -A pid_of=()
running=()

finish_job() {
    local i=$1 p=0 f=1
    wait "${pid_of[$i]}" 2>/dev/null
    if [ -r "$tmp/$i.done" ]; then
        read -r p f <"$tmp/$i.done"
    else
        echo "FAIL ${names[$i]}: the runner lost this test"
    fi
    [ -r "$tmp/$i.block" ] && cat "$tmp/$i.block"
    if [ -n "$junit" ]; then
        { echo "@@ ${kinds[$i]/#tool/tools}"
          [ -r "$tmp/$i.done" ] || echo "FAIL ${names[$i]}: the runner lost this test"
          [ -r "$tmp/$i.block" ] && cat "$tmp/$i.block"; } >>"$tmp/junit.log"
    fi
    rm -f "$tmp/$i.block" "$tmp/$i.done"
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
}

interrupted() {
    local i
    for i in "${running[@]}"; do kill -TERM "${pid_of[$i]}" 2>/dev/null; done
    wait
    rm -rf "$tmp"
    echo "interrupted"
    exit 130
}
trap interrupted INT TERM
trap 'rm -rf "$tmp"' EXIT

njobs=${#kinds[@]}
next=0
while [ "$next" -lt "$njobs" ] || [ ${#running[@]} -gt 0 ]; do
    while [ "$next" -lt "$njobs" ] && [ ${#running[@]} -lt "$jobs" ]; do
        run_job $next &
        pid_of[$next]=$!
        running+=("$next")
        next=$((next + 1))
    done
    wait -n 2>/dev/null
    still=()
    for i in "${running[@]}"; do
        if [ -e "$tmp/$i.done" ] || ! kill -0 "${pid_of[$i]}" 2>/dev/null; then
            finish_job "$i"
        else
            still+=("$i")
        fi
    done
    running=("${still[@]}")
done

if [ -n "$list_file" ]; then
    for n in "${!listed[@]}"; do
        if [ -z "${list_hit[$n]+x}" ]; then
            echo "FAIL $n: listed in $list_file but no such test"
            [ -n "$junit" ] && printf '@@ list\nFAIL %s: listed in %s but no such test\n' "$n" \
                "$list_file" >>"$tmp/junit.log"
            total_fail=$((total_fail + 1))
        fi
    done
fi
[ -n "$junit" ] && { write_junit || echo "run.sh: cannot write the JUnit report '$junit'"; }

ran=$((total_pass + total_fail))
[ $ran -gt 0 ] || echo "no tests ran (build first: make all)"
echo "$total_pass passed, $total_fail failed"
[ $ran -gt 0 ] && [ $total_fail = 0 ]
