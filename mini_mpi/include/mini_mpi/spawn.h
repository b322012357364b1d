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

MMPI_API(int, Comm_spawn, (const char *command, char *argv[], int maxprocs, MPI_Info info,
                           int root, MPI_Comm comm, MPI_Comm *intercomm,
                           int array_of_errcodes[]));
MMPI_API(int, Comm_spawn_multiple, (int count, char *array_of_commands[],
                                    char **array_of_argv[], const int array_of_maxprocs[],
                                    const MPI_Info array_of_info[], int root, MPI_Comm comm,
                                    MPI_Comm *intercomm, int array_of_errcodes[]));
MMPI_API(int, Comm_get_parent, (MPI_Comm *parent));
MMPI_API(int, Open_port, (MPI_Info info, char *port_name));
MMPI_API(int, Close_port, (const char *port_name));
MMPI_API(int, Comm_accept, (const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                            MPI_Comm *newcomm));
MMPI_API(int, Comm_connect, (const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                             MPI_Comm *newcomm));
MMPI_API(int, Publish_name, (const char *service_name, MPI_Info info, const char *port_name));
MMPI_API(int, Unpublish_name, (const char *service_name, MPI_Info info,
                               const char *port_name));
MMPI_API(int, Lookup_name, (const char *service_name, MPI_Info info, char *port_name));
MMPI_API(int, Comm_join, (int fd, MPI_Comm *intercomm));

#ifdef __cplusplus
}
#endif

#endif
