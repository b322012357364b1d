! f08_datarep: MPI_REGISTER_DATAREP with conversion and extent functions written in Fortran
! (mpi_f08; docs/fortran.md): a representation whose file holds each INTEGER negated is written,
! read back through it and read as native; the functions see the datatype, count, position and
! the program's EXTRA_STATE; the large form with MPI_CONVERSION_FN_NULL_C; a second
! registration of a name fails.
module negate
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  integer :: calls = 0, errs = 0
contains
  subroutine check(datatype, extra_state)
    type(MPI_Datatype) :: datatype
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    if (datatype /= MPI_INTEGER) then
      errs = errs + 1
      print '(a)', 'conversion of a datatype other than MPI_INTEGER'
    end if
    if (extra_state /= 42) then
      errs = errs + 1
      print '(a, i0)', 'extra_state is ', extra_state
    end if
    calls = calls + 1
  end subroutine

  ! One body for both directions: `from` is the file when reading, the user's buffer when
  ! writing; position counts the user's datatypes.
  subroutine negate_copy(userbuf, datatype, count, filebuf, position, extra_state, reading)
    type(c_ptr) :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: reading
    integer, pointer :: user(:), file(:)
    call check(datatype, extra_state)
    call c_f_pointer(userbuf, user, [position + count])
    call c_f_pointer(filebuf, file, [count])
    if (reading) then
      user(position + 1:position + count) = -file
    else
      file = -user(position + 1:position + count)
    end if
  end subroutine

  subroutine negate_read(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    call negate_copy(userbuf, datatype, count, filebuf, position, extra_state, .true.)
    ierror = MPI_SUCCESS
  end subroutine

  subroutine negate_write(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    call negate_copy(userbuf, datatype, count, filebuf, position, extra_state, .false.)
    ierror = MPI_SUCCESS
  end subroutine

  subroutine four_bytes(datatype, extent, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
    integer :: ierror
    extent = 4
    if (datatype /= MPI_INTEGER .or. extra_state /= 42) extent = -1
    ierror = MPI_SUCCESS
  end subroutine
end module

program f08_datarep
  use negate
  implicit none
  integer :: a(5), b(5), i, ierr
  integer(kind=MPI_OFFSET_KIND), parameter :: zero = 0
  type(MPI_File) :: fh

  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
  call MPI_Register_datarep('f_negate', negate_read, negate_write, four_bytes, &
                            42_MPI_ADDRESS_KIND, ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPI_REGISTER_DATAREP failed')
  a = [(i * 11, i = 1, 5)]
  call MPI_File_open(MPI_COMM_SELF, 'f08_datarep.tmp', MPI_MODE_CREATE + MPI_MODE_RDWR + &
                     MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, fh)
  call MPI_File_set_view(fh, zero, MPI_INTEGER, MPI_INTEGER, 'f_negate', MPI_INFO_NULL)
  call MPI_File_write_at(fh, zero, a, 5, MPI_INTEGER, MPI_STATUS_IGNORE)
  if (calls == 0) call fail('the write conversion was not called')
  b = 0
  call MPI_File_read_at(fh, zero, b, 5, MPI_INTEGER, MPI_STATUS_IGNORE)
  if (any(b /= a)) call fail('read back through the representation')
  call MPI_File_set_view(fh, zero, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL)
  call MPI_File_read_at(fh, zero, b, 5, MPI_INTEGER, MPI_STATUS_IGNORE)
  if (any(b /= -a)) call fail('the file does not hold the converted values')

  ! The large form, the file's bytes as they are.
  call MPI_Register_datarep_c('f_plain', MPI_CONVERSION_FN_NULL_C, MPI_CONVERSION_FN_NULL_C, &
                              four_bytes, 42_MPI_ADDRESS_KIND, ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPI_REGISTER_DATAREP_C failed')
  call MPI_File_set_view(fh, zero, MPI_INTEGER, MPI_INTEGER, 'f_plain', MPI_INFO_NULL)
  b = 0
  call MPI_File_read_at(fh, zero, b, 5, MPI_INTEGER, MPI_STATUS_IGNORE)
  if (any(b /= -a)) call fail('read through MPI_CONVERSION_FN_NULL_C')
  call MPI_File_close(fh)

  call MPI_Register_datarep('f_negate', negate_read, negate_write, four_bytes, &
                            42_MPI_ADDRESS_KIND, ierr)
  call MPI_Error_class(ierr, i)
  if (i /= MPI_ERR_DUP_DATAREP) call fail('a second registration of f_negate')

  if (errs == 0) print '(a)', ' No Errors'
  call MPI_Finalize()

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    errs = errs + 1
    print '(a)', what
  end subroutine
end program
