/*
 * chan.c: per-sender channels (chan.h): creating them, the direct receive, its poll and its
 * wait, and draining channels into the matching engine (match.c) whenever a posted
 * receive, an MPI_ANY_SOURCE receive, a probe or a slow-path send of the same sender needs the
 * messages in the engine's queues. The sending side is chan_send.c.
 */
#include "pt2pt/chan.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/datatype.h"
#include "mmpi.h"
#include "mpit/mpit.h"
#include "pt2pt/copy.h"
#include "pt2pt/mbox_lock.h"
#include "ulfm/ulfm.h"

_Static_assert(sizeof(struct mmpi_chan_half) * 2 == 64 &&
                   _Alignof(struct mmpi_chan_line) == 64,
               "two halves per cache line (mmpi_chan_peer_half)");
_Static_assert(offsetof(struct mmpi_chan, taken) == 64, "the sender's fields fill one line");
/* Intel's adjacent-line prefetcher moves 128-byte pairs of lines: a channel is aligned to 128
 * bytes so that the shared line's partner is ring slot 0, never the consumer's line (`taken`,
 * written at every take), which would travel with every message. */
_Static_assert(offsetof(struct mmpi_chan, own) % 128 == 0 &&
                   offsetof(struct mmpi_chan, taken) / 128 != offsetof(struct mmpi_chan, own) / 128,
               "the shared line starts a 128-byte pair of its own");
_Static_assert(offsetof(struct mmpi_chan_slot, data) == sizeof(struct mmpi_chan_cell) &&
                   offsetof(struct mmpi_chan_half, data) == sizeof(struct mmpi_chan_cell),
               "a cell's payload follows its header");

/* The array and the channels are freed with the mailbox (mmpi_chan_free_all). */
struct mmpi_chan *mmpi_chan_create(struct mmpi_mbox *box, int src, int src_world)
{
    struct mmpi_chan *ch = mmpi_chan_of(box, src);
    if (ch)
        return ch;
    if (!box->chans) {
        __atomic_store_n(&box->chans, mmpi_xcalloc((size_t)box->group_size, sizeof(*box->chans)),
                         __ATOMIC_RELEASE);
        mmpi_pvar_chan_box(box->owner_world, box, true); /* its messages are unexpected too */
    }
    ch = aligned_alloc(_Alignof(struct mmpi_chan), sizeof(*ch));
    if (!ch)
        mmpi_die("out of memory (channel)");
    memset(ch, 0, sizeof(*ch));
    /* The reverse channel (to src, in src's mailbox) may exist: share its line (chan.h). Both
     * created at once under their two locks, each may take its own line: then the pair is only
     * slower, each direction still using one half consistently. */
    int dst = (int)(box - box->first);
    struct mmpi_chan *rev = src != dst ? mmpi_chan_of(&box->first[src], dst) : NULL;
    ch->line = rev ? rev->line : &ch->own;
    ch->tx = ch->rx = &ch->line->half[src < dst ? 0 : 1];
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
    if (box->chans) /* first: a read of the level may be walking the channels */
        mmpi_pvar_chan_box(box->owner_world, box, false);
    struct mmpi_chan *ch = box->chan_list;
    while (ch) {
        struct mmpi_chan *next = ch->next;
        free(ch->big);
        free(ch);
        ch = next;
    }
    free(box->chans);
    box->chans = NULL;
    box->chan_list = NULL;
}

/* Whether a cell holding a message is the big cell (chan.h "The big cell"). */
static bool is_big(const struct mmpi_chan_cell *c)
{
    return (__atomic_load_n(&c->seqb, __ATOMIC_RELAXED) & 0xff) == MMPI_CHAN_BIG_BYTES;
}

static const struct mmpi_chan_big *big_of(const struct mmpi_chan_cell *c)
{
    return (const struct mmpi_chan_big *)c; /* its first member */
}

static const unsigned char *cell_data(const struct mmpi_chan_cell *c)
{
    return is_big(c) ? big_of(c)->data : (const unsigned char *)(c + 1);
}

static size_t cell_bytes(const struct mmpi_chan_cell *c)
{
    size_t b = (size_t)(__atomic_load_n(&c->seqb, __ATOMIC_RELAXED) & 0xff);
    /* Relaxed: an unlocked receive may read the header of a message the sender's drain took,
     * while the sender writes its next one there; its claim then fails. */
    return b == MMPI_CHAN_BIG_BYTES ? __atomic_load_n(&big_of(c)->len, __ATOMIC_RELAXED) : b;
}

/* A consumer has copied message seq out of ch's cell c: the big cell may take the next one. */
static void cell_done(struct mmpi_chan *ch, const struct mmpi_chan_cell *c, uint64_t seq)
{
    if (is_big(c))
        __atomic_store_n(&ch->big_consumed, seq, __ATOMIC_RELEASE);
}

/* Copies n bytes of a cell's payload to dst: small cells without a call. */
static void copy_payload(void *dst, const struct mmpi_chan_cell *c, size_t n)
{
    if (n > MMPI_CHAN_MAX)
        memcpy(dst, cell_data(c), n);
    else
        mmpi_copy_small(dst, cell_data(c), n);
}

/* The cell holding message number w (chan.h "Numbers"), or NULL. */
static struct mmpi_chan_cell *cell_of(struct mmpi_chan *ch, uint64_t w)
{
    struct mmpi_chan_cell *c = &ch->rx->c;
    if (__atomic_load_n(&c->seqb, __ATOMIC_ACQUIRE) >> 8 == w)
        return c;
    c = &ch->slots[(w - 1) % MMPI_CHAN_SLOTS].c;
    if (__atomic_load_n(&c->seqb, __ATOMIC_ACQUIRE) >> 8 == w)
        return c;
    struct mmpi_chan_big *big = __atomic_load_n(&ch->big, __ATOMIC_ACQUIRE);
    return big && __atomic_load_n(&big->c.seqb, __ATOMIC_ACQUIRE) >> 8 == w ? &big->c : NULL;
}

/* The cell holding the oldest message not taken, number *want = taken + 1, or NULL. Without
 * the lock it is only a hint (a concurrent consumer may take it). */
static struct mmpi_chan_cell *ready_cell(struct mmpi_chan *ch, uint64_t *want)
{
    /* Acquire: a drain's claim (drain_one) follows its enqueue, which must then be visible. */
    *want = __atomic_load_n(&ch->taken, __ATOMIC_ACQUIRE) + 1;
    return cell_of(ch, *want);
}

size_t mmpi_chan_held(struct mmpi_mbox *box)
{
    size_t n = 0;
    /* Channels are never unlinked before the mailbox is freed (mmpi_chan_pending). */
    for (struct mmpi_chan *ch = __atomic_load_n(&box->chan_list, __ATOMIC_ACQUIRE); ch;
         ch = ch->next) {
        uint64_t w = __atomic_load_n(&ch->taken, __ATOMIC_ACQUIRE) + 1;
        /* Consecutive numbers from the oldest not taken: the ring, the shared half and the
         * big cell hold at most MMPI_CHAN_SLOTS + 2. */
        for (int k = 0; k <= MMPI_CHAN_SLOTS + 1 && cell_of(ch, w + (uint64_t)k); k++)
            n++;
    }
    return n;
}

static struct mmpi_chan_cell *next_cell(struct mmpi_chan *ch)
{
    uint64_t want;
    return ready_cell(ch, &want);
}

/* Mailbox lock held: the consumer is done with the oldest cell, c, already copied. */
static void advance(struct mmpi_chan *ch, const struct mmpi_chan_cell *c)
{
    uint64_t seq = ch->taken + 1;
    __atomic_store_n(&ch->taken, seq, __ATOMIC_RELEASE);
    cell_done(ch, c, seq);
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
        copy_payload((char *)rreq->buf + dt->true_lb, s, copied);
        err = bytes > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    } else {
        err = mmpi_typed_unpack(cell_data(s), bytes, rreq->buf, rreq->count, dt, &copied);
    }
    if (err == MPI_SUCCESS)
        err = mmpi_typed_signature_check(copied, rreq->count, dt);
    rreq->status.MPI_SOURCE = ch->src;
    rreq->status.MPI_TAG = s->tag;
    rreq->status.mmpi_count = (long long)copied;
    rreq->status.mmpi_cancelled = 0;
    rreq->status.MPI_ERROR = err;
}

/* Mailbox lock held: the oldest cell becomes an unexpected eager envelope (freed by the
 * receive that takes it, or with the mailbox). */
static struct mmpi_msg *slot_to_unexpected(struct mmpi_mbox *box, const struct mmpi_chan *ch,
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
    return m;
}

/* Drains the channel into the engine. The receiving rank may meanwhile take a message without
 * the lock (a blocking receive, chan.h "Taking without the lock") when this is the sender
 * draining its own channel: never while a receive is posted, so a message matching a posted
 * receive is simply taken; one that goes to the unexpected queue is queued first (bumping
 * `arrivals`, which stops the receive's unlocked takes) and then claimed with a compare-and-
 * swap, and unqueued again if the receive took it meanwhile. */
static void drain_one(struct mmpi_mbox *box, struct mmpi_chan *ch, struct mmpi_request **done)
{
    struct mmpi_chan_cell *s;
    uint64_t want;
    while ((s = ready_cell(ch, &want))) {
        struct mmpi_request *r = mmpi_match_take_posted(box, ch->src, s->tag);
        if (r) {
            deliver_slot(ch, s, r);
            r->next = *done;
            *done = r;
            advance(ch, s);
            continue;
        }
        struct mmpi_msg *m = slot_to_unexpected(box, ch, s);
        uint64_t old = want - 1;
        if (__atomic_compare_exchange_n(&ch->taken, &old, want, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED)) {
            cell_done(ch, s, want);
        } else { /* the receive took it (and marks the big cell consumed itself) */
            mmpi_match_unqueue(box, m);
            free(m);
        }
    }
}

void mmpi_chan_drain(struct mmpi_mbox *box, int source, struct mmpi_request **done)
{
    if (source != MPI_ANY_SOURCE) {
        struct mmpi_chan *ch = mmpi_chan_of(box, source);
        if (ch)
            drain_one(box, ch, done);
        return;
    }
    for (struct mmpi_chan *ch = box->chan_list; ch; ch = ch->next)
        drain_one(box, ch, done);
}

void mmpi_chan_drain_own(struct mmpi_mbox *box, int my_rank, struct mmpi_request **done)
{
    struct mmpi_chan *ch = mmpi_chan_of(box, my_rank);
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
        struct mmpi_chan *ch = mmpi_chan_of(box, source);
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
        advance(ch, s);
        if (match)
            return TAKE_SLOT;
    }
    return TAKE_NONE;
}

enum mmpi_chan_take mmpi_chan_take_now(struct mmpi_mbox *box, struct mmpi_request *rreq,
                                       struct mmpi_msg **m)
{
    return take(box, mmpi_chan_of(box, rreq->peer), rreq, m);
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
    /* Without the lock when the channel exists and both queues are empty: the receive then
     * waits on the channel, and its unlocked take believes the empty unexpected queue until
     * `arrivals` moves (read first: an enqueue it does not count is one whose link the
     * emptiness check would have seen, or that comes later). Nothing can be posted meanwhile
     * (chan.h, order (3)). */
    struct mmpi_chan *known = mmpi_chan_of(box, rreq->peer);
    if (known && !__atomic_load_n(&box->posted_head, __ATOMIC_RELAXED)) {
        rreq->seen_arrivals = __atomic_load_n(&box->arrivals, __ATOMIC_ACQUIRE);
        if (!__atomic_load_n(&box->unexp_head, __ATOMIC_ACQUIRE)) {
            rreq->chan = known;
            return true;
        }
    }
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
    rreq->seen_arrivals = __atomic_load_n(&box->arrivals, __ATOMIC_RELAXED); /* all looked at */
    enum mmpi_chan_take t = take(box, rreq->chan, rreq, &m);
    mmpi_mbox_unlock(&box->lock);
    return mmpi_chan_finish_take(rreq, t, m);
}

bool mmpi_chan_poll(struct mmpi_request *rreq, bool cell_looked)
{
    uint32_t arrivals = __atomic_load_n(&rreq->mbox->arrivals, __ATOMIC_ACQUIRE);
    if ((cell_looked || !next_cell(rreq->chan)) && arrivals == rreq->seen_arrivals)
        return false;
    rreq->seen_arrivals = arrivals;
    return take_locked(rreq);
}

/* ---- Taking without the lock (chan.h "Taking without the lock") -------------------------- */

/* A big message in: when it says that our own last big message to its sender was copied out
 * (rev_consumed), asks for the lines of our big cell to that sender writable while we copy the
 * message out, so that a reply of about its size finds them owned instead of invalidating the
 * sender's copies one by one before it is visible (most programs answer a message with one like
 * it). At most 1 KiB of them: more only competes with the copy out (at 4 KiB every line: no
 * gain). `prefetchw` in assembly on x86 (GCC's generic target makes a read prefetch of
 * __builtin_prefetch(p, 1) there), where the CPU has it. A prefetch changes nothing the
 * program sees. */
static void reclaim_reply_cell(struct mmpi_mbox *box, int src, const struct mmpi_chan_big *in,
                               size_t bytes)
{
    /* Our channel to src: its sender's fields are this rank's own. */
    const struct mmpi_chan *out = mmpi_chan_of(&box->first[src], (int)(box - box->first));
    if (!out || !out->tx_big ||
        __atomic_load_n(&in->rev_consumed, __ATOMIC_RELAXED) != out->big_seq)
        return;
#if defined(__x86_64__) || defined(__i386__)
    if (!__builtin_cpu_supports("prfchw"))
        return;
#define PREFETCH_WRITABLE(p) __asm__ volatile("prefetchw %0" : : "m"(*(p)))
#else
#define PREFETCH_WRITABLE(p) __builtin_prefetch((p), 1)
#endif
    for (size_t off = 0; off < bytes && off < 1024; off += 64)
        PREFETCH_WRITABLE(&out->tx_big->data[off]);
#undef PREFETCH_WRITABLE
}

/* Copies message `want` of cell c into `room` contiguous bytes at dst and claims it, when its
 * tag matches `tag` (or MPI_ANY_TAG) and it fits; the caller has made sure that no older
 * message of the sender may be in the unexpected queue. The payload is copied first, then
 * claimed by advancing `taken` with a compare-and-swap: the only other consumer meanwhile is
 * the sender draining its own channel under the lock, and if it took the message the swap
 * fails and the copy (into the receive's own buffer) counts for nothing. Returns the bytes
 * taken and sets *got_tag, or returns -1: nothing consumed, the locked take decides. */
static long claim(struct mmpi_mbox *box, struct mmpi_chan *ch, const struct mmpi_chan_cell *c,
                  uint64_t want, void *dst, size_t room, int tag, int *got_tag)
{
    size_t bytes = cell_bytes(c);
    int t = __atomic_load_n(&c->tag, __ATOMIC_RELAXED); /* may be rewritten: see copy.h */
    if (bytes > room || (t != tag && tag != MPI_ANY_TAG))
        return -1;
    uint64_t old = want - 1;
    if (is_big(c)) { /* claimed first: nobody rewrites it until it is marked consumed */
        /* The payload's lines are in the sender's cache: ask for them now, so that they travel
         * while the claim's locked instruction runs (a prefetch reads nothing the program
         * sees, so the cell may still be rewritten if the claim fails). */
        const unsigned char *data = big_of(c)->data;
        for (size_t off = 0; off < bytes; off += 64)
            __builtin_prefetch(data + off);
        if (!__atomic_compare_exchange_n(&ch->taken, &old, want, false, __ATOMIC_ACQ_REL,
                                         __ATOMIC_RELAXED))
            return -1;
        reclaim_reply_cell(box, ch->src, big_of(c), bytes);
        memcpy(dst, big_of(c)->data, bytes);
        cell_done(ch, c, want);
        *got_tag = t;
        return (long)bytes;
    }
    mmpi_cell_get(dst, (const uint64_t *)(c + 1), bytes);
    if (!__atomic_compare_exchange_n(&ch->taken, &old, want, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_RELAXED))
        return -1;
    *got_tag = t;
    return (long)bytes;
}

bool mmpi_chan_recv_ready(const struct mmpi_rank *self, const struct mmpi_comm *c, void *buf,
                          MPI_Count count, const struct mmpi_datatype *dt, int source, int tag,
                          MPI_Status *status)
{
    if (source < 0 || !dt->contiguous || !mmpi_chan_usable(self, c, MMPI_CTX_USER))
        return false;
    struct mmpi_mbox *box = mmpi_comm_my_mbox(c, MMPI_CTX_USER);
    struct mmpi_chan *ch = mmpi_chan_of(box, source);
    uint64_t want;
    const struct mmpi_chan_cell *cell = ch ? ready_cell(ch, &want) : NULL;
    /* After the cell's acquire: a message the sender queued before pushing it is visible. */
    if (!cell || __atomic_load_n(&box->unexp_head, __ATOMIC_ACQUIRE) ||
        __atomic_load_n(&box->posted_head, __ATOMIC_RELAXED))
        return false;
    /* A message ending inside an element is an error only the posted receive can report. */
    if (!mmpi_typed_fills(cell_bytes(cell), (size_t)count, dt->size) &&
        mmpi_typed_signature_check(cell_bytes(cell), (size_t)count, dt) != MPI_SUCCESS)
        return false;
    int got_tag;
    long bytes = claim(box, ch, cell, want, (char *)buf + dt->true_lb,
                       dt->size * (size_t)count, tag, &got_tag);
    if (bytes < 0)
        return false;
    mmpi_pvar_received((uint64_t)bytes);
    if (status != MPI_STATUS_IGNORE) {
        status->MPI_SOURCE = source;
        status->MPI_TAG = got_tag;
        status->mmpi_count = bytes;
        status->mmpi_cancelled = 0;
    }
    return true;
}

/* The wait's condition: a message in the channel (taken at once without the lock when it can,
 * else after the wait, under the lock, by the waiting thread: one look at the cell per spin),
 * or whatever completes a receive's poll (a slow-path message, failure, revocation). The
 * unlocked take needs a contiguous buffer and nothing new in the unexpected queue since the
 * receive last looked there under the lock (every enqueue bumps `arrivals`). */
static bool direct_ready(void *arg)
{
    struct mmpi_request *rreq = arg;
    struct mmpi_chan *ch = rreq->chan;
    uint64_t want;
    const struct mmpi_chan_cell *cell = ch ? ready_cell(ch, &want) : NULL;
    if (!cell)
        return mmpi_request_poll_cell_looked(rreq);
    const struct mmpi_datatype *dt = rreq->dt;
    int got_tag;
    long bytes;
    if (dt->contiguous &&
        __atomic_load_n(&rreq->mbox->arrivals, __ATOMIC_ACQUIRE) == rreq->seen_arrivals &&
        (mmpi_typed_fills(cell_bytes(cell), rreq->count, dt->size) ||
         mmpi_typed_signature_check(cell_bytes(cell), rreq->count, dt) == MPI_SUCCESS) &&
        (bytes = claim(rreq->mbox, ch, cell, want, (char *)rreq->buf + dt->true_lb,
                       dt->size * rreq->count, rreq->tag, &got_tag)) >= 0) {
        rreq->status.MPI_SOURCE = ch->src;
        rreq->status.MPI_TAG = got_tag;
        rreq->status.mmpi_count = bytes;
        rreq->status.mmpi_cancelled = 0;
        rreq->chan = NULL;
        mmpi_request_complete_by_waiter(rreq, MPI_SUCCESS);
    }
    return true;
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
