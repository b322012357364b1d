! sizeof_mpi: MPI_SIZEOF of `use mpi` (MPI-4.1 §19.1.9; docs/fortran.md) for every intrinsic
! numeric type and kind and CHARACTER, scalars and arrays, against the size of the matching MPI
! datatype.
program sizeof_mpi
  use mpi
  implicit none
  integer :: errs, ierr, s, t
  integer(kind=1) :: i1
  integer(kind=2) :: i2(3)
  integer(kind=4) :: i4
  integer(kind=8) :: i8(2, 2)
  real(kind=4) :: r4
  real(kind=8) :: r8(5)
  complex(kind=4) :: c4
  complex(kind=8) :: c8(2)
  logical :: l
  character :: ch(4)
  character(len=7) :: word
  double precision :: dp

  errs = 0
  call MPI_Init(ierr)
  call MPI_Sizeof(i1, s, ierr)
  call compare(s, MPI_INTEGER1, 'INTEGER(1)')
  call MPI_Sizeof(i2, s, ierr)
  call compare(s, MPI_INTEGER2, 'INTEGER(2) array')
  call MPI_Sizeof(i4, s, ierr)
  call compare(s, MPI_INTEGER, 'INTEGER')
  call MPI_Sizeof(i8, s, ierr)
  call compare(s, MPI_INTEGER8, 'INTEGER(8) 2-D array')
  call MPI_Sizeof(r4, s, ierr)
  call compare(s, MPI_REAL, 'REAL')
  call MPI_Sizeof(r8, s, ierr)
  call compare(s, MPI_REAL8, 'REAL(8) array')
  call MPI_Sizeof(dp, s, ierr)
  call compare(s, MPI_DOUBLE_PRECISION, 'DOUBLE PRECISION')
  call MPI_Sizeof(c4, s, ierr)
  call compare(s, MPI_COMPLEX, 'COMPLEX')
  call MPI_Sizeof(c8, s, ierr)
  call compare(s, MPI_DOUBLE_COMPLEX, 'COMPLEX(8) array')
  call MPI_Sizeof(l, s, ierr)
  call compare(s, MPI_LOGICAL, 'LOGICAL')
  call MPI_Sizeof(ch, s, ierr)
  call compare(s, MPI_CHARACTER, 'CHARACTER array')
  call MPI_Sizeof(word, s, ierr)
  if (s /= 7) then
    errs = errs + 1
    print '(a, i0)', 'MPI_SIZEOF of CHARACTER(LEN=7): ', s
  end if
  if (errs == 0) print '(a)', ' No Errors'
  call MPI_Finalize(ierr)

contains

  subroutine compare(size, datatype, what)
    integer, intent(in) :: size, datatype
    character(len=*), intent(in) :: what
    call MPI_Type_size(datatype, t, ierr)
    if (size /= t .or. ierr /= MPI_SUCCESS) then
      errs = errs + 1
      print '(3a, i0, a, i0)', 'MPI_SIZEOF of ', what, ': ', size, ', MPI_Type_size ', t
    end if
  end subroutine
end program
