/*
 * wait.c: how a rank waits. A waiting thread spins briefly (a peer on the other core often
 * answers within a microsecond), then sleeps on its rank's wake word, so that hundreds of
 * rank-threads can share two cores. Anyone who changes what a waiter's condition reads bumps the
 * word and wakes sleepers; a failure wakes every rank, so no wait outlives a peer's death
 * unnoticed.
 *
 * Ordering (all seq_cst): waker: word++, then read sleepers; waiter: sleepers++, then futex_wait
 * on the word value it read *before* evaluating its condition. Either the waker sees the
 * sleeper and wakes it, or the futex sees the changed word and does not sleep.
 */
#include <sched.h>

#include "mmpi.h"
#include "util/futex.h"

#define SPIN_ITERATIONS 200
#define YIELD_ROUNDS 20

void mmpi_rank_wake(struct mmpi_rank *rank)
{
    __atomic_fetch_add(&rank->wake_word, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&rank->sleepers, __ATOMIC_SEQ_CST))
        mmpi_futex_wake_all(&rank->wake_word);
}

void mmpi_world_wake_all(struct mmpi_world *world)
{
    for (int i = 0; i < world->size; i++)
        mmpi_rank_wake(world->ranks[i]);
}

void mmpi_wait_until(struct mmpi_rank *self, bool (*ready)(void *arg), void *arg)
{
    for (int i = 0; i < SPIN_ITERATIONS; i++) {
        if (ready(arg))
            return;
        mmpi_cpu_relax();
    }
    /* Then let other runnable ranks (often the one we wait for, on this core) run a few times
     * before paying for a sleep and a wake-up: with more ranks than cores this is what makes a
     * barrier cost a few context switches instead of a futex round trip per rank. */
    for (int i = 0; i < YIELD_ROUNDS; i++) {
        if (ready(arg))
            return;
        sched_yield();
    }
    for (;;) {
        uint32_t seen = __atomic_load_n(&self->wake_word, __ATOMIC_SEQ_CST);
        if (ready(arg))
            return;
        mmpi_rank_check_alive(self);
        __atomic_fetch_add(&self->sleepers, 1, __ATOMIC_SEQ_CST);
        mmpi_futex_wait(&self->wake_word, seen, NULL);
        __atomic_fetch_sub(&self->sleepers, 1, __ATOMIC_SEQ_CST);
    }
}
