/*
 * mini_mpi/intercomm.h: included by mpi.h; the intercommunicator calls of MPI-4.1 §7.6 other
 * than MPI_Comm_remote_group (group.h). Implementation: mini_mpi/comm/intercomm*.c.
 */
#ifndef MINI_MPI_INTERCOMM_H
#define MINI_MPI_INTERCOMM_H

#ifdef __cplusplus
extern "C" {
#endif

MMPI_API(int, Comm_remote_size, (MPI_Comm comm, int *size));
MMPI_API(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                                 int remote_leader, int tag, MPI_Comm *newintercomm));
MMPI_API(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm));

#ifdef __cplusplus
}
#endif

#endif
