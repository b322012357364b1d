/*
 * mini_mpi/intercomm.h: included by mpi.h; the intercommunicator calls of MPI-4.1 §7.6 other
 * than MPI_Comm_remote_group (group.h). Implementation: mini_mpi/comm/intercomm*.c.
 */
#ifndef MINI_MPI_INTERCOMM_H
#define MINI_MPI_INTERCOMM_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
