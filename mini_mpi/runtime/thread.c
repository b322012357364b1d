/*
 * thread.c: registering and unregistering a rank's threads (thread.h). Records are never freed
 * while the world runs (the hang detector may be reading one); a thread that ends leaves its
 * record for the next thread of the same rank.
 */
#include "runtime/thread.h"

#include <stdlib.h>

#include "mmpi.h"

__thread struct mmpi_thread *mmpi_thread_self __attribute__((tls_model("initial-exec")));

struct mmpi_thread *mmpi_thread_reserve(struct mmpi_rank *rank)
{
    struct mmpi_thread *t;
    pthread_mutex_lock(&rank->threads_lock);
    for (t = rank->threads; t; t = t->next)
        if (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) == MMPI_THREAD_UNUSED)
            break;
    if (!t) {
        t = mmpi_xcalloc(1, sizeof(*t));
        t->rank = rank;
        t->next = rank->threads;
        __atomic_store_n(&rank->threads, t, __ATOMIC_RELEASE);
    }
    t->call = -1;
    t->describe = NULL;
    __atomic_store_n(&t->state, MMPI_THREAD_RUNNING, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&rank->threads_lock);
    return t;
}

void mmpi_thread_adopt(struct mmpi_thread *t)
{
    mmpi_thread_self = t;
}

void mmpi_thread_release(struct mmpi_thread *t)
{
    pthread_mutex_lock(&t->rank->threads_lock);
    __atomic_store_n(&t->state, MMPI_THREAD_UNUSED, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&t->rank->threads_lock);
}

void mmpi_thread_detach(void)
{
    struct mmpi_thread *t = mmpi_thread_self;
    if (!t)
        return;
    mmpi_thread_self = NULL;
    mmpi_thread_release(t);
}

__thread jmp_buf *mmpi_thread_end_jump;

void mmpi_thread_park_self(void)
{
    struct mmpi_thread *t = mmpi_thread_self;
    if (t) /* RUNNING here: the hang detector only moves ASLEEP and FROZEN records */
        __atomic_store_n(&t->state, MMPI_THREAD_PARKED, __ATOMIC_SEQ_CST);
}

bool mmpi_thread_all_parked(struct mmpi_rank *rank)
{
    bool parked = true;
    /* Under the lock: a thread reserves a record for a thread it creates before it parks, so
     * the walk sees every record a parked rank's threads could have made. */
    pthread_mutex_lock(&rank->threads_lock);
    for (struct mmpi_thread *t = rank->threads; t && parked; t = t->next) {
        int st = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
        parked = st == MMPI_THREAD_PARKED || st == MMPI_THREAD_UNUSED;
    }
    pthread_mutex_unlock(&rank->threads_lock);
    return parked;
}

void mmpi_thread_free_all(struct mmpi_rank *rank)
{
    while (rank->threads) {
        struct mmpi_thread *next = rank->threads->next;
        free(rank->threads);
        rank->threads = next;
    }
}
