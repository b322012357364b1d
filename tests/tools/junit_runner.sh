#!/bin/bash
# junit_runner.sh: JUNIT=file tests/run.sh (what `JUNIT=file make test` runs) writes JUnit XML of
# every result: one <testsuite> per kind (unit, mpi, tools, and list for a --list name that
# matches nothing), a <testcase> per result, <failure> carrying the reason and the output
# shown (control characters and invalid UTF-8 made valid XML, markup escaped), <skipped>.
# Run on a stand-in build directory whose unit binary and MPI programs are scripts with known
# results, plus two real tool scripts (one made to skip). Checked with python3's XML parser
# against the runner's own text report. Bad JUNIT values: one line, status 2. Exit 0 pass, 1
# fail, 77 without python3.
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null 2>&1 || { echo "SKIP python3 not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; }

fake=$tmp/build
mkdir -p "$fake/tests/unit" "$fake/tests/mpi"
# A cmocka-like unit binary: one test passes, one fails with markup in its message.
cat >"$fake/tests/unit/test_fake" <<'EOF'
#!/bin/sh
echo '[==========] Running 2 test(s).'
echo '[ RUN      ] passes'
echo '[       OK ] passes'
echo '[ RUN      ] fails'
echo 'assertion a < b && c > "d" failed'
echo '[  FAILED  ] fails'
echo '[==========] 2 test(s) run.'
echo '[  PASSED  ] 1 test(s).'
echo '[  FAILED  ] 1 test(s), listed below:'
echo '[  FAILED  ] fails'
exit 1
EOF
printf '#!/bin/sh\necho " No Errors"\n' >"$fake/tests/mpi/fake_ok"
# Output no XML 1.0 document can hold as is: control characters, invalid UTF-8, markup.
cat >"$fake/tests/mpi/fake_bad" <<'EOF'
#!/bin/sh
printf 'bell\007 escape\033[0m nul-free ctrl\001\037 done\n'
printf 'bad utf-8 \377\376 ok utf-8 \303\251\n'
printf 'markup <tag attr="v"> & ]]> end\n' >&2
exit 3
EOF
chmod +x "$fake/tests/unit/test_fake" "$fake/tests/mpi/fake_ok" "$fake/tests/mpi/fake_bad"
cat >"$tmp/testlist" <<'EOF'
fake_ok 1
fake_bad 1
fake_ok 1 exitcode=5
fake_ok 1 grep=<&"quoted">
EOF
cat >"$tmp/list" <<'EOF'
test_fake
fake_ok
fake_bad
fake_ok#2
fake_ok#3
ci_doc.sh
cxx_headers.sh
no_such_test
EOF
# cxx_headers.sh skips without a C++ compiler.
JUNIT=$tmp/report.xml MINI_MPI_CXX=no_such_compiler MINI_MPI_TEST_BUILD=$fake \
    MINI_MPI_TESTLIST=$tmp/testlist tests/run.sh --list "$tmp/list" >"$tmp/out" 2>&1
st=$?
[ "$st" = 1 ] || fail "run.sh status $st, expected 1"
# ci_doc.sh's own result, whichever it is, must be the one the XML gives.
fresh=pass summary='3 passed, 5 failed'
grep -q '^FAIL ci_doc.sh' "$tmp/out" && fresh=fail summary='2 passed, 6 failed'
tail -n 1 "$tmp/out" | grep -qx "$summary" || { fail "runner's summary:"; cat "$tmp/out"; }

if python3 - "$tmp/report.xml" "$fresh" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
fresh = sys.argv[2]
assert root.tag == "testsuites", root.tag
suites = {s.get("name"): s for s in root.findall("testsuite")}
assert list(suites) == ["unit", "mpi", "tools", "list"] or \
    sorted(suites) == ["list", "mpi", "tools", "unit"], list(suites)

def cases(kind):
    return {c.get("name"): c for c in suites[kind].findall("testcase")}

def status(c):
    if c.find("failure") is not None: return "fail"
    if c.find("skipped") is not None: return "skip"
    return "pass"

want = {
    "unit": {"test_fake/passes": "pass", "test_fake/fails": "fail"},
    "mpi": {"fake_ok": "pass", "fake_bad": "fail", "fake_ok#2": "fail", "fake_ok#3": "fail"},
    "tools": {"ci_doc.sh": fresh, "cxx_headers.sh": "skip"},
    "list": {"no_such_test": "fail"},
}
total = fails = skips = 0
for kind, expected in want.items():
    got = {n: status(c) for n, c in cases(kind).items()}
    assert got == expected, (kind, got)
    s = suites[kind]
    nf = sum(v == "fail" for v in got.values()); ns = sum(v == "skip" for v in got.values())
    assert (s.get("tests"), s.get("failures"), s.get("skipped")) == \
        (str(len(got)), str(nf), str(ns)), (kind, s.attrib)
    for c in cases(kind).values():
        assert c.get("classname") == kind, c.attrib
    total += len(got); fails += nf; skips += ns
assert (root.get("tests"), root.get("failures"), root.get("skipped")) == \
    (str(total), str(fails), str(skips)), root.attrib

f = cases("mpi")["fake_bad"].find("failure")
assert f.get("message") == "exit status 3, expected 0", f.attrib
text = f.text
for piece in ("bell? escape?[0m nul-free ctrl?? done", "bad utf-8  ok utf-8 \u00e9",
              'markup <tag attr="v"> & ]]> end'):
    assert piece in text, (piece, text)
f = cases("mpi")["fake_ok#2"].find("failure")
assert f.get("message") == "exit status 0, expected 5", f.attrib
f = cases("mpi")["fake_ok#3"].find("failure")
assert f.get("message") == 'no output line matches grep=<&"quoted">', f.attrib
assert "No Errors" in f.text, f.text
f = cases("unit")["test_fake/fails"].find("failure")
assert f.get("message") == "cmocka reported a failure", f.attrib
assert 'assertion a < b && c > "d" failed' in f.text, f.text
assert cases("mpi")["fake_ok"].get("time") is not None
s = cases("tools")["cxx_headers.sh"].find("skipped")
assert "no C++ compiler" in s.get("message"), s.attrib
assert "listed in" in cases("list")["no_such_test"].find("failure").get("message")
EOF
then
    ok "JUnit XML of unit, mpi and tool results, failures with escaped output, a skip"
else
    fail "JUnit XML:"; cat "$tmp/report.xml"
fi

# Every test passing: no <failure> at all.
echo 'fake_ok 1' >"$tmp/testlist.ok"
JUNIT=$tmp/ok.xml MINI_MPI_TEST_BUILD=$fake MINI_MPI_TESTLIST=$tmp/testlist.ok \
    tests/run.sh --filter '^fake_ok$' >"$tmp/out.ok" 2>&1 || fail "run.sh on one passing test"
python3 -c '
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert (r.get("tests"), r.get("failures")) == ("1", "0"), r.attrib
assert not r.findall(".//failure")' "$tmp/ok.xml" && ok "all passing: no failure element" ||
    fail "all passing: $(cat "$tmp/ok.xml")"

# Bad JUNIT values: one line, status 2, nothing run.
for bad in '' "$tmp" /no/such/dir/report.xml; do
    out=$(JUNIT=$bad tests/run.sh --filter '^no_test_has_this_name$' 2>&1)
    st=$?
    if [ "$st" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q '^run.sh: JUNIT: ' <<<"$out"; then
        ok "JUNIT='$bad' refused: $out"
    else
        fail "JUNIT='$bad': status $st, '$out'"
    fi
done
[ "$failures" = 0 ]
