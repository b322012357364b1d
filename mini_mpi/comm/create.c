/*
 * create.c: communicator creation and release (create.h). The last member to arrive on the
 * parent's board runs a combine step that builds every new core (a dup builds one; a split or a
 * create one per resulting communicator), each created with one reference per member that will
 * hold a handle to it.
 *
 * On revoke (the reasoning of coll/engine.c "On process failure"): a member that sees the
 * parent revoked before the instance completed re-checks completion under the board lock and,
 * if it is still incomplete, returns at once, so its deposit may go away; a combine that runs
 * later sees the revoke (set before that re-check) and builds nothing, and every member then
 * reports MPI_ERR_REVOKED. A member that failed never arrives, so MPI_ERR_PROC_FAILED always
 * means nothing was built.
 */
#include "comm/create.h"

#include <stdlib.h>
#include <string.h>

#include "attr/attr.h"
#include "coll/board.h"
#include "comm/info.h"
#include "group/group.h"
#include "comm/intercomm.h"
#include "pt2pt/bsend.h"
#include "topo/topo.h"

struct mmpi_comm *mmpi_comm_handle_object_eh(struct mmpi_errhandler *eh,
                                             struct mmpi_comm_core *core, int rank)
{
    struct mmpi_comm *c = mmpi_xcalloc(1, sizeof(*c));
    c->core = core;
    c->rank = rank;
    c->handle = MPI_COMM_NULL;
    c->session = MPI_SESSION_NULL;
    c->errhandler = eh; /* NULL: never set, the default (errhan/errhandler.c) */
    mmpi_errhandler_retain(c->errhandler);
    return c;
}

struct mmpi_comm *mmpi_comm_handle_object(struct mmpi_comm *parent, struct mmpi_comm_core *core,
                                          int rank)
{
    /* Error handlers are inherited (MPI-4.1 §9.3.1); one never set stays unset, following the
     * default. */
    struct mmpi_comm *c = mmpi_comm_handle_object_eh(parent->errhandler, core, rank);
    c->session = parent->session;
    return c;
}

/* Whether the parent's revoke must keep the combine away from the deposits (see above). */
static bool combine_revoked(const struct mmpi_comm_core *pc)
{
    return mmpi_fault_revoked(&pc->fault);
}

int mmpi_comm_create_outcome(struct mmpi_rank *self, struct mmpi_comm_core *pc,
                             struct mmpi_board_instance *inst, int me, int wait_err,
                             struct mmpi_comm_core **core, int *rank)
{
    *core = NULL;
    int err = mmpi_board_result_outcome(pc, inst, wait_err);
    if (err != MPI_SUCCESS)
        return err;
    struct mmpi_comm_member r = ((struct mmpi_comm_member *)inst->result)[me];
    *core = r.core;
    *rank = r.rank;
    return MPI_SUCCESS;
}

int mmpi_comm_create_on_board(struct mmpi_rank *self, struct mmpi_comm *parent,
                              mmpi_board_combine_fn *combine, const void *deposit,
                              struct mmpi_comm **out)
{
    /* An intercommunicator's constructors meet on its bridge, over both groups. */
    struct mmpi_comm_core *pc = mmpi_comm_board_core(parent), *core;
    int me = mmpi_comm_board_rank(parent);
    struct mmpi_board_instance *inst =
        mmpi_board_arrive(pc, parent->coll_seq++, me, deposit, combine);
    int rank, err = mmpi_board_wait_arrived(self, pc, inst);
    err = mmpi_comm_create_outcome(self, pc, inst, me, err, &core, &rank);
    *out = core ? mmpi_comm_handle_object(parent, core, rank) : NULL;
    mmpi_board_leave(pc, inst, me);
    return err;
}

void mmpi_comm_dup_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    if (combine_revoked(pc))
        return;
    int *ranks = mmpi_xmalloc((size_t)pc->size * sizeof(int));
    memcpy(ranks, pc->world_ranks, (size_t)pc->size * sizeof(int));
    struct mmpi_comm_core *core = mmpi_comm_core_new(pc->size, ranks);
    core->refcount = pc->size;
    core->topo = mmpi_topo_retain(pc->topo); /* a dup keeps the topology (MPI-4.1 §8.4) */
    struct mmpi_comm_member *res = mmpi_xcalloc((size_t)pc->size, sizeof(*res));
    for (int i = 0; i < pc->size; i++)
        res[i] = (struct mmpi_comm_member){core, i};
    inst->result = res;
}

int mmpi_comm_dup(struct mmpi_rank *self, struct mmpi_comm *parent, struct mmpi_comm **out)
{
    if (parent->core->remote)
        return mmpi_intercomm_dup(self, parent, out);
    return mmpi_comm_create_on_board(self, parent, mmpi_comm_dup_combine, NULL, out);
}

struct split_arg {
    int color, key, rank;
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

static void split_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    if (combine_revoked(pc))
        return;
    int n = pc->size;
    struct split_arg *args = mmpi_xmalloc((size_t)n * sizeof(*args));
    for (int i = 0; i < n; i++) {
        args[i] = *(const struct split_arg *)mmpi_board_deposit(inst, i);
        args[i].rank = i;
    }
    qsort(args, (size_t)n, sizeof(*args), split_order);
    struct mmpi_comm_member *res = mmpi_xcalloc((size_t)n, sizeof(*res));
    for (int first = 0; first < n;) {
        int last = first;
        while (last < n && args[last].color == args[first].color)
            last++;
        if (args[first].color != MPI_UNDEFINED) {
            int size = last - first;
            int *ranks = mmpi_xmalloc((size_t)size * sizeof(int));
            for (int j = 0; j < size; j++)
                ranks[j] = pc->world_ranks[args[first + j].rank];
            struct mmpi_comm_core *core = mmpi_comm_core_new(size, ranks);
            core->refcount = size;
            for (int j = 0; j < size; j++)
                res[args[first + j].rank] = (struct mmpi_comm_member){core, j};
        }
        first = last;
    }
    free(args);
    inst->result = res;
}

int mmpi_comm_split(struct mmpi_rank *self, struct mmpi_comm *parent, int color, int key,
                    struct mmpi_comm **out)
{
    if (parent->core->remote)
        return mmpi_intercomm_split(self, parent, color, key, out);
    struct split_arg arg = {color, key, parent->rank};
    return mmpi_comm_create_on_board(self, parent, split_combine, &arg, out);
}

/* A copy of g's members, for a core to take over. */
static int *group_ranks(const struct mmpi_group *g)
{
    int *ranks = mmpi_xmalloc(((size_t)g->size + 1) * sizeof(int));
    memcpy(ranks, g->world_ranks, (size_t)g->size * sizeof(int));
    return ranks;
}

/* MPI_Comm_create: member i deposits its group. Members that pass the same group (same
 * processes, same order) share one core; a member outside its own group gets none. Cost:
 * O(size * group size) for the membership scans, plus one comparison with each distinct group
 * seen so far (one or two in practice: a common group, or disjoint halves). */
static void create_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    if (combine_revoked(pc))
        return;
    int n = pc->size, ncores = 0;
    struct mmpi_comm_member *res = mmpi_xcalloc((size_t)n, sizeof(*res));
    struct mmpi_comm_core **cores = mmpi_xmalloc((size_t)n * sizeof(*cores));
    for (int i = 0; i < n; i++) {
        const struct mmpi_group *g = mmpi_board_deposit(inst, i);
        int r = mmpi_group_rank_of_world(g, pc->world_ranks[i]);
        if (r == MPI_UNDEFINED)
            continue;
        struct mmpi_comm_core *core = NULL;
        for (int j = 0; j < ncores && !core; j++)
            if (cores[j]->size == g->size &&
                !memcmp(cores[j]->world_ranks, g->world_ranks, (size_t)g->size * sizeof(int)))
                core = cores[j];
        if (!core) {
            core = cores[ncores++] = mmpi_comm_core_new(g->size, group_ranks(g));
            core->refcount = 0;
        }
        core->refcount++;
        res[i] = (struct mmpi_comm_member){core, r};
    }
    free(cores);
    inst->result = res;
}

/* MPI_Comm_create on an intercommunicator (MPI-4.1 §7.4.2, since MPI-2.2): every member of a
 * group passes the same subgroup of it, so each group's choice is its first member's; the new
 * intercommunicator joins the two subgroups (side 0's stays side 0), and when either is empty
 * nobody gets one. Members outside their group's subgroup get none. Runs on the bridge: b's
 * members are side 0's, then side 1's. Cost: O(size * subgroup size) membership scans. */
static void inter_create_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *b)
{
    if (combine_revoked(b))
        return;
    int n0 = mmpi_intercomm_side(b, 0)->size;
    const struct mmpi_group *g[2] = {mmpi_board_deposit(inst, 0), mmpi_board_deposit(inst, n0)};
    struct mmpi_comm_member *res = mmpi_xcalloc((size_t)b->size, sizeof(*res));
    inst->result = res;
    if (g[0]->size == 0 || g[1]->size == 0)
        return;
    struct mmpi_comm_core *nb = mmpi_intercomm_new(g[0]->size, group_ranks(g[0]), g[0]->size,
                                                   g[1]->size, group_ranks(g[1]), g[1]->size);
    for (int i = 0; i < b->size; i++) {
        int side = i >= n0, r = mmpi_group_rank_of_world(g[side], b->world_ranks[i]);
        if (r != MPI_UNDEFINED)
            res[i] = (struct mmpi_comm_member){mmpi_intercomm_side(nb, side), r};
    }
}

int mmpi_comm_create(struct mmpi_rank *self, struct mmpi_comm *parent,
                     const struct mmpi_group *group, struct mmpi_comm **out)
{
    mmpi_board_combine_fn *combine = parent->core->remote ? inter_create_combine : create_combine;
    return mmpi_comm_create_on_board(self, parent, combine, group, out);
}

int mmpi_comm_sync(struct mmpi_rank *self, struct mmpi_comm *c)
{
    /* An intercommunicator synchronizes both groups on its bridge. */
    struct mmpi_comm_core *b = mmpi_comm_board_core(c);
    int me = mmpi_comm_board_rank(c);
    struct mmpi_board_instance *inst = mmpi_board_arrive(b, c->coll_seq++, me, NULL, NULL);
    int err = mmpi_board_wait_arrived(self, b, inst);
    mmpi_board_leave(b, inst, me);
    return err;
}

int mmpi_comm_register(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm *handle)
{
    /* MPICH runs out of context ids at 2048 communicators: a program that leaks them fails
     * there, so it fails here too, with the same class (MINI_MPI_MAX_COMMS). */
    long max = self->world->config.max_comms;
    bool full = max && mmpi_slots_live(&self->handles[MMPI_HANDLE_KIND_COMM]) >= (uint32_t)max;
    c->handle = full ? MPI_COMM_NULL : mmpi_handle_new(self, MMPI_HANDLE_KIND_COMM, c);
    if (c->handle == MPI_COMM_NULL) {
        mmpi_comm_core_release(c->core);
        mmpi_errhandler_release(c->errhandler);
        mmpi_info_release(c->info);
        free(c);
        return full ? MPI_ERR_OTHER : MPI_ERR_NO_MEM;
    }
    *handle = c->handle;
    return MPI_SUCCESS;
}

void mmpi_comm_release(struct mmpi_rank *self, struct mmpi_comm *c)
{
    if (self->parent == c) /* MPI_Comm_get_parent returns MPI_COMM_NULL from now on (§11.8.2) */
        self->parent = NULL;
    mmpi_handle_remove(self, MMPI_HANDLE_KIND_COMM, c->handle);
    mmpi_comm_core_release(c->core);
    mmpi_errhandler_release(c->errhandler);
    mmpi_info_release(c->info);
    mmpi_attr_list_free(&c->attrs); /* normally empty: Comm_free deleted them */
    mmpi_bsend_buffer_free(c->bsend); /* its pending messages keep their own records */
    free(c->acked);
    free(c);
}

int mmpi_comm_finish_dup(struct mmpi_rank *self, struct mmpi_comm *parent,
                         struct mmpi_comm *dup, struct mmpi_info *info, MPI_Comm *newcomm)
{
    dup->info = info;
    int err = mmpi_comm_register(self, dup, newcomm);
    if (err != MPI_SUCCESS)
        return err;
    /* §7.7.2: copy callbacks run at MPI_Comm_dup (not at split or create); one failing
     * fails the call, and the new communicator goes (its copies deleted first). */
    err = mmpi_attr_comm_copy(self, parent, dup);
    if (err != MPI_SUCCESS) {
        mmpi_comm_release(self, dup);
        *newcomm = MPI_COMM_NULL;
    }
    return err;
}
