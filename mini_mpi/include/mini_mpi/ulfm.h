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

/* Collective: MPI_SUCCESS at every live member when none failed, else MPI_ERR_PROC_FAILED at
 * every live member. An extension: MPIX_ and PMPIX_ names only. */
/* Files: local, non-collective; every pending and later operation on the file completes with
 * MPI_ERR_REVOKED at every process. */

#ifdef __cplusplus
}
#endif

#endif
