#!/bin/bash
# sweep_junit.sh: the fault sweep's JUnit report (--junit FILE) on tests/mpi/sweep_target, whose
# outcome per cell is known: one <testcase> per run named by its directive, a <failure> exactly
# for the runs the CSV says did not pass, carrying the outcome, the exit status, the reproducer
# (the JSON report's) and the tail of the run's output (the hang report of a deadlocked run);
# valid XML for a command holding markup; no <failure> when every run passed. Checked with
# python3's XML parser. Exit 0 pass, 1 fail, 77 without python3.
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null 2>&1 || { echo "SKIP python3 not installed"; exit 77; }
build=${MINI_MPI_TEST_BUILD:-build}
prog=$build/tests/mpi/sweep_target
[ -x "$prog" ] || { echo "missing $prog (run make)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; }

# The whole grid; the program ignores an argument it does not know, the report must escape it.
bin/mpiexec --fault-sweep -q --csv "$tmp/s.csv" --json "$tmp/s.json" --junit "$tmp/s.xml" \
    -n 3 "$prog" 'x<&"]]>' >/dev/null 2>&1
[ $? = 1 ] || fail "sweep status"
python3 - "$tmp/s.csv" "$tmp/s.json" "$tmp/s.xml" <<'EOF' && ok "full grid: 29 cases, 14 failures as the CSV says" || fail "full grid"
import csv, json, sys, xml.etree.ElementTree as ET
rows = list(csv.DictReader(open(sys.argv[1])))
runs = json.load(open(sys.argv[2]))["runs"]
root = ET.parse(sys.argv[3]).getroot()
cases = root.findall("./testsuite/testcase")
assert (root.get("tests"), root.get("failures")) == ("29", "14"), root.attrib
assert [c.get("name") for c in cases] == [r["faults"] for r in rows]
repro = {r["faults"]: r["reproducer"] for r in runs}
assert "x\\<\\&\\\"\\]\\]\\>" in root.find("./testsuite/properties/property").get("value")
for c, r in zip(cases, rows):
    assert c.get("classname") == "fault_sweep.rank" + r["rank"], c.attrib
    f = c.find("failure")
    if r["outcome"] == "passed":
        assert f is None, c.get("name")
        continue
    assert f.get("type") == r["outcome"], (f.attrib, r)
    assert f.get("message").startswith("failed: "), f.attrib
    t = f.text
    assert "outcome: failed\n" in t and "exit status: %s\n" % r["exit_status"] in t, t
    assert "died entering: %s\n" % r["call_name"] in t, t
    assert "reproduce: %s\n" % repro[c.get("name")] in t, t
EOF

# A deadlocked run: its failure holds the library's hang report (the tail of its stderr).
bin/mini_mpi_sweep -q --calls MPI_Ssend --timeout 3 --junit "$tmp/h.xml" -n 3 "$prog" hang \
    >/dev/null 2>&1
python3 - "$tmp/h.xml" <<'EOF' && ok "deadlocked run: type, status 123, hang report" || fail "deadlocked run"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
(c,) = root.findall("./testsuite/testcase")
f = c.find("failure")
assert c.get("name") == "kill 2 at MPI_Ssend#1" and f.get("type") == "deadlocked", f.attrib
assert "exit status: 123\n" in f.text and "--- stderr (last 20 lines) ---\n" in f.text, f.text
assert "mini_mpi: deadlock: every live rank is blocked" in f.text, f.text
EOF

# Every run passes: no failure element.
bin/mini_mpi_sweep -q --ranks 0 --calls MPI_Finalize --junit "$tmp/p.xml" -n 3 "$prog" \
    >/dev/null 2>&1 || fail "passing sweep status"
python3 - "$tmp/p.xml" <<'EOF' && ok "all passed: no failure" || fail "all passed"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert (root.get("tests"), root.get("failures")) == ("1", "0"), root.attrib
assert not root.findall(".//failure")
EOF
[ "$failures" = 0 ]
