/*
 * part/part.c: partitioned requests (MPI-4.1 chapter 4): their activations, the delivery of
 * each partition straight from the sender's buffer into the receiver's, MPI_Parrived, and what
 * a failed peer or a revoke does to them. Matching and the pair's lifetime are match.c; the
 * bindings are part_api.c.
 *
 * Structures. Each init makes a side (part.h: its arguments, a word per partition) held by a
 * persistent request (pt2pt/request.h). Each MPI_Start makes an activation, an engine request
 * (MMPI_REQ_OTHER, `inner`) that MPI_Wait/Test complete through activation_poll. Sender and
 * receiver are joined by a link once matched (match.c), at the later of the two inits.
 *
 * Rounds. Each side counts its starts in `round`; round k of the sender pairs with round k of
 * the receiver (the requests are matched once, so their activations pair in order). Nothing is
 * ever reset: a sender partition's word holds (round << 2) | phase, so a stale word of round
 * k - 1 can never be mistaken for round k; the link's `delivered` counts sender partitions
 * delivered over all rounds, so round k is complete, on both sides, once delivered >= k * ns;
 * a receiver partition's word counts the bytes credited to it over all rounds, so it has
 * arrived in round k once it holds k times its share. The sender can start round k + 1 only
 * after round k completed, the receiver likewise: no round's words overlap another's.
 *
 * Delivery. A sender partition of round k is delivered once it is ready (MPI_Pready) and the
 * receiver has started round k, by whichever thread sees both: the sender's Pready (which
 * stores the word, then reads the receiver's round), the receiver's MPI_Start (which stores its
 * round, then scans the words), or the init that matched them (which publishes the link, then
 * scans). All are seq_cst, so at least one of each pair sees the other's store (Dekker); the
 * compare-and-swap ready -> claimed of the word makes exactly one of them copy. The copier
 * copies the partition's packed bytes from the sender's buffer into the receiver's (typed on
 * both sides: mmpi_datatype_copy_part), credits each receiver partition it overlaps, then
 * counts the partition delivered; the delivery that completes a round wakes both owners, whose
 * waits poll. Pready from several threads of the sender at once is safe: partitions are
 * disjoint, each word is claimed once, credits are atomic adds. Sends and receives may have
 * different partitionings and datatypes: only the packed byte stream is matched (§4.2.2);
 * a send larger than the receive delivers what fits and the receive fails with
 * MPI_ERR_TRUNCATE.
 *
 * Failures (docs/partitioned.md). An activation that has not completed, whose communicator is
 * revoked, whose peer has failed, or whose link is broken, completes with MPI_ERR_REVOKED,
 * MPI_ERR_PROC_FAILED or the link's error, at the next poll (a death or a revoke wakes every
 * rank). A round whose every partition was delivered completes normally whatever happens
 * later. Before it returns the error, the failing side breaks the link (`broken`) and waits
 * until no delivery is under way (`inflight`): a copier counts itself in flight before it looks
 * at `broken` (seq_cst on both sides), so once the failing side has seen `inflight` at zero
 * nobody reads or writes its buffer any more, and the user owns it again. The other side sees
 * `broken` (or the revoke, or the death) at its next poll. An unmatched side that fails is
 * taken out of the matching queue, so it never pairs later. MPI_Parrived reports a partition
 * that has arrived as arrived, whatever happened since; one that has not, with the error.
 */
#include <sched.h>
#include <stdlib.h>

#include "comm/comm.h"
#include "datatype/datatype.h"
#include "fault/fault.h"
#include "mmpi.h"
#include "part/part.h"
#include "pt2pt/copy.h"
#include "pt2pt/request.h"
#include "runtime/wait.h"

enum { PHASE_READY = 1, PHASE_CLAIMED = 2 };

static uint64_t word_of(uint64_t round, int phase)
{
    return round << 2 | (uint64_t)phase;
}

static uint64_t round_of(uint64_t word)
{
    return word >> 2;
}

/* Whether round k (>= 1) of the pair has delivered every sender partition. */
static bool round_delivered(const struct mmpi_part_link *l, uint64_t k)
{
    return __atomic_load_n(&l->delivered, __ATOMIC_ACQUIRE) >= k * (uint64_t)l->send->nparts;
}

/* Copies sender partition i of the current round into the receiver's buffer and credits the
 * receiver partitions it overlaps. Only by the claimer of the partition. */
static void copy_partition(struct mmpi_part_link *l, int i)
{
    struct mmpi_part_side *s = l->send, *r = l->recv;
    size_t a = (size_t)i * s->part_bytes, b = a + s->part_bytes;
    if (b > l->bytes)
        b = l->bytes; /* a send larger than the receive: what fits (truncation) */
    if (a >= b)
        return;
    mmpi_datatype_copy_part(s->buf, s->dt, r->buf, r->dt, a, b - a);
    size_t rb = r->part_bytes; /* > 0: the receive holds at least b > 0 bytes */
    for (size_t j = a / rb; j * rb < b; j++) {
        size_t lo = a > j * rb ? a : j * rb;
        size_t hi = b < (j + 1) * rb ? b : (j + 1) * rb;
        __atomic_add_fetch(&r->words[j], (uint64_t)(hi - lo), __ATOMIC_RELEASE);
    }
}

/* Delivers sender partition i of round k if it is ready, the receiver has started round k and
 * nobody else took it. Any thread of either owner. Never blocks. */
static void deliver(struct mmpi_part_link *l, int i, uint64_t k)
{
    if (__atomic_load_n(&l->recv->round, __ATOMIC_SEQ_CST) < k)
        return; /* the receiver's MPI_Start of round k will deliver it */
    struct mmpi_rank *sender = l->send->owner, *receiver = l->recv->owner;
    bool completes = false;
    __atomic_add_fetch(&l->inflight, 1, __ATOMIC_SEQ_CST);
    /* Nothing moves once the pair is broken or its communicator revoked: a partition readied
     * after the revoke stays where it is, on every run. */
    if (__atomic_load_n(&l->broken, __ATOMIC_SEQ_CST) == 0 &&
        !mmpi_fault_revoked(&l->send->core->fault)) {
        uint64_t want = word_of(k, PHASE_READY);
        if (__atomic_compare_exchange_n(&l->send->words[i], &want, word_of(k, PHASE_CLAIMED), false,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            copy_partition(l, i);
            uint64_t d = __atomic_add_fetch(&l->delivered, 1, __ATOMIC_ACQ_REL);
            completes = d % (uint64_t)l->send->nparts == 0;
        }
    }
    __atomic_sub_fetch(&l->inflight, 1, __ATOMIC_RELEASE);
    if (completes) { /* the owners' waits poll again */
        mmpi_rank_wake(sender);
        mmpi_rank_wake(receiver);
    }
}

/* Delivers every sender partition that is ready in the receiver's current round. */
static void deliver_ready(struct mmpi_part_link *l)
{
    uint64_t k = __atomic_load_n(&l->recv->round, __ATOMIC_SEQ_CST);
    if (k == 0)
        return;
    for (int i = 0; i < l->send->nparts; i++)
        if (__atomic_load_n(&l->send->words[i], __ATOMIC_SEQ_CST) == word_of(k, PHASE_READY))
            deliver(l, i, k);
}

/* Why side s's pending round can never complete: MPI_ERR_REVOKED, MPI_ERR_PROC_FAILED, the
 * link's error, or MPI_SUCCESS (it still can). Revocation first, as point-to-point's poll. */
static int trouble(const struct mmpi_part_side *s, const struct mmpi_part_link *l)
{
    if (mmpi_fault_revoked(&s->core->fault))
        return MPI_ERR_REVOKED;
    if (s->peer_world >= 0 && mmpi_fault_world_rank_failed(s->owner->world, s->peer_world))
        return MPI_ERR_PROC_FAILED;
    return l ? __atomic_load_n(&l->broken, __ATOMIC_ACQUIRE) : MPI_SUCCESS;
}

/* Ends the pair's deliveries for good: after it, no thread touches either buffer. Returns once
 * the deliveries already under way are done (each is a bounded copy, run by a live thread). */
static void break_link(struct mmpi_part_link *l, int err)
{
    int none = 0;
    __atomic_compare_exchange_n(&l->broken, &none, err, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&l->inflight, __ATOMIC_SEQ_CST) != 0)
        sched_yield();
    mmpi_rank_wake(l->send->owner); /* the other side's wait sees `broken` */
    mmpi_rank_wake(l->recv->owner);
}

static void finish(struct mmpi_request *a, const struct mmpi_part_side *s,
                   const struct mmpi_part_link *l, int err)
{
    a->status.MPI_SOURCE = s->send ? s->my_rank : s->peer;
    a->status.MPI_TAG = s->tag;
    a->status.mmpi_count = !s->send && l ? (long long)l->bytes : 0;
    a->status.mmpi_cancelled = 0;
    if (err == MPI_SUCCESS && !s->send && l->truncated)
        err = MPI_ERR_TRUNCATE;
    if (err == MPI_ERR_PROC_FAILED)
        mmpi_fault_notice(s->owner, s->peer_world);
    mmpi_request_complete(a, err);
}

/* The poll of an activation (owner's threads, from every wait and test). */
static bool activation_poll(struct mmpi_request *a)
{
    struct mmpi_part_side *s = a->state;
    uint64_t k = __atomic_load_n(&s->round, __ATOMIC_RELAXED); /* the owner's own */
    struct mmpi_part_link *l = __atomic_load_n(&s->link, __ATOMIC_ACQUIRE);
    if (l && round_delivered(l, k)) {
        finish(a, s, l, MPI_SUCCESS);
        return true;
    }
    int err = trouble(s, l);
    if (err == MPI_SUCCESS)
        return false;
    l = mmpi_part_detach(s, err);
    if (l) {
        break_link(l, err);
        if (round_delivered(l, k)) /* a delivery under way completed the round */
            err = MPI_SUCCESS;
    }
    finish(a, s, l, err);
    return true;
}

static void activation_free(struct mmpi_request *a)
{
    mmpi_part_side_release(a->state);
}

static bool request_poll(struct mmpi_request *req)
{
    return !req->inner || mmpi_request_poll(req->inner);
}

static void request_free(struct mmpi_request *req)
{
    struct mmpi_part_side *s = req->state;
    struct mmpi_request *a = req->inner;
    if (a) {
        /* Freed while active (MPI-4.1 §3.9: the operation goes on): nobody will wait for the
         * activation, which only the owner's polls would complete. The link and the sides
         * live on until the peer's request is freed too. */
        req->inner = NULL;
        if (!mmpi_request_is_done(a))
            mmpi_request_complete_by_waiter(a, MPI_SUCCESS);
        mmpi_request_release(a);
    }
    struct mmpi_part_link *l = mmpi_part_detach(s, MPI_SUCCESS);
    if (l)
        mmpi_part_link_release(l);
    mmpi_part_side_release(s);
}

bool mmpi_part_is(const struct mmpi_request *req)
{
    return req->persistent && req->free_state == request_free;
}

int mmpi_part_partitions(const struct mmpi_request *req)
{
    return ((const struct mmpi_part_side *)req->state)->nparts;
}

int mmpi_part_init(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm comm, bool send, void *buf,
                   int partitions, MPI_Count count, struct mmpi_datatype *dt, int peer, int tag,
                   MPI_Request *request)
{
    struct mmpi_part_side *s = mmpi_xcalloc(1, sizeof(*s));
    s->refs = 1; /* the request's */
    s->send = send;
    s->nparts = partitions;
    s->count = (size_t)count;
    s->dt = dt;
    mmpi_datatype_retain(dt);
    s->buf = buf;
    s->part_bytes = mmpi_typed_bytes(dt, (size_t)count);
    s->peer = peer;
    s->peer_world = peer >= 0 ? mmpi_comm_peer_world(c, peer) : -1;
    s->my_rank = c->rank;
    s->tag = tag;
    s->comm = comm;
    s->core = c->core;
    mmpi_comm_core_retain(c->core);
    s->owner = self;
    s->words = mmpi_xcalloc((size_t)partitions, sizeof(*s->words));
    const struct mmpi_comm_core *receiving = send && c->core->remote ? c->core->remote : c->core;
    s->key_ctx = receiving->context_id;
    s->key_dst = send ? peer : c->rank;
    s->key_src = send ? c->rank : peer;

    struct mmpi_request *req = mmpi_request_new(self, MMPI_REQ_OTHER);
    req->refs = 1; /* only the user's: no engine work until MPI_Start */
    req->persistent = true;
    req->comm = comm;
    req->core = c->core; /* MPI_Start checks that the communicator is still this one */
    mmpi_comm_core_retain(c->core);
    req->state = s;
    req->poll = request_poll;
    req->free_state = request_free;
    int err = mmpi_request_publish(self, req, request);
    if (err != MPI_SUCCESS || peer == MPI_PROC_NULL)
        return err;
    struct mmpi_part_link *l = mmpi_part_match(s);
    if (l)
        deliver_ready(l); /* the peer may have started and readied partitions already */
    return MPI_SUCCESS;
}

int mmpi_part_start(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_request *req)
{
    struct mmpi_part_side *s = req->state;
    struct mmpi_request *a = mmpi_request_new(self, MMPI_REQ_OTHER);
    a->comm = req->comm;
    a->state = s;
    __atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
    a->poll = activation_poll;
    a->free_state = activation_free;
    req->inner = a;
    __atomic_store_n(&s->round, s->round + 1, __ATOMIC_SEQ_CST);
    if (s->peer == MPI_PROC_NULL) { /* MPI-4.1 §3.11: completes at once, empty */
        a->status.MPI_SOURCE = MPI_PROC_NULL;
        a->status.MPI_TAG = MPI_ANY_TAG;
        mmpi_request_complete(a, MPI_SUCCESS);
        return MPI_SUCCESS;
    }
    struct mmpi_part_link *l = __atomic_load_n(&s->link, __ATOMIC_SEQ_CST);
    if (l && !s->send)
        deliver_ready(l);
    (void)c;
    return MPI_SUCCESS;
}

int mmpi_part_lookup(struct mmpi_rank *self, MPI_Request handle, bool send,
                     struct mmpi_request **req)
{
    *req = handle == MPI_REQUEST_NULL ? NULL : mmpi_request_get(self, handle);
    if (!*req || !mmpi_part_is(*req))
        return MPI_ERR_REQUEST;
    return ((struct mmpi_part_side *)(*req)->state)->send == send ? MPI_SUCCESS : MPI_ERR_REQUEST;
}

/* Marks partition p ready in round k; MPI_ERR_ARG if it already is. */
static int ready_one(struct mmpi_part_side *s, int p, uint64_t k)
{
    uint64_t old = __atomic_load_n(&s->words[p], __ATOMIC_RELAXED);
    if (round_of(old) >= k ||
        !__atomic_compare_exchange_n(&s->words[p], &old, word_of(k, PHASE_READY), false,
                                     __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
        return MPI_ERR_ARG; /* MPI-4.1 §4.2.3: each partition once per activation */
    struct mmpi_part_link *l = __atomic_load_n(&s->link, __ATOMIC_SEQ_CST);
    if (l)
        deliver(l, p, k);
    return MPI_SUCCESS;
}

int mmpi_part_ready(struct mmpi_request *req, const int *parts, int n, int low, int high)
{
    struct mmpi_part_side *s = req->state;
    uint64_t k = __atomic_load_n(&s->round, __ATOMIC_ACQUIRE);
    int err = MPI_SUCCESS;
    if (parts) {
        for (int i = 0; i < n; i++)
            if (ready_one(s, parts[i], k) != MPI_SUCCESS)
                err = MPI_ERR_ARG;
    } else {
        for (int p = low; p <= high; p++)
            if (ready_one(s, p, k) != MPI_SUCCESS)
                err = MPI_ERR_ARG;
    }
    return err;
}

/* Whether receiver partition p has its whole share of round k. A partition the send does not
 * reach (a shorter send, or no bytes) arrives with the round. */
static bool partition_arrived(const struct mmpi_part_link *l, const struct mmpi_part_side *r, int p,
                              uint64_t k)
{
    size_t start = (size_t)p * r->part_bytes;
    if (start >= l->bytes)
        return false;
    size_t share = l->bytes - start < r->part_bytes ? l->bytes - start : r->part_bytes;
    return __atomic_load_n(&r->words[p], __ATOMIC_ACQUIRE) >= k * (uint64_t)share;
}

int mmpi_part_arrived(struct mmpi_rank *self, struct mmpi_request *req, int partition, int *flag)
{
    struct mmpi_part_side *s = req->state;
    struct mmpi_request *a = req->inner;
    *flag = 1;
    if (!a || (mmpi_request_is_done(a) && a->error == MPI_SUCCESS))
        return MPI_SUCCESS; /* inactive, or complete */
    uint64_t k = __atomic_load_n(&s->round, __ATOMIC_RELAXED);
    struct mmpi_part_link *l = __atomic_load_n(&s->link, __ATOMIC_ACQUIRE);
    if (l && (round_delivered(l, k) || partition_arrived(l, s, partition, k)))
        return MPI_SUCCESS;
    *flag = 0;
    int err = trouble(s, l);
    if (err == MPI_ERR_PROC_FAILED)
        mmpi_fault_notice(self, s->peer_world);
    if (err == MPI_SUCCESS)
        mmpi_poll_missed(); /* a loop of MPI_Parrived must not hold a core its sender needs */
    return err;
}
