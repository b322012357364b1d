! tests/fortran/attr_info.f90: attributes and info strings from mpi_f08 (docs/fortran.md).
! Attributes: a keyval created in Fortran with MPI_COMM_DUP_FN, a value set and read back,
! copied by MPI_Comm_dup (the copy keeps the value when the original's changes), a delete
! function written in Fortran called with the value. Info: MPI_Info_get_string's buflen is
! the Fortran length (no terminator), 0 leaves the value as it is, a short one cuts it and
! blanks the rest; leading and trailing blanks of keys and values are not part of them.
module attr_info_state
  use mpi_f08
  implicit none
  integer(kind=MPI_ADDRESS_KIND) :: deleted = -1
contains
  subroutine del_fn(comm, keyval, attribute_val, extra_state, ierror)
    ! comm and keyval: unused, as the interface has them
    type(MPI_Comm) :: comm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deleted = attribute_val + extra_state
    ierror = MPI_SUCCESS
  end subroutine
end module

program attr_info
  use mpi_f08
  use attr_info_state
  implicit none
  integer :: errs, key, bufl
  type(MPI_Comm) :: dup
  type(MPI_Info) :: info
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: flag
  character(len=20) :: str

  errs = 0
  call MPI_Init()
  extra = 1000
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, del_fn, key, extra)
  val = 123456789012_MPI_ADDRESS_KIND
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, val)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  val = 7
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, val)
  if (deleted /= 123456789012_MPI_ADDRESS_KIND + 1000) call fail('delete function on replace')
  val = 0
  call MPI_Comm_get_attr(dup, key, val, flag)
  if (.not. flag .or. val /= 123456789012_MPI_ADDRESS_KIND) call fail('value of the copy')
  call MPI_Comm_get_attr(MPI_COMM_WORLD, key, val, flag)
  if (.not. flag .or. val /= 7) call fail('value after set')
  call MPI_Comm_free(dup)
  if (deleted /= 123456789012_MPI_ADDRESS_KIND + 1000) call fail('delete function on free')
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, key)
  if (deleted /= 1007) call fail('delete function on delete')
  call MPI_Comm_free_keyval(key)

  call MPI_Info_create(info)
  call MPI_Info_set(info, '  color ', ' blue  ')
  bufl = 0
  str = 'canary'
  call MPI_Info_get_string(info, 'color', bufl, str, flag)
  if (.not. flag .or. bufl /= 4 .or. str /= 'canary') call fail('get_string, buflen 0')
  bufl = 2
  call MPI_Info_get_string(info, 'color', bufl, str, flag)
  if (.not. flag .or. bufl /= 4 .or. str /= 'bl') call fail('get_string, buflen 2')
  bufl = len(str)
  call MPI_Info_get_string(info, ' color', bufl, str, flag)
  if (.not. flag .or. bufl /= 4 .or. str /= 'blue') call fail('get_string, whole')
  call MPI_Info_get_string(info, 'size', bufl, str, flag)
  if (flag .or. str /= 'blue') call fail('get_string, no key')
  call MPI_Info_free(info)

  call MPI_Finalize()
  if (errs == 0) print '(a)', ' No Errors'
contains
  subroutine fail(what)
    character(len=*) :: what
    errs = errs + 1
    print '(a, a)', 'failed: ', what
  end subroutine
end program
