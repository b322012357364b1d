/*
 * coll/fast.h: the small-communicator fast path of MPI_Barrier and of small MPI_Allreduce
 * (fast.c). These blocking collectives skip the board (no instance, no lock) on every
 * intracommunicator unless MINI_MPI_COLL_FAST_MAX is 0. With no more members than the process
 * has CPUs, each member owns half a cache line where it publishes "arrived at collective #seq"
 * and, for an allreduce, its packed input, and waits until every other member's line shows the
 * same collective; with more, the calls below hand over to crowd.h (one shared counter).
 *
 * Every member of a communicator must take the same path for the same collective, so the
 * choice depends only on what MPI requires to match at every member: the communicator, the
 * collective, the op (predefined or not) and the size of the type signature.
 */
#ifndef MMPI_COLL_FAST_H
#define MMPI_COLL_FAST_H

#include <stdbool.h>
#include <stddef.h>

#include "op/op.h"

struct mmpi_rank;
struct mmpi_comm;
struct mmpi_coll;

/* Largest packed allreduce input carried in a member's line. */
#define MMPI_COLL_FAST_BYTES 16

/* Whether blocking barriers and small allreduces on c take the fast path (or crowd.h's). */
bool mmpi_coll_fast_ok(const struct mmpi_comm *c);
/* MPI_Barrier on c (mmpi_coll_fast_ok): MPI_SUCCESS or the error class to raise. */
int mmpi_coll_fast_barrier(struct mmpi_rank *self, struct mmpi_comm *c);
/* Whether x (a checked blocking MPI_Allreduce part) fits the fast path. */
bool mmpi_coll_fast_allreduce_ok(const struct mmpi_comm *c, const struct mmpi_coll *x);
int mmpi_coll_fast_allreduce(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x);
/* The same for an input of 1 to 8 contiguous bytes at `in` (n elements for `kernel`, a
 * predefined op's), the result stored at `out`; c must pass mmpi_coll_fast_ok. */
int mmpi_coll_fast_allreduce_word(struct mmpi_rank *self, struct mmpi_comm *c, const void *in,
                                  void *out, size_t bytes, mmpi_op_kernel *kernel, size_t n);

#endif
