/* mini_mpi/compat.h: included by mpi.h; the C side of the language interoperability of
 * MPI-4.1 §19.3.5: the size of a Fortran status and where its public fields are, and the
 * sentinels of the Fortran statuses as C sees them. The conversion functions themselves
 * (MPI_Comm_c2f, MPI_Status_f2c, ...) are in the table of functions; mini_mpi/compat/ has them.
 *
 * A Fortran status (INTEGER array of MPI_STATUS_SIZE) and TYPE(MPI_Status) of mpi_f08 hold the
 * same bytes as a C MPI_Status, so MPI_F_SOURCE, MPI_F_TAG and MPI_F_ERROR are the C indices
 * (0-based) of the fields in an MPI_Fint array. */
#ifndef MINI_MPI_COMPAT_H
#define MINI_MPI_COMPAT_H

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_F_STATUS_SIZE 6
#define MPI_F_SOURCE 0
#define MPI_F_TAG 1
#define MPI_F_ERROR 2

/* Not valid arguments of the status conversions (§19.3.5): they are refused (MPI_ERR_ARG). */
#define MPI_F_STATUS_IGNORE ((MPI_Fint *)1)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)1)
#define MPI_F08_STATUS_IGNORE ((MPI_F08_status *)1)
#define MPI_F08_STATUSES_IGNORE ((MPI_F08_status *)1)

#ifdef __cplusplus
}
#endif

#endif
