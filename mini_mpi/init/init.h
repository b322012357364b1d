/* init.h: the implementation behind MPI_Init(_thread) and MPI_Finalize (init.c). */
#ifndef MMPI_INIT_INIT_H
#define MMPI_INIT_INIT_H

struct mmpi_rank;

/* Opens the calling rank's MPI session. Called only by the owning rank, once. */
void mmpi_init(struct mmpi_rank *self, int required_thread_level);
/* Closes it. Local: never waits for other ranks. */
void mmpi_finalize(struct mmpi_rank *self);

#endif
