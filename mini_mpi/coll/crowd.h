/*
 * coll/crowd.h: the blocking MPI_Barrier and small MPI_Allreduce of fast.h on intracommunicators
 * with more members than CPUs (crowd.c): one shared counter of arrivals and one line that the
 * last arriver writes, instead of the board's instance and lock.
 */
#ifndef MMPI_COLL_CROWD_H
#define MMPI_COLL_CROWD_H

#include <stdbool.h>
#include <stddef.h>

#include "coll/fast.h"
#include "op/op.h"

struct mmpi_rank;
struct mmpi_comm;
struct mmpi_coll;

/* Largest packed allreduce input. */
#define MMPI_CROWD_BYTES MMPI_COLL_FAST_BYTES

/* A communicator's crowd block (crowd.c), kept in its board and freed with it. */
struct mmpi_crowd;

/* MPI_Barrier on c: MPI_SUCCESS or the error class to raise. */
int mmpi_coll_crowd_barrier(struct mmpi_rank *self, struct mmpi_comm *c);
/* MPI_Allreduce of `bytes` (at most MMPI_CROWD_BYTES) packed bytes at `in`: folded with
 * `kernel` over n elements, or without one with x's op on x's send type; the packed result
 * is stored at `out` on success, and on MPI_ERR_PROC_FAILED when everyone arrived (a cut);
 * *wrote (if not NULL) says whether it was. */
int mmpi_coll_crowd_allreduce_packed(struct mmpi_rank *self, struct mmpi_comm *c,
                                     const void *in, void *out, size_t bytes,
                                     mmpi_op_kernel *kernel, size_t n, const struct mmpi_coll *x,
                                     bool *wrote);

#endif
