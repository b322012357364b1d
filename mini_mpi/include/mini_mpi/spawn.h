/*
 * mini_mpi/spawn.h: included by mpi.h; process creation of MPI-4.1 §11.8.2–11.8.3
 * (MPI_Comm_spawn, MPI_Comm_spawn_multiple, MPI_Comm_get_parent). Spawned processes are new
 * ranks of the same job, each running a private copy of the program. Implementation:
 * mini_mpi/spawn/. MPI_ARGV_NULL, MPI_ARGVS_NULL and MPI_ERRCODES_IGNORE are in mpi.h.
 */
#ifndef MINI_MPI_SPAWN_H
#define MINI_MPI_SPAWN_H

#ifdef __cplusplus
extern "C" {
#endif

MMPI_API(int, Comm_spawn, (const char *command, char *argv[], int maxprocs, MPI_Info info,
                           int root, MPI_Comm comm, MPI_Comm *intercomm,
                           int array_of_errcodes[]));
MMPI_API(int, Comm_spawn_multiple, (int count, char *array_of_commands[],
                                    char **array_of_argv[], const int array_of_maxprocs[],
                                    const MPI_Info array_of_info[], int root, MPI_Comm comm,
                                    MPI_Comm *intercomm, int array_of_errcodes[]));
MMPI_API(int, Comm_get_parent, (MPI_Comm *parent));

#ifdef __cplusplus
}
#endif

#endif
