! ft_shrink.f90: fault tolerance from Fortran with Open MPI 5's names (use mpi + use mpi_ext):
! the injector kills rank 1 at its MPI_Barrier (testlist env); the survivors see
! MPIX_ERR_PROC_FAILED, acknowledge and list the failure, revoke, shrink to a working
! communicator and agree on a flag.
program ft_shrink
  use mpi
  use mpi_ext
  implicit none
  integer :: rank, nranks, ierr, cls, errs, total, flag, nfailed, newsize
  integer :: shrunk, failed_group
  logical :: revoked
  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls, ierr)
  ! MPIX_ERR_REVOKED when a survivor that saw the failure first has already revoked.
  if (cls /= MPIX_ERR_PROC_FAILED .and. cls /= MPIX_ERR_REVOKED) errs = errs + 1
  call MPIX_Comm_failure_ack(MPI_COMM_WORLD, ierr)
  call MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, failed_group, ierr)
  call MPI_Group_size(failed_group, nfailed, ierr)
  ! A rank that saw the revocation first may not know of the failure yet.
  if (nfailed /= 1 .and. (cls == MPIX_ERR_PROC_FAILED .or. nfailed /= 0)) errs = errs + 1
  call MPI_Group_free(failed_group, ierr)
  call MPIX_Comm_revoke(MPI_COMM_WORLD, ierr)
  call MPIX_Comm_is_revoked(MPI_COMM_WORLD, revoked, ierr)
  if (.not. revoked) errs = errs + 1
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls, ierr)
  if (cls /= MPIX_ERR_REVOKED) errs = errs + 1
  call MPIX_Comm_shrink(MPI_COMM_WORLD, shrunk, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  call MPI_Comm_size(shrunk, newsize, ierr)
  if (newsize /= nranks - 1) errs = errs + 1
  flag = 1
  if (rank == 0) flag = 3
  call MPIX_Comm_agree(shrunk, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. flag /= 1) errs = errs + 1
  call MPI_Reduce(errs, total, 1, MPI_INTEGER, MPI_SUM, 0, shrunk, ierr)
  if (rank == 0) then
    if (total == 0) then
      print *, 'No Errors'
    else
      print *, 'Found', total, 'errors'
    end if
  end if
  call MPI_Comm_free(shrunk, ierr)
  call MPI_Finalize(ierr)
end program
