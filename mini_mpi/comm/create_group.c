/*
 * create_group.c: the constructors collective over the members of a group only, with no parent
 * board to meet on: MPI_Comm_create_group (MPI-4.1 §7.4.2; non-members never arrive on the
 * parent's board, and may run other collectives on it meanwhile), and the Sessions Model's
 * MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups (§7.4.2, §7.6.2), which have
 * no parent at all. Members meet in one process-wide table of rendezvous keyed by (parent
 * context id and tag, or string tag; the members in order; for an intercommunicator, where the
 * first group ends): a member's n-th call for a key joins the oldest rendezvous of that key it
 * has not joined yet, which is the others' n-th call too, since each member's calls for one key
 * are ordered. The last to arrive builds the core (an intercommunicator's bridge).
 *
 * On process failure: a member waits until every member arrived, or until a member that has
 * not arrived has failed (MPI_ERR_PROC_FAILED), or the parent is revoked (MPI_ERR_REVOKED); a
 * dead member never arrives, so then no core is ever built and every member reports the
 * failure. A member that dies after arriving does not stop the build: every member gets the
 * communicator, whose operations then report it. Whoever leaves last frees the rendezvous; a
 * late arrival after everyone left opens a new one and sees the same failure.
 */
#include <stdlib.h>
#include <string.h>

#include "comm/create.h"
#include "comm/intercomm.h"
#include "group/group.h"
#include "ulfm/ulfm.h"

struct rendezvous {
    struct rendezvous *next;      /* table lock */
    uint64_t parent_cid;          /* immutable; 0 without a parent */
    int tag;                      /* immutable */
    char *stringtag;              /* immutable; NULL with a parent */
    int n0;                       /* immutable: members of the first group (all: intra) */
    int size;                     /* immutable */
    int *world_ranks;             /* immutable [size]: the members */
    uint8_t *arrived;             /* [size], atomic bytes; written under the table lock */
    int narrived;                 /* table lock */
    int inside;                   /* table lock: arrived and not left */
    struct mmpi_comm_core *core;  /* atomic: built by the last arriver (refcount = size) */
    bool revoked;                 /* atomic: the last arriver found the parent revoked */
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rendezvous *table;

/* Two string tags (or two NULLs, meetings with a parent) name the same meeting. */
static bool same_stringtag(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static bool same_key(const struct rendezvous *r, const struct mmpi_comm_meet *k)
{
    return r->parent_cid == k->parent_cid && r->tag == k->tag &&
           same_stringtag(r->stringtag, k->stringtag) && r->n0 == k->n0 && r->size == k->size &&
           !memcmp(r->world_ranks, k->world_ranks, (size_t)k->size * sizeof(int));
}

/* The last arriver's build: a core over all members, or the bridge of an intercommunicator
 * between the two groups (disjoint: the caller checked). One reference per member. */
static struct mmpi_comm_core *build(const struct rendezvous *r)
{
    if (r->n0 < r->size)
        return mmpi_intercomm_between(r->n0, r->world_ranks, r->size - r->n0,
                                      r->world_ranks + r->n0);
    int *ranks = mmpi_xmalloc((size_t)r->size * sizeof(int));
    memcpy(ranks, r->world_ranks, (size_t)r->size * sizeof(int));
    struct mmpi_comm_core *core = mmpi_comm_core_new(r->size, ranks);
    core->refcount = r->size;
    return core;
}

static struct rendezvous *arrive(struct mmpi_rank *self, const struct mmpi_comm_meet *k,
                                 const struct mmpi_fault_core *parent, int me)
{
    struct rendezvous *r;
    pthread_mutex_lock(&table_lock);
    for (r = table; r; r = r->next)
        if (same_key(r, k) && !r->arrived[me])
            break;
    if (!r) {
        r = mmpi_xcalloc(1, sizeof(*r) + (size_t)k->size);
        r->arrived = (uint8_t *)(r + 1);
        r->parent_cid = k->parent_cid;
        r->tag = k->tag;
        r->stringtag = k->stringtag ? mmpi_xstrdup(k->stringtag) : NULL;
        r->n0 = k->n0;
        r->size = k->size;
        r->world_ranks = mmpi_xmalloc((size_t)k->size * sizeof(int));
        memcpy(r->world_ranks, k->world_ranks, (size_t)k->size * sizeof(int));
        /* Appended: the oldest rendezvous of a key comes first. */
        struct rendezvous **p = &table;
        while (*p)
            p = &(*p)->next;
        *p = r;
    }
    __atomic_store_n(&r->arrived[me], 1, __ATOMIC_RELEASE);
    r->inside++;
    bool last = ++r->narrived == r->size;
    if (last && parent && mmpi_fault_revoked(parent))
        __atomic_store_n(&r->revoked, true, __ATOMIC_RELEASE);
    else if (last)
        __atomic_store_n(&r->core, build(r), __ATOMIC_RELEASE);
    pthread_mutex_unlock(&table_lock);
    if (last)
        for (int i = 0; i < r->size; i++)
            mmpi_rank_wake(self->world->ranks[r->world_ranks[i]]);
    return r;
}

struct wait_arg {
    struct mmpi_rank *self;
    struct rendezvous *r;
    const struct mmpi_fault_core *parent; /* NULL: none to be revoked */
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
        (a->parent && mmpi_fault_revoked(a->parent))) {
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
        free(r->stringtag);
        free(r->world_ranks);
        free(r);
    }
}

int mmpi_comm_meet(struct mmpi_rank *self, const struct mmpi_comm_meet *key,
                   const struct mmpi_fault_core *parent, int me, struct mmpi_comm_core **core)
{
    struct rendezvous *r = arrive(self, key, parent, me);
    /* `kill R during` (inject.h): R dies having arrived, so the build counts it in. */
    if (mmpi_fault_during_armed(self))
        mmpi_fault_during_die(self);
    struct wait_arg a = {self, r, parent, MPI_SUCCESS};
    if (!settled(&a))
        mmpi_wait_until(self, settled, &a);
    /* A core once built is everyone's: take it even if a failure or revoke came after. */
    *core = __atomic_load_n(&r->core, __ATOMIC_ACQUIRE);
    leave(r);
    return *core ? MPI_SUCCESS : a.err;
}

int mmpi_comm_create_group(struct mmpi_rank *self, struct mmpi_comm *parent,
                           const struct mmpi_group *group, int tag, struct mmpi_comm **out)
{
    int me = mmpi_group_rank_of_world(group, self->world_rank);
    struct mmpi_comm_meet key = {parent->core->context_id, tag, NULL, group->size, group->size,
                                 group->world_ranks};
    struct mmpi_comm_core *core;
    int err = mmpi_comm_meet(self, &key, &parent->core->fault, me, &core);
    *out = core ? mmpi_comm_handle_object(parent, core, me) : NULL;
    return err;
}
