/*
 * topo/create.c: the topology constructors (MPI-4.1 §8.5), collective over the parent through
 * its collective board (comm/create.h mmpi_comm_create_on_board): every member deposits its
 * arguments, the last to arrive builds the topology object and the new cores, each member
 * then makes its own handle. `reorder` is accepted and ignored: ranks keep their order, which
 * the standard allows (§8.5.1).
 *
 * Cartesian and graph constructors take the same arguments at every member (§8.5.1, §8.5.3),
 * so the combine step reads only the combining member's own deposit; the distributed graph
 * constructors read everybody's (§8.5.4). A combine step that finds the parent revoked builds
 * nothing (a member that returned on the revoke may have left its deposit), and every member
 * then reports MPI_ERR_REVOKED.
 */
#include <stdlib.h>
#include <string.h>

#include "comm/create.h"
#include "topo/topo.h"

/* One member's arguments: the fields of its constructor. */
struct topo_arg {
    struct mmpi_rank *self;
    int ndims;
    const int *dims, *periods, *remain;                /* Cart_create, Cart_sub */
    int nnodes;
    const int *index, *edges;                          /* Graph_create */
    int indegree, outdegree;
    const int *sources, *sweights, *dests, *dweights;  /* Dist_graph_create_adjacent */
    int n;
    const int *degrees;                                /* Dist_graph_create (+ sources, dests,
                                                        * dweights as its weights) */
};

/* The combining member's own arguments. */
static const struct topo_arg *own_arg(struct mmpi_board_instance *inst,
                                      struct mmpi_comm_core *pc)
{
    for (int i = 0; i < pc->size; i++) {
        const struct topo_arg *a = mmpi_board_deposit(inst, i);
        if (a && a->self == mmpi_self)
            return a;
    }
    mmpi_die("topo: combining rank has no deposit");
}

static bool revoked(const struct mmpi_comm_core *pc)
{
    return mmpi_fault_revoked(&pc->fault);
}

/* A core for parent ranks members[0..count) in that order, carrying topo (whose reference it
 * takes over), recorded in res; one reference per member. */
static void add_core(struct mmpi_comm_member *res, const struct mmpi_comm_core *pc,
                     const int *members, int count, struct mmpi_topo *topo)
{
    int *ranks = mmpi_xmalloc(((size_t)count + 1) * sizeof(int));
    for (int j = 0; j < count; j++)
        ranks[j] = pc->world_ranks[members[j]];
    struct mmpi_comm_core *core = mmpi_comm_core_new(count, ranks);
    core->refcount = count;
    core->topo = topo;
    for (int j = 0; j < count; j++)
        res[members[j]] = (struct mmpi_comm_member){core, j};
}

/* The first topo->size members of the parent, in order, form the new communicator. */
static void first_members(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc,
                          struct mmpi_topo *topo)
{
    struct mmpi_comm_member *res = mmpi_xcalloc((size_t)pc->size, sizeof(*res));
    int *members = mmpi_xmalloc(((size_t)topo->size + 1) * sizeof(int));
    for (int j = 0; j < topo->size; j++)
        members[j] = j;
    if (topo->size > 0)
        add_core(res, pc, members, topo->size, topo);
    else
        mmpi_topo_release(topo);
    free(members);
    inst->result = res;
}

int mmpi_topo_publish(struct mmpi_rank *self, struct mmpi_comm *made, MPI_Comm *out)
{
    *out = MPI_COMM_NULL;
    return made ? mmpi_comm_register(self, made, out) : MPI_SUCCESS;
}

static int run(struct mmpi_rank *self, struct mmpi_comm *parent, mmpi_board_combine_fn *combine,
               struct topo_arg *a, struct mmpi_comm **out)
{
    a->self = self;
    return mmpi_comm_create_on_board(self, parent, combine, a, out);
}

/* ---- MPI_Cart_create -------------------------------------------------------------------- */

static void cart_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    if (revoked(pc))
        return;
    const struct topo_arg *a = own_arg(inst, pc);
    first_members(inst, pc, mmpi_cart_topo_new(a->ndims, a->dims, a->periods));
}

int mmpi_topo_cart_create(struct mmpi_rank *self, struct mmpi_comm *parent, int ndims,
                          const int *dims, const int *periods, struct mmpi_comm **out)
{
    struct topo_arg a = {.ndims = ndims, .dims = dims, .periods = periods};
    return run(self, parent, cart_combine, &a, out);
}

/* ---- MPI_Cart_sub: one subgrid per combination of the dropped coordinates (§8.5.7) ------ */

static void cart_sub_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    if (revoked(pc))
        return;
    const struct mmpi_topo *t = pc->topo;
    const int *remain = own_arg(inst, pc)->remain;
    int nd = t->ndims, kept = 0, ngrids = 1;
    int *dims = mmpi_xmalloc(((size_t)nd + 1) * sizeof(int));
    int *periods = mmpi_xmalloc(((size_t)nd + 1) * sizeof(int));
    int *coords = mmpi_xmalloc(((size_t)nd + 1) * sizeof(int));
    for (int d = 0; d < nd; d++) {
        if (remain[d]) {
            dims[kept] = t->dims[d];
            periods[kept++] = t->periods[d];
        } else {
            ngrids *= t->dims[d];
        }
    }
    struct mmpi_topo *sub = mmpi_cart_topo_new(kept, dims, periods);
    /* members[g * sub->size + s]: the parent rank at subgrid g, subgrid rank s (row-major in
     * the kept, resp. dropped, coordinates). */
    int *members = mmpi_xmalloc((size_t)pc->size * sizeof(int));
    for (int r = 0; r < pc->size; r++) {
        mmpi_cart_coords(nd, t->dims, r, coords);
        int g = 0, s = 0;
        for (int d = 0; d < nd; d++) {
            if (remain[d])
                s = s * t->dims[d] + coords[d];
            else
                g = g * t->dims[d] + coords[d];
        }
        members[g * sub->size + s] = r;
    }
    struct mmpi_comm_member *res = mmpi_xcalloc((size_t)pc->size, sizeof(*res));
    for (int g = 0; g < ngrids; g++)
        add_core(res, pc, members + (size_t)g * sub->size, sub->size, mmpi_topo_retain(sub));
    mmpi_topo_release(sub);
    free(members);
    free(dims);
    free(periods);
    free(coords);
    inst->result = res;
}

int mmpi_topo_cart_sub(struct mmpi_rank *self, struct mmpi_comm *parent,
                       const int *remain_dims, struct mmpi_comm **out)
{
    struct topo_arg a = {.remain = remain_dims};
    return run(self, parent, cart_sub_combine, &a, out);
}

/* ---- MPI_Graph_create ------------------------------------------------------------------- */

static void graph_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    if (revoked(pc))
        return;
    const struct topo_arg *a = own_arg(inst, pc);
    int n = a->nnodes, ne = n ? a->index[n - 1] : 0;
    struct mmpi_topo *t = mmpi_topo_new(MPI_GRAPH, n);
    t->nedges = ne;
    t->index = mmpi_xmalloc(((size_t)n + 1) * sizeof(int));
    t->edges = mmpi_xmalloc(((size_t)ne + 1) * sizeof(int));
    memcpy(t->index, a->index, (size_t)n * sizeof(int));
    memcpy(t->edges, a->edges, (size_t)ne * sizeof(int));
    /* The neighbours of r are edges[index[r-1] .. index[r]), both ways (§8.5.3). */
    for (int r = 0; r < n; r++)
        t->in_off[r + 1] = t->out_off[r + 1] = t->index[r];
    mmpi_topo_alloc_edges(t);
    memcpy(t->in, t->edges, (size_t)ne * sizeof(int));
    memcpy(t->out, t->edges, (size_t)ne * sizeof(int));
    mmpi_topo_match_edges(t);
    first_members(inst, pc, t);
}

int mmpi_topo_graph_create(struct mmpi_rank *self, struct mmpi_comm *parent, int nnodes,
                           const int *index, const int *edges, struct mmpi_comm **out)
{
    struct topo_arg a = {.nnodes = nnodes, .index = index, .edges = edges};
    return run(self, parent, graph_combine, &a, out);
}

/* ---- Distributed graphs (§8.5.4) --------------------------------------------------------- */

/* Counts turned into offsets, tables allocated, weights arrays too. */
static void dist_alloc(struct mmpi_topo *t)
{
    for (int r = 0; r < t->size; r++) {
        t->in_off[r + 1] += t->in_off[r];
        t->out_off[r + 1] += t->out_off[r];
    }
    mmpi_topo_alloc_edges(t);
    t->in_w = mmpi_xmalloc(((size_t)t->in_off[t->size] + 1) * sizeof(int));
    t->out_w = mmpi_xmalloc(((size_t)t->out_off[t->size] + 1) * sizeof(int));
}

/* The whole-communicator result: every member keeps its rank. */
static void all_members(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc,
                        struct mmpi_topo *t)
{
    mmpi_topo_match_edges(t);
    first_members(inst, pc, t);
}

static void adjacent_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    if (revoked(pc))
        return;
    int n = pc->size;
    struct mmpi_topo *t = mmpi_topo_new(MPI_DIST_GRAPH, n);
    t->weighted = mmpi_xcalloc((size_t)n, sizeof(bool));
    for (int r = 0; r < n; r++) {
        const struct topo_arg *a = mmpi_board_deposit(inst, r);
        t->in_off[r + 1] = a->indegree;
        t->out_off[r + 1] = a->outdegree;
        t->weighted[r] = a->sweights != NULL;
    }
    dist_alloc(t);
    for (int r = 0; r < n; r++) {
        const struct topo_arg *a = mmpi_board_deposit(inst, r);
        for (int j = 0; j < a->indegree; j++) {
            t->in[t->in_off[r] + j] = a->sources[j];
            t->in_w[t->in_off[r] + j] = a->sweights ? a->sweights[j] : 1;
        }
        for (int k = 0; k < a->outdegree; k++) {
            t->out[t->out_off[r] + k] = a->dests[k];
            t->out_w[t->out_off[r] + k] = a->dweights ? a->dweights[k] : 1;
        }
    }
    all_members(inst, pc, t);
}

int mmpi_topo_dist_adjacent(struct mmpi_rank *self, struct mmpi_comm *parent, int indegree,
                            const int *sources, const int *sourceweights, int outdegree,
                            const int *destinations, const int *destweights,
                            struct mmpi_comm **out)
{
    struct topo_arg a = {.indegree = indegree, .sources = sources, .sweights = sourceweights,
                         .outdegree = outdegree, .dests = destinations,
                         .dweights = destweights};
    return run(self, parent, adjacent_combine, &a, out);
}

/* Visits every edge given by every member, in member order, then in the order each member
 * listed them, so that both ends' lists follow that one order. First pass (count): degrees
 * into in_off / out_off; second pass: the lists, fill[] counting what each already holds. */
static void for_each_edge(struct mmpi_board_instance *inst, struct mmpi_topo *t, int *fill,
                          bool count)
{
    for (int i = 0; i < t->size; i++) {
        const struct topo_arg *a = mmpi_board_deposit(inst, i);
        for (int j = 0, e = 0; j < a->n; j++) {
            int s = a->sources[j];
            for (int k = 0; k < a->degrees[j]; k++, e++) {
                int d = a->dests[e], w = a->dweights ? a->dweights[e] : 1;
                if (count) {
                    t->out_off[s + 1]++;
                    t->in_off[d + 1]++;
                    continue;
                }
                int o = t->out_off[s] + fill[s]++, in = t->in_off[d] + fill[t->size + d]++;
                t->out[o] = d;
                t->out_w[o] = w;
                t->in[in] = s;
                t->in_w[in] = w;
            }
        }
    }
}

static void general_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    if (revoked(pc))
        return;
    int n = pc->size;
    struct mmpi_topo *t = mmpi_topo_new(MPI_DIST_GRAPH, n);
    bool weighted = false;
    for (int i = 0; i < n; i++)
        weighted |= ((const struct topo_arg *)mmpi_board_deposit(inst, i))->dweights != NULL;
    t->weighted = mmpi_xcalloc((size_t)n, sizeof(bool));
    for (int r = 0; r < n; r++)
        t->weighted[r] = weighted;
    for_each_edge(inst, t, NULL, true);
    dist_alloc(t);
    int *fill = mmpi_xcalloc(2 * (size_t)n, sizeof(int));
    for_each_edge(inst, t, fill, false);
    free(fill);
    all_members(inst, pc, t);
}

int mmpi_topo_dist_create(struct mmpi_rank *self, struct mmpi_comm *parent, int n,
                          const int *sources, const int *degrees, const int *destinations,
                          const int *weights, struct mmpi_comm **out)
{
    struct topo_arg a = {.n = n, .sources = sources, .degrees = degrees,
                         .dests = destinations, .dweights = weights};
    return run(self, parent, general_combine, &a, out);
}
