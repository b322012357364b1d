! f08_profile: mpi_f08's specific names and its profiling interface (MPI-4.1 §19.2, §15.2;
! docs/fortran.md): the program replaces MPI_Send_f08ts, MPI_Recv_f08ts and MPI_Comm_rank_f08
! by its own, which count their calls and call the PMPI_ generics; a large-count MPI_Send
! reaches MPI_Send_c_f08ts, the library's. Also MPI_SIZEOF of mpi_f08, 2 ranks.
module counts
  implicit none
  integer :: sends = 0, recvs = 0, ranks = 0, amount = 0
end module

program f08_profile
  use mpi_f08
  use counts
  implicit none
  integer :: rank, buf(4), errs, size, ierr
  integer(kind=MPI_COUNT_KIND) :: n
  real(kind=8) :: d(3, 3)
  complex(kind=4) :: c
  logical(kind=1) :: l
  integer(kind=2) :: i2

  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  if (ranks /= 1) call fail('MPI_Comm_rank_f08 of the program not called')
  buf = [1, 2, 3, 4]
  n = 2
  if (rank == 0) then
    call MPI_Send(buf, 4, MPI_INTEGER, 1, 0, MPI_COMM_WORLD)
    call MPI_Send(buf, n, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, ierr)
    if (sends /= 1 .or. amount /= 4) call fail('MPI_Send_f08ts of the program')
  else if (rank == 1) then
    buf = 0
    call MPI_Recv(buf, 4, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    call MPI_Recv(buf(3:4), 2, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    if (recvs /= 2 .or. any(buf /= [1, 2, 1, 2])) call fail('MPI_Recv_f08ts of the program')
  end if

  call MPI_Sizeof(d, size)
  if (size /= 8) call fail('MPI_Sizeof of REAL(8)')
  call MPI_Sizeof(c, size, ierr)
  if (size /= 8 .or. ierr /= MPI_SUCCESS) call fail('MPI_Sizeof of COMPLEX(4)')
  call MPI_Sizeof(l, size)
  if (size /= 1) call fail('MPI_Sizeof of LOGICAL(1)')
  call MPI_Sizeof(i2, size)
  if (size /= 2) call fail('MPI_Sizeof of INTEGER(2)')

  call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0 .and. errs == 0) print '(a)', ' No Errors'
  call MPI_Finalize()

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    errs = errs + 1
    print '(a, i0, 2a)', 'rank ', rank, ': ', what
  end subroutine
end program

subroutine MPI_Send_f08ts(buf, count, datatype, dest, tag, comm, ierror)
  use :: mpi_f08, only: MPI_Datatype, MPI_Comm, PMPI_Send
  use counts
  implicit none
  type(*), dimension(..), intent(in) :: buf
  integer, intent(in) :: count, dest, tag
  type(MPI_Datatype), intent(in) :: datatype
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  sends = sends + 1
  amount = amount + count
  call PMPI_Send(buf, count, datatype, dest, tag, comm, ierror)
end subroutine

subroutine MPI_Recv_f08ts(buf, count, datatype, source, tag, comm, status, ierror)
  use :: mpi_f08, only: MPI_Datatype, MPI_Comm, MPI_Status, PMPI_Recv
  use counts
  implicit none
  type(*), dimension(..) :: buf
  integer, intent(in) :: count, source, tag
  type(MPI_Datatype), intent(in) :: datatype
  type(MPI_Comm), intent(in) :: comm
  type(MPI_Status) :: status
  integer, optional, intent(out) :: ierror
  recvs = recvs + 1
  call PMPI_Recv(buf, count, datatype, source, tag, comm, status, ierror)
end subroutine

subroutine MPI_Comm_rank_f08(comm, rank, ierror)
  use :: mpi_f08, only: MPI_Comm, PMPI_Comm_rank
  use counts
  implicit none
  type(MPI_Comm), intent(in) :: comm
  integer, intent(out) :: rank
  integer, optional, intent(out) :: ierror
  ranks = ranks + 1
  call PMPI_Comm_rank(comm, rank, ierror)
end subroutine
