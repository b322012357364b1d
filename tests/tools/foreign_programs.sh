#!/bin/bash
# foreign_programs.sh: what bin/mpiexec does with a program not linked by our mpicc (README,
# "mpiexec"): a program without MPI runs N times, each copy with its MINI_MPI_RANK, silently;
# one linked with another MPI's library (a stub libmpi.so.40 here, as Open MPI names it) runs
# the same way after one note on stderr naming that library; one linked with libmini_mpi.so by
# hand, without main exported, stops with one line and status 2. Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
repo=$PWD
[ -e build/lib/libmini_mpi.so ] || { echo "missing build/lib/libmini_mpi.so (run make)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

cat >"$tmp/plain.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
    const char *r = getenv("MINI_MPI_RANK");
    printf("copy %s\n", r ? r : "none");
    return r && !strcmp(r, "2") ? 3 : 0;
}
EOF
cat >"$tmp/stub.c" <<'EOF'
int stub_mpi_init(void) { return 0; }
EOF
cat >"$tmp/other.c" <<'EOF'
#include <stdio.h>
int stub_mpi_init(void);
int main(void) { printf("rank 0 of %d\n", 1 + stub_mpi_init()); return 0; }
EOF
cc -O1 "$tmp/plain.c" -o "$tmp/plain" &&
    cc -shared -fPIC -Wl,-soname,libmpi.so.40 "$tmp/stub.c" -o "$tmp/libmpi.so.40" &&
    cc -O1 "$tmp/other.c" -o "$tmp/other" "$tmp/libmpi.so.40" &&
    cc -O1 -Imini_mpi/include -Itests/mpi/include tests/mpi/hello.c -o "$tmp/by_hand" \
        -Lbuild/lib -lmini_mpi ||
    { echo "FAIL: cannot build the test programs"; exit 1; }

# A program without MPI: 4 copies, ranks 0..3, no note; the status is the first non-zero one.
out=$(bin/mpiexec -n 4 "$tmp/plain" 2>"$tmp/err")
status=$?
[ "$(printf '%s\n' "$out" | sort | tr '\n' ' ')" = "copy 0 copy 1 copy 2 copy 3 " ] ||
    fail "plain program: stdout '$out'"
[ "$status" = 3 ] || fail "plain program: status $status, expected 3 (copy 2's)"
[ -s "$tmp/err" ] && fail "plain program: stderr: $(cat "$tmp/err")"
[ $failures = 0 ] && echo "ok   a program without MPI runs 4 times, MINI_MPI_RANK 0..3, silently"

# Linked with another MPI: the same, after one note naming the library.
before=$failures
out=$(LD_LIBRARY_PATH=$tmp bin/mpiexec -n 3 "$tmp/other" 2>"$tmp/err")
status=$?
[ "$(printf '%s\n' "$out" | grep -c '^rank 0 of 1$')" = 3 ] || fail "other MPI: stdout '$out'"
[ "$status" = 0 ] || fail "other MPI: status $status"
[ "$(wc -l <"$tmp/err")" = 1 ] &&
    grep -q "^mpiexec: note: .*linked with another MPI (libmpi.so.40), not mini_mpi: .*bin/mpicc$" \
        "$tmp/err" || fail "other MPI: stderr: $(cat "$tmp/err")"
[ $failures = "$before" ] && echo "ok   another MPI's program: $(cat "$tmp/err")"

# Linked with libmini_mpi.so without mpicc: main is not exported, one line, status 2.
before=$failures
out=$(LD_LIBRARY_PATH=$repo/build/lib bin/mpiexec -n 2 "$tmp/by_hand" 2>"$tmp/err")
status=$?
[ "$status" = 2 ] && [ -z "$out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
    grep -q "link it with mpicc" "$tmp/err" ||
    fail "libmini_mpi without mpicc: status $status, stdout '$out', stderr: $(cat "$tmp/err")"
[ $failures = "$before" ] && echo "ok   libmini_mpi.so linked by hand: $(cat "$tmp/err")"

[ $failures = 0 ] || { echo "$failures failure(s)"; exit 1; }
exit 0
