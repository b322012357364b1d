/*
 * mini_mpi/ulfm.h: included by mpi.h; the fault-tolerance interface (MPI Forum chapter "Process
 * Fault Tolerance", Open MPI 5's MPIX_ ULFM API). mpi.h declares it itself, because MPICH's test
 * programs never include mpi-ext.h. Every call exists under its MPIX_ name (Open MPI 5, old and
 * new forms), its chapter MPI_ name, and both profiling twins.
 */
#ifndef MINI_MPI_ULFM_H
#define MINI_MPI_ULFM_H

#ifdef __cplusplus
extern "C" {
#endif

#define MPIX_ERR_PROC_FAILED_PENDING MPI_ERR_PROC_FAILED_PENDING

/* Declares the MPIX_, PMPIX_, MPI_ and PMPI_ spellings of one call. */
#define MMPI_FT_API(ret, name, args) \
    MMPIX_API(ret, name, args);      \
    MMPI_API(ret, name, args)

MMPI_FT_API(int, Comm_revoke, (MPI_Comm comm));
MMPI_FT_API(int, Comm_is_revoked, (MPI_Comm comm, int *flag));
MMPI_FT_API(int, Comm_shrink, (MPI_Comm comm, MPI_Comm *newcomm));
MMPI_FT_API(int, Comm_ishrink, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request));
MMPI_FT_API(int, Comm_agree, (MPI_Comm comm, int *flag));
MMPI_FT_API(int, Comm_iagree, (MPI_Comm comm, int *flag, MPI_Request *request));
MMPI_FT_API(int, Comm_failure_ack, (MPI_Comm comm));
MMPI_FT_API(int, Comm_failure_get_acked, (MPI_Comm comm, MPI_Group *failedgrp));
MMPI_FT_API(int, Comm_get_failed, (MPI_Comm comm, MPI_Group *failedgrp));
MMPI_FT_API(int, Comm_ack_failed, (MPI_Comm comm, int num_to_ack, int *num_acked));
MMPI_FT_API(int, Win_revoke, (MPI_Win win));
MMPI_FT_API(int, Win_get_failed, (MPI_Win win, MPI_Group *failedgrp));
/* Collective: MPI_SUCCESS at every live member when none failed, else MPI_ERR_PROC_FAILED at
 * every live member. An extension: MPIX_ and PMPIX_ names only. */
MMPIX_API(int, Comm_validate, (MPI_Comm comm));
/* Files: local, non-collective; every pending and later operation on the file completes with
 * MPI_ERR_REVOKED at every process. */
MMPI_FT_API(int, File_revoke, (MPI_File fh));

#ifdef __cplusplus
}
#endif

#endif
