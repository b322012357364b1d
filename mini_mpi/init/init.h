/* init.h: the implementation behind MPI_Init(_thread) and MPI_Finalize (init.c). */
#ifndef MMPI_INIT_INIT_H
#define MMPI_INIT_INIT_H

struct mmpi_info;
struct mmpi_rank;

/* Opens the calling rank's MPI session. Called only by the owning rank, once. */
void mmpi_init(struct mmpi_rank *self, int required_thread_level);
/* Closes it. Local: never waits for other ranks. */
void mmpi_finalize(struct mmpi_rank *self);
/* The keys of MPI_INFO_ENV (MPI-4.1 §11.2.5) for a program started with argc and argv
 * (command, argv), at thread_level, in a new info object (NULL:
 * out of memory). MPI_Init and MPI_Info_create_env (§11.4) share it. */
struct mmpi_info *mmpi_info_env_new(struct mmpi_rank *self, int argc, char **argv,
                                    int thread_level);

#endif
