#!/usr/bin/env bash
# tests/tools/install_fortran.sh: `make install` with the Fortran bindings, into a temporary
# prefix: the installed mpifort (and mpif77, mpif90) builds a program with `use mpi_f08`, one
# with `include 'mpif.h'` and one with `use mpi`, from outside the tree, and the installed
# mpiexec runs them; pkg-config finds mini_mpi-fort. docs/fortran.md.
# Exit status: 0 pass, 1 fail, 77 skip (no Fortran compiler). Run from anywhere.
set -u

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
fc=${MINI_MPI_FC:-gfortran}
build=${MINI_MPI_TEST_BUILD:-build}
command -v "$fc" >/dev/null 2>&1 || { echo "SKIP: no Fortran compiler ($fc)"; exit 77; }
[ -r "$repo/$build/fortran/lib/libmini_mpi_fortran.a" ] || [ -r "$build/fortran/lib/libmini_mpi_fortran.a" ] ||
    { echo "FAIL: build the Fortran bindings first (make BUILD=$build fortran)"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mini_mpi_install_f.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*"
    exit 1
}
prefix=$work/prefix
make -C "$repo" --no-print-directory -s BUILD="$build" LTO= PREFIX="$prefix" install \
    >"$work/install.log" 2>&1 || { tail -n 20 "$work/install.log"; fail "make install"; }
for f in bin/mpifort bin/mpif77 bin/mpif90 include/mpif.h include/mpif-ext.h include/mpi.mod \
    include/mpi_f08.mod include/mpi_ext.mod lib/libmini_mpi_fortran.a \
    lib/pkgconfig/mini_mpi-fort.pc; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
done

cd "$work" || exit 1
cat >f08.f90 <<'F'
program f08
  use mpi_f08
  integer :: rank, size, total
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0 .and. total == size * (size - 1) / 2) print '(a)', ' No Errors'
  call MPI_Finalize()
end program
F
cat >f77.f <<'F'
      program f77
      include 'mpif.h'
      integer ierr, rank
      call mpi_init(ierr)
      call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
      if (rank .eq. 0) print '(a)', ' No Errors'
      call mpi_finalize(ierr)
      end
F
sed -e "s/include 'mpif.h'/use mpi/" -e 's/^      program f77/      program f90/' f77.f >f90.f90
# Not the tree's build: the installed wrapper must find the installed files.
unset MINI_MPI_BUILD
"$prefix/bin/mpifort" -o f08 f08.f90 || fail "mpifort (mpi_f08)"
"$prefix/bin/mpif77" -o f77 f77.f || fail "mpif77 (mpif.h)"
"$prefix/bin/mpif90" -o f90 f90.f90 || fail "mpif90 (use mpi)"
"$prefix/bin/mpifort" -showme:incdirs | grep -q "$prefix/include" ||
    fail "mpifort -showme:incdirs does not name $prefix/include"
for p in f08 f77 f90; do
    out=$("$prefix/bin/mpiexec" -n 3 "./$p" 2>&1)
    grep -q '^ No Errors$' <<<"$out" || { echo "$out"; fail "$p did not run"; }
done
if command -v pkg-config >/dev/null 2>&1; then
    PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --libs mini_mpi-fort | \
        grep -q 'libmini_mpi_fortran\.a.*-lmini_mpi' || fail "pkg-config --libs mini_mpi-fort"
fi
make -C "$repo" --no-print-directory -s BUILD="$build" LTO= PREFIX="$prefix" uninstall \
    >>"$work/install.log" 2>&1 || fail "make uninstall"
[ -e "$prefix/lib/libmini_mpi_fortran.a" ] && fail "uninstall left libmini_mpi_fortran.a"
echo "PASS: installed mpifort, mpif77 and mpif90 build and run Fortran programs"
