/*
 * chan.c: per-sender channels (chan.h): creating them, the lock-free send, the direct receive
 * and its poll, and draining channels into the matching engine (match.c) whenever a posted
 * receive, an MPI_ANY_SOURCE receive, a probe or a slow-path send of the same sender needs the
 * messages in the engine's queues.
 */
#include "pt2pt/chan.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mmpi.h"
#include "pt2pt/copy.h"
#include "pt2pt/mbox_lock.h"
#include "pt2pt/pt2pt.h"
#include "ulfm/ulfm.h"

_Static_assert(sizeof(struct mmpi_chan_half) * 2 == 64, "two halves per cache line");
_Static_assert(offsetof(struct mmpi_chan_slot, data) == sizeof(struct mmpi_chan_cell) &&
                   offsetof(struct mmpi_chan_half, data) == sizeof(struct mmpi_chan_cell),
               "a cell's payload follows its header");

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
    /* The reverse channel (to src, in src's mailbox) may exist: share its line (chan.h). Both
     * created at once under their two locks, each may take its own line: then the pair is only
     * slower, each direction still using one half consistently. */
    int dst = (int)(box - box->first);
    struct mmpi_chan *rev = src != dst ? chan_of(&box->first[src], dst) : NULL;
    ch->line = rev ? rev->line : &ch->own;
    ch->tx = ch->rx = &ch->line->half[src < dst ? 0 : 1];
    ch->peer_half = &ch->line->half[src < dst ? 1 : 0];
    if (rev) { /* acknowledgements only between channels that share the line */
        ch->rev = rev;
        __atomic_store_n(&rev->rev, ch, __ATOMIC_RELEASE);
    }
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

static const unsigned char *cell_data(const struct mmpi_chan_cell *c)
{
    return (const unsigned char *)(c + 1);
}

static size_t cell_bytes(const struct mmpi_chan_cell *c)
{
    return (size_t)(__atomic_load_n(&c->seqb, __ATOMIC_RELAXED) & 0xff);
}

/* The cell holding the oldest message not taken, or NULL. Without the lock it is only a hint
 * (a concurrent consumer may take it). */
static struct mmpi_chan_cell *next_cell(struct mmpi_chan *ch)
{
    uint64_t want = __atomic_load_n(&ch->taken, __ATOMIC_RELAXED) + 1;
    struct mmpi_chan_cell *c = &ch->rx->c;
    if (__atomic_load_n(&c->seqb, __ATOMIC_ACQUIRE) >> 8 == want)
        return c;
    c = &ch->slots[(want - 1) % MMPI_CHAN_SLOTS].c;
    return __atomic_load_n(&c->seqb, __ATOMIC_ACQUIRE) >> 8 == want ? c : NULL;
}

/* Mailbox lock held: the consumer is done with the oldest cell. */
static void advance(struct mmpi_chan *ch)
{
    __atomic_store_n(&ch->taken, ch->taken + 1, __ATOMIC_RELEASE);
}

/* Copies a cell's message into a receive and fills its status; the error waits in
 * status.MPI_ERROR for the completion. */
static void deliver_slot(const struct mmpi_chan *ch, const struct mmpi_chan_cell *s,
                         struct mmpi_request *rreq)
{
    size_t copied = 0, bytes = cell_bytes(s);
    const struct mmpi_datatype *dt = rreq->dt;
    int err;
    if (dt->contiguous) { /* mmpi_typed_unpack, without its calls */
        size_t room = dt->size * rreq->count;
        copied = bytes < room ? bytes : room;
        mmpi_copy_small((char *)rreq->buf + dt->true_lb, cell_data(s), copied);
        err = bytes > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    } else {
        err = mmpi_typed_unpack(cell_data(s), bytes, rreq->buf, rreq->count, dt, &copied);
    }
    rreq->status.MPI_SOURCE = ch->src;
    rreq->status.MPI_TAG = s->tag;
    rreq->status.mmpi_count = (long long)copied;
    rreq->status.mmpi_cancelled = 0;
    rreq->status.MPI_ERROR = err;
}

/* Mailbox lock held: the oldest cell becomes an unexpected eager envelope (freed by the
 * receive that takes it, or with the mailbox). */
static void slot_to_unexpected(struct mmpi_mbox *box, const struct mmpi_chan *ch,
                               const struct mmpi_chan_cell *s)
{
    size_t bytes = cell_bytes(s);
    struct mmpi_msg *m = mmpi_xmalloc(sizeof(*m) + bytes);
    memset(m, 0, sizeof(*m));
    m->src = ch->src;
    m->src_world = ch->src_world;
    m->tag = s->tag;
    m->bytes = bytes;
    m->eager = true;
    memcpy(m->data, cell_data(s), bytes);
    mmpi_match_enqueue(box, m);
}

static void drain_one(struct mmpi_mbox *box, struct mmpi_chan *ch, struct mmpi_request **done)
{
    struct mmpi_chan_cell *s;
    while ((s = next_cell(ch))) {
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
    /* tail_seen <= taken <= head: equal means empty, without reading the consumer's line. */
    if (!ch || ch->head == ch->tail_seen)
        return;
    ch->tail_seen = __atomic_load_n(&ch->taken, __ATOMIC_ACQUIRE);
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
        return ch && next_cell(ch);
    }
    /* Channels are only ever added (at the head, published with release), never unlinked
     * before the mailbox is freed: the list can be walked without the lock. */
    for (struct mmpi_chan *ch = __atomic_load_n(&box->chan_list, __ATOMIC_ACQUIRE); ch;
         ch = ch->next)
        if (next_cell(ch))
            return true;
    return false;
}

/* ---- Sending ----------------------------------------------------------------------------- */

/* Raises tail_seen by the acknowledgement in the other half of the line. Believed only when
 * that half received a message since we last wrote ours (so the count is recent: our messages
 * not taken are then at most a ring and a half, and 32 bits tell it apart), and only up to
 * head. */
static void read_ack(struct mmpi_chan *ch)
{
    uint64_t seqb = __atomic_load_n(&ch->peer_half->c.seqb, __ATOMIC_ACQUIRE);
    if (seqb == ch->peer_seqb)
        return;
    uint32_t ahead =
        __atomic_load_n(&ch->peer_half->c.ack, __ATOMIC_RELAXED) - (uint32_t)ch->tail_seen;
    if (ahead <= ch->head - ch->tail_seen)
        ch->tail_seen += ahead;
}

/* The message last put in the shared half (seq hot_seq, 0: none) was taken. */
static bool half_free(const struct mmpi_chan *ch)
{
    return ch->tail_seen >= ch->hot_seq;
}

/* Ring slot `head % MMPI_CHAN_SLOTS` is free once every message up to head - MMPI_CHAN_SLOTS
 * (the slot's last one, if any) was taken. */
static bool slot_free(const struct mmpi_chan *ch)
{
    return ch->head - ch->tail_seen < MMPI_CHAN_SLOTS;
}

static struct mmpi_chan_cell *take_half(struct mmpi_chan *ch)
{
    ch->peer_seqb = __atomic_load_n(&ch->peer_half->c.seqb, __ATOMIC_RELAXED);
    ch->hot_seq = ch->head + 1;
    return &ch->tx->c;
}

/* The cell for the sender's next message (number head) of `bytes` (chan.h): the shared half
 * when the message fits and the half is free, else the ring slot if free; NULL when neither,
 * even after reading the consumer's count. The half's acknowledgement is read before the ring
 * is considered, so that a ping-pong stays on the shared line. */
static struct mmpi_chan_cell *pick_cell(struct mmpi_chan *ch, size_t bytes)
{
    bool fits = bytes <= MMPI_CHAN_HOT_MAX;
    if (fits) {
        if (half_free(ch))
            return take_half(ch);
        read_ack(ch);
        if (half_free(ch))
            return take_half(ch);
    }
    if (slot_free(ch))
        return &ch->slots[ch->head % MMPI_CHAN_SLOTS].c;
    ch->tail_seen = __atomic_load_n(&ch->taken, __ATOMIC_ACQUIRE);
    if (fits && half_free(ch))
        return take_half(ch);
    return slot_free(ch) ? &ch->slots[ch->head % MMPI_CHAN_SLOTS].c : NULL;
}

/* Writes the message into a cell of ch (channel of box's sender) and publishes it; false when
 * there is no channel, a receive is posted or no cell is free (chan.h). */
static bool push(struct mmpi_rank *self, struct mmpi_mbox *box, struct mmpi_chan *ch,
                 const void *buf, size_t count, const struct mmpi_datatype *dt, int tag,
                 size_t bytes)
{
    if (!ch || __atomic_load_n(&box->posted_head, __ATOMIC_RELAXED))
        return false;
    uint64_t head = ch->head;
    struct mmpi_chan_cell *s = pick_cell(ch, bytes);
    if (!s)
        return false; /* full: the engine drains it first */
    s->tag = tag;
    struct mmpi_chan *rev = __atomic_load_n(&ch->rev, __ATOMIC_ACQUIRE);
    if (s == &ch->tx->c && rev)
        __atomic_store_n(&s->ack, (uint32_t)__atomic_load_n(&rev->taken, __ATOMIC_ACQUIRE),
                         __ATOMIC_RELEASE);
    if (dt->contiguous)
        mmpi_copy_small((unsigned char *)(s + 1), (const char *)buf + dt->true_lb, bytes);
    else
        mmpi_typed_pack(buf, count, dt, (unsigned char *)(s + 1));
    __atomic_store_n(&s->seqb, (head + 1) << 8 | bytes, __ATOMIC_RELEASE);
    ch->head = head + 1;
    /* A receive posted meanwhile did not see the message, or we see it now (chan.h). The
     * message is already visible: what follows is off the receiver's path. */
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

bool mmpi_chan_send(struct mmpi_rank *self, struct mmpi_mbox *box, int my_rank, const void *buf,
                    size_t count, const struct mmpi_datatype *dt, int tag, size_t bytes)
{
    return push(self, box, chan_of(box, my_rank), buf, count, dt, tag, bytes);
}

bool mmpi_pt2pt_send_direct(struct mmpi_rank *self, struct mmpi_comm *c, const void *buf,
                            int count, struct mmpi_datatype *dt, int dest, int tag,
                            enum mmpi_send_mode mode)
{
    size_t bytes = dt->size * (size_t)count;
    if (dest < 0 || !mmpi_chan_send_eligible(self, c, MMPI_CTX_USER, mode, bytes))
        return false; /* MPI_PROC_NULL, or no channel for this message */
    struct mmpi_mbox *box = &c->core->mbox[MMPI_CTX_USER][dest]; /* an intra-communicator */
    if (mmpi_rank_is_failed(self->world->ranks[box->owner_world]))
        return false; /* the engine reports it */
    return push(self, box, chan_of(box, c->rank), buf, (size_t)count, dt, tag, bytes);
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
    struct mmpi_chan_cell *s;
    while (ch && (s = next_cell(ch))) {
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

/* Takes what may have come for a direct receive, under the lock; true once rreq is complete. */
static bool take_locked(struct mmpi_request *rreq)
{
    struct mmpi_mbox *box = rreq->mbox;
    struct mmpi_msg *m = NULL;
    mmpi_mbox_lock(&box->lock);
    enum mmpi_chan_take t = take(box, rreq->chan, rreq, &m);
    mmpi_mbox_unlock(&box->lock);
    return mmpi_chan_finish_take(rreq, t, m);
}

bool mmpi_chan_poll(struct mmpi_request *rreq)
{
    uint32_t arrivals = __atomic_load_n(&rreq->mbox->arrivals, __ATOMIC_ACQUIRE);
    if (!next_cell(rreq->chan) && arrivals == rreq->seen_arrivals)
        return false;
    rreq->seen_arrivals = arrivals;
    return take_locked(rreq);
}

/* The wait's condition: a message in the channel (taken after the wait, by the waiting thread:
 * one look at the cell per spin), or whatever completes a receive's poll (a slow-path message,
 * failure, revocation). */
static bool direct_ready(void *arg)
{
    struct mmpi_request *rreq = arg;
    struct mmpi_chan *ch = rreq->chan;
    return (ch && next_cell(ch)) || mmpi_request_poll(rreq);
}

void mmpi_chan_wait(struct mmpi_rank *self, struct mmpi_request *rreq)
{
    while (!mmpi_request_is_done(rreq)) {
        if (!rreq->chan) { /* posted: the engine completes it */
            mmpi_request_wait(self, rreq);
            return;
        }
        mmpi_wait_until_described(self, direct_ready, rreq, mmpi_request_describe);
        if (!mmpi_request_is_done(rreq))
            take_locked(rreq); /* only this thread consumes for it, or a sender's drain moved
                                * the message to the unexpected queue, where take looks first */
    }
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
