! f08_basic.f90: use mpi_f08: typed handles and TYPE(MPI_Status), ierror omitted, point-to-point
! with a status, nonblocking with MPI_Waitall, collectives with MPI_IN_PLACE and a 2-D buffer
! (DIMENSION(..)), the large-count form, a communicator name in and out, handle comparison,
! and an error handler written in Fortran, called with Fortran handles.
module f08_basic_handler
  use mpi_f08
  implicit none
  integer :: calls = 0, last_code = 0
  type(MPI_Comm) :: last_comm
contains
  subroutine on_error(comm, code)
    type(MPI_Comm) :: comm
    integer :: code
    calls = calls + 1
    last_code = code
    last_comm = comm
  end subroutine
end module

program f08_basic
  use mpi_f08
  use f08_basic_handler
  implicit none
  integer :: rank, nranks, errs, ierr, i, n, total, cls
  integer :: a(4, 3), b(12), sendv, recvv(2)
  integer(kind=MPI_COUNT_KIND) :: bigcount
  type(MPI_Status) :: st, sts(2)
  type(MPI_Request) :: reqs(2)
  type(MPI_Comm) :: dup
  type(MPI_Errhandler) :: eh
  character(len=MPI_MAX_OBJECT_NAME) :: name

  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)

  ! A ring with a status.
  sendv = rank
  call MPI_Sendrecv(sendv, 1, MPI_INTEGER, mod(rank + 1, nranks), 3, recvv(1), 1, MPI_INTEGER, &
                    mod(rank + nranks - 1, nranks), 3, MPI_COMM_WORLD, st)
  if (recvv(1) /= mod(rank + nranks - 1, nranks)) errs = errs + 1
  if (st%MPI_SOURCE /= mod(rank + nranks - 1, nranks) .or. st%MPI_TAG /= 3) errs = errs + 1
  call MPI_Get_count(st, MPI_INTEGER, n)
  if (n /= 1) errs = errs + 1

  ! Nonblocking, with statuses.
  call MPI_Irecv(recvv(2), 1, MPI_INTEGER, mod(rank + nranks - 1, nranks), 4, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sendv, 1, MPI_INTEGER, mod(rank + 1, nranks), 4, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, sts, ierr)
  if (ierr /= MPI_SUCCESS .or. recvv(2) /= recvv(1)) errs = errs + 1
  if (reqs(1) /= MPI_REQUEST_NULL .or. .not. (reqs(2) == MPI_REQUEST_NULL)) errs = errs + 1

  ! A 2-D buffer in place, then the large-count form.
  a = rank
  call MPI_Allreduce(MPI_IN_PLACE, a, 12, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (any(a /= nranks * (nranks - 1) / 2)) errs = errs + 1
  b = 1
  bigcount = 12
  call MPI_Bcast(b, bigcount, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (any(b /= 1)) errs = errs + 1

  ! A row of a 2-D array, not contiguous, is a buffer like any other (f08_subarray has more).
  if (.not. MPI_SUBARRAYS_SUPPORTED) errs = errs + 1
  if (rank == 0) a(1, :) = [7, 8, 9]
  call MPI_Bcast(a(1, :), 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. any(a(1, :) /= [7, 8, 9])) errs = errs + 1

  ! Names in and out.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_name(dup, 'solver comm   ')
  call MPI_Comm_get_name(dup, name, n)
  if (trim(name) /= 'solver comm' .or. n /= 11) errs = errs + 1

  ! A Fortran error handler sees the Fortran handle and the code.
  call MPI_Comm_create_errhandler(on_error, eh)
  call MPI_Comm_set_errhandler(dup, eh)
  call MPI_Send(sendv, 1, MPI_INTEGER, nranks + 5, 0, dup, ierr)
  call MPI_Error_class(ierr, cls)
  if (calls /= 1 .or. cls /= MPI_ERR_RANK .or. last_code /= ierr) errs = errs + 1
  if (last_comm /= dup) errs = errs + 1
  call MPI_Errhandler_free(eh)
  call MPI_Comm_free(dup)
  if (dup /= MPI_COMM_NULL) errs = errs + 1

  call MPI_Reduce(errs, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
  if (rank == 0) then
    if (total == 0) then
      print *, 'No Errors'
    else
      print *, 'Found', total, 'errors'
    end if
  end if
  i = 0
  call MPI_Finalize(i)
end program
