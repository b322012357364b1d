#!/usr/bin/env bash
# tests/tools/cmake_find_mpi.sh: proves that CMake's find_package(MPI) works with bin/mpicc.
#
# Configures tests/cmake in a temporary directory with MPI_C_COMPILER set to bin/mpicc, once
# with CC=bin/mpicc and once with CC=cc (so that FindMPI interrogates the wrapper), builds it, runs `bin/mpiexec -n 3 ./hello` and checks for "No Errors".
# Exit status: 0 pass, 1 fail, 77 skip (cmake not installed). Run from anywhere.
set -u

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
command -v cmake >/dev/null 2>&1 || { echo "SKIP: cmake not installed"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mini_mpi_cmake.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

fail() {
    echo "FAIL: $*"
    exit 1
}

# Two ways projects meet an MPI wrapper: CC=mpicc (CMake sees the wrapper as the compiler) and
# CC=cc with MPI_C_COMPILER=mpicc (FindMPI interrogates it with -showme:compile/-showme:link).
for mode in wrapper interrogate; do
    build=$work/$mode
    if [ "$mode" = wrapper ]; then cc=$repo/bin/mpicc cxx=$repo/bin/mpicxx
    else cc=${MINI_MPI_CC:-cc} cxx=${MINI_MPI_CXX:-c++}; fi
    echo "== CC=$cc CXX=$cxx MPI_C_COMPILER=bin/mpicc MPI_CXX_COMPILER=bin/mpicxx"
    CC=$cc CXX=$cxx cmake -S "$repo/tests/cmake" -B "$build" \
        -DMPI_C_COMPILER="$repo/bin/mpicc" -DMPI_CXX_COMPILER="$repo/bin/mpicxx" \
        >"$work/configure.log" 2>&1 || {
        tail -n 30 "$work/configure.log"
        fail "$mode: cmake configure failed"
    }
    grep -E 'MPI_C_|Found MPI' "$work/configure.log"
    if [ "$mode" = interrogate ]; then
        grep -q 'MPI_C_LIBRARIES=.*libmini_mpi\.so' "$work/configure.log" ||
            fail "$mode: FindMPI did not find libmini_mpi.so through bin/mpicc"
        grep -q 'MPI_CXX_LIBRARIES=.*libmini_mpi\.so' "$work/configure.log" ||
            fail "$mode: FindMPI did not find libmini_mpi.so through bin/mpicxx"
    fi
    cmake --build "$build" >"$work/build.log" 2>&1 || {
        tail -n 30 "$work/build.log"
        fail "$mode: cmake build failed"
    }
    out=$(cd "$build" && "$repo/bin/mpiexec" -n 3 ./hello 2>&1)
    status=$?
    printf '%s\n' "$out"
    [ "$status" = 0 ] || fail "$mode: hello exited with status $status"
    printf '%s\n' "$out" | grep -q '^ *No Errors$' || fail "$mode: hello did not print No Errors"
    out=$(cd "$build" && "$repo/bin/mpiexec" -n 3 ./hello_cxx 2>&1) || fail "$mode: hello_cxx failed"
    printf '%s\n' "$out" | grep -q '^ *No Errors$' || fail "$mode: hello_cxx did not print No Errors"
done
exit 0
