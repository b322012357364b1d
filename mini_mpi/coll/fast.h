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

#include "comm/comm.h"
#include "op/op.h"

struct mmpi_rank;
struct mmpi_coll;

/* Largest packed allreduce input carried in a member's line. */
#define MMPI_COLL_FAST_BYTES 16

/* Whether blocking barriers and small allreduces on c take the fast path (or crowd.h's). */
bool mmpi_coll_fast_ok(const struct mmpi_comm *c);
/* The largest communicator the fast path (or the crowd path above it) serves: fixed at first
 * use, the same for every rank (MPI_T's MINI_MPI_COLL_FAST_MAX). */
int mmpi_coll_fast_max(void);
/* MPI_Barrier on c (mmpi_coll_fast_ok): MPI_SUCCESS or the error class to raise. */
int mmpi_coll_fast_barrier(struct mmpi_rank *self, struct mmpi_comm *c);
/* Whether x (a checked blocking MPI_Allreduce part) fits the fast path. */
bool mmpi_coll_fast_allreduce_ok(const struct mmpi_comm *c, const struct mmpi_coll *x);
int mmpi_coll_fast_allreduce(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x);
/* A predefined op on the packed input of a fast allreduce: `kernel` on n elements, or when
 * `word` is not 0 (one element: op/word.h) that word op inline, with the same result. */
struct mmpi_fast_fold {
    mmpi_op_kernel *kernel;
    size_t n;
    int word;
};
/* The same for an input of 1 to 8 contiguous bytes at `in`, the result stored at `out`; c
 * must pass mmpi_coll_fast_ok. */
int mmpi_coll_fast_allreduce_word(struct mmpi_rank *self, struct mmpi_comm *c, const void *in,
                                  void *out, size_t bytes, const struct mmpi_fast_fold *how);

/* Whether c takes MPI_Allreduce's express path (reduce_api.c) for inputs of up to 8 bytes:
 * the fast path's own lines (mmpi_coll_fast_ok, not crowd.h's) and inputs of 8 bytes
 * travelling as copies (MINI_MPI_COLL_SNAPSHOT). All of it is fixed for c's lifetime
 * (the settings are read once), so the answer is cached in c. */
bool mmpi_coll_fast_word_ok_first(struct mmpi_comm *c);
static inline bool mmpi_coll_fast_word_ok(struct mmpi_comm *c)
{
    int8_t ok = c->word_express;
    return __builtin_expect(ok != 0, 1) ? ok > 0 : mmpi_coll_fast_word_ok_first(c);
}
/* mmpi_coll_fast_allreduce_word on such a c, with a word op (how->word != 0). */
int mmpi_coll_fast_allreduce_express(struct mmpi_rank *self, struct mmpi_comm *c,
                                     const void *in, void *out, size_t bytes,
                                     const struct mmpi_fast_fold *how);

#endif
