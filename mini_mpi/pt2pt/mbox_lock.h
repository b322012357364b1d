/*
 * mbox_lock.h: the mailbox lock, a test-and-test-and-set lock released by a plain store.
 *
 * A mailbox lock is held only to update its queues and for eager copies (bounded by
 * MMPI_EAGER_MAX), never across a wait, a wake-up or a user callback. The two sides of an
 * exchange take it within a few hundred nanoseconds of each other, so a contender spins briefly,
 * then yields its CPU (the holder may be a preempted rank-thread on an oversubscribed core) and
 * never sleeps in the kernel. Compared with a pthread mutex this saves the atomic
 * read-modify-write of the unlock and the system calls of a contended lock.
 */
#ifndef MMPI_PT2PT_MBOX_LOCK_H
#define MMPI_PT2PT_MBOX_LOCK_H

#include <sched.h>
#include <stdint.h>

#include "util/futex.h"

#define MMPI_MBOX_LOCK_SPINS 100

static inline void mmpi_mbox_lock(uint32_t *lock)
{
    while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE)) {
        for (int i = 0; __atomic_load_n(lock, __ATOMIC_RELAXED); i++) {
            if (i < MMPI_MBOX_LOCK_SPINS)
                mmpi_cpu_relax();
            else
                sched_yield();
        }
    }
}

static inline void mmpi_mbox_unlock(uint32_t *lock)
{
    __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

#endif
