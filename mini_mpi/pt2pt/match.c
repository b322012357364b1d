/*
 * match.c: the matching engine of match.h: mailboxes, posting and matching, probes, cancel,
 * and abandoning an operation whose peer failed.
 *
 * Lock order: a thread holds at most one mailbox lock, and never while copying a rendezvous
 * message, completing a request or waking a rank (completion wakes the owner, who may then
 * lock this mailbox).
 */
#include "pt2pt/match.h"

#include <stdlib.h>
#include <string.h>

#include "mmpi.h"
#include "pt2pt/bsend.h"
#include "pt2pt/chan.h"
#include "mpit/mpit.h" /* queue levels */
#include "pt2pt/copy.h"
#include "pt2pt/mbox_lock.h"

struct mmpi_mbox *mmpi_mbox_array_new(int size, const int *world_ranks)
{
    struct mmpi_mbox *boxes = aligned_alloc(_Alignof(struct mmpi_mbox),
                                            (size_t)(size > 0 ? size : 1) * sizeof(*boxes));
    if (!boxes)
        mmpi_die("out of memory (%d mailboxes)", size);
    memset(boxes, 0, (size_t)size * sizeof(*boxes));
    for (int i = 0; i < size; i++) {
        boxes[i].posted_tail = &boxes[i].posted_head;
        boxes[i].unexp_tail = &boxes[i].unexp_head;
        boxes[i].owner_world = world_ranks[i];
        boxes[i].group_size = size;
        boxes[i].first = boxes;
    }
    return boxes;
}

void mmpi_mbox_array_free(struct mmpi_mbox *boxes, int size)
{
    if (!boxes)
        return;
    for (int i = 0; i < size; i++) {
        /* Messages nobody received (their receivers failed or never asked). Rendezvous ones
         * belong to requests that hold a reference to this core, so only eager ones remain. */
        struct mmpi_msg *m = boxes[i].unexp_head;
        while (m) {
            struct mmpi_msg *next = m->next;
            mmpi_bsend_settle(m->bsend); /* gone: nobody can take it any more */
            free(m);
            m = next;
        }
        mmpi_chan_free_all(&boxes[i]);
    }
    free(boxes);
}

/* ---- Queue helpers (mailbox lock held) -------------------------------------------------- */

/* Stores into the posted queue's links: atomic, because senders read posted_head without the
 * lock (chan.c). */
static void set_link(struct mmpi_request **p, struct mmpi_request *r)
{
    __atomic_store_n(p, r, __ATOMIC_RELAXED);
}

/* The same for the unexpected queue's links: a blocking receive reads unexp_head without the
 * lock (chan.c, mmpi_chan_recv_ready). */
static void set_msg_link(struct mmpi_msg **p, struct mmpi_msg *m)
{
    __atomic_store_n(p, m, __ATOMIC_RELAXED);
}

struct mmpi_request *mmpi_match_take_posted(struct mmpi_mbox *box, int src, int tag)
{
    for (struct mmpi_request **p = &box->posted_head; *p; p = &(*p)->next) {
        struct mmpi_request *r = *p;
        if (mmpi_match_envelope(r->peer, r->tag, src, tag)) {
            set_link(p, r->next);
            if (box->posted_tail == &r->next)
                box->posted_tail = p;
            r->next = NULL;
            r->posted = false;
            mmpi_pvar_level_add(box->owner_world, MMPI_LEVEL_POSTED, -1);
            return r;
        }
    }
    return NULL;
}

static bool unlink_posted(struct mmpi_mbox *box, struct mmpi_request *req)
{
    for (struct mmpi_request **p = &box->posted_head; *p; p = &(*p)->next) {
        if (*p == req) {
            set_link(p, req->next);
            if (box->posted_tail == &req->next)
                box->posted_tail = p;
            req->next = NULL;
            req->posted = false;
            mmpi_pvar_level_add(box->owner_world, MMPI_LEVEL_POSTED, -1);
            return true;
        }
    }
    return false;
}

struct mmpi_msg *mmpi_match_find_unexpected(struct mmpi_mbox *box, int src, int tag, bool take)
{
    for (struct mmpi_msg **p = &box->unexp_head; *p; p = &(*p)->next) {
        struct mmpi_msg *m = *p;
        if (mmpi_match_envelope(src, tag, m->src, m->tag)) {
            if (take) {
                set_msg_link(p, m->next);
                if (box->unexp_tail == &m->next)
                    box->unexp_tail = p;
                m->next = NULL;
                mmpi_pvar_level_add(box->owner_world, MMPI_LEVEL_UNEXPECTED, -1);
            }
            return m;
        }
    }
    return NULL;
}

void mmpi_match_enqueue(struct mmpi_mbox *box, struct mmpi_msg *m)
{
    m->next = NULL;
    set_msg_link(box->unexp_tail, m);
    box->unexp_tail = &m->next;
    mmpi_pvar_level_add(box->owner_world, MMPI_LEVEL_UNEXPECTED, 1);
    __atomic_fetch_add(&box->arrivals, 1, __ATOMIC_RELEASE);
}

static bool unlink_unexpected(struct mmpi_mbox *box, struct mmpi_msg *msg)
{
    for (struct mmpi_msg **p = &box->unexp_head; *p; p = &(*p)->next) {
        if (*p == msg) {
            set_msg_link(p, msg->next);
            if (box->unexp_tail == &msg->next)
                box->unexp_tail = p;
            msg->next = NULL;
            mmpi_pvar_level_add(box->owner_world, MMPI_LEVEL_UNEXPECTED, -1);
            return true;
        }
    }
    return false;
}

void mmpi_match_unqueue(struct mmpi_mbox *box, struct mmpi_msg *m)
{
    unlink_unexpected(box, m);
}

/* ---- Completion helpers (no lock held) --------------------------------------------------- */

static void complete_recv(struct mmpi_request *rreq, int src, int tag, size_t bytes, int error)
{
    if (error == MPI_SUCCESS && rreq->dt)
        error = mmpi_typed_signature_check(bytes, rreq->count, rreq->dt);
    rreq->status.MPI_SOURCE = src;
    rreq->status.MPI_TAG = tag;
    rreq->status.mmpi_count = (long long)bytes;
    rreq->status.mmpi_cancelled = 0;
    mmpi_request_complete(rreq, error);
}

/* `in_post`: completed by mmpi_match_send itself, i.e. by the thread that is starting it. */
static void complete_send(struct mmpi_request *sreq, int error, bool in_post)
{
    sreq->status.MPI_SOURCE = sreq->my_rank;
    sreq->status.MPI_TAG = sreq->tag;
    sreq->status.mmpi_count = 0;
    sreq->status.mmpi_cancelled = 0;
    /* A blocking call's own request has no other waiter than the thread posting it, which
     * needs no wake-up: one atomic read-modify-write less per blocking send. */
    if (in_post && sreq->on_stack)
        mmpi_request_complete_by_waiter(sreq, error);
    else
        mmpi_request_complete(sreq, error);
}

void mmpi_match_deliver_msg(struct mmpi_request *rreq, struct mmpi_msg *msg)
{
    size_t copied = 0;
    int err;
    if (msg->eager)
        err = mmpi_typed_unpack(msg->data, msg->bytes, rreq->buf, rreq->count, rreq->dt, &copied);
    else
        err = mmpi_typed_copy(msg->sbuf, msg->scount, msg->sdt, rreq->buf, rreq->count, rreq->dt,
                              &copied);
    if (msg->sreq)
        complete_send(msg->sreq, MPI_SUCCESS, false);
    mmpi_bsend_settle(msg->bsend);
    complete_recv(rreq, msg->src, msg->tag, copied, err);
    free(msg);
}

/* ---- Send and receive --------------------------------------------------------------------- */

static void wake_world_rank(int world_rank)
{
    struct mmpi_world *w = __atomic_load_n(&mmpi_world, __ATOMIC_ACQUIRE);
    mmpi_rank_wake(w->ranks[world_rank]);
}


void mmpi_match_send(struct mmpi_rank *self, const struct mmpi_comm *c, struct mmpi_request *sreq)
{
    struct mmpi_mbox *box = mmpi_comm_peer_mbox(c, sreq->ctx, sreq->peer);
    size_t bytes = mmpi_typed_bytes(sreq->dt, sreq->count);
    bool eager = bytes <= MMPI_EAGER_MAX || sreq->mode == MMPI_SEND_BUFFERED;
    bool chan_ok = mmpi_chan_send_eligible(self, c, sreq->ctx, sreq->mode, bytes);
    struct mmpi_request *drained = NULL;
    /* A buffered send's charge (bsend.h): settled at once if no envelope is queued. */
    struct mmpi_bsend_ticket *ticket =
        sreq->mode == MMPI_SEND_BUFFERED ? mmpi_bsend_take_ticket() : NULL;

    sreq->mbox = box;
    if (chan_ok && mmpi_chan_send(self, box, sreq->my_rank, sreq->buf, sreq->count, sreq->dt,
                                  sreq->tag, bytes)) {
        complete_send(sreq, MPI_SUCCESS, true);
        return;
    }
    mmpi_mbox_lock(&box->lock);
    /* Our own channel messages are older than this one (chan.h: non-overtaking). */
    if (sreq->ctx == MMPI_CTX_USER && !c->core->remote)
        mmpi_chan_drain_own(box, sreq->my_rank, &drained);
    struct mmpi_request *rreq = mmpi_match_take_posted(box, sreq->my_rank, sreq->tag);
    if (rreq) {
        mmpi_mbox_unlock(&box->lock);
        mmpi_chan_complete_drained(drained);
        size_t copied = 0;
        int err = mmpi_typed_copy(sreq->buf, sreq->count, sreq->dt, rreq->buf, rreq->count,
                                  rreq->dt, &copied);
        complete_send(sreq, MPI_SUCCESS, true);
        mmpi_bsend_settle(ticket);
        complete_recv(rreq, sreq->my_rank, sreq->tag, copied, err);
        return;
    }
    struct mmpi_msg *m = mmpi_xmalloc(sizeof(*m) + (eager ? bytes : 0));
    m->next = NULL;
    m->bsend = ticket;
    m->src = sreq->my_rank;
    m->src_world = self->world_rank;
    m->tag = sreq->tag;
    m->bytes = bytes;
    m->eager = eager;
    m->sbuf = sreq->buf;
    m->scount = sreq->count;
    m->sdt = sreq->dt;
    if (eager)
        mmpi_typed_pack(sreq->buf, sreq->count, sreq->dt, m->data);
    /* A standard or buffered eager send is finished once its copy is queued; a synchronous
     * send, or a rendezvous one, finishes when the receiver takes it. */
    bool wait_for_receiver = !eager || sreq->mode == MMPI_SEND_SYNC;
    m->sreq = wait_for_receiver ? sreq : NULL;
    sreq->msg = wait_for_receiver ? m : NULL;
    mmpi_match_enqueue(box, m);
    /* Next time this pair may use a channel; the receiver creates one as well when it waits. */
    if (chan_ok && !box->posted_head)
        mmpi_chan_create(box, sreq->my_rank, self->world_rank);
    mmpi_mbox_unlock(&box->lock);
    mmpi_chan_complete_drained(drained);
    wake_world_rank(box->owner_world); /* a probe may be waiting for it */
    if (!wait_for_receiver)
        complete_send(sreq, MPI_SUCCESS, true);
}

void mmpi_match_recv(struct mmpi_rank *self, const struct mmpi_comm *c, struct mmpi_request *rreq)
{
    struct mmpi_mbox *box = mmpi_comm_my_mbox(c, rreq->ctx);
    bool chans = rreq->ctx == MMPI_CTX_USER && !c->core->remote;
    struct mmpi_request *drained = NULL;

    rreq->mbox = box;
    /* A receive that fits a channel's cell (the big cell included) waits on the channel, and
     * so does one too large for any eager message: its message comes through the unexpected
     * queue as a rendezvous envelope, and this thread copies it from the sender's buffer (one
     * copy, made by the receiver: the lines it writes are its own, where a sender copying into
     * a posted receive writes lines the receiver's core holds). Between the two, a posted
     * receive gets an eager message straight from the sender, where the unexpected queue would
     * copy it twice. */
    size_t room = mmpi_typed_bytes(rreq->dt, rreq->count);
    if (rreq->direct && rreq->peer >= 0 &&
        (room <= MMPI_CHAN_BIG_MAX || room > MMPI_EAGER_MAX) &&
        mmpi_chan_usable(self, c, rreq->ctx) && mmpi_chan_recv(self, c, rreq))
        return;
    mmpi_mbox_lock(&box->lock);
    if (chans && rreq->peer >= 0 && !box->posted_head) {
        /* Nothing posted can match before it: the sender's message may be taken straight
         * from its channel (one copy, no envelope). */
        struct mmpi_msg *m = NULL;
        enum mmpi_chan_take t = mmpi_chan_take_now(box, rreq, &m);
        if (t != TAKE_NONE) {
            mmpi_mbox_unlock(&box->lock);
            mmpi_chan_finish_take(rreq, t, m);
            return;
        }
    }
    if (chans)
        mmpi_chan_drain(box, rreq->peer, &drained);
    struct mmpi_msg *m = mmpi_match_find_unexpected(box, rreq->peer, rreq->tag, true);
    if (!m) {
        rreq->next = NULL;
        rreq->posted = true;
        mmpi_pvar_level_add(box->owner_world, MMPI_LEVEL_POSTED, 1);
        set_link(box->posted_tail, rreq);
        box->posted_tail = &rreq->next;
        /* A sender that did not see this receive posted has pushed into its channel: we see
         * its message now (chan.h), and it goes to the first matching posted receive. */
        if (chans) {
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            mmpi_chan_drain(box, rreq->peer, &drained);
        }
        mmpi_mbox_unlock(&box->lock);
        mmpi_chan_complete_drained(drained);
        return;
    }
    if (m->sreq)
        m->sreq->msg = NULL; /* matched: no longer cancellable */
    mmpi_mbox_unlock(&box->lock);
    mmpi_chan_complete_drained(drained);
    mmpi_match_deliver_msg(rreq, m);
}

bool mmpi_match_probe(struct mmpi_mbox *box, int source, int tag, bool take, MPI_Status *status,
                      struct mmpi_msg **msg)
{
    struct mmpi_request *drained = NULL;
    mmpi_mbox_lock(&box->lock);
    mmpi_chan_drain(box, source, &drained); /* none outside user contexts of intracomms */
    struct mmpi_msg *m = mmpi_match_find_unexpected(box, source, tag, take);
    if (m) {
        status->MPI_SOURCE = m->src;
        status->MPI_TAG = m->tag;
        status->mmpi_count = (long long)m->bytes;
        status->mmpi_cancelled = 0;
        status->MPI_ERROR = MPI_SUCCESS;
        if (take && m->sreq)
            m->sreq->msg = NULL;
        if (take) { /* matched: transmitted, as far as its buffer is concerned */
            mmpi_bsend_settle(m->bsend);
            m->bsend = NULL;
        }
    }
    mmpi_mbox_unlock(&box->lock);
    mmpi_chan_complete_drained(drained);
    if (msg)
        *msg = m;
    return m != NULL;
}

/* ---- Cancel and abandon ------------------------------------------------------------------ */

/* Takes a not-yet-matched request out of its mailbox (a posted receive, or a send whose
 * envelope is still unexpected). False if it was already matched. */
static bool dequeue_unmatched(struct mmpi_request *req)
{
    struct mmpi_mbox *box = req->mbox;
    bool removed = false;
    struct mmpi_msg *m = NULL;

    if (!box)
        return false;
    if (req->kind == MMPI_REQ_RECV && req->chan)
        return mmpi_chan_abandon(req);
    mmpi_mbox_lock(&box->lock);
    if (req->kind == MMPI_REQ_RECV && req->posted) {
        removed = unlink_posted(box, req);
    } else if (req->kind == MMPI_REQ_SEND && req->msg) {
        m = req->msg;
        removed = unlink_unexpected(box, m);
        req->msg = NULL;
    }
    mmpi_mbox_unlock(&box->lock);
    free(m);
    return removed;
}

bool mmpi_match_cancel(struct mmpi_request *req)
{
    if (!dequeue_unmatched(req))
        return false;
    bool recv = req->kind == MMPI_REQ_RECV;
    req->status.MPI_SOURCE = recv ? MPI_ANY_SOURCE : req->my_rank;
    req->status.MPI_TAG = recv ? MPI_ANY_TAG : req->tag;
    req->status.mmpi_count = 0;
    req->status.mmpi_cancelled = 1;
    mmpi_request_complete(req, MPI_SUCCESS);
    return true;
}

bool mmpi_match_abandon(struct mmpi_request *req, int error)
{
    if (!dequeue_unmatched(req))
        return false;
    req->status.MPI_SOURCE = req->kind == MMPI_REQ_RECV ? req->peer : req->my_rank;
    req->status.MPI_TAG = req->tag;
    req->status.mmpi_count = 0;
    req->status.mmpi_cancelled = 0;
    mmpi_request_complete(req, error);
    return true;
}
