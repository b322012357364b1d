/*
 * mini_mpi/spawn.h: included by mpi.h; process creation of MPI-4.1 §11.8.2–11.8.3
 * (MPI_Comm_spawn, MPI_Comm_spawn_multiple, MPI_Comm_get_parent) and establishing
 * communication, §11.10 (ports, MPI_Comm_accept/connect, the name service, MPI_Comm_join).
 * Spawned processes are new ranks of the same job, each running a private copy of the
 * program. Implementation: mini_mpi/spawn/. MPI_ARGV_NULL, MPI_ARGVS_NULL,
 * MPI_ERRCODES_IGNORE and MPI_MAX_PORT_NAME are in mpi.h.
 */
#ifndef MINI_MPI_SPAWN_H
#define MINI_MPI_SPAWN_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
