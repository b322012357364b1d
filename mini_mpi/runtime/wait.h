/*
 * runtime/wait.h: the conditional wake of runtime/wait.c, for hot paths whose waiters
 * usually spin (the collective fast path, coll/fast.c). The ordinary wake (rank.h:
 * mmpi_rank_wake) writes the rank's wake word every time, which moves that cache line to the
 * waker's core and back; this one only reads it while nobody sleeps. Also wait.c's polling
 * policy, for the loops that poll on their own.
 */
#ifndef MMPI_RUNTIME_WAIT_H
#define MMPI_RUNTIME_WAIT_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "runtime/cpu_bind.h"
#include "runtime/thread.h"
#include "util/futex.h"

struct mmpi_rank;

/* mmpi_rank_wake(rank) if a thread of rank may be asleep in mmpi_wait_until_light. The caller
 * must have changed what that thread's condition reads and then called mmpi_wake_fence: a
 * sleeper that this call does not see sees the change in its last look before sleeping
 * (wait.c). Sleepers of the other waits need mmpi_rank_wake. */
void mmpi_rank_wake_if_asleep(struct mmpi_rank *rank);
/* The waker's fence of the above: a compiler barrier when the sleepers use membarrier(2). */
enum { MMPI_WAKE_ASYM_UNKNOWN, MMPI_WAKE_ASYM_YES, MMPI_WAKE_ASYM_NO };
extern int mmpi_wake_asym;
void mmpi_wake_fence_slow(void);
static inline void mmpi_wake_fence(void)
{
    if (__builtin_expect(__atomic_load_n(&mmpi_wake_asym, __ATOMIC_ACQUIRE) ==
                         MMPI_WAKE_ASYM_YES, 1))
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    else
        mmpi_wake_fence_slow();
}
/* mmpi_wait_until_described for a condition whose changers wake with the two calls above. */
void mmpi_wait_until_light(struct mmpi_rank *self, bool (*ready)(void *arg), void *arg,
                           mmpi_wait_describe_fn *describe);
/* The adaptive spin of runtime/wait.c, for waits that poll on their own (coll/fast.c): whether
 * to spin before yielding (false once the calling thread's recent spins failed while a yield
 * then ended the wait, i.e. the awaited thread shares its CPU; true again every 64th wait, to
 * notice that it moved; always true for a thread with a CPU of its own), and how a wait that
 * spun ended: during the spin (true) or in the yields that followed (false). */
bool mmpi_spin_worthwhile(void);
void mmpi_spin_outcome(bool spin_ended_wait);
/* mmpi_wait_until_light that also counts the thread in *sleepers while it sleeps: a waker of
 * many members (coll/crowd.c) reads that one word, after its mmpi_wake_fence, to skip the
 * per-member wakes while nobody sleeps. */
void mmpi_wait_until_counted(struct mmpi_rank *self, bool (*ready)(void *arg), void *arg,
                             mmpi_wait_describe_fn *describe, uint32_t *sleepers);

/* How long a rank-thread with a CPU of its own polls before it sleeps (wait.c), at least: a
 * peer's answer takes well under a microsecond when it runs, a sleeper's wake-up ~10 us. */
#define MMPI_OWN_CPU_POLL_SECONDS 50e-6
/* A poll that found nothing (MPI_Test, MPI_Iprobe, MPI_Parrived, ...): lets the ranks that share
 * this CPU run (many ranks share few cores, and a polling loop would hold its core for a whole
 * time slice), unless this thread has a CPU of its own, where a yield would only hand the CPU to
 * another process. */
static inline void mmpi_poll_missed(void)
{
    if (mmpi_cpu_own())
        mmpi_cpu_relax();
    else
        sched_yield();
}

#endif
