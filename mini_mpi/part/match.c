/*
 * part/match.c: matching partitioned sends with partitioned receives (MPI-4.1 §4.2.2), and the
 * lifetime of the pair (struct mmpi_part_link).
 *
 * Partitioned operations match only each other, never an ordinary message, by communicator,
 * source, destination and tag (no wildcards), once for the life of the two requests, in the
 * order of the init calls. In one address space that order is known at the init itself: each
 * MPI_Psend_init / MPI_Precv_init looks for the oldest unmatched side of the other kind with the
 * same key and pairs with it, or queues itself. Nothing waits: a side initialized before its
 * peer is matched by the peer's init. The key is (context id of the receiving group's core,
 * receiver's rank in it, sender's rank in its group, tag): the receiving group's core is the
 * communicator's own for an intracommunicator and the remote one at the sender of an
 * intercommunicator; context ids are never reused, and a queued side holds its core.
 *
 * One process-wide mutex (`lock`) protects the queues, every side's `queued`, `qnext` and
 * `broken`, and the publication of links; it is taken by inits, by MPI_Request_free and by an
 * activation that fails, never by Pready, Parrived or a successful completion.
 */
#include <pthread.h>
#include <stdlib.h>

#include "comm/comm.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "part/part.h"

#define NBUCKETS 256

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct mmpi_part_side *buckets[NBUCKETS]; /* unmatched sides, oldest first (lock) */

static unsigned bucket_of(const struct mmpi_part_side *s)
{
    uint64_t h = s->key_ctx * 0x9E3779B97F4A7C15ULL;
    h ^= (uint64_t)(unsigned)s->key_dst * 0xC2B2AE3D27D4EB4FULL;
    h ^= (uint64_t)(unsigned)s->key_src * 0x165667B19E3779F9ULL;
    h ^= (uint64_t)(unsigned)s->tag;
    return (unsigned)(h >> 56) % NBUCKETS;
}

static bool same_key(const struct mmpi_part_side *a, const struct mmpi_part_side *b)
{
    return a->key_ctx == b->key_ctx && a->key_dst == b->key_dst && a->key_src == b->key_src &&
           a->tag == b->tag;
}

static void unqueue(struct mmpi_part_side *s)
{
    struct mmpi_part_side **p = &buckets[bucket_of(s)];
    while (*p != s)
        p = &(*p)->qnext;
    *p = s->qnext;
    s->qnext = NULL;
    s->queued = false;
}

static struct mmpi_part_link *link_new(struct mmpi_part_side *send, struct mmpi_part_side *recv)
{
    struct mmpi_part_link *l = mmpi_xcalloc(1, sizeof(*l));
    l->refs = 2;
    l->send = send;
    l->recv = recv;
    __atomic_add_fetch(&send->refs, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&recv->refs, 1, __ATOMIC_RELAXED);
    size_t stotal = send->part_bytes * (size_t)send->nparts;
    size_t rtotal = recv->part_bytes * (size_t)recv->nparts;
    l->bytes = stotal < rtotal ? stotal : rtotal;
    l->truncated = stotal > rtotal;
    return l;
}

struct mmpi_part_link *mmpi_part_match(struct mmpi_part_side *side)
{
    struct mmpi_part_link *l = NULL;
    pthread_mutex_lock(&lock);
    struct mmpi_part_side **p = &buckets[bucket_of(side)];
    while (*p && !(same_key(*p, side) && (*p)->send != side->send))
        p = &(*p)->qnext;
    if (*p) {
        struct mmpi_part_side *peer = *p;
        unqueue(peer);
        l = side->send ? link_new(side, peer) : link_new(peer, side);
        /* Seq_cst: a Pready or MPI_Start that does not see the link yet is seen by the caller's
         * scan after this (part.c, "Delivery"). */
        __atomic_store_n(&side->link, l, __ATOMIC_SEQ_CST);
        __atomic_store_n(&peer->link, l, __ATOMIC_SEQ_CST);
    } else {
        *p = side;
        side->qnext = NULL;
        side->queued = true;
    }
    pthread_mutex_unlock(&lock);
    return l;
}

struct mmpi_part_link *mmpi_part_detach(struct mmpi_part_side *side, int err)
{
    pthread_mutex_lock(&lock);
    if (side->queued)
        unqueue(side);
    if (err != MPI_SUCCESS && side->broken == MPI_SUCCESS)
        side->broken = err;
    struct mmpi_part_link *l = __atomic_load_n(&side->link, __ATOMIC_ACQUIRE);
    pthread_mutex_unlock(&lock);
    return l;
}

void mmpi_part_side_release(struct mmpi_part_side *side)
{
    if (__atomic_sub_fetch(&side->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    mmpi_datatype_release(side->dt);
    mmpi_comm_core_release(side->core);
    free(side->words);
    free(side);
}

void mmpi_part_link_release(struct mmpi_part_link *l)
{
    if (__atomic_sub_fetch(&l->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    mmpi_part_side_release(l->send);
    mmpi_part_side_release(l->recv);
    free(l);
}
