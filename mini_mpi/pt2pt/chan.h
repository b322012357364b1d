/*
 * chan.h: per-sender channels, the fast path for small messages between two ranks that are not
 * MPI_THREAD_MULTIPLE (match.h is the engine; this is a shortcut into it).
 *
 * A channel carries the small eager messages of one sender to one receiver on one
 * communicator's user context: a ring of cache-line slots, filled by the sender without any
 * lock, emptied by the receiver's threads (or a sender draining it) under the receiver's
 * mailbox lock. A blocking MPI_Recv naming its source, into at most a slot's bytes, waits on
 * that channel's next slot without being posted; a sender that finds no posted receive writes
 * the slot and is done.
 * In a ping-pong the message then moves one line between the cores (the slot), instead of the
 * mailbox, the posted request, the buffer and the completion word.
 *
 * Why MPI's order survives (MPI-4.1 §3.5):
 * - Non-overtaking. Invariant: every message of sender S in the mailbox's unexpected queue is
 *   older than every message of S in the channel. S appends to the unexpected queue only after
 *   draining its own channel (under the lock); a drain moves the oldest channel messages to the
 *   tail of the unexpected queue. A direct receive looks at the unexpected queue before the
 *   channel, and walks the channel in order.
 * - Posted receives. A message in a channel never bypasses a posted receive: the sender pushes
 *   only when no receive is posted, and after the push (seq_cst fence) looks again; a thread
 *   posting a receive looks at the channels again after posting (fence). One of the two sees the
 *   other and drains the channel under the lock, matching its messages against the posted
 *   queue in order. A direct receive requires an empty posted queue, and nothing can be posted
 *   while it waits because its rank has one thread in MPI at a time.
 * - MPI_ANY_SOURCE receives, probes, matched probes: they drain the channels they could match
 *   first (every channel of the mailbox for MPI_ANY_SOURCE), then use the queues as before.
 * - Failure and revocation: a direct receive's poll checks them like a posted one's; before
 *   reporting MPI_ERR_PROC_FAILED it takes the channel once more under the lock, so a message
 *   sent before the sender died is still delivered.
 *
 * Cells: a message is held by a cell, either a slot of the ring (a cache line, up to
 * MMPI_CHAN_MAX bytes) or the direction's half of the pair's shared line (up to
 * MMPI_CHAN_HOT_MAX bytes). The pair's two channels (S to R and R to S) share that one line,
 * each writing its own half: in a ping-pong the reply goes into the line that carried the
 * request, and the next request into the line that carried the reply, so each side writes a
 * line it has just read, which the coherence protocol can hand over with one transfer. With a
 * line per direction, every message costs the writer an invalidation and the reader a
 * transfer (bench/cacheline.c measures both: about twice the time). The gain shrinks when the
 * reply comes tens of nanoseconds after the read: the waiting side's next look may take the
 * line back meanwhile.
 *
 * The big cell: a message of MMPI_CHAN_MAX to MMPI_CHAN_BIG_MAX bytes goes into the channel's
 * one big cell (allocated by the sender at its first such message) when the big cell's previous
 * message has been copied out (`big_consumed`); else it takes the matching engine's path. In a
 * ping-pong of 1-4 KiB messages that is two copies, each made by one core (the sender's into
 * the cell, the receiver's out of it), and the cell's header line, where the engine's path
 * moves the mailbox lock, the posted request and its completion word between the cores too: at
 * 1 KiB those lines, not the bytes, were most of the time (docs/performance.md). Unlike the
 * small cells, the big cell is claimed before it is copied and marked consumed after: the
 * sender rewrites it only then, so its payload is plain memory (no word-by-word atomics, see
 * "Taking without the lock"), and a consumer that loses the claim never reads it. The mark,
 * `big_consumed`, is on the consumer's line (with `taken`, which the take has just written);
 * the sender learns it as it learns `taken`: from the reverse direction's messages, whose big
 * cell carries the writer's `big_consumed` of this direction (`rev_consumed`), and only when
 * that is not current by reading the consumer's line. In a ping-pong of big messages the
 * sender has just read the reply's header, so knowing its cell free costs no cache miss (reading
 * the consumer's line was one, before the message, on every round trip); for the same reason
 * the sender finds the cell through its own copy of the pointer (`tx_big`). And a receiver told
 * so by `rev_consumed` asks for its own big cell's lines writable while it copies the message
 * out (chan.c reclaim_reply_cell), so that its reply does not wait for their invalidation.
 *
 * Numbers: the sender's n-th message (from 0) gets seq n + 1; a cell's `seqb` is
 * (seq << 8 | bytes), stored last (release), 56 bits of seq that never wrap; bytes is
 * MMPI_CHAN_BIG_BYTES in the big cell, whose length is in its own header. The message goes to
 * the big cell when it is larger than a slot, to the shared half when it fits and the half's
 * previous message has been taken, else to ring slot n % MMPI_CHAN_SLOTS when n - taken <
 * MMPI_CHAN_SLOTS. The consumer looks for seq taken + 1 in the shared half, then in ring slot
 * taken % MMPI_CHAN_SLOTS, then in the big cell; each message is in exactly one cell, and a
 * cell is reused only once its message is taken (the big cell: copied out), so the first cell
 * with that seq holds it.
 *
 * Taking without the lock: a blocking MPI_Recv (and the receive half of a Sendrecv) takes the
 * next message of its channel without the mailbox lock, at its head when the message is already
 * there (mmpi_chan_recv_ready: no request is built) and in its wait's condition otherwise (the
 * wait is then set up without the lock too when the channel exists and both queues are empty).
 * Conditions: no receive posted, no message that may be older in the unexpected queue (empty
 * at the head; at the wait, `arrivals` unchanged since the receive last looked), a contiguous
 * type the message fits, a matching tag. The payload is copied into the receive buffer first,
 * then the message claimed by a compare-and-swap of `taken` from seq - 1 to seq (the big cell
 * the other way round, above). The only other consumer that can run meanwhile is the sender
 * draining its own channel under the lock (a slow-path send; a push that found a receive
 * posted): its drain queues the message as unexpected first (bumping `arrivals`), then claims
 * it the same way, and unqueues it again if the receive won. So a message is taken once; a
 * receive that lost sees `taken` moved, and (acquire) the queued copy, and falls back to the
 * locked take, which looks at the unexpected queue first. Under the lock everything else is as
 * before (order (1)-(3) above).
 *
 * Acknowledgements: the consumer counts what it took in `taken`, on its own line. The sender
 * keeps `tail_seen`, a lower bound of it, raised in two ways: the `ack` that each message of
 * the reverse direction carries in the shared line (the reverse sender's count of our messages
 * taken when it wrote, low 32 bits; believed only if that half got a message since we last
 * wrote ours, and only up to head), which in a ping-pong is always current and costs nothing
 * since the sender reads that line anyway; and, when neither the half nor the ring is free by
 * that bound, by reading `taken`. So the consumer never writes the shared line to acknowledge:
 * in a ping-pong it is written only by messages.
 */
#ifndef MMPI_PT2PT_CHAN_H
#define MMPI_PT2PT_CHAN_H

#include <stdbool.h>
#include <stdint.h>

#include "mmpi.h"
#include "pt2pt/match.h"

#define MMPI_CHAN_SLOTS 8
#define MMPI_CHAN_MAX 48         /* largest payload (packed bytes) a ring slot carries */
#define MMPI_CHAN_HOT_MAX 16     /* largest payload of the shared line's half */
#define MMPI_CHAN_BIG_MAX 4096   /* largest payload of the big cell */
#define MMPI_CHAN_BIG_BYTES 0xff /* a seqb's byte count that means "the big cell's length" */
#define MMPI_CHAN_MAX_GROUP 64   /* channels only in communicators up to this size: memory is
                                  * one channel (768 B) per communicating pair and direction,
                                  * and a big cell (4.1 KiB) once it carried a message larger
                                  * than a slot */

/* A cell's header; the payload follows it. */
struct mmpi_chan_cell {
    uint64_t seqb;               /* seq << 8 | bytes once it holds message seq - 1 (release) */
    int tag;                     /* relaxed atomic (pt2pt/copy.h mmpi_cell_put) */
    uint32_t ack;                /* in a shared half: the writer's mailbox had taken this many
                                  * messages of the other direction (release, before seqb) */
};

struct mmpi_chan_slot {
    _Alignas(64) struct mmpi_chan_cell c;
    uint64_t data[MMPI_CHAN_MAX / 8]; /* payload words (pt2pt/copy.h mmpi_cell_put) */
};

struct mmpi_chan_half {
    struct mmpi_chan_cell c;
    uint64_t data[MMPI_CHAN_HOT_MAX / 8];
};

/* The big cell: its header and length on the line the sender writes last, with the writer's
 * acknowledgement of the reverse direction's big cell (chan.h "The big cell"). */
struct mmpi_chan_big {
    _Alignas(64) struct mmpi_chan_cell c;
    uint32_t len;                /* payload bytes (relaxed atomic, before c.seqb's release) */
    uint64_t rev_consumed;       /* the reverse channel's big_consumed when the writer wrote
                                  * (release, before c.seqb) */
    _Alignas(64) unsigned char data[MMPI_CHAN_BIG_MAX];
};

/* The line a pair of ranks shares: half[0] carries the lower rank's messages. */
struct mmpi_chan_line {
    _Alignas(64) struct mmpi_chan_half half[2];
};

struct mmpi_chan {
    /* The sender's line (one thread at a time); the channel is aligned to 128 (chan.c). */
    _Alignas(128) uint64_t head; /* messages pushed */
    uint64_t hot_seq;            /* seq of the last message put in the shared half (0: none) */
    uint64_t tail_seen;          /* a lower bound of taken (acknowledgements above) */
    struct mmpi_chan_half *tx;   /* immutable: this direction's half of the shared line (the
                                  * other half, its acks, is mmpi_chan_peer_half) */
    struct mmpi_chan_big *tx_big; /* the big cell (`big` below), for the sender's rank (its
                                   * sends, and its receives' reclaim_reply_cell): reading
                                   * it on the consumer's line would miss at every big
                                   * message */
    uint64_t peer_seqb;          /* the other half's seqb when we last wrote ours */
    struct mmpi_chan *rev;       /* the reverse channel sharing the line (whose taken we
                                  * acknowledge), published once (atomic); NULL: none yet */
    uint64_t big_seq;            /* seq of the last message put in the big cell (0: none) */
    /* The consumer's line (under the receiver's mailbox lock) and immutable fields. */
    _Alignas(64) uint64_t taken; /* messages taken (release; the sender reads it when stuck) */
    uint64_t big_consumed;       /* seq of the big cell's last message copied out (release) */
    struct mmpi_chan_half *rx;   /* immutable: the same half, read by the consumer */
    struct mmpi_chan_line *line; /* immutable: the shared line (own, or the reverse channel's) */
    int src;                     /* immutable: the sender's rank in the communicator */
    int src_world;               /* immutable */
    struct mmpi_chan *next;      /* immutable: the mailbox's chan_list */
    struct mmpi_chan_big *big;   /* allocated by the sender at its first message larger than
                                  * a slot, published once (atomic); NULL: none yet */
    struct mmpi_chan_line own;   /* the shared line, when this channel was created before the
                                  * reverse one (which then points into it) */
    struct mmpi_chan_slot slots[MMPI_CHAN_SLOTS];
};

/* The other half of the line a channel's sender writes into (the halves share one line). */
static inline struct mmpi_chan_half *mmpi_chan_peer_half(const struct mmpi_chan *ch)
{
    return (struct mmpi_chan_half *)((uintptr_t)ch->tx ^ sizeof(struct mmpi_chan_half));
}

/* The channel from sender `src` into box, or NULL (no lock needed: the array and its entries
 * are published once, with release). The bound: a probe on an inter-communicator names a rank
 * of the other group. */
static inline struct mmpi_chan *mmpi_chan_of(const struct mmpi_mbox *box, int src)
{
    struct mmpi_chan **chans = __atomic_load_n(&box->chans, __ATOMIC_ACQUIRE);
    return chans && src < box->group_size ? __atomic_load_n(&chans[src], __ATOMIC_ACQUIRE)
                                          : NULL;
}

/* Mailbox lock held: the channel from sender `src` (world rank src_world) into box, created if
 * missing. */
struct mmpi_chan *mmpi_chan_create(struct mmpi_mbox *box, int src, int src_world);
/* Frees the channels of a mailbox (with any message still in them). */
void mmpi_chan_free_all(struct mmpi_mbox *box);

/* The fast send: pushes the message (buf, count, dt; `bytes` packed, at most
 * MMPI_CHAN_BIG_MAX) of rank my_rank into its channel to box, if the channel exists, no receive
 * is posted and a cell is free; the send is then complete (standard or ready mode). False:
 * nothing done, use the matching engine. Calling rank not MPI_THREAD_MULTIPLE. */
bool mmpi_chan_send(struct mmpi_rank *self, struct mmpi_mbox *box, int my_rank, const void *buf,
                    size_t count, const struct mmpi_datatype *dt, int tag, size_t bytes);
/* Whether a send or receive on c may use channels at all (user context of an intra-communicator
 * of at most MMPI_CHAN_MAX_GROUP members, calling rank not MPI_THREAD_MULTIPLE). */
static inline bool mmpi_chan_usable(const struct mmpi_rank *self, const struct mmpi_comm *c,
                                    int ctx)
{
    return ctx == MMPI_CTX_USER && !c->core->remote && c->core->size <= MMPI_CHAN_MAX_GROUP &&
           self->thread_level != MPI_THREAD_MULTIPLE;
}
/* Whether a send of `bytes` packed bytes in `mode` (enum mmpi_send_mode) may use a channel:
 * at most a big cell, completed once copied, and mmpi_chan_usable. */
static inline bool mmpi_chan_send_eligible(const struct mmpi_rank *self,
                                           const struct mmpi_comm *c, int ctx, int mode,
                                           size_t bytes)
{
    return bytes <= MMPI_CHAN_BIG_MAX &&
           (mode == MMPI_SEND_STANDARD || mode == MMPI_SEND_READY) &&
           mmpi_chan_usable(self, c, ctx);
}

/* The direct receive (rreq->direct, a specific source): takes a matching message from the
 * unexpected queue or the channel, completing rreq, or leaves rreq waiting on the channel
 * (rreq->chan set) for mmpi_chan_poll. False when it cannot (a receive is posted): post it. */
bool mmpi_chan_recv(struct mmpi_rank *self, const struct mmpi_comm *c, struct mmpi_request *rreq);
/* A blocking receive's head, before any request exists: if the message it would take is
 * already in the channel from `source` (and no receive is posted, the unexpected queue is
 * empty, the type contiguous and the message fits), takes it without the lock, fills *status
 * (MPI_STATUS_IGNORE allowed; MPI_ERROR untouched) and returns true. Arguments checked. */
bool mmpi_chan_recv_ready(const struct mmpi_rank *self, const struct mmpi_comm *c, void *buf,
                          MPI_Count count, const struct mmpi_datatype *dt, int source, int tag,
                          MPI_Status *status);
/* A direct receive's poll: takes a message if one may have come. True once rreq is complete.
 * cell_looked: the caller has just found the channel's next cell empty, so only a slow-path
 * arrival (`arrivals` moved) is left to look for. */
bool mmpi_chan_poll(struct mmpi_request *rreq, bool cell_looked);
/* Waits until rreq (a receive from a blocking call's frame, direct or posted) is complete: a
 * direct one by looking at its channel's next cell only, and taking the message itself. */
void mmpi_chan_wait(struct mmpi_rank *self, struct mmpi_request *rreq);
/* A direct receive gives up (failure, revocation; mmpi_match_abandon): true when rreq stopped
 * waiting on its channel (the caller completes it with the error), false when a message could
 * still be taken and completed it instead. Takes the mailbox lock. */
bool mmpi_chan_abandon(struct mmpi_request *rreq);

/* Mailbox lock held, no receive posted, rreq a receive from a specific source: takes the oldest
 * message of that source matching rreq, from the unexpected queue, then the channel (whose
 * older non-matching messages become unexpected). TAKE_SLOT: rreq filled; TAKE_MSG: *m to
 * deliver. Either way mmpi_chan_finish_take completes rreq after unlocking. */
enum mmpi_chan_take { TAKE_NONE, TAKE_SLOT, TAKE_MSG };
enum mmpi_chan_take mmpi_chan_take_now(struct mmpi_mbox *box, struct mmpi_request *rreq,
                                       struct mmpi_msg **m);
/* No lock held: completes rreq with what mmpi_chan_take_now took; false for TAKE_NONE. */
bool mmpi_chan_finish_take(struct mmpi_request *rreq, enum mmpi_chan_take t, struct mmpi_msg *m);

/* How many messages box's channels hold, taken by no receive yet: MPI_T's unexpected level
 * adds them (mpit.h mmpi_pvar_chan_box). Any thread, no lock; exact while no sender or
 * receiver of box is moving a message. */
size_t mmpi_chan_held(struct mmpi_mbox *box);

/* Whether a channel of box that `source` (or MPI_ANY_SOURCE) names holds a message: a blocking
 * probe's cheap look before taking the lock. */
bool mmpi_chan_pending(struct mmpi_mbox *box, int source);

/* Mailbox lock held. Moves the channel messages of `source` (every channel: MPI_ANY_SOURCE)
 * into the engine: each goes to the first matching posted receive (copied and its status
 * filled; the request is pushed on *done, linked by `next`, for the caller to complete with
 * mmpi_chan_complete_drained after unlocking) or to the unexpected queue. */
void mmpi_chan_drain(struct mmpi_mbox *box, int source, struct mmpi_request **done);
/* The same for the sender my_rank's own channel before it appends to the engine's queues;
 * reads the consumer's `taken` only when its own view says the ring may hold messages. */
void mmpi_chan_drain_own(struct mmpi_mbox *box, int my_rank, struct mmpi_request **done);
/* Completes the receives a drain matched. No lock held. */
void mmpi_chan_complete_drained(struct mmpi_request *done);

#endif
