/* mini_mpi/coll.h: included by mpi.h; collective prototypes (MPI-4.1 chapter 6). */
#ifndef MINI_MPI_COLL_H
#define MINI_MPI_COLL_H

#ifdef __cplusplus
extern "C" {
#endif

MMPI_API(int, Barrier, (MPI_Comm comm));
MMPI_API(int, Ibarrier, (MPI_Comm comm, MPI_Request *request));

#ifdef __cplusplus
}
#endif

#endif
