/*
 * chan_send.c: the sending side of per-sender channels (chan.h): choosing a cell (the pair's
 * shared half, a ring slot or the big cell) from the sender's lower bound of what the consumer
 * took, raised by the acknowledgements that ride on the reverse direction's messages; writing
 * and publishing the message; and the blocking send's shortcut (pt2pt.h,
 * mmpi_pt2pt_send_direct). The receiving side and the draining are chan.c.
 */
#include "pt2pt/chan.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mmpi.h"
#include "pt2pt/copy.h"
#include "pt2pt/mbox_lock.h"
#include "pt2pt/pt2pt.h"

_Static_assert(MMPI_CHAN_MAX <= 8 * MMPI_CELL_WORDS, "a ring slot's payload fits the words");
_Static_assert(MMPI_CHAN_MAX < MMPI_CHAN_BIG_BYTES, "a slot's byte count is not the big cell's");

/* Raises tail_seen by the acknowledgement in the other half of the line. Believed only when
 * that half received a message since we last wrote ours (so the count is recent: our messages
 * not taken are then at most a ring, a half and the big cell, and 32 bits tell it apart), and
 * only up to head. The ack is read with acquire, not only the seqb before it: the writer may be
 * storing its next message's ack, which counts takes after the seqb we saw, and our next write
 * into a cell it counts must follow the consumer's last read of that cell. */
static void read_ack(struct mmpi_chan *ch)
{
    uint64_t seqb = __atomic_load_n(&mmpi_chan_peer_half(ch)->c.seqb, __ATOMIC_ACQUIRE);
    if (seqb == ch->peer_seqb)
        return;
    uint32_t ahead = __atomic_load_n(&mmpi_chan_peer_half(ch)->c.ack, __ATOMIC_ACQUIRE) -
                     (uint32_t)ch->tail_seen;
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
    ch->peer_seqb = __atomic_load_n(&mmpi_chan_peer_half(ch)->c.seqb, __ATOMIC_RELAXED);
    ch->hot_seq = ch->head + 1;
    return &ch->tx->c;
}

/* Whether the big cell's last message (seq big_seq) was copied out: first by the reverse
 * direction's big cell, whose writer said how far it had consumed ours (chan.h "The big cell";
 * acquire: our next write into the cell follows the consumer's copy), then by the consumer's
 * own mark. */
static bool big_copied_out(const struct mmpi_chan *ch)
{
    const struct mmpi_chan *rev = __atomic_load_n(&ch->rev, __ATOMIC_ACQUIRE);
    const struct mmpi_chan_big *rb = rev ? __atomic_load_n(&rev->big, __ATOMIC_ACQUIRE) : NULL;
    if (rb && __atomic_load_n(&rb->rev_consumed, __ATOMIC_ACQUIRE) == ch->big_seq)
        return true;
    return __atomic_load_n(&ch->big_consumed, __ATOMIC_ACQUIRE) == ch->big_seq;
}

/* The big cell for the sender's next message (number head), allocated at the first one; NULL
 * while its previous message is not copied out yet (chan.h "The big cell"). Its consumer took
 * that message before marking it consumed, so tail_seen may rise to it: without that, a stream
 * of big messages would leave tail_seen ever further behind head, and read_ack's 32-bit count
 * needs the gap small. */
static struct mmpi_chan_cell *take_big(struct mmpi_chan *ch)
{
    struct mmpi_chan_big *big = ch->tx_big;
    if (!big) {
        big = aligned_alloc(_Alignof(struct mmpi_chan_big), sizeof(*big));
        if (!big)
            return NULL; /* the engine's path needs no cell */
        memset(big, 0, offsetof(struct mmpi_chan_big, data)); /* published below (release) */
        ch->tx_big = big;
        __atomic_store_n(&ch->big, big, __ATOMIC_RELEASE);
    } else if (!big_copied_out(ch)) {
        return NULL;
    } else if (ch->tail_seen < ch->big_seq) {
        ch->tail_seen = ch->big_seq;
    }
    ch->big_seq = ch->head + 1;
    return &big->c;
}

/* The cell for the sender's next message (number head) of `bytes` (chan.h): the big cell when
 * the message is larger than a slot, else the shared half when the message fits and the half
 * is free, else the ring slot if free; NULL when none is, even after reading the consumer's
 * count. The half's acknowledgement is read before the ring is considered, so that a ping-pong
 * stays on the shared line. */
static struct mmpi_chan_cell *pick_cell(struct mmpi_chan *ch, size_t bytes)
{
    if (bytes > MMPI_CHAN_MAX)
        return take_big(ch);
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
    struct mmpi_chan *rev = __atomic_load_n(&ch->rev, __ATOMIC_ACQUIRE);
    if (bytes > MMPI_CHAN_MAX) { /* the big cell: nobody reads it until seqb says so */
        struct mmpi_chan_big *big = ch->tx_big;
        /* The payload first, then the header's fields next to seqb: the receiver polls the
         * header line, and stores to it before the payload's would hand the line over twice. */
        if (dt->contiguous)
            memcpy(big->data, (const char *)buf + dt->true_lb, bytes);
        else
            mmpi_typed_pack(buf, count, dt, big->data);
        __atomic_store_n(&s->tag, tag, __ATOMIC_RELAXED);
        __atomic_store_n(&big->len, (uint32_t)bytes, __ATOMIC_RELAXED); /* chan.c cell_bytes */
        if (rev) /* our consumption of the reverse direction's big cell (big_copied_out) */
            __atomic_store_n(&big->rev_consumed,
                             __atomic_load_n(&rev->big_consumed, __ATOMIC_ACQUIRE),
                             __ATOMIC_RELEASE);
        bytes = MMPI_CHAN_BIG_BYTES;
    } else {
        /* Tag and payload as relaxed atomics: a receive may still be copying the cell's
         * previous message, which the drain took from it (copy.h, mmpi_cell_put). */
        __atomic_store_n(&s->tag, tag, __ATOMIC_RELAXED);
        if (s == &ch->tx->c && rev)
            __atomic_store_n(&s->ack,
                             (uint32_t)__atomic_load_n(&rev->taken, __ATOMIC_ACQUIRE),
                             __ATOMIC_RELEASE);
        if (dt->contiguous) {
            mmpi_cell_put((uint64_t *)(s + 1), (const char *)buf + dt->true_lb, bytes);
        } else {
            uint64_t packed[MMPI_CELL_WORDS];
            mmpi_typed_pack(buf, count, dt, packed);
            mmpi_cell_put((uint64_t *)(s + 1), packed, bytes);
        }
    }
    __atomic_store_n(&s->seqb, (head + 1) << 8 | bytes, __ATOMIC_RELEASE);
    ch->head = head + 1;
    /* A receive posted meanwhile did not see the message, or we see it now (chan.h). The
     * message is already visible: what follows is off the receiver's path. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&box->posted_head, __ATOMIC_RELAXED)) {
        struct mmpi_request *done = NULL;
        mmpi_mbox_lock(&box->lock);
        mmpi_chan_drain(box, ch->src, &done);
        mmpi_mbox_unlock(&box->lock);
        mmpi_chan_complete_drained(done);
    }
    mmpi_rank_wake(self->world->ranks[box->owner_world]);
    return true;
}

bool mmpi_chan_send(struct mmpi_rank *self, struct mmpi_mbox *box, int my_rank, const void *buf,
                    size_t count, const struct mmpi_datatype *dt, int tag, size_t bytes)
{
    return push(self, box, mmpi_chan_of(box, my_rank), buf, count, dt, tag, bytes);
}

bool mmpi_pt2pt_send_direct(struct mmpi_rank *self, struct mmpi_comm *c, const void *buf,
                            MPI_Count count, struct mmpi_datatype *dt, int dest, int tag,
                            enum mmpi_send_mode mode)
{
    size_t bytes = dt->size * (size_t)count;
    if (dest < 0 || !mmpi_chan_send_eligible(self, c, MMPI_CTX_USER, mode, bytes))
        return false; /* MPI_PROC_NULL, or no channel for this message */
    struct mmpi_mbox *box = &c->core->mbox[MMPI_CTX_USER][dest]; /* an intra-communicator */
    if (mmpi_fault_is_failed(self->world->ranks[box->owner_world]))
        return false; /* the engine reports it */
    return push(self, box, mmpi_chan_of(box, c->rank), buf, (size_t)count, dt, tag, bytes) &&
           mmpi_pvar_sent(bytes);
}
