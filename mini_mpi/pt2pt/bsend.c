/*
 * pt2pt/bsend.c: the buffers of buffered sends (bsend.h says how they account and when a
 * message leaves them): attaching and detaching, the charge of one buffered send, tickets and
 * their settlement by the receiver (match.c), flushing. The bindings are bsend_api.c.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pt2pt/bsend.h"
#include "pt2pt/match.h"
#include "pt2pt/pt2pt.h"
#include "session/session.h"

/* The ticket of the buffered send the calling thread is posting: set by mmpi_bsend_reserve,
 * taken by match.c (or settled by start.c when nothing is sent) on the same thread, since the
 * charge is decided before the send is posted. */
static __thread struct mmpi_bsend_ticket *handoff;

static void ticket_unref(struct mmpi_bsend_ticket *t)
{
    if (__atomic_sub_fetch(&t->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    mmpi_comm_core_release(t->core);
    free(t);
}

void mmpi_bsend_settle(struct mmpi_bsend_ticket *t)
{
    if (!t)
        return;
    struct mmpi_rank *owner = t->owner;
    __atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
    mmpi_rank_wake(owner); /* a rank outlives its tickets' messages */
    ticket_unref(t);
}

struct mmpi_bsend_ticket *mmpi_bsend_take_ticket(void)
{
    struct mmpi_bsend_ticket *t = handoff;
    handoff = NULL;
    return t;
}

/* Whether t's message is transmitted (*err MPI_SUCCESS) or can never be: its destination
 * failed (MPI_ERR_PROC_FAILED) or its communicator was revoked (MPI_ERR_REVOKED). */
static bool ticket_over(const struct mmpi_bsend_ticket *t, int *err)
{
    *err = MPI_SUCCESS;
    if (__atomic_load_n(&t->done, __ATOMIC_ACQUIRE))
        return true;
    if (mmpi_fault_is_failed(t->owner->world->ranks[t->dest_world]))
        *err = MPI_ERR_PROC_FAILED;
    else if (mmpi_fault_revoked(&t->core->fault))
        *err = MPI_ERR_REVOKED;
    return *err != MPI_SUCCESS;
}

/* Releases the charge of every ticket of b that is over, recording the first loss. Call with
 * the owner's bsend_lock held. */
static void reap(struct mmpi_bsend_buffer *b)
{
    for (struct mmpi_bsend_ticket **p = &b->pending; *p;) {
        struct mmpi_bsend_ticket *t = *p;
        int err;
        if (!ticket_over(t, &err)) {
            p = &t->next;
            continue;
        }
        if (err != MPI_SUCCESS && b->lost == MPI_SUCCESS)
            b->lost = err;
        b->used -= t->bytes;
        *p = t->next;
        ticket_unref(t);
    }
}

struct mmpi_bsend_buffer *mmpi_bsend_buffer_of(struct mmpi_rank *self, struct mmpi_comm *c)
{
    if (c && c->bsend)
        return c->bsend;
    struct mmpi_session *s;
    if (c && c->session != MPI_SESSION_NULL && (s = mmpi_session_get(self, c->session)) &&
        s->bsend)
        return s->bsend;
    return self->bsend;
}

int mmpi_bsend_reserve(struct mmpi_rank *self, struct mmpi_comm *c, int dest, size_t bytes)
{
    int err = MPI_SUCCESS;
    MPI_Count need = (MPI_Count)bytes + MPI_BSEND_OVERHEAD;

    mmpi_bsend_settle(mmpi_bsend_take_ticket()); /* a send that never took its ticket */
    pthread_mutex_lock(&self->bsend_lock);
    struct mmpi_bsend_buffer *b = mmpi_bsend_buffer_of(self, c);
    bool bounded = b && b->addr != MPI_BUFFER_AUTOMATIC;
    if (bounded && b->used + need > b->size)
        reap(b);
    if (!b || (bounded && b->used + need > b->size)) {
        err = MPI_ERR_BUFFER; /* no buffer, or no room now (§3.6.1) */
    } else if (bytes > MMPI_EAGER_MAX) {
        struct mmpi_bsend_ticket *t = mmpi_xcalloc(1, sizeof(*t));
        t->refs = 2; /* the list's, the message's */
        t->bytes = bounded ? need : 0;
        t->dest_world = mmpi_comm_peer_world(c, dest);
        t->core = c->core;
        mmpi_comm_core_retain(t->core);
        t->owner = self;
        t->seq = b->next_seq++;
        t->next = b->pending;
        b->pending = t;
        b->used += t->bytes;
        handoff = t;
    }
    pthread_mutex_unlock(&self->bsend_lock);
    return err;
}

int mmpi_bsend_attach(struct mmpi_rank *self, struct mmpi_bsend_buffer **slot, void *buffer,
                      MPI_Count size)
{
    int err = MPI_SUCCESS;
    struct mmpi_bsend_buffer *b = mmpi_xcalloc(1, sizeof(*b));
    b->addr = buffer;
    b->size = buffer == MPI_BUFFER_AUTOMATIC ? 0 : size;
    pthread_mutex_lock(&self->bsend_lock);
    if (*slot)
        err = MPI_ERR_BUFFER; /* one buffer at a time (§3.6.1) */
    else
        *slot = b;
    pthread_mutex_unlock(&self->bsend_lock);
    if (err != MPI_SUCCESS)
        free(b);
    return err;
}

void mmpi_bsend_buffer_free(struct mmpi_bsend_buffer *b)
{
    if (!b)
        return;
    while (b->pending) {
        struct mmpi_bsend_ticket *t = b->pending;
        b->pending = t->next;
        ticket_unref(t);
    }
    free(b);
}

/* ---- Flushing ---------------------------------------------------------------------------- */

/* The tickets a flush waits for, taken when it starts (one reference each): a flush is about
 * the messages buffered before it, and owns what it reads, whatever happens to the buffer. */
struct snapshot {
    int n;
    struct mmpi_bsend_ticket **t;
    int lost; /* the buffer's record of a loss found before the snapshot (then cleared) */
};

static struct snapshot *snapshot_take(struct mmpi_rank *self, struct mmpi_bsend_buffer **slot)
{
    struct snapshot *s = mmpi_xcalloc(1, sizeof(*s));
    pthread_mutex_lock(&self->bsend_lock);
    if (*slot) {
        reap(*slot);
        s->lost = (*slot)->lost;
        (*slot)->lost = MPI_SUCCESS;
        for (struct mmpi_bsend_ticket *t = (*slot)->pending; t; t = t->next)
            s->n++;
        s->t = mmpi_xcalloc((size_t)s->n + 1, sizeof(*s->t));
        int i = 0;
        for (struct mmpi_bsend_ticket *t = (*slot)->pending; t; t = t->next) {
            __atomic_add_fetch(&t->refs, 1, __ATOMIC_RELAXED);
            s->t[i++] = t;
        }
    }
    pthread_mutex_unlock(&self->bsend_lock);
    return s;
}

static bool snapshot_over(void *arg)
{
    struct snapshot *s = arg;
    int err;
    for (int i = 0; i < s->n; i++)
        if (!ticket_over(s->t[i], &err))
            return false;
    return true;
}

static void snapshot_describe(const void *arg, char *buf, size_t len)
{
    const struct snapshot *s = arg;
    int err, pending = 0, first = -1;
    for (int i = 0; i < s->n; i++)
        if (!ticket_over(s->t[i], &err) && pending++ == 0)
            first = s->t[i]->dest_world;
    snprintf(buf, len,
             "buffer flush: %d buffered message(s) not yet received, the first by "
             "world rank %d",
             pending, first);
}

static void snapshot_free(struct snapshot *s)
{
    for (int i = 0; i < s->n; i++)
        ticket_unref(s->t[i]);
    free(s->t);
    free(s);
}

/* The first loss among the messages of a finished snapshot, else the one recorded before it. */
static int snapshot_loss(const struct snapshot *s)
{
    int e;
    for (int i = 0; i < s->n; i++)
        if (ticket_over(s->t[i], &e) && e != MPI_SUCCESS)
            return e;
    return s->lost;
}

/* The outcome of a finished flush: its snapshot's loss, or one the buffer recorded since
 * (cleared: each loss is reported once). */
static int flush_outcome(struct mmpi_rank *self, struct mmpi_bsend_buffer **slot,
                         struct snapshot *s)
{
    int err = snapshot_loss(s);
    pthread_mutex_lock(&self->bsend_lock);
    if (*slot) {
        reap(*slot);
        if (err == MPI_SUCCESS)
            err = (*slot)->lost;
        (*slot)->lost = MPI_SUCCESS;
    }
    pthread_mutex_unlock(&self->bsend_lock);
    return err;
}

int mmpi_bsend_flush(struct mmpi_rank *self, struct mmpi_bsend_buffer **slot)
{
    struct snapshot *s = snapshot_take(self, slot);
    mmpi_wait_until_described(self, snapshot_over, s, snapshot_describe);
    int err = flush_outcome(self, slot, s);
    snapshot_free(s);
    return err;
}

int mmpi_bsend_detach(struct mmpi_rank *self, struct mmpi_bsend_buffer **slot, void *buffer_addr,
                      MPI_Count *size)
{
    int err = mmpi_bsend_flush(self, slot);
    pthread_mutex_lock(&self->bsend_lock);
    struct mmpi_bsend_buffer *b = *slot;
    *slot = NULL;
    pthread_mutex_unlock(&self->bsend_lock);
    *(void **)buffer_addr = b ? b->addr : NULL;
    *size = b ? b->size : 0;
    mmpi_bsend_buffer_free(b);
    return err;
}

/* MPI_Buffer_iflush and kin: a request over a snapshot; its error is the snapshot's loss. */
static bool iflush_poll(struct mmpi_request *req)
{
    if (mmpi_request_is_done(req))
        return true;
    struct snapshot *s = req->state;
    if (!snapshot_over(s))
        return false;
    int err = snapshot_loss(s);
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    mmpi_request_complete(req, err);
    return true;
}

static void iflush_free(struct mmpi_request *req)
{
    snapshot_free(req->state);
}

int mmpi_bsend_iflush(struct mmpi_rank *self, struct mmpi_bsend_buffer **slot, MPI_Comm comm,
                      MPI_Request *request)
{
    struct mmpi_request *req = mmpi_request_new(self, MMPI_REQ_OTHER);
    req->comm = comm;
    req->state = snapshot_take(self, slot);
    req->poll = iflush_poll;
    req->free_state = iflush_free;
    return mmpi_request_publish(self, req, request);
}
