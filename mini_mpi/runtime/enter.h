/*
 * runtime/enter.h: mmpi_enter (calls.h) inline, for the few calls whose whole cost is a few
 * hundred instructions (the fast MPI_Barrier and MPI_Allreduce, coll/fast.h): the common case
 * only, the rest through mmpi_enter.
 */
#ifndef MMPI_RUNTIME_ENTER_H
#define MMPI_RUNTIME_ENTER_H

#include "calls.h"
#include "inject/inject.h"
#include "runtime/rank.h"
#include "runtime/thread.h"

static inline __attribute__((always_inline)) struct mmpi_rank *mmpi_enter_hot(enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_self;
    struct mmpi_thread *t = mmpi_thread_self;
    if (__builtin_expect(!self || !t ||
                             __atomic_load_n(&self->end, __ATOMIC_ACQUIRE) != MMPI_END_RUNNING ||
                             __atomic_load_n(&mmpi_inject_active, __ATOMIC_RELAXED) ||
                             mmpi_rank_phase(self) != MMPI_PHASE_INITIALIZED,
                         0))
        return mmpi_enter(call);
    __atomic_store_n(&t->call, call, __ATOMIC_RELAXED);
    return self;
}

#endif
