! tests/fortran/hang_f.f90: the hang detector on a Fortran program (docs/fortran.md, "Faults").
! With an argument "deadlock", ranks 0 and 1 each wait in MPI_RECV for the other, and the
! library must report the deadlock (exit status 123) naming MPI_Recv, the C call the binding
! makes. Without it, a ring of sends and receives that the fault sweep runs with a death at
! every call (tests/tools/fortran_sweep.sh): it prints " No Errors" unless a call fails.
program hang_f
  use mpi
  implicit none
  integer :: rank, size, ierr, buf, status(MPI_STATUS_SIZE)
  character(len=16) :: arg
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call get_command_argument(1, arg)
  if (arg == 'deadlock') then
    if (rank < 2) call MPI_Recv(buf, 1, MPI_INTEGER, 1 - rank, 0, MPI_COMM_WORLD, status, ierr)
  else
    ! errors return, so that a death makes the program stop with status 3 (a job that ends
    ! by an error's abort writes no call counts, and the sweep could not name the calls)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    buf = rank
    call MPI_Sendrecv_replace(buf, 1, MPI_INTEGER, mod(rank + 1, size), 0, &
                              mod(rank + size - 1, size), 0, MPI_COMM_WORLD, status, ierr)
    if (ierr /= MPI_SUCCESS .or. buf /= mod(rank + size - 1, size)) stop 3
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) stop 3
    if (rank == 0) print '(a)', ' No Errors'
  end if
  call MPI_Finalize(ierr)
end program
