/*
 * runtime/enter.h: mmpi_enter (calls.h) inline, for the few calls whose whole cost is a few
 * hundred instructions (the fast MPI_Barrier and MPI_Allreduce, coll/fast.h). mmpi_enter is
 * this same function out of line. The common case is one load and one predicted branch per
 * check: a rank thread with its thread record, still running, no fault injection, inside
 * MPI_Init..MPI_Finalize; anything else goes through every check in mmpi_enter_slow
 * (runtime/calls.c).
 */
#ifndef MMPI_RUNTIME_ENTER_H
#define MMPI_RUNTIME_ENTER_H

#include "calls.h"
#include "inject/inject.h"
#include "runtime/rank.h"
#include "runtime/thread.h"

struct mmpi_rank *mmpi_enter_slow(enum mmpi_call call);

static inline __attribute__((always_inline)) struct mmpi_rank *mmpi_enter_hot(enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_self;
    struct mmpi_thread *t = mmpi_thread_self;
    if (__builtin_expect(!self || !t ||
                             __atomic_load_n(&self->end, __ATOMIC_ACQUIRE) != MMPI_END_RUNNING ||
                             __atomic_load_n(&mmpi_inject_active, __ATOMIC_RELAXED) ||
                             mmpi_rank_phase(self) != MMPI_PHASE_INITIALIZED,
                         0))
        return mmpi_enter_slow(call);
    __atomic_store_n(&t->call, call, __ATOMIC_RELAXED);
    return self;
}

#endif
