/*
 * coll/progress.c: the per-rank list of pending nonblocking collectives of progress.h.
 *
 * Lock: a spin word in the rank (rank->coll_pending_lock): held for list changes and while
 * mmpi_coll_progress walks the list, never across a wait. Each part also has a claim flag, so
 * that of the owner's threads (MPI_THREAD_MULTIPLE) only one runs its steps at a time: a
 * thread in MPI_Test/MPI_Wait on the request and one progressing it from another call. A part
 * that ends is unlinked before its request completes: after completion another thread of the
 * owner may free it at once.
 */
#include "coll/progress.h"

#include <sched.h>

#include "coll/coll.h"
#include "mmpi.h"
#include "util/futex.h"

/* The thread holds its rank's list lock (mmpi_coll_progress): removal must not take it. */
static __thread bool holding __attribute__((tls_model("initial-exec")));

static void lock(struct mmpi_rank *r)
{
    for (int spins = 0; __atomic_exchange_n(&r->coll_pending_lock, 1, __ATOMIC_ACQUIRE);
         spins++) {
        if (spins < 100)
            mmpi_cpu_relax();
        else
            sched_yield(); /* the holder may be copying a large buffer */
    }
}

static void unlock(struct mmpi_rank *r)
{
    __atomic_store_n(&r->coll_pending_lock, 0, __ATOMIC_RELEASE);
}

static void unlink_part(struct mmpi_coll *x)
{
    if (!x->pending_prev)
        return; /* not listed (any more) */
    *x->pending_prev = x->pending_next;
    if (x->pending_next)
        x->pending_next->pending_prev = x->pending_prev;
    x->pending_prev = NULL;
    x->pending_next = NULL;
}

void mmpi_coll_pending_add(struct mmpi_coll *x)
{
    struct mmpi_rank *r = x->self;
    lock(r);
    x->pending_next = r->coll_pending;
    if (x->pending_next)
        x->pending_next->pending_prev = &x->pending_next;
    x->pending_prev = &r->coll_pending;
    __atomic_store_n(&r->coll_pending, x, __ATOMIC_RELEASE);
    unlock(r);
}

bool mmpi_coll_pending_claim(struct mmpi_coll *x)
{
    return !__atomic_exchange_n(&x->busy, 1, __ATOMIC_ACQUIRE);
}

void mmpi_coll_pending_unclaim(struct mmpi_coll *x)
{
    __atomic_store_n(&x->busy, 0, __ATOMIC_RELEASE);
}

void mmpi_coll_pending_remove(struct mmpi_coll *x)
{
    if (holding) {
        unlink_part(x);
        return;
    }
    lock(x->self);
    unlink_part(x);
    unlock(x->self);
}

void mmpi_coll_progress(struct mmpi_rank *self)
{
    if (holding)
        return; /* a wait inside a step: never (steps do not block), but no recursion */
    lock(self);
    holding = true;
    struct mmpi_coll *next;
    for (struct mmpi_coll *x = self->coll_pending; x; x = next) {
        next = x->pending_next;
        if (!mmpi_coll_pending_claim(x))
            continue;
        if (!mmpi_coll_nonblocking_step(x))
            mmpi_coll_pending_unclaim(x);
    }
    holding = false;
    unlock(self);
}
