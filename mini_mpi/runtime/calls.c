/*
 * calls.c: the entry checks shared by every MPI function: the calling rank, its liveness, and
 * the MPI_Init/MPI_Finalize window. The names of the entry points are inject/call_names.c's.
 */
#include <stdio.h>

#include "inject/inject.h"
#include "mmpi.h"
#include "runtime/enter.h"

struct mmpi_rank *mmpi_enter_anytime(enum mmpi_call call)
{
    (void)call;
    struct mmpi_rank *self = mmpi_self;
    if (self) {
        mmpi_thread_note_call(call);
        mmpi_rank_check_alive(self);
        if (__builtin_expect(__atomic_load_n(&mmpi_inject_active, __ATOMIC_RELAXED), 0))
            mmpi_inject_on_enter(self, call);
    }
    return self;
}

/* Out of line: the rare paths of mmpi_enter. */
__attribute__((noreturn, cold)) static void enter_no_rank(enum mmpi_call call)
{
    fprintf(stderr, "mini_mpi: %s called from a thread that belongs to no rank\n",
            mmpi_call_name(call));
    mmpi_job_exit(1);
}

__attribute__((noreturn, cold)) static void enter_wrong_phase(struct mmpi_rank *self,
                                                         enum mmpi_call call)
{
    /* Erroneous, with no communicator whose handler could apply: fatal, like MPICH. */
    const char *when = mmpi_rank_phase(self) == MMPI_PHASE_FINALIZED ? "after MPI_Finalize"
                       : __atomic_load_n(&self->session_used, __ATOMIC_ACQUIRE)
                           ? "outside any session (all were finalized)"
                           : "before MPI_Init";
    fprintf(stderr, "mini_mpi: rank %d: %s called %s\n", self->world_rank, mmpi_call_name(call),
            when);
    mmpi_job_exit(1);
}

/* Every check in turn, for the cases mmpi_enter_hot (runtime/enter.h) leaves to it: no rank
 * or thread record, a rank that ended (mmpi_rank_check_alive), fault injection, outside
 * MPI_Init..MPI_Finalize. Inside a session MPI is initialized too (MPI-4.1 §11.3): every call
 * of a rank that uses sessions without MPI_Init comes this way, a few loads more than the hot
 * path. */
struct mmpi_rank *mmpi_enter_slow(enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_self;
    if (__builtin_expect(!self, 0))
        enter_no_rank(call);
    mmpi_thread_note_call(call);
    if (__builtin_expect(__atomic_load_n(&self->end, __ATOMIC_ACQUIRE) != MMPI_END_RUNNING, 0))
        mmpi_rank_check_alive(self);
    if (__builtin_expect(__atomic_load_n(&mmpi_inject_active, __ATOMIC_RELAXED), 0))
        mmpi_inject_on_enter(self, call);
    if (__builtin_expect(!mmpi_rank_in_mpi(self), 0))
        enter_wrong_phase(self, call);
    return self;
}

struct mmpi_rank *mmpi_enter(enum mmpi_call call)
{
    return mmpi_enter_hot(call);
}
