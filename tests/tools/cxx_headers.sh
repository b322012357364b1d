#!/bin/bash
# cxx_headers.sh: mpi.h, mpi-ext.h and mini_mpi_inject.h compile as C++11, 14, 17 and 20 with
# -Wall -Wextra -pedantic -Werror through bin/mpicxx (and bin/mpic++, bin/mpiCC answer -show like
# it). Exit 0 pass, 1 fail, 77 skip (no C++ compiler).
cd "$(dirname "$0")/../.." || exit 1
command -v "${MINI_MPI_CXX:-c++}" >/dev/null || { echo "SKIP no C++ compiler"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <mpi.h>\n#include <mpi-ext.h>\n#include <mini_mpi_inject.h>\nint main() { return MPI_SUCCESS; }\n' >"$tmp/h.cpp"
failures=0
for std in 11 14 17 20; do
    if bin/mpicxx -std=c++$std -Wall -Wextra -pedantic -Werror -c "$tmp/h.cpp" -o "$tmp/h.o" 2>"$tmp/err"; then
        echo "ok   c++$std"
    else
        echo "FAIL c++$std"; head -n 5 "$tmp/err"; failures=$((failures + 1))
    fi
done
for w in mpic++ mpiCC; do
    [ "$(bin/$w -show x.cpp)" = "$(bin/mpicxx -show x.cpp)" ] || { echo "FAIL $w -show"; failures=$((failures + 1)); }
done
bin/mpicxx -show x.cpp | grep -q "^${MINI_MPI_CXX:-c++} " || { echo "FAIL mpicxx does not use the C++ compiler"; failures=$((failures + 1)); }
[ "$failures" = 0 ]
