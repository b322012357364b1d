#!/bin/bash
# fault_sweep.sh: the fault sweep (bin/mini_mpi_sweep, mpiexec --fault-sweep) and the call
# counts it is built on (MINI_MPI_CALL_COUNTS), on tests/mpi/sweep_target, whose outcome for a
# death at each (rank, call) is known (see its header): the CSV grid must be exactly that one,
# the summary must print the reproducers (and they must reproduce), the HTML page must hold the
# grid, a deadlock, a livelock, a timeout and a crash are classified as such, a seeded sample is
# the same twice, and bad options give one line and status 2. About 5 s. With
# MINI_MPI_TEST_LONG=1 also a full sweep of examples/resilient_ring. Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
build=${MINI_MPI_TEST_BUILD:-build}
prog=$build/tests/mpi/sweep_target
[ -x "$prog" ] || { echo "missing $prog (run make)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; }

# ---- MINI_MPI_CALL_COUNTS ----------------------------------------------------------------
MINI_MPI_NP=3 MINI_MPI_CALL_COUNTS=$tmp/counts "$prog" >/dev/null 2>&1 ||
    fail "the fault-free run of sweep_target"
cat >"$tmp/counts.expected" <<'EOF'
# mini_mpi call counts: 3 ranks
0 calls 9
0 MPI_Init 1
0 MPI_Finalize 1
0 MPI_Comm_rank 1
0 MPI_Comm_set_errhandler 1
0 MPI_Barrier 2
0 MPIX_Comm_agree 3
1 calls 10
1 MPI_Init 1
1 MPI_Finalize 1
1 MPI_Recv 1
1 MPI_Comm_rank 1
1 MPI_Comm_set_errhandler 1
1 MPI_Barrier 2
1 MPIX_Comm_agree 3
2 calls 10
2 MPI_Init 1
2 MPI_Finalize 1
2 MPI_Ssend 1
2 MPI_Comm_rank 1
2 MPI_Comm_set_errhandler 1
2 MPI_Barrier 2
2 MPIX_Comm_agree 3
EOF
# Per-call lines are in calls.def order, which other subsystems may rearrange: compare sorted.
if diff <(sort "$tmp/counts.expected") <(sort "$tmp/counts") >"$tmp/diff" &&
    head -n 2 "$tmp/counts" | tail -n 1 | grep -qx '0 calls 9'; then
    ok "MINI_MPI_CALL_COUNTS file"
else
    fail "MINI_MPI_CALL_COUNTS file:"; cat "$tmp/diff"
fi
for bad in '' /nonexistent/dir/file "$tmp"; do
    out=$(MINI_MPI_NP=3 MINI_MPI_CALL_COUNTS=$bad "$prog" 2>&1)
    st=$?
    if [ "$st" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] &&
        grep -q "^mini_mpi: MINI_MPI_CALL_COUNTS='$bad' is invalid" <<<"$out"; then
        ok "MINI_MPI_CALL_COUNTS='$bad' rejected"
    else
        fail "MINI_MPI_CALL_COUNTS='$bad': status $st, output: $out"
    fi
done

# ---- The full sweep: the grid of sweep_target ---------------------------------------------
bin/mpiexec --fault-sweep -j 2 --csv "$tmp/grid.csv" --json "$tmp/grid.json" \
    --html "$tmp/grid.html" -n 3 "$prog" >"$tmp/summary" 2>"$tmp/progress"
st=$?
[ "$st" = 1 ] || fail "full sweep: status $st, expected 1 (some runs fail)"
# rank,call_index,call_name,outcome,exit_status: deaths at calls 1-4 fail the setup (status 3),
# rank 2 dying before its data reached rank 1 gives a wrong result, every other death passes.
expected_grid() {
    echo rank,call_index,call_name,outcome,exit_status
    local r names
    for r in 0 1 2; do
        case $r in
            0) names="MPI_Init MPI_Comm_rank MPI_Comm_set_errhandler MPI_Barrier MPIX_Comm_agree
                      MPIX_Comm_agree MPI_Barrier MPIX_Comm_agree MPI_Finalize" ;;
            1) names="MPI_Init MPI_Comm_rank MPI_Comm_set_errhandler MPI_Barrier MPIX_Comm_agree
                      MPI_Recv MPIX_Comm_agree MPI_Barrier MPIX_Comm_agree MPI_Finalize" ;;
            2) names="MPI_Init MPI_Comm_rank MPI_Comm_set_errhandler MPI_Barrier MPIX_Comm_agree
                      MPI_Ssend MPIX_Comm_agree MPI_Barrier MPIX_Comm_agree MPI_Finalize" ;;
        esac
        local k=0 n
        for n in $names; do
            k=$((k + 1))
            if [ "$k" -le 4 ]; then echo "$r,$k,$n,failed,3"
            elif [ "$r" = 2 ] && [ "$k" -le 6 ]; then echo "$r,$k,$n,failed,0"
            else echo "$r,$k,$n,passed,0"
            fi
        done
    done
}
if diff <(expected_grid) <(cut -d, -f1-5 "$tmp/grid.csv") >"$tmp/diff"; then
    ok "CSV grid (29 runs)"
else
    fail "CSV grid differs from the expected one:"; cat "$tmp/diff"
fi
awk -F, 'NR > 1 && !($6 ~ /^[0-9]+\.[0-9][0-9][0-9]$/ && $6 < 10) { bad = 1 } END { exit bad }' \
    "$tmp/grid.csv" || fail "CSV wall times are not seconds with 3 decimals"
grep -q '^  passed *15$' "$tmp/summary" &&
    grep -q '^  failed *14  (exit 3: 12, wrong output: 2)$' "$tmp/summary" &&
    grep -q '^  deadlocked *0$' "$tmp/summary" || fail "summary counts:$(cat "$tmp/summary")"
# Every failing run is listed with its reproducer, and the reproducer reproduces it.
repro_re='^    MINI_MPI_FAULTS="kill [0-2] at any#[0-9]*" .*/mpiexec -n 3 .*sweep_target$'
n_repro=$(grep -c "$repro_re" "$tmp/summary")
[ "$n_repro" = 14 ] || fail "expected 14 reproducer lines, got $n_repro"
line=$(grep -A1 '^  rank 2, call 6 (MPI_Ssend): failed' "$tmp/summary" | tail -n 1)
case $line in
    '    MINI_MPI_FAULTS="kill 2 at any#6" '*) ok "reproducer printed: ${line#    }" ;;
    *) fail "no reproducer for rank 2 call 6: '$line'" ;;
esac
out=$(eval "${line#    }" 2>&1)
st=$?
[ "$st" = 0 ] && grep -q "^wrong result" <<<"$out" && ! grep -q "No Errors" <<<"$out" ||
    fail "the reproducer does not reproduce (status $st): $out"
grep -q 'runs done (100%)' "$tmp/progress" || fail "no progress lines on a non-tty stderr"
# HTML: self-contained, the grid with one cell per run, coloured by outcome, with tooltips.
if [ -s "$tmp/grid.html" ] &&
    [ "$(grep -o '<td class="passed"' "$tmp/grid.html" | wc -l)" = 15 ] &&
    [ "$(grep -o '<td class="failed"' "$tmp/grid.html" | wc -l)" = 14 ] &&
    grep -q '<td class="failed" id="any-r2-k6" title="rank 2, call 6 (MPI_Ssend): failed, '\
'[^"]*MINI_MPI_FAULTS=&quot;kill 2 at any#6&quot;' "$tmp/grid.html" &&
    grep -q '<td class="passed" id="any-r2-k7"' "$tmp/grid.html" &&
    ! grep -qE '<(script|link|img)[ >]' "$tmp/grid.html" && grep -q '</html>' "$tmp/grid.html"; then
    ok "HTML grid"
else
    fail "HTML report lacks the grid"
fi
grep -q '"summary": {"runs": 29, "passed": 15, "failed": 14, "deadlocked": 0, "hung": 0, '\
'"timeout": 0, "crashed": 0}' "$tmp/grid.json" &&
    [ "$(grep -c '^    {"rank": ' "$tmp/grid.json")" = 29 ] &&
    grep -q '{"rank": 2, "call_index": 6, "call_name": "MPI_Ssend", "outcome": "failed", '\
'"exit_status": 0,' "$tmp/grid.json" ||
    fail "JSON report"

# MPICH's convention: every killed rank fails the job with 137, so every run fails; the summary
# lists the first 20 only.
out=$(MINI_MPI_EXIT_STATUS=mpich bin/mini_mpi_sweep -q -n 3 "$prog" 2>&1)
st=$?
[ "$st" = 1 ] && grep -q '^  failed *29  (exit 137: 29)$' <<<"$out" &&
    [ "$(grep -c '^    MINI_MPI_FAULTS=' <<<"$out")" = 20 ] &&
    grep -q '^  and 9 more (see --csv, --json, --html)$' <<<"$out" &&
    ok "MINI_MPI_EXIT_STATUS=mpich: 29 runs fail with 137, 20 listed" ||
    fail "MPICH convention sweep: status $st: $out"

# ---- --calls, and the other outcome classes -------------------------------------------------
# --ranks: only those ranks' rows.
bin/mini_mpi_sweep --calls MPI_Barrier --ranks 2,0 -q --csv "$tmp/ranks.csv" -n 3 "$prog" >/dev/null
[ "$(tail -n +2 "$tmp/ranks.csv" | cut -d, -f1-5 | tr '\n' ' ')" = "0,1,MPI_Barrier,failed,3 \
0,2,MPI_Barrier,passed,0 2,1,MPI_Barrier,failed,3 2,2,MPI_Barrier,passed,0 " ] &&
    ok "--calls MPI_Barrier --ranks 2,0" || fail "--ranks: $(cat "$tmp/ranks.csv")"
# Every death at MPI_Finalize is survived: status 0.
out=$(bin/mini_mpi_sweep --calls MPI_Finalize -q -n 3 "$prog" 2>&1)
st=$?
[ "$st" = 0 ] && grep -q '^3 runs: .* at MPI_Finalize' <<<"$out" &&
    grep -q '^Every run passed.$' <<<"$out" ||
    fail "--calls MPI_Finalize: status $st: $out"
# hang: when rank 2's data is lost ranks 0 and 1 wait for each other: the library's hang
# detector reports it (status 123) at once.
bin/mini_mpi_sweep --calls MPI_Ssend --timeout 3 -q --csv "$tmp/hang.csv" -n 3 "$prog" hang \
    >"$tmp/hang.out" 2>&1
st=$?
row=$(tail -n +2 "$tmp/hang.csv")
case $st,$row in
    1,2,1,MPI_Ssend,deadlocked,123,*) ok "hang: $row" ;;
    *) fail "hang classified as: status $st, $row"; cat "$tmp/hang.out" ;;
esac
# spin: ranks 0 and 1 compute forever: the library's watchdog (MINI_MPI_TIMEOUT, 1 s here) ends
# the run with status 124; without it (--watchdog 0) the sweep's own timeout does.
for args in "--timeout 2:hung,124" "--timeout 1 --watchdog 0:timeout,"; do
    bin/mini_mpi_sweep --calls MPI_Ssend ${args%%:*} -q --csv "$tmp/spin.csv" -n 3 "$prog" spin \
        >"$tmp/spin.out" 2>&1
    st=$?
    row=$(tail -n +2 "$tmp/spin.csv" | cut -d, -f1-5)
    [ "$st,$row" = "1,2,1,MPI_Ssend,${args#*:}" ] && ok "spin with ${args%%:*}: $row" ||
        { fail "spin with ${args%%:*} classified as: status $st, $row"; cat "$tmp/spin.out"; }
done
# crash: both survivors abort(): every rank died, the job's status is SIGABRT's.
bin/mini_mpi_sweep --calls MPI_Ssend -q --csv "$tmp/crash.csv" -n 3 "$prog" crash \
    >"$tmp/crash.out" 2>&1
st=$?
row=$(tail -n +2 "$tmp/crash.csv" | cut -d, -f1-5,7)
[ "$st,$row" = "1,2,1,MPI_Ssend,crashed,134,signal 6 (SIGABRT)" ] && ok "crash: $row" ||
    fail "crash classified as: status $st, $row"

# ---- --budget / --seed: the same sample twice, and the seed is printed ---------------------
for i in 1 2; do
    bin/mini_mpi_sweep --budget 6 --seed 12345 -q --csv "$tmp/b$i.csv" -n 3 "$prog" \
        >"$tmp/b$i.out" 2>"$tmp/b$i.err"
done
[ "$(wc -l <"$tmp/b1.csv")" = 7 ] &&
    cmp -s <(cut -d, -f1-5 "$tmp/b1.csv") <(cut -d, -f1-5 "$tmp/b2.csv") &&
    grep -q -- '--seed 12345' "$tmp/b1.err" && grep -q -- '--seed 12345' "$tmp/b1.out" &&
    ok "--budget 6 --seed 12345 twice: $(tail -n +2 "$tmp/b1.csv" | cut -d, -f1,2 | tr '\n' ' ')" ||
    fail "--budget/--seed sample"
# Each sampled run has the full sweep's outcome (its call name is known only when the run one
# call earlier is in the sample too).
join_rows() { tail -n +2 "$1" | cut -d, -f1,2,4,5 | sort; }
[ -z "$(comm -23 <(join_rows "$tmp/b1.csv") <(join_rows "$tmp/grid.csv"))" ] ||
    fail "sampled runs differ from the full sweep's"

# ---- Usage errors: one line, status 2 ------------------------------------------------------
usage_error() { # expected-text args...
    local want=$1 out st
    shift
    out=$("$@" 2>&1 >/dev/null)
    st=$?
    if [ "$st" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q -- "$want" <<<"$out"; then
        ok "usage error: $*"
    else
        fail "'$*': status $st (expected 2), output: $out"
    fi
}
usage_error "no program given" bin/mini_mpi_sweep
usage_error "--budget: '0' is not a positive integer" bin/mini_mpi_sweep --budget 0 -n 3 "$prog"
usage_error "-j: 'x' is not a positive integer" bin/mini_mpi_sweep -j x -n 3 "$prog"
usage_error "option --timeout needs a value" bin/mini_mpi_sweep --timeout
usage_error "--calls: 'MPI_Send;x' is not" bin/mini_mpi_sweep --calls 'MPI_Send;x' -n 3 "$prog"
usage_error "no rank calls MPI_Bcast" bin/mini_mpi_sweep --calls MPI_Bcast -n 3 "$prog"
usage_error "not a valid extended regular expression" bin/mini_mpi_sweep --expect-output '(' "$prog"
usage_error "--csv: cannot write" bin/mini_mpi_sweep --csv /nonexistent/x.csv -n 3 "$prog"
usage_error "--ranks: rank 3 does not exist" bin/mini_mpi_sweep --ranks 0,3 -n 3 "$prog"
usage_error "--ranks: '1-2' is not" bin/mini_mpi_sweep --ranks 1-2 -n 3 "$prog"
usage_error "must be shorter than --timeout" bin/mini_mpi_sweep --timeout 5 --watchdog 5 "$prog"
usage_error "rank count '0' is out of range" bin/mpiexec --fault-sweep -n 0 "$prog"
usage_error "unknown option '--bogus'" bin/mpiexec --fault-sweep --bogus -n 3 "$prog"
usage_error "wrote no MPI call counts" bin/mpiexec --fault-sweep -n 3 /bin/true
usage_error "--fault-sweep must be the first option" bin/mpiexec -n 3 --fault-sweep "$prog"
# A program that fails without any fault: status 1, not a sweep.
out=$(bin/mini_mpi_sweep --expect-output '^never printed$' -n 3 "$prog" 2>&1)
[ $? = 1 ] && grep -q "fails without any injected fault" <<<"$out" ||
    fail "a fault-free run that fails the output check: $out"

# ---- Long: a full sweep of the flagship example --------------------------------------------
if [ "${MINI_MPI_TEST_LONG:-0}" = 1 ]; then
    ring=$build/examples/resilient_ring
    bin/mini_mpi_sweep -q --csv "$tmp/ring.csv" -n 4 "$ring" >"$tmp/ring.out" 2>&1
    # A death before MPI_Comm_set_errhandler (calls 1-3: Init, Comm_rank, Comm_dup) is fatal to
    # the survivors' MPI_Comm_dup under MPI_ERRORS_ARE_FATAL; every later death is recovered.
    bad=$(awk -F, 'NR > 1 && ($4 != "passed") != ($2 <= 3) { print }' "$tmp/ring.csv")
    [ "$(wc -l <"$tmp/ring.csv")" = 229 ] && [ -z "$bad" ] && ok "resilient_ring: 228 runs" ||
        { fail "resilient_ring sweep:"; echo "$bad" | head; head -n 12 "$tmp/ring.out"; }
fi

[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all fault sweep checks passed"
