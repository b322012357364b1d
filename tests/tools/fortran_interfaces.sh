#!/usr/bin/env bash
# tests/tools/fortran_interfaces.sh: module mpi's explicit interfaces (docs/fortran.md): a call
# without IERROR or with an argument of the wrong type does not compile, while choice buffers
# of different types and ranks, MPI_BOTTOM, MPI_STATUS_IGNORE and a Fortran callback do.
# Exit status: 0 pass, 1 fail, 77 skip (no Fortran compiler). Run from anywhere.
set -u

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
export MINI_MPI_BUILD=${MINI_MPI_TEST_BUILD:-build}
command -v "${MINI_MPI_FC:-gfortran}" >/dev/null 2>&1 || { echo "SKIP: no Fortran compiler"; exit 77; }
cd "$repo" || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/mini_mpi_fintf.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
compiles() { # name, body lines...: compiles a `use mpi` program unit holding the body
    local name=$1
    shift
    { echo "subroutine t_$name(ierr)"; echo "  use mpi"; echo "  integer :: ierr, i, a(4), req, key"
      echo "  real(8) :: x(2, 2)"; echo "  integer(kind=MPI_ADDRESS_KIND) :: extra"
      echo "  external :: myerr"
      printf '  %s\n' "$@"; echo "end subroutine"; } >"$work/$name.f90"
    (cd "$work" && "$repo/bin/mpifort" -c "$name.f90" -o "$name.o") >"$work/$name.log" 2>&1
}
fail=0
compiles good \
    'call MPI_Send(a, 4, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)' \
    'call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, ierr)' \
    'call MPI_Send(i, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)' \
    'call MPI_Recv(MPI_BOTTOM, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)' \
    'call MPI_Comm_create_errhandler(myerr, i, ierr)' \
    'call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, extra, ierr)' \
    'call PMPI_Barrier(MPI_COMM_WORLD, ierr)' \
    'call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)' ||
    { cat "$work/good.log"; echo "FAIL: correct calls do not compile"; fail=1; }
compiles noierr 'call MPI_Barrier(MPI_COMM_WORLD)' &&
    { echo "FAIL: MPI_BARRIER without IERROR compiles"; fail=1; }
grep -qi "ierror" "$work/noierr.log" || { cat "$work/noierr.log"; echo "FAIL: no word of ierror"; fail=1; }
compiles badtype 'call MPI_Comm_rank(MPI_COMM_WORLD, x, ierr)' &&
    { echo "FAIL: a REAL rank compiles"; fail=1; }
[ "$fail" = 0 ] && echo "PASS: use mpi checks argument lists, choice buffers take anything"
exit "$fail"
