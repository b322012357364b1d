! ft_shrink_f08.f90: the ULFM recovery of ft_shrink.f90 through mpi_f08 (handle types, optional
! ierror): the injector kills rank 1 at its MPI_Barrier (testlist env); the survivors see
! MPIX_ERR_PROC_FAILED, acknowledge and list the failure, revoke, shrink and agree.
program ft_shrink_f08
  use mpi_f08
  use mpi_ext
  implicit none
  integer :: rank, nranks, ierr, cls, errs, total, flag, nfailed, newsize
  type(MPI_Comm) :: shrunk
  type(MPI_Group) :: failed_group
  logical :: revoked
  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls)
  ! MPIX_ERR_REVOKED when a survivor that saw the failure first has already revoked.
  if (cls /= MPIX_ERR_PROC_FAILED .and. cls /= MPIX_ERR_REVOKED) errs = errs + 1
  call MPIX_Comm_failure_ack(MPI_COMM_WORLD)
  call MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, failed_group)
  call MPI_Group_size(failed_group, nfailed)
  if (nfailed /= 1 .and. (cls == MPIX_ERR_PROC_FAILED .or. nfailed /= 0)) errs = errs + 1
  call MPI_Group_free(failed_group)
  call MPIX_Comm_revoke(MPI_COMM_WORLD)
  call MPIX_Comm_is_revoked(MPI_COMM_WORLD, revoked)
  if (.not. revoked) errs = errs + 1
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls)
  if (cls /= MPIX_ERR_REVOKED) errs = errs + 1
  call MPIX_Comm_shrink(MPI_COMM_WORLD, shrunk, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  call MPI_Comm_size(shrunk, newsize)
  if (newsize /= nranks - 1) errs = errs + 1
  flag = 1
  if (rank == 0) flag = 3
  call MPIX_Comm_agree(shrunk, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. flag /= 1) errs = errs + 1
  call MPI_Reduce(errs, total, 1, MPI_INTEGER, MPI_SUM, 0, shrunk)
  if (rank == 0) then
    if (total == 0) then
      print *, 'No Errors'
    else
      print *, 'Found', total, 'errors'
    end if
  end if
  call MPI_Comm_free(shrunk)
  call MPI_Finalize()
end program
