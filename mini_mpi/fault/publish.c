/*
 * fault/publish.c: how a rank's death becomes a failure everyone can see. A rank that ends
 * inside its MPI session (ranks_as_threads.c decides that, once) is published here: its
 * `failed` flag is set with release order, it is appended to the world's failure order, the
 * epoch is bumped, every rank is woken, every registered object that has it as a member runs
 * its kind's death hook (fault/registry.c), and every rank is woken again. Waiters re-check
 * their conditions, which read the queries of fault/fault.h.
 *
 * Deferred publication (determinism when faults are planned, MINI_MPI_FAULTS or mini_mpi_arm):
 * a dying rank stops at once, but is only queued here; the hang monitor (runtime/hang.c)
 * publishes the queue once nobody can progress, or after a short bound. Every survivor has then
 * done all it could without the dead rank, whatever the thread timing. A batch is published in
 * world-rank order, so the failure order does not depend on which dying thread ran first.
 *
 * Not here: recording how a rank ended and its exit status (ranks_as_threads.c), deciding when
 * to publish the queue (runtime/hang.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault/fault.h"
#include "inject/inject.h"
#include "mmpi.h"

void mmpi_fault_world_init(struct mmpi_world *w)
{
    struct mmpi_fault_world *f = &w->fault;
    MMPI_CHECK_PTHREAD(pthread_mutex_init(&f->lock, NULL));
    /* Room for every rank the job may ever hold; pages nobody touches cost nothing. */
    f->order = mmpi_xcalloc(MMPI_MAX_RANKS, sizeof(int));
    f->pending = mmpi_xcalloc(MMPI_MAX_RANKS, sizeof(int));
}

void mmpi_fault_world_fini(struct mmpi_world *w)
{
    free(w->fault.order);
    free(w->fault.pending);
    pthread_mutex_destroy(&w->fault.lock);
}

static void publish(struct mmpi_rank *r)
{
    struct mmpi_world *w = r->world;
    struct mmpi_fault_world *f = &w->fault;
    __atomic_store_n(&r->failed, true, __ATOMIC_RELEASE);
    pthread_mutex_lock(&f->lock); /* one writer at a time appends to the failure order */
    f->order[f->nfailed] = r->world_rank;
    __atomic_store_n(&f->nfailed, f->nfailed + 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&f->lock);
    __atomic_fetch_add(&f->epoch, 1, __ATOMIC_SEQ_CST);
    char name[48]; /* "rank 2 (incarnation 1)" for a restarted rank (ranks_as_threads.c) */
    if (w->config.verbose)
        fprintf(stderr, "mini_mpi: %s failed (%s)\n", mmpi_rank_label(r, name, sizeof name),
                r->end_cause);
    if (!w->config.fault_tolerant) {
        fprintf(stderr,
                "mini_mpi: rank %d ended before MPI_Finalize (%s) and fault tolerance is off "
                "(--with-ft no): ending the job\n",
                r->world_rank, r->end_cause);
        mmpi_job_exit(r->end_code ? r->end_code : 1);
    }
    /* Waiters first: a communicator's waiter needs only the flag and the order, and the walk
     * below may be this thread's first RCU read-side section (its liburcu registration costs
     * tens of microseconds, which detection would otherwise pay). Then the kinds' death hooks
     * (a window's dead lock holder), then a second wake for waiters whose condition a hook
     * changed. A waiter that re-checks between the two sees the failure without the hook's
     * record, as any waiter could before: the kinds' rules do not depend on it. */
    mmpi_world_wake_all(w);
    mmpi_fault_registry_death(r->world_rank);
    mmpi_world_wake_all(w);
}

/* Whether deaths wait for the hang monitor (deterministic outcomes when faults are planned).
 * The monitor runs whenever fault tolerance is on. */
static bool defer_publication(struct mmpi_world *w)
{
    return w->config.fault_tolerant &&
           !__atomic_load_n(&w->fault.no_monitor, __ATOMIC_ACQUIRE) &&
           __atomic_load_n(&w->config.faults->n, __ATOMIC_ACQUIRE) > 0;
}

void mmpi_fault_rank_died(struct mmpi_rank *r)
{
    struct mmpi_world *w = r->world;
    struct mmpi_fault_world *f = &w->fault;
    if (!defer_publication(w)) {
        publish(r);
        return;
    }
    pthread_mutex_lock(&f->lock);
    if (f->npending == 0)
        f->pending_since = mmpi_now();
    f->pending[f->npending] = r->world_rank;
    __atomic_store_n(&f->npending, f->npending + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&f->lock);
}

static int by_world_rank(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

void mmpi_fault_publish_pending(struct mmpi_world *w)
{
    struct mmpi_fault_world *f = &w->fault;
    pthread_mutex_lock(&f->lock);
    int n = f->npending;
    int *batch = mmpi_xmalloc(((size_t)n + 1) * sizeof(int));
    memcpy(batch, f->pending, (size_t)n * sizeof(int));
    __atomic_store_n(&f->npending, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&f->lock);
    qsort(batch, (size_t)n, sizeof(int), by_world_rank);
    for (int i = 0; i < n; i++)
        publish(w->ranks[batch[i]]);
    free(batch);
}

int mmpi_fault_pending_deaths(struct mmpi_world *w, double *since)
{
    pthread_mutex_lock(&w->fault.lock);
    int n = w->fault.npending;
    *since = w->fault.pending_since;
    pthread_mutex_unlock(&w->fault.lock);
    return n;
}

void mmpi_fault_release_reports(struct mmpi_world *w)
{
    __atomic_fetch_add(&w->fault.quiescence, 1, __ATOMIC_SEQ_CST);
    mmpi_world_wake_all(w);
}

void mmpi_fault_no_monitor(struct mmpi_world *w)
{
    __atomic_store_n(&w->fault.no_monitor, true, __ATOMIC_RELEASE);
    mmpi_fault_publish_pending(w);
    mmpi_fault_release_reports(w);
}
