/*
 * create_group.c: MPI_Comm_create_group (MPI-4.1 §7.4.2), collective over the members of a
 * group only, so it cannot use the parent's board (non-members never arrive there, and they
 * may run other collectives on the parent meanwhile). Members meet instead in one process-wide
 * table of rendezvous keyed by (parent context id, tag, group): a member's n-th call for a key
 * joins the oldest rendezvous of that key it has not joined yet, which is the others' n-th call
 * too, since each member's calls for one key are ordered. The last to arrive builds the core.
 *
 * On process failure: a member waits until every member arrived, or until a member that has
 * not arrived has failed (MPI_ERR_PROC_FAILED), or the parent is revoked (MPI_ERR_REVOKED); a
 * dead member never arrives, so then no core is ever built. Whoever leaves last frees the
 * rendezvous; a late arrival after everyone left opens a new one and sees the same failure.
 */
#include <stdlib.h>
#include <string.h>

#include "comm/create.h"
#include "group/group.h"
#include "ulfm/ulfm.h"

struct rendezvous {
    struct rendezvous *next;      /* table lock */
    uint64_t parent_cid;          /* immutable */
    int tag;                      /* immutable */
    int size;                     /* immutable */
    int *world_ranks;             /* immutable [size]: the group */
    uint8_t *arrived;             /* [size], atomic bytes; written under the table lock */
    int narrived;                 /* table lock */
    int inside;                   /* table lock: arrived and not left */
    struct mmpi_comm_core *core;  /* atomic: built by the last arriver (refcount = size) */
    bool revoked;                 /* atomic: the last arriver found the parent revoked */
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rendezvous *table;

static bool same_key(const struct rendezvous *r, uint64_t cid, int tag,
                     const struct mmpi_group *g)
{
    return r->parent_cid == cid && r->tag == tag && r->size == g->size &&
           !memcmp(r->world_ranks, g->world_ranks, (size_t)g->size * sizeof(int));
}

static struct rendezvous *arrive(struct mmpi_rank *self, struct mmpi_comm_core *pc,
                                 const struct mmpi_group *g, int tag, int me)
{
    struct rendezvous *r;
    pthread_mutex_lock(&table_lock);
    for (r = table; r; r = r->next)
        if (same_key(r, pc->context_id, tag, g) && !r->arrived[me])
            break;
    if (!r) {
        r = mmpi_xcalloc(1, sizeof(*r) + (size_t)g->size);
        r->arrived = (uint8_t *)(r + 1);
        r->parent_cid = pc->context_id;
        r->tag = tag;
        r->size = g->size;
        r->world_ranks = mmpi_xmalloc((size_t)g->size * sizeof(int));
        memcpy(r->world_ranks, g->world_ranks, (size_t)g->size * sizeof(int));
        /* Appended: the oldest rendezvous of a key comes first. */
        struct rendezvous **p = &table;
        while (*p)
            p = &(*p)->next;
        *p = r;
    }
    __atomic_store_n(&r->arrived[me], 1, __ATOMIC_RELEASE);
    r->inside++;
    bool last = ++r->narrived == r->size;
    if (last && mmpi_fault_revoked(&pc->fault)) {
        __atomic_store_n(&r->revoked, true, __ATOMIC_RELEASE);
    } else if (last) {
        int *ranks = mmpi_xmalloc((size_t)r->size * sizeof(int));
        memcpy(ranks, r->world_ranks, (size_t)r->size * sizeof(int));
        struct mmpi_comm_core *core = mmpi_comm_core_new(r->size, ranks);
        core->refcount = r->size;
        __atomic_store_n(&r->core, core, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&table_lock);
    if (last)
        for (int i = 0; i < r->size; i++)
            mmpi_rank_wake(self->world->ranks[r->world_ranks[i]]);
    return r;
}

struct wait_arg {
    struct mmpi_rank *self;
    struct rendezvous *r;
    struct mmpi_comm_core *pc;
    int err;
};

static bool settled(void *p)
{
    struct wait_arg *a = p;
    struct rendezvous *r = a->r;
    if (__atomic_load_n(&r->core, __ATOMIC_ACQUIRE)) {
        a->err = MPI_SUCCESS;
        return true;
    }
    if (__atomic_load_n(&r->revoked, __ATOMIC_ACQUIRE) ||
        mmpi_fault_revoked(&a->pc->fault)) {
        a->err = MPI_ERR_REVOKED;
        return true;
    }
    if (!mmpi_fault_any(a->self->world))
        return false;
    bool missing = false;
    for (int i = 0; i < r->size; i++) {
        int w = r->world_ranks[i];
        if (!__atomic_load_n(&r->arrived[i], __ATOMIC_ACQUIRE) &&
            mmpi_fault_is_failed(a->self->world->ranks[w])) {
            mmpi_fault_notice(a->self, w);
            missing = true;
        }
    }
    a->err = MPI_ERR_PROC_FAILED;
    return missing;
}

static void leave(struct rendezvous *r)
{
    pthread_mutex_lock(&table_lock);
    bool last = --r->inside == 0;
    if (last)
        for (struct rendezvous **p = &table; *p; p = &(*p)->next)
            if (*p == r) {
                *p = r->next;
                break;
            }
    pthread_mutex_unlock(&table_lock);
    if (last) {
        free(r->world_ranks);
        free(r);
    }
}

int mmpi_comm_create_group(struct mmpi_rank *self, struct mmpi_comm *parent,
                           const struct mmpi_group *group, int tag, struct mmpi_comm **out)
{
    int me = mmpi_group_rank_of_world(group, self->world_rank);
    struct rendezvous *r = arrive(self, parent->core, group, tag, me);
    struct wait_arg a = {self, r, parent->core, MPI_SUCCESS};
    if (!settled(&a))
        mmpi_wait_until(self, settled, &a);
    /* A core once built is everyone's: take it even if a failure or revoke came after. */
    struct mmpi_comm_core *core = __atomic_load_n(&r->core, __ATOMIC_ACQUIRE);
    *out = core ? mmpi_comm_handle_object(parent, core, me) : NULL;
    leave(r);
    return core ? MPI_SUCCESS : a.err;
}
