#!/usr/bin/env bash
# tests/tools/cmake_shared_libs.sh: a CMake project built with BUILD_SHARED_LIBS=ON
# (tests/cmake/shared) keeps each rank's library state apart: its C library's static total and
# its C++ library's static std::vector are per rank, at 4 and 64 ranks. Configured both ways
# projects meet the wrappers (CC=mpicc, and CC=cc with FindMPI interrogating bin/mpicc).
# Exit status: 0 pass, 1 fail, 77 skip (cmake not installed). Run from anywhere.
set -u

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
command -v cmake >/dev/null 2>&1 || { echo "SKIP: cmake not installed"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/mini_mpi_cmake_shared.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

fail() {
    echo "FAIL: $*"
    exit 1
}

for mode in wrapper interrogate; do
    build=$work/$mode
    if [ "$mode" = wrapper ]; then cc=$repo/bin/mpicc cxx=$repo/bin/mpicxx
    else cc=${MINI_MPI_CC:-cc} cxx=${MINI_MPI_CXX:-c++}; fi
    CC=$cc CXX=$cxx cmake -S "$repo/tests/cmake/shared" -B "$build" -DBUILD_SHARED_LIBS=ON \
        -DMPI_C_COMPILER="$repo/bin/mpicc" -DMPI_CXX_COMPILER="$repo/bin/mpicxx" \
        >"$work/configure.log" 2>&1 || {
        tail -n 30 "$work/configure.log"
        fail "$mode: cmake configure failed"
    }
    cmake --build "$build" >"$work/build.log" 2>&1 || {
        tail -n 30 "$work/build.log"
        fail "$mode: cmake build failed"
    }
    ls "$build"/libtally.so "$build"/libregistry.so >/dev/null || fail "$mode: no shared libraries"
    for n in 4 64; do
        out=$(cd "$build" && timeout 60 "$repo/bin/mpiexec" -n "$n" ./app 2>&1)
        status=$?
        printf '%s\n' "$out" | tail -n 5
        [ "$status" = 0 ] || fail "$mode: app at $n ranks exited with status $status"
        printf '%s\n' "$out" | grep -q '^ *No Errors$' || fail "$mode: app at $n ranks: no No Errors"
    done
done
exit 0
