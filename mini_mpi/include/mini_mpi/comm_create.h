/*
 * mini_mpi/comm_create.h: included by mpi.h; the intracommunicator constructors and info calls
 * of MPI-4.1 §7.4 and §7.4.4 beyond dup and split (which mpi.h declares), and MPI_Comm_disconnect
 * (§11.10.4). Implementation: mini_mpi/comm/create*.c.
 */
#ifndef MINI_MPI_COMM_CREATE_H
#define MINI_MPI_COMM_CREATE_H

#ifdef __cplusplus
extern "C" {
#endif

/* split_type values (§7.4.2), MPICH's numbers. */
#define MPI_COMM_TYPE_SHARED 1
#define MPI_COMM_TYPE_HW_GUIDED 2
#define MPI_COMM_TYPE_HW_UNGUIDED 3
#define MPI_COMM_TYPE_RESOURCE_GUIDED 4

#ifdef __cplusplus
}
#endif

#endif
