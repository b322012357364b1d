/*
 * match.h: the matching engine. One mailbox per (communicator, member, context) holds the
 * member's posted receives and the messages that arrived before a matching receive
 * (unexpected), both in arrival order, under one lock (mbox_lock.h).
 *
 * A sender locks the destination's mailbox and either takes the first matching posted receive
 * (and copies straight into its buffer: one copy) or appends an envelope to the unexpected
 * queue: small messages carry a packed copy (eager), large ones point at the sender's buffer,
 * which the receiver copies from once it matches (the sender's request completes then). A
 * receiver does the mirror image. Because a sender appends under the lock and a receiver takes
 * the first match, messages from one sender on one communicator never overtake each other.
 *
 * Copies never happen under a mailbox lock except eager packing (bounded by MMPI_EAGER_MAX).
 */
#ifndef MMPI_PT2PT_MATCH_H
#define MMPI_PT2PT_MATCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "comm/comm.h"
#include "pt2pt/request.h"

/* Messages up to this many packed bytes are copied at send time (eager). */
#define MMPI_EAGER_MAX 16384

struct mmpi_msg {
    struct mmpi_msg *next;         /* unexpected queue; mailbox lock */
    int src;                       /* sender's rank in the communicator (its local group) */
    int src_world;
    int tag;
    size_t bytes;                  /* packed size of the whole message */
    struct mmpi_request *sreq;     /* completed when the message is received; NULL when the
                                    * sender is already done (eager standard or buffered send) */
    const void *sbuf;              /* rendezvous: the sender's buffer, count and type */
    size_t scount;
    struct mmpi_datatype *sdt;     /* retained by sreq */
    bool eager;                    /* data[] holds the packed bytes */
    struct mmpi_bsend_ticket *bsend; /* a buffered send's charge on its buffer (bsend.h),
                                    * settled when the message is taken or freed; or NULL */
    unsigned char data[];
};

struct mmpi_chan;

/* Cache-line aligned: neighbouring members' mailboxes are locked by different threads. The lock
 * has a line of its own: the owner takes it on every direct receive (chan.h), while senders
 * only read the queue line (is a receive posted?), which therefore stays in both caches as
 * long as nobody posts. */
struct mmpi_mbox {
    _Alignas(64) uint32_t lock;    /* mbox_lock.h */
    _Alignas(64) struct mmpi_request *posted_head; /* mailbox lock; senders' fast path reads it
                                                    * without (atomic stores and loads) */
    struct mmpi_request **posted_tail;
    struct mmpi_msg *unexp_head, **unexp_tail;
    uint32_t arrivals;             /* atomic: bumped on every enqueue (probe waits on it) */
    int owner_world;               /* immutable: world rank that receives from this mailbox */
    int group_size;                /* immutable: how many members may send to it */
    struct mmpi_chan **chans;      /* chan.h: [sender rank], created on first use under the lock,
                                    * entries published once (atomic); NULL until then */
    struct mmpi_chan *chan_list;   /* every channel of chans, newest first: added under the
                                    * lock (release), walked without it */
    struct mmpi_mbox *first;       /* immutable: the array's first mailbox (member 0 of the
                                    * same context), where a channel finds its reverse */
};

/* Mailbox arrays of a communicator core (comm.c calls these). */
struct mmpi_mbox *mmpi_mbox_array_new(int size, const int *world_ranks);
void mmpi_mbox_array_free(struct mmpi_mbox *boxes, int size);

static inline struct mmpi_mbox *mmpi_comm_peer_mbox(const struct mmpi_comm *c, int ctx, int peer)
{
    const struct mmpi_comm_core *g = c->core->remote ? c->core->remote : c->core;
    return &g->mbox[ctx][peer];
}
static inline struct mmpi_mbox *mmpi_comm_my_mbox(const struct mmpi_comm *c, int ctx)
{
    return &c->core->mbox[ctx][c->rank];
}

/* Starts a send described by sreq (buf, count, dt, peer = dest, tag, mode, ctx, core, my_rank
 * filled; dest is not MPI_PROC_NULL). May complete sreq before returning. Buffered sends are
 * always copied at once, whatever their size, and complete at once. */
void mmpi_match_send(struct mmpi_rank *self, const struct mmpi_comm *c,
                     struct mmpi_request *sreq);
/* Starts a receive described by rreq (buf, count, dt, peer = source or MPI_ANY_SOURCE, tag, ctx,
 * core, my_rank filled; source is not MPI_PROC_NULL). May complete rreq before returning. */
void mmpi_match_recv(struct mmpi_rank *self, const struct mmpi_comm *c,
                     struct mmpi_request *rreq);

/* Probe: looks for a matching unexpected message; fills *status and returns true if found. With
 * `take`, removes it and returns it in *msg (matched probe). */
bool mmpi_match_probe(struct mmpi_mbox *box, int source, int tag, bool take,
                      MPI_Status *status, struct mmpi_msg **msg);
/* Receives an envelope taken by a matched probe into rreq, completing both sides. */
void mmpi_match_deliver_msg(struct mmpi_request *rreq, struct mmpi_msg *msg);

/* Cancels a pending receive still in its posted queue, or a send whose envelope is still
 * unexpected. Returns true if cancelled (the request is then complete, marked cancelled). */
bool mmpi_match_cancel(struct mmpi_request *req);

/* Called by polls when the peer failed or the communicator was revoked: removes the request
 * from its queue if it is still there and completes it with `error`. Returns false if the
 * operation has already been matched (then it completes normally, soon). */
bool mmpi_match_abandon(struct mmpi_request *req, int error);

/* Queue operations for chan.c, mailbox lock held: the first posted receive matching (src,
 * tag), taken out of the queue; the first unexpected message matching (src, tag), taken out
 * with `take`; appending an unexpected message (and bumping arrivals). */
struct mmpi_request *mmpi_match_take_posted(struct mmpi_mbox *box, int src, int tag);
struct mmpi_msg *mmpi_match_find_unexpected(struct mmpi_mbox *box, int src, int tag, bool take);
void mmpi_match_enqueue(struct mmpi_mbox *box, struct mmpi_msg *m);
/* Mailbox lock held: removes m (not freed) from the unexpected queue, where it is. */
void mmpi_match_unqueue(struct mmpi_mbox *box, struct mmpi_msg *m);

/* Whether `source`/`tag` of a receive match a message's. */
static inline bool mmpi_match_envelope(int want_src, int want_tag, int src, int tag)
{
    return (want_src == MPI_ANY_SOURCE || want_src == src) &&
           (want_tag == MPI_ANY_TAG || want_tag == tag);
}

#endif
