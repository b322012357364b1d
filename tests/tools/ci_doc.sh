#!/bin/bash
# ci_doc.sh: the CI jobs of docs/ci.md work. Extracts the commands between "# >>> mini_mpi ci"
# and "# <<< mini_mpi ci" from its GitHub Actions and GitLab CI jobs (which must be the same
# commands), and runs them with bash -e in a small user project (an MPI program, a Makefile with
# `check`) in a temporary directory, with MINI_MPI_DIR this tree. apt-get is run for real only
# when one of the packages it names is missing (then with network); otherwise it is skipped,
# as it would change nothing. Checks that the program was built with our mpicc, its tests ran,
# and the reports exist: an HTML page with the grid and JUnit XML with one test case per run.
# Exit 0 pass, 1 fail, 77 without python3 (used to read the XML).
cd "$(dirname "$0")/../.." || exit 1
repo=$PWD
command -v python3 >/dev/null 2>&1 || { echo "SKIP python3 not installed"; exit 77; }
[ -e "${MINI_MPI_TEST_BUILD:-build}/lib/libmini_mpi.so" ] || { echo "missing the library (run make)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; }

# The marked blocks, dedented by their marker's indentation: $tmp/block.1 (GitHub), .2 (GitLab).
awk -v dir="$tmp" '
    /# >>> mini_mpi ci$/ { n++; match($0, /^ */); indent = RLENGTH; on = 1 }
    on { print substr($0, indent + 1) > (dir "/block." n) }
    /# <<< mini_mpi ci$/ { on = 0 }
    END { print n + 0 > (dir "/blocks") }' docs/ci.md
[ "$(cat "$tmp/blocks")" = 2 ] || { fail "docs/ci.md: expected 2 marked blocks, found $(cat "$tmp/blocks")"; exit 1; }
if cmp -s "$tmp/block.1" "$tmp/block.2"; then
    ok "GitHub and GitLab jobs run the same $(wc -l <"$tmp/block.1") lines"
else
    fail "GitHub and GitLab blocks differ:"; diff "$tmp/block.1" "$tmp/block.2"
fi
grep -q 'actions/upload-artifact' docs/ci.md && grep -q 'junit: reports/sweep.xml' docs/ci.md ||
    fail "docs/ci.md: artifacts (upload-artifact, GitLab's junit report) missing"

# A small user project: a program that survives any one death, its Makefile with `check`.
proj=$tmp/project
mkdir -p "$proj"
cat >"$proj/app.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, one = 1, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: %s\n", rank, rc == MPI_SUCCESS ? "sum ok" : "a peer failed, going on");
    MPI_Finalize();
    return 0;
}
EOF
printf 'app: app.c\n\t$(CC) -O2 -o app app.c\n\ncheck: app\n\tmpiexec -n 4 ./app > check.out\n\t[ "$$(grep -c "sum ok" check.out)" = 4 ] && echo "check passed" > check.ok\n' \
    >"$proj/Makefile"

# apt-get: for real only if a package named on the install line is missing.
cat >"$tmp/run.sh" <<'EOF'
apt-get() {
    local p missing=
    [ "$1" = update ] && return 0   # done below, only when something is to be installed
    for p in "$@"; do
        case $p in -*|install) continue ;; esac
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=" $p"
    done
    [ -z "$missing" ] && { echo "(apt-get skipped: every package is installed)"; return 0; }
    command apt-get update -qq && command apt-get "$@"
}
EOF
cat "$tmp/block.1" >>"$tmp/run.sh"
(cd "$proj" && MINI_MPI_DIR=$repo MINI_MPI_GIT=/nonexistent MINI_MPI_BUILD=${MINI_MPI_TEST_BUILD:-build} \
    timeout -s KILL 500 bash -e "$tmp/run.sh") >"$tmp/out" 2>&1
st=$?
if [ "$st" = 0 ]; then
    ok "the job's commands ran (status 0)"
else
    fail "the job's commands: status $st"; tail -n 20 "$tmp/out"
fi
grep -q 'libmini_mpi.so' <(ldd "$proj/app" 2>/dev/null) && ok "app linked by mini_mpi's mpicc" ||
    fail "app not built with mini_mpi's mpicc"
[ -f "$proj/check.ok" ] && ok "make check ran the program on 4 ranks" || fail "make check"
grep -q '^Fault sweep of .*mpiexec -n 4 ./app$' "$tmp/out" && grep -q '^Every run passed.$' "$tmp/out" &&
    ok "the sweep ran: $(grep -m1 'runs:' "$tmp/out")" || fail "no sweep summary"
grep -q '<td class="passed" id="any-r3-k' "$proj/reports/sweep.html" 2>/dev/null &&
    ok "reports/sweep.html holds the grid" || fail "reports/sweep.html"
python3 - "$proj/reports/sweep.xml" "$proj/reports/sweep.csv" <<'EOF' && ok "reports/sweep.xml: one test case per run" || fail "reports/sweep.xml"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
rows = open(sys.argv[2]).read().splitlines()[1:]
cases = root.findall("./testsuite/testcase")
assert len(cases) == len(rows) > 0 and root.get("failures") == "0", (len(cases), len(rows))
assert {c.get("name") for c in cases} == {r.rsplit(",", 1)[1] for r in rows}
EOF
[ "$failures" = 0 ]
