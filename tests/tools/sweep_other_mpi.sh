#!/bin/bash
# sweep_other_mpi.sh: the fault sweep on Debian's Open MPI and MPICH (mpiexec --fault-sweep
# --mpiexec CMD, and MINI_MPI_SWEEP_MPIEXEC), with libmini_mpi_inject.so preloaded into a
# program built by that MPI's mpicc (tests/mpi/sweep_other_mpi.c, whose call table is known).
# Every cell is checked: its log holds the injector's death line for exactly that rank and call,
# the CSV names the call the program's table names (and mini_mpi's own sweep of the same source
# names), the outcome is the launcher ending the job (neither MPI has ULFM: Open MPI's status
# 137, Hydra's 9 for signal 9); one reproducer is run and reproduces; the JUnit report holds
# one failing test case per run; --calls works there; bad values give one line and status 2.
# An MPI that is not installed is skipped (one SKIP line); with neither, the test is skipped
# (exit 77). Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
build=${MINI_MPI_TEST_BUILD:-build}
mini=$build/tests/mpi/sweep_other_mpi
[ -x "$mini" ] || { echo "missing $mini (run make)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0 tested=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; }
# Debian's Open MPI refuses root without these; CI containers run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset MINI_MPI_FAULTS MINI_MPI_VERBOSE MINI_MPI_CALL_COUNTS MINI_MPI_SWEEP_MPIEXEC

# The program's call table (its header): rank call_index call_name.
cat >"$tmp/table" <<'EOF'
0 1 MPI_Init
0 2 MPI_Comm_set_errhandler
0 3 MPI_Comm_rank
0 4 MPI_Send
0 5 MPI_Allreduce
0 6 MPI_Finalize
1 1 MPI_Init
1 2 MPI_Comm_set_errhandler
1 3 MPI_Comm_rank
1 4 MPI_Recv
1 5 MPI_Allreduce
1 6 MPI_Finalize
EOF
# rank,call_index,call_name of a CSV report, as "r k name" lines.
names_of() { tail -n +2 "$1" | cut -d, -f1-3 | tr , ' '; }

# mini_mpi's sweep of the same source names the same calls.
bin/mpiexec --fault-sweep -q --csv "$tmp/mini.csv" -n 2 "$mini" >/dev/null 2>&1
if [ "$(names_of "$tmp/mini.csv")" = "$(cat "$tmp/table")" ]; then
    ok "mini_mpi's sweep names the calls of the table"
else
    fail "mini_mpi's sweep names other calls:"; names_of "$tmp/mini.csv"
fi

for mpi in openmpi mpich; do
    if ! command -v "mpicc.$mpi" >/dev/null || ! command -v "mpiexec.$mpi" >/dev/null; then
        echo "SKIP $mpi: mpicc.$mpi or mpiexec.$mpi not installed (scripts/install-compare-mpis.sh)"
        continue
    fi
    [ -f "$build/inject/$mpi/libmini_mpi_inject.so" ] ||
        { fail "$mpi: missing $build/inject/$mpi/libmini_mpi_inject.so (make inject)"; continue; }
    prog=$tmp/prog.$mpi
    "mpicc.$mpi" -O1 -o "$prog" tests/mpi/sweep_other_mpi.c || { fail "$mpi: cannot build"; continue; }
    tested=$((tested + 1))
    case $mpi in
        openmpi) launcher="mpiexec.openmpi --oversubscribe" status=137
                 detail="exit status 137: a process was killed and the launcher ended the job (no ULFM)" ;;
        mpich) launcher=mpiexec.mpich status=9
               detail="exit status 9 (Hydra's for signal 9): a process was killed and the launcher ended the job (no ULFM)" ;;
    esac
    d=$tmp/$mpi
    mkdir -p "$d"
    # Generous timeout: the machine may be loaded, and the test checks outcomes, not speed.
    MINI_MPI_VERBOSE=1 MINI_MPI_BUILD=$build bin/mpiexec --fault-sweep -q -j 2 --timeout 60 \
        --mpiexec "$launcher" --csv "$d/sweep.csv" --junit "$d/sweep.xml" --logs "$d/logs" \
        -n 2 "$prog" >"$d/summary" 2>"$d/err"
    st=$?
    [ "$st" = 1 ] || { fail "$mpi: sweep status $st, expected 1"; cat "$d/err"; continue; }

    # Every cell: the call, the outcome, the status, the detail; and its death line.
    want=$(awk -v s="$status" -v d="$detail" '{ printf "%s,%s,%s,failed,%s,%s,kill %s at any#%s\n",
               $1, $2, $3, s, d, $1, $2 }' "$tmp/table")
    got=$(tail -n +2 "$d/sweep.csv" | awk -F, -v OFS=, '{ $6 = ""; print }' | sed 's/,,/,/')
    if [ "$got" = "$want" ]; then
        ok "$mpi: every cell killed at the table's call, the launcher ended the job ($status)"
    else
        fail "$mpi: CSV grid differs:"; diff <(echo "$want") <(echo "$got")
    fi
    bad=0
    while read -r r k name; do
        line=$(grep '^mini_mpi: injected death' "$d/logs/rank$r-any-$k.err" 2>/dev/null)
        [ "$line" = "mini_mpi: injected death: rank $r at any call #$k" ] ||
            { fail "$mpi: rank $r call $k: death line '$line'"; bad=1; }
    done <"$tmp/table"
    [ "$bad" = 0 ] && ok "$mpi: each run's log shows its rank dying at its call"

    # A reproducer from the summary reproduces that death (rank 1 in MPI_Recv).
    repro=$(grep -A1 '^  rank 1, call 4 (MPI_Recv): failed' "$d/summary" | tail -n 1)
    case $repro in
        *'MINI_MPI_FAULTS="kill 1 at any#4" '*) ;;
        *) fail "$mpi: no reproducer for rank 1, call 4 in the summary" ;;
    esac
    MINI_MPI_VERBOSE=1 timeout -s KILL 60 bash -c "$repro" >"$d/repro.out" 2>&1
    st=$?
    if [ "$st" = "$status" ] &&
        grep -qx 'mini_mpi: injected death: rank 1 at any call #4' "$d/repro.out"; then
        ok "$mpi: the reproducer kills rank 1 at its MPI_Recv again"
    else
        fail "$mpi: reproducer '$repro': status $st"; tail -n 5 "$d/repro.out"
    fi

    # JUnit: one failing test case per run, named by its directive, with the reproducer.
    if python3 - "$d/sweep.xml" "$status" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall("./testsuite/testcase")
assert root.get("tests") == "12" and root.get("failures") == "12", root.attrib
assert [c.get("name") for c in cases] == \
    ["kill %d at any#%d" % (r, k) for r in (0, 1) for k in range(1, 7)]
for c in cases:
    f = c.find("failure")
    assert f is not None and f.get("type") == "failed", c.get("name")
    assert "exit status: %s\n" % sys.argv[2] in f.text, f.text
    assert 'reproduce: MINI_MPI_FAULTS="%s" mpiexec.' % c.get("name") in f.text, f.text
    assert "mini_mpi: injected death" in f.text, f.text
EOF
    then ok "$mpi: JUnit report"; else fail "$mpi: JUnit report"; fi

    # --calls, the launcher from MINI_MPI_SWEEP_MPIEXEC.
    MINI_MPI_SWEEP_MPIEXEC=$launcher MINI_MPI_VERBOSE=1 bin/mpiexec --fault-sweep -q \
        --timeout 60 --calls MPI_Allreduce --csv "$d/calls.csv" --logs "$d/calls" -n 2 "$prog" \
        >/dev/null 2>&1
    if [ "$(names_of "$d/calls.csv")" = "$(printf '0 1 MPI_Allreduce\n1 1 MPI_Allreduce')" ] &&
        grep -qx 'mini_mpi: injected death: rank 1 at MPI_Allreduce #1' \
            "$d/calls/rank1-MPI_Allreduce-1.err"; then
        ok "$mpi: --calls MPI_Allreduce through MINI_MPI_SWEEP_MPIEXEC"
    else
        fail "$mpi: --calls MPI_Allreduce"; cat "$d/calls.csv"
    fi
    # A program built with mini_mpi's mpicc is not one job of that MPI.
    out=$(bin/mpiexec --fault-sweep -q --timeout 60 --mpiexec "$launcher" -n 2 "$mini" 2>&1)
    st=$?
    [ "$st" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] || fail "$mpi: a mini_mpi program: status $st, '$out'"
done
[ "$tested" = 0 ] && [ "$failures" = 0 ] && { echo "SKIP neither Open MPI nor MPICH is installed"; exit 77; }

# Bad values: one line, status 2, before anything runs.
prog=$tmp/prog.openmpi
[ -x "$prog" ] || prog=$tmp/prog.mpich
while IFS='|' read -r what words; do
    eval "args=($words)"
    out=$(bin/mpiexec --fault-sweep -q "${args[@]}" -n 2 "$prog" 2>&1 >/dev/null)
    st=$?
    if [ "$st" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "^mini_mpi_sweep: .*$what" <<<"$out"; then
        ok "refused: $out"
    else
        fail "${args[*]}: status $st, '$out'"
    fi
done <<'EOF'
--mpiexec: empty|--mpiexec ''
not a command|--mpiexec no_such_launcher
unbalanced quotes|--mpiexec "mpiexec.mpich 'x"
mini_mpi's own mpiexec|--mpiexec bin/mpiexec
names neither Open MPI nor MPICH|--mpiexec true
only --timeout applies|--mpiexec mpiexec.mpich --watchdog 3
not a readable file|--mpiexec mpiexec.mpich --inject-lib /no/such.so
for sweeps on another MPI|--inject-lib build/inject/mpich/libmini_mpi_inject.so
--junit: cannot write|--mpiexec mpiexec.mpich --junit /no/such/dir/x.xml
EOF
out=$(MINI_MPI_SWEEP_MPIEXEC='' bin/mpiexec --fault-sweep -q -n 2 "$prog" 2>&1)
st=$?
[ "$st" = 2 ] && [ "$out" = "mini_mpi_sweep: MINI_MPI_SWEEP_MPIEXEC: empty, expected an MPI launcher (mpiexec.openmpi ...)" ] ||
    fail "MINI_MPI_SWEEP_MPIEXEC='': status $st, '$out'"
[ "$failures" = 0 ]
