#!/bin/bash
# exported_names.sh: every MPI_ and PMPI_ function that Debian's MPICH 4.0.2 exports
# (libmpich.so.12) is exported by our libmini_mpi.so too, so that a program linked against
# MPICH links against us. Not compared: MPI_T_ (the tool interface has its own list), the
# Fortran-only names (lower case mpi_..., and the mpi_f08 ones ending in _f08) and MPIX_
# (MPICH's own extensions). Data symbols (MPICH's MPI_F_STATUS_IGNORE, MPI_UNWEIGHTED, ...) are
# constants in our mpi.h: listed for information only. Prints the missing names, one a line.
# Exit 0 pass, 1 fail, 77 skip (libmpich not installed).
# Environment: MINI_MPI_TEST_BUILD (default build), MINI_MPI_MPICH_LIB (default Debian's path).
cd "$(dirname "$0")/../.." || exit 1
ours=${MINI_MPI_TEST_BUILD:-build}/lib/libmini_mpi.so
ref=${MINI_MPI_MPICH_LIB:-/usr/lib/x86_64-linux-gnu/libmpich.so.12}
[ -r "$ref" ] || { echo "SKIP $ref not installed (Debian package libmpich12)"; exit 77; }
[ -r "$ours" ] || { echo "FAIL $ours not built"; exit 1; }
command -v nm >/dev/null || { echo "SKIP no nm (binutils)"; exit 77; }

# The compared names of a library: functions (T, W, i), MPI_ or PMPI_, minus the exceptions.
names() {
    nm -D --defined-only "$1" | awk -v want="$2" '
        { kind = ($2 ~ /^[TWi]$/) ? "func" : "data"; name = $3 }
        kind != want { next }
        name !~ /^P?MPI_/ || name ~ /^P?MPI_T_/ || name ~ /_f08$/ { next }
        { print name }' | sort -u
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names "$ref" func >"$tmp/mpich"
names "$ours" func >"$tmp/ours"
comm -23 "$tmp/mpich" "$tmp/ours" >"$tmp/missing"
names "$ref" data >"$tmp/mpich_data"
names "$ours" data >"$tmp/ours_data"

total=$(wc -l <"$tmp/mpich")
missing=$(wc -l <"$tmp/missing")
echo "MPICH exports $total compared functions; $((total - missing)) are ours too, $missing missing"
if [ -s "$tmp/missing" ]; then
    # Both spellings missing is one function; list each once with which names lack.
    sed -E 's/^PMPI_/MPI_/' "$tmp/missing" | sort -u | while read -r n; do
        if grep -qx "$n" "$tmp/missing" && grep -qx "P$n" "$tmp/missing"; then
            echo "missing: $n (and P$n)"
        elif grep -qx "$n" "$tmp/missing"; then
            echo "missing: $n"
        else
            echo "missing: P$n"
        fi
    done
fi
data=$(comm -23 "$tmp/mpich_data" "$tmp/ours_data" | tr '\n' ' ')
[ -n "$data" ] && echo "note: MPICH data symbols that are constants of our mpi.h: $data"
if [ -s "$tmp/missing" ]; then
    echo "FAIL $missing exported names missing"
    exit 1
fi
echo "ok   every compared MPICH name is exported"
