/*
 * chan.c: per-sender channels (chan.h): creating them, the lock-free send, the direct receive
 * and its poll, and draining channels into the matching engine (match.c) whenever a posted
 * receive, an MPI_ANY_SOURCE receive, a probe or a slow-path send of the same sender needs the
 * messages in the engine's queues.
 */
#include "pt2pt/chan.h"

#include <stdlib.h>
#include <string.h>

#include "mmpi.h"
#include "pt2pt/copy.h"
#include "pt2pt/mbox_lock.h"
#include "ulfm/ulfm.h"

bool mmpi_chan_usable(const struct mmpi_rank *self, const struct mmpi_comm *c, int ctx)
{
    return ctx == MMPI_CTX_USER && !c->core->remote && c->core->size <= MMPI_CHAN_MAX_GROUP &&
           self->thread_level != MPI_THREAD_MULTIPLE;
}

bool mmpi_chan_send_eligible(const struct mmpi_rank *self, const struct mmpi_comm *c, int ctx,
                             int mode, size_t bytes)
{
    return bytes <= MMPI_CHAN_MAX && (mode == MMPI_SEND_STANDARD || mode == MMPI_SEND_READY) &&
           mmpi_chan_usable(self, c, ctx);
}

static struct mmpi_chan *chan_of(const struct mmpi_mbox *box, int src)
{
    struct mmpi_chan **chans = __atomic_load_n(&box->chans, __ATOMIC_ACQUIRE);
    /* The bound: a probe on an inter-communicator names a rank of the other group. */
    return chans && src < box->group_size ? __atomic_load_n(&chans[src], __ATOMIC_ACQUIRE)
                                          : NULL;
}

/* The array and the channels are freed with the mailbox (mmpi_chan_free_all). */
struct mmpi_chan *mmpi_chan_create(struct mmpi_mbox *box, int src, int src_world)
{
    struct mmpi_chan *ch = chan_of(box, src);
    if (ch)
        return ch;
    if (!box->chans)
        __atomic_store_n(&box->chans, mmpi_xcalloc((size_t)box->group_size, sizeof(*box->chans)),
                         __ATOMIC_RELEASE);
    ch = aligned_alloc(_Alignof(struct mmpi_chan), sizeof(*ch));
    if (!ch)
        mmpi_die("out of memory (channel)");
    memset(ch, 0, sizeof(*ch));
    ch->src = src;
    ch->src_world = src_world;
    ch->next = box->chan_list;
    __atomic_store_n(&box->chan_list, ch, __ATOMIC_RELEASE);
    __atomic_store_n(&box->chans[src], ch, __ATOMIC_RELEASE);
    return ch;
}

void mmpi_chan_free_all(struct mmpi_mbox *box)
{
    struct mmpi_chan *ch = box->chan_list;
    while (ch) {
        struct mmpi_chan *next = ch->next;
        free(ch);
        ch = next;
    }
    free(box->chans);
    box->chans = NULL;
    box->chan_list = NULL;
}

static struct mmpi_chan_slot *next_slot(struct mmpi_chan *ch)
{
    uint32_t tail = __atomic_load_n(&ch->tail, __ATOMIC_RELAXED);
    struct mmpi_chan_slot *s = &ch->slots[tail % MMPI_CHAN_SLOTS];
    return __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) == tail + 1 ? s : NULL;
}

/* Mailbox lock held: the consumer is done with the oldest slot. */
static void advance(struct mmpi_chan *ch)
{
    __atomic_store_n(&ch->tail, ch->tail + 1, __ATOMIC_RELEASE);
}

/* Copies a slot's message into a receive and fills its status; the error waits in
 * status.MPI_ERROR for the completion. */
static void deliver_slot(const struct mmpi_chan *ch, const struct mmpi_chan_slot *s,
                         struct mmpi_request *rreq)
{
    size_t copied = 0;
    int err = mmpi_typed_unpack(s->data, s->bytes, rreq->buf, rreq->count, rreq->dt, &copied);
    rreq->status.MPI_SOURCE = ch->src;
    rreq->status.MPI_TAG = s->tag;
    rreq->status.mmpi_count = (long long)copied;
    rreq->status.mmpi_cancelled = 0;
    rreq->status.MPI_ERROR = err;
}

/* Mailbox lock held: the oldest slot becomes an unexpected eager envelope (freed by the
 * receive that takes it, or with the mailbox). */
static void slot_to_unexpected(struct mmpi_mbox *box, const struct mmpi_chan *ch,
                               const struct mmpi_chan_slot *s)
{
    struct mmpi_msg *m = mmpi_xmalloc(sizeof(*m) + s->bytes);
    memset(m, 0, sizeof(*m));
    m->src = ch->src;
    m->src_world = ch->src_world;
    m->tag = s->tag;
    m->bytes = s->bytes;
    m->eager = true;
    memcpy(m->data, s->data, s->bytes);
    mmpi_match_enqueue(box, m);
}

static void drain_one(struct mmpi_mbox *box, struct mmpi_chan *ch, struct mmpi_request **done)
{
    struct mmpi_chan_slot *s;
    while ((s = next_slot(ch))) {
        struct mmpi_request *r = mmpi_match_take_posted(box, ch->src, s->tag);
        if (r) {
            deliver_slot(ch, s, r);
            r->next = *done;
            *done = r;
        } else {
            slot_to_unexpected(box, ch, s);
        }
        advance(ch);
    }
}

void mmpi_chan_drain(struct mmpi_mbox *box, int source, struct mmpi_request **done)
{
    if (source != MPI_ANY_SOURCE) {
        struct mmpi_chan *ch = chan_of(box, source);
        if (ch)
            drain_one(box, ch, done);
        return;
    }
    for (struct mmpi_chan *ch = box->chan_list; ch; ch = ch->next)
        drain_one(box, ch, done);
}

void mmpi_chan_drain_own(struct mmpi_mbox *box, int my_rank, struct mmpi_request **done)
{
    struct mmpi_chan *ch = chan_of(box, my_rank);
    /* tail_seen <= tail <= head: equal means empty, without reading the consumer's line. */
    if (!ch || ch->head == ch->tail_seen)
        return;
    ch->tail_seen = __atomic_load_n(&ch->tail, __ATOMIC_ACQUIRE);
    if (ch->head != ch->tail_seen)
        drain_one(box, ch, done);
}

void mmpi_chan_complete_drained(struct mmpi_request *done)
{
    while (done) {
        struct mmpi_request *next = done->next;
        done->next = NULL;
        mmpi_request_complete(done, done->status.MPI_ERROR);
        done = next;
    }
}

bool mmpi_chan_pending(struct mmpi_mbox *box, int source)
{
    if (source != MPI_ANY_SOURCE) {
        struct mmpi_chan *ch = chan_of(box, source);
        return ch && next_slot(ch);
    }
    /* Channels are only ever added (at the head, published with release), never unlinked
     * before the mailbox is freed: the list can be walked without the lock. */
    for (struct mmpi_chan *ch = __atomic_load_n(&box->chan_list, __ATOMIC_ACQUIRE); ch;
         ch = ch->next)
        if (next_slot(ch))
            return true;
    return false;
}

/* ---- Sending ----------------------------------------------------------------------------- */

bool mmpi_chan_send(struct mmpi_rank *self, struct mmpi_mbox *box, int my_rank, const void *buf,
                    size_t count, const struct mmpi_datatype *dt, int tag, size_t bytes)
{
    struct mmpi_chan *ch = chan_of(box, my_rank);
    if (!ch || __atomic_load_n(&box->posted_head, __ATOMIC_RELAXED))
        return false;
    uint32_t head = ch->head;
    if (head - ch->tail_seen >= MMPI_CHAN_SLOTS) {
        ch->tail_seen = __atomic_load_n(&ch->tail, __ATOMIC_ACQUIRE);
        if (head - ch->tail_seen >= MMPI_CHAN_SLOTS)
            return false; /* full: the engine drains it first */
    }
    struct mmpi_chan_slot *s = &ch->slots[head % MMPI_CHAN_SLOTS];
    s->tag = tag;
    s->bytes = (uint32_t)bytes;
    mmpi_typed_pack(buf, count, dt, s->data);
    __atomic_store_n(&s->seq, head + 1, __ATOMIC_RELEASE);
    ch->head = head + 1;
    /* A receive posted meanwhile did not see the message, or we see it now (chan.h). */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&box->posted_head, __ATOMIC_RELAXED)) {
        struct mmpi_request *done = NULL;
        mmpi_mbox_lock(&box->lock);
        drain_one(box, ch, &done);
        mmpi_mbox_unlock(&box->lock);
        mmpi_chan_complete_drained(done);
    }
    mmpi_rank_wake(self->world->ranks[box->owner_world]);
    return true;
}

/* ---- The direct receive ------------------------------------------------------------------ */

/* Mailbox lock held: the oldest message of the channel's sender that matches rreq, from the
 * unexpected queue first (older, chan.h), then the channel in order; channel messages before it
 * that do not match become unexpected. TAKE_SLOT: rreq filled, to be completed; TAKE_MSG: *m to
 * deliver after unlocking. */
static enum mmpi_chan_take take(struct mmpi_mbox *box, struct mmpi_chan *ch,
                                struct mmpi_request *rreq, struct mmpi_msg **m)
{
    if (box->unexp_head && (*m = mmpi_match_find_unexpected(box, rreq->peer, rreq->tag, true))) {
        if ((*m)->sreq)
            (*m)->sreq->msg = NULL; /* matched: no longer cancellable */
        return TAKE_MSG;
    }
    struct mmpi_chan_slot *s;
    while (ch && (s = next_slot(ch))) {
        bool match = mmpi_match_envelope(rreq->peer, rreq->tag, ch->src, s->tag);
        if (match)
            deliver_slot(ch, s, rreq);
        else
            slot_to_unexpected(box, ch, s);
        advance(ch);
        if (match)
            return TAKE_SLOT;
    }
    return TAKE_NONE;
}

enum mmpi_chan_take mmpi_chan_take_now(struct mmpi_mbox *box, struct mmpi_request *rreq,
                                       struct mmpi_msg **m)
{
    return take(box, chan_of(box, rreq->peer), rreq, m);
}

bool mmpi_chan_finish_take(struct mmpi_request *rreq, enum mmpi_chan_take t, struct mmpi_msg *m)
{
    if (t == TAKE_NONE)
        return false;
    rreq->chan = NULL;
    if (t == TAKE_MSG)
        mmpi_match_deliver_msg(rreq, m);
    else if (rreq->on_stack) /* by its blocking call's own thread, which needs no wake-up */
        mmpi_request_complete_by_waiter(rreq, rreq->status.MPI_ERROR);
    else
        mmpi_request_complete(rreq, rreq->status.MPI_ERROR);
    return true;
}

bool mmpi_chan_recv(struct mmpi_rank *self, const struct mmpi_comm *c, struct mmpi_request *rreq)
{
    struct mmpi_mbox *box = rreq->mbox;
    struct mmpi_msg *m = NULL;
    (void)self;
    (void)c;
    mmpi_mbox_lock(&box->lock);
    if (box->posted_head) { /* an earlier receive may match first: post behind it */
        mmpi_mbox_unlock(&box->lock);
        return false;
    }
    struct mmpi_chan *ch = mmpi_chan_create(box, rreq->peer, rreq->peer_world);
    rreq->seen_arrivals = __atomic_load_n(&box->arrivals, __ATOMIC_ACQUIRE);
    enum mmpi_chan_take t = take(box, ch, rreq, &m);
    rreq->chan = ch;
    mmpi_mbox_unlock(&box->lock);
    mmpi_chan_finish_take(rreq, t, m);
    return true;
}

bool mmpi_chan_poll(struct mmpi_request *rreq)
{
    struct mmpi_chan *ch = rreq->chan;
    struct mmpi_mbox *box = rreq->mbox;
    uint32_t arrivals = __atomic_load_n(&box->arrivals, __ATOMIC_ACQUIRE);
    if (!next_slot(ch) && arrivals == rreq->seen_arrivals)
        return false;
    rreq->seen_arrivals = arrivals;
    struct mmpi_msg *m = NULL;
    mmpi_mbox_lock(&box->lock);
    enum mmpi_chan_take t = take(box, ch, rreq, &m);
    mmpi_mbox_unlock(&box->lock);
    return mmpi_chan_finish_take(rreq, t, m);
}

bool mmpi_chan_abandon(struct mmpi_request *rreq)
{
    struct mmpi_mbox *box = rreq->mbox;
    struct mmpi_msg *m = NULL;
    mmpi_mbox_lock(&box->lock);
    enum mmpi_chan_take t = take(box, rreq->chan, rreq, &m);
    if (t == TAKE_NONE)
        rreq->chan = NULL;
    mmpi_mbox_unlock(&box->lock);
    return !mmpi_chan_finish_take(rreq, t, m);
}
