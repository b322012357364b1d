#!/usr/bin/env bash
# tests/tools/cmake_find_mpi_fortran.sh: proves that CMake's find_package(MPI COMPONENTS Fortran)
# works with bin/mpifort: configures tests/cmake/fortran with FC=bin/mpifort and with FC=gfortran
# (FindMPI then interrogates MPI_Fortran_COMPILER=bin/mpifort), builds it, runs
# `bin/mpiexec -n 3 ./hello_f08` and checks for "No Errors".
# Exit status: 0 pass, 1 fail, 77 skip (no cmake, no Fortran compiler). Run from anywhere.
set -u

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
fc=${MINI_MPI_FC:-gfortran}
# The build tests/run.sh tests (MINI_MPI_TEST_BUILD), for bin/mpifort and bin/mpiexec.
export MINI_MPI_BUILD=${MINI_MPI_BUILD:-${MINI_MPI_TEST_BUILD:-build}}
command -v cmake >/dev/null 2>&1 || { echo "SKIP: cmake not installed"; exit 77; }
command -v "$fc" >/dev/null 2>&1 || { echo "SKIP: no Fortran compiler ($fc)"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mini_mpi_cmake_f.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*"
    exit 1
}

for mode in wrapper interrogate; do
    build=$work/$mode
    if [ "$mode" = wrapper ]; then compiler=$repo/bin/mpifort; else compiler=$fc; fi
    echo "== FC=$compiler MPI_Fortran_COMPILER=bin/mpifort"
    FC=$compiler cmake -S "$repo/tests/cmake/fortran" -B "$build" \
        -DMPI_Fortran_COMPILER="$repo/bin/mpifort" >"$work/configure.log" 2>&1 || {
        tail -n 30 "$work/configure.log"
        fail "$mode: cmake configure failed"
    }
    grep -E 'MPI_Fortran|Found MPI' "$work/configure.log"
    grep -q 'MPI_Fortran_HAVE_F08_MODULE=TRUE' "$work/configure.log" ||
        fail "$mode: FindMPI did not find the module mpi_f08"
    if [ "$mode" = interrogate ]; then
        grep -q 'MPI_Fortran_LIBRARIES=.*libmini_mpi_fortran\.a.*libmini_mpi\.so' \
            "$work/configure.log" || fail "$mode: FindMPI did not find the libraries through bin/mpifort"
    fi
    cmake --build "$build" >"$work/build.log" 2>&1 || {
        tail -n 30 "$work/build.log"
        fail "$mode: cmake build failed"
    }
    out=$(cd "$build" && "$repo/bin/mpiexec" -n 3 ./hello_f08 2>&1)
    status=$?
    printf '%s\n' "$out"
    [ "$status" = 0 ] || fail "$mode: hello_f08 exited with status $status"
    printf '%s\n' "$out" | grep -q '^ *No Errors$' || fail "$mode: hello_f08 did not print No Errors"
done
exit 0
