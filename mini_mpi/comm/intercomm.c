/*
 * intercomm.c: intercommunicator objects (intercomm.h): the bridge and its lifetime, and the
 * constructors that run over an existing intercommunicator's bridge board: dup, split, merge.
 * Each runs like comm/create.c: every member of both groups deposits its arguments on the
 * bridge, the last to arrive builds the new cores, each member then makes its own handle.
 * Intercomm_create (which starts from two intracommunicators) is intercomm_create.c.
 */
#include "comm/intercomm.h"

#include <stdlib.h>
#include <string.h>

#include "coll/board.h"
#include "comm/create.h"
#include "group/group.h"

struct mmpi_comm_core *mmpi_intercomm_new(int n0, int *w0, int refs0, int n1, int *w1, int refs1)
{
    int *all = mmpi_xmalloc(((size_t)n0 + (size_t)n1) * sizeof(int));
    memcpy(all, w0, (size_t)n0 * sizeof(int));
    memcpy(all + n0, w1, (size_t)n1 * sizeof(int));
    struct mmpi_comm_core *bridge = mmpi_comm_core_new(n0 + n1, all);
    struct mmpi_comm_core *s0 = mmpi_comm_core_new(n0, w0);
    struct mmpi_comm_core *s1 = mmpi_comm_core_new(n1, w1);
    /* One context id for the whole intercommunicator (ids are never reused, so the sides'
     * own fresh ids are simply dropped). */
    s0->context_id = s1->context_id = bridge->context_id;
    s0->remote = s1;
    s1->remote = s0;
    s0->bridge = s1->bridge = bridge;
    mmpi_fault_core_link(&s0->fault, &s1->fault);
    mmpi_fault_core_link(&s0->fault, &bridge->fault);
    mmpi_fault_core_link(&s1->fault, &s0->fault);
    mmpi_fault_core_link(&s1->fault, &bridge->fault);
    s0->refcount = refs0;
    s1->refcount = refs1;
    bridge->remote = s0;
    bridge->refcount = 2;
    /* A side nobody holds (a group that left before taking handles) gives its reference back
     * at once. */
    if (refs0 == 0)
        bridge->refcount--;
    if (refs1 == 0)
        bridge->refcount--;
    return bridge;
}

struct mmpi_comm_core *mmpi_intercomm_between(int n0, const int *w0, int n1, const int *w1)
{
    for (int i = 0; i < n0; i++)
        for (int j = 0; j < n1; j++)
            if (w0[i] == w1[j])
                return NULL;
    int *c0 = mmpi_xmalloc((size_t)n0 * sizeof(int));
    int *c1 = mmpi_xmalloc((size_t)n1 * sizeof(int));
    memcpy(c0, w0, (size_t)n0 * sizeof(int));
    memcpy(c1, w1, (size_t)n1 * sizeof(int));
    return mmpi_intercomm_new(n0, c0, n0, n1, c1, n1);
}

void mmpi_intercomm_destroy(struct mmpi_comm_core *bridge)
{
    struct mmpi_comm_core *s0 = bridge->remote, *s1 = s0->remote;
    mmpi_comm_core_destroy(s0);
    mmpi_comm_core_destroy(s1);
    mmpi_comm_core_destroy(bridge);
}

int mmpi_intercomm_compare(const struct mmpi_comm_core *x, const struct mmpi_comm_core *y)
{
    struct mmpi_group *g[4] = {mmpi_group_of_core(x), mmpi_group_of_core(y),
                               mmpi_group_of_core(x->remote), mmpi_group_of_core(y->remote)};
    int local = mmpi_group_compare(g[0], g[1]), remote = mmpi_group_compare(g[2], g[3]);
    for (int i = 0; i < 4; i++)
        mmpi_group_release(g[i]);
    if (x == y)
        return MPI_IDENT;
    if (local == MPI_IDENT && remote == MPI_IDENT)
        return MPI_CONGRUENT;
    if (local != MPI_UNEQUAL && remote != MPI_UNEQUAL)
        return MPI_SIMILAR;
    return MPI_UNEQUAL;
}

/* ---- Constructors on the bridge board ---------------------------------------------------- */

/* Every combine below builds nothing once the intercommunicator is revoked: a member that saw
 * the revoke may have left with its deposit (comm/create.c "On revoke"). */
static bool combine_revoked(const struct mmpi_comm_core *b)
{
    return mmpi_fault_revoked(&b->fault);
}

static int *copy_ranks(const struct mmpi_comm_core *core)
{
    int *r = mmpi_xmalloc(((size_t)core->size + 1) * sizeof(int));
    memcpy(r, core->world_ranks, (size_t)core->size * sizeof(int));
    return r;
}

void mmpi_intercomm_dup_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *b)
{
    if (combine_revoked(b))
        return;
    struct mmpi_comm_core *s0 = mmpi_intercomm_side(b, 0), *s1 = mmpi_intercomm_side(b, 1);
    struct mmpi_comm_core *nb = mmpi_intercomm_new(s0->size, copy_ranks(s0), s0->size, s1->size,
                                                   copy_ranks(s1), s1->size);
    struct mmpi_comm_member *res = mmpi_xcalloc((size_t)b->size, sizeof(*res));
    for (int i = 0; i < b->size; i++)
        res[i] = i < s0->size ? (struct mmpi_comm_member){mmpi_intercomm_side(nb, 0), i}
                              : (struct mmpi_comm_member){mmpi_intercomm_side(nb, 1), i - s0->size};
    inst->result = res;
}

int mmpi_intercomm_dup(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_comm **out)
{
    return mmpi_comm_create_on_board(self, c, mmpi_intercomm_dup_combine, NULL, out);
}

/* ---- Split (MPI-4.1 §7.6.2: each group splits by colour; a colour's new intercommunicator
 * joins its members in both groups; members whose colour the other group lacks get
 * MPI_COMM_NULL) ------------------------------------------------------------------------- */

struct split_arg {
    int color, key, rank; /* rank: bridge rank */
};

static int split_order(const void *a, const void *b)
{
    const struct split_arg *x = a, *y = b;
    if (x->color != y->color)
        return x->color < y->color ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Members of one side, sorted; returns how many have `color` from position *pos on. */
static int run_of(const struct split_arg *a, int n, int color, int *pos)
{
    while (*pos < n && a[*pos].color < color)
        (*pos)++;
    int k = 0;
    while (*pos + k < n && a[*pos + k].color == color)
        k++;
    return k;
}

static int *world_of(const struct mmpi_comm_core *b, const struct split_arg *a, int k)
{
    int *w = mmpi_xmalloc(((size_t)k + 1) * sizeof(int));
    for (int j = 0; j < k; j++)
        w[j] = b->world_ranks[a[j].rank];
    return w;
}

static void split_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *b)
{
    if (combine_revoked(b))
        return;
    int n0 = mmpi_intercomm_side(b, 0)->size, n = b->size;
    struct split_arg *args = mmpi_xmalloc((size_t)n * sizeof(*args));
    for (int i = 0; i < n; i++) {
        args[i] = *(const struct split_arg *)mmpi_board_deposit(inst, i);
        args[i].rank = i;
        if (args[i].color == MPI_UNDEFINED)
            args[i].color = -1; /* sorts first, never matched */
    }
    qsort(args, (size_t)n0, sizeof(*args), split_order);
    qsort(args + n0, (size_t)(n - n0), sizeof(*args), split_order);
    struct mmpi_comm_member *res = mmpi_xcalloc((size_t)n, sizeof(*res));
    struct split_arg *a1 = args + n0;
    int p0 = 0, p1 = 0;
    while (p0 < n0) {
        int color = args[p0].color;
        int k0 = run_of(args, n0, color, &p0), k1 = run_of(a1, n - n0, color, &p1);
        if (color >= 0 && k1 > 0) {
            struct mmpi_comm_core *nb = mmpi_intercomm_new(k0, world_of(b, args + p0, k0), k0,
                                                           k1, world_of(b, a1 + p1, k1), k1);
            for (int j = 0; j < k0; j++)
                res[args[p0 + j].rank] = (struct mmpi_comm_member){mmpi_intercomm_side(nb, 0), j};
            for (int j = 0; j < k1; j++)
                res[a1[p1 + j].rank] = (struct mmpi_comm_member){mmpi_intercomm_side(nb, 1), j};
        }
        p0 += k0;
    }
    free(args);
    inst->result = res;
}

int mmpi_intercomm_split(struct mmpi_rank *self, struct mmpi_comm *c, int color, int key,
                         struct mmpi_comm **out)
{
    struct split_arg arg = {color, key, 0};
    return mmpi_comm_create_on_board(self, c, split_combine, &arg, out);
}

/* ---- Merge -------------------------------------------------------------------------------- */

static void merge_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *b)
{
    if (combine_revoked(b))
        return;
    int n0 = mmpi_intercomm_side(b, 0)->size, n = b->size;
    /* Each group's choice is its first member's (all members of a group must agree). */
    int high0 = *(const int *)mmpi_board_deposit(inst, 0);
    int high1 = *(const int *)mmpi_board_deposit(inst, n0);
    bool side1_first = high0 && !high1;
    int *ranks = mmpi_xmalloc((size_t)n * sizeof(int));
    struct mmpi_comm_core *core;
    struct mmpi_comm_member *res = mmpi_xcalloc((size_t)n, sizeof(*res));
    for (int i = 0; i < n; i++) {
        int pos = !side1_first ? i : i < n0 ? (n - n0) + i : i - n0;
        ranks[pos] = b->world_ranks[i];
        res[i].rank = pos;
    }
    core = mmpi_comm_core_new(n, ranks);
    core->refcount = n;
    for (int i = 0; i < n; i++)
        res[i].core = core;
    inst->result = res;
}

int mmpi_intercomm_merge(struct mmpi_rank *self, struct mmpi_comm *c, int high,
                         struct mmpi_comm **out)
{
    high = high != 0;
    return mmpi_comm_create_on_board(self, c, merge_combine, &high, out);
}
