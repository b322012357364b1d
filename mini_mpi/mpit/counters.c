/*
 * mpit/counters.c: where the performance counters live (mpit.h, "Theory of operation"): each
 * thread's block of counters, made on its first count and linked to its rank's list, the sum a
 * read takes, the queue levels (with the mailboxes whose channels hold unexpected messages),
 * and the receive-completion helpers that pt2pt calls at the points where a receive is handed
 * back to the program.
 */
#include <stdlib.h>

#include "mmpi.h"
#include "mpit/mpit.h"
#include "pt2pt/chan.h"
#include "pt2pt/request.h"

__thread struct mmpi_pvar_block *mmpi_pvar_tls __attribute__((tls_model("initial-exec")));

struct mmpi_pvar_block *mmpi_pvar_block_attach(void)
{
    struct mmpi_rank *self = mmpi_self;
    if (!self)
        return NULL;
    struct mmpi_mpit_rank *st = mmpi_mpit_state_of(self);
    struct mmpi_pvar_block *b = mmpi_xcalloc(1, sizeof *b);
    /* Push onto the rank's list: readers walk it without the lock. */
    b->next = __atomic_load_n(&st->blocks, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&st->blocks, &b->next, b, true, __ATOMIC_RELEASE,
                                        __ATOMIC_RELAXED))
        ;
    mmpi_pvar_tls = b;
    return b;
}

uint64_t mmpi_mpit_counter_sum(struct mmpi_mpit_rank *st, int k)
{
    uint64_t sum = 0;
    for (struct mmpi_pvar_block *b = __atomic_load_n(&st->blocks, __ATOMIC_ACQUIRE); b;
         b = b->next)
        sum += __atomic_load_n(&b->v[k], __ATOMIC_RELAXED);
    return sum;
}

void mmpi_pvar_recv_status(const MPI_Status *st, int error)
{
    if (error != MPI_SUCCESS || st->MPI_SOURCE < 0 || st->mmpi_cancelled)
        return; /* MPI_PROC_NULL, failed, revoked or cancelled: no message */
    mmpi_pvar_received((uint64_t)st->mmpi_count);
}

void mmpi_pvar_request_done(const struct mmpi_request *req)
{
    if (req->kind == MMPI_REQ_RECV && req->ctx == MMPI_CTX_USER)
        mmpi_pvar_recv_status(&req->status, req->error);
}

/* The state of world rank `owner` (made if missing and `make`), or NULL once the world's end
 * reclaims what a rank left queued (nobody reads it any more). */
static struct mmpi_mpit_rank *owner_state(int owner, bool make)
{
    struct mmpi_world *w = __atomic_load_n(&mmpi_world, __ATOMIC_ACQUIRE);
    struct mmpi_rank *r = w ? w->ranks[owner] : NULL;
    if (!r)
        return NULL;
    return make ? mmpi_mpit_state_of(r) : mmpi_mpit_state_peek(r);
}

static void raise_hwm(struct mmpi_mpit_rank *st, int64_t now)
{
    int64_t hwm = __atomic_load_n(&st->unexpected_hwm, __ATOMIC_RELAXED);
    while (now > hwm && !__atomic_compare_exchange_n(&st->unexpected_hwm, &hwm, now, true,
                                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

void mmpi_pvar_level_add(int owner, enum mmpi_pvar_level level, int delta)
{
    struct mmpi_mpit_rank *st = owner_state(owner, true);
    if (!st)
        return;
    int64_t now = __atomic_add_fetch(&st->level[level], delta, __ATOMIC_RELAXED);
    if (level == MMPI_LEVEL_UNEXPECTED)
        raise_hwm(st, now);
}

void mmpi_pvar_chan_box(int owner, struct mmpi_mbox *box, bool add)
{
    /* A box freed after its owner's state (the world's end) is listed nowhere any more. */
    struct mmpi_mpit_rank *st = owner_state(owner, add);
    if (!st)
        return;
    pthread_mutex_lock(&st->lock);
    if (add && st->nchan_boxes == st->chan_boxes_cap) {
        st->chan_boxes_cap = st->chan_boxes_cap ? 2 * st->chan_boxes_cap : 8;
        st->chan_boxes = realloc(st->chan_boxes,
                                 (size_t)st->chan_boxes_cap * sizeof *st->chan_boxes);
        if (!st->chan_boxes)
            mmpi_die("out of memory (MPI_T mailbox list)");
    }
    if (add) {
        st->chan_boxes[st->nchan_boxes++] = box;
    } else {
        for (int i = 0; i < st->nchan_boxes; i++)
            if (st->chan_boxes[i] == box) {
                st->chan_boxes[i] = st->chan_boxes[--st->nchan_boxes];
                break;
            }
    }
    pthread_mutex_unlock(&st->lock);
}

int64_t mmpi_mpit_unexpected_now(struct mmpi_mpit_rank *st)
{
    int64_t now = __atomic_load_n(&st->level[MMPI_LEVEL_UNEXPECTED], __ATOMIC_RELAXED);
    for (int i = 0; i < st->nchan_boxes; i++)
        now += (int64_t)mmpi_chan_held(st->chan_boxes[i]);
    raise_hwm(st, now);
    return now;
}
