C ft_shrink_f77.f: the ULFM recovery of ft_shrink.f90 through mpif.h and mpif-ext.h: the
C injector kills rank 1 at its MPI_Barrier (testlist env); the survivors see
C MPIX_ERR_PROC_FAILED, acknowledge and list the failure, revoke, shrink and agree.
      program ftf77
      implicit none
      include 'mpif.h'
      include 'mpif-ext.h'
      integer rank, nranks, ierr, cls, errs, total, flag, nfailed
      integer newsize, shrunk, fgroup, ignore
      logical revoked
      errs = 0
      call MPI_Init(ierr)
      call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
      call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
      call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &     ierr)
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      call MPI_Error_class(ierr, cls, ignore)
      if (cls .ne. MPIX_ERR_PROC_FAILED .and.
     &    cls .ne. MPIX_ERR_REVOKED) errs = errs + 1
      call MPIX_Comm_failure_ack(MPI_COMM_WORLD, ierr)
      call MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, fgroup, ierr)
      call MPI_Group_size(fgroup, nfailed, ierr)
      if (nfailed .ne. 1 .and. (cls .eq. MPIX_ERR_PROC_FAILED .or.
     &    nfailed .ne. 0)) errs = errs + 1
      call MPI_Group_free(fgroup, ierr)
      call MPIX_Comm_revoke(MPI_COMM_WORLD, ierr)
      call MPIX_Comm_is_revoked(MPI_COMM_WORLD, revoked, ierr)
      if (.not. revoked) errs = errs + 1
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      call MPI_Error_class(ierr, cls, ignore)
      if (cls .ne. MPIX_ERR_REVOKED) errs = errs + 1
      call MPIX_Comm_shrink(MPI_COMM_WORLD, shrunk, ierr)
      if (ierr .ne. MPI_SUCCESS) errs = errs + 1
      call MPI_Comm_size(shrunk, newsize, ierr)
      if (newsize .ne. nranks - 1) errs = errs + 1
      flag = 1
      if (rank .eq. 0) flag = 3
      call MPIX_Comm_agree(shrunk, flag, ierr)
      if (ierr .ne. MPI_SUCCESS .or. flag .ne. 1) errs = errs + 1
      call MPI_Reduce(errs, total, 1, MPI_INTEGER, MPI_SUM, 0, shrunk,
     &     ierr)
      if (rank .eq. 0) then
         if (total .eq. 0) then
            print *, 'No Errors'
         else
            print *, 'Found', total, 'errors'
         end if
      end if
      call MPI_Comm_free(shrunk, ierr)
      call MPI_Finalize(ierr)
      end
