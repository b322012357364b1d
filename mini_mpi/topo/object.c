/*
 * topo/object.c: the lifetime of topology objects and their neighbour tables (topo.h): the
 * allocation of the in / out lists and the pairing of every incoming edge with the outgoing
 * edge that feeds it in graph topologies (Cartesian ones pair by direction, cart.c), and the
 * graph queries that copy those tables out.
 */
#include <stdlib.h>

#include "topo/topo.h"

/* The addresses MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY stand for: never read or written. */
static int unweighted_mark, weights_empty_mark;
int *const MPI_UNWEIGHTED = &unweighted_mark;
int *const MPI_WEIGHTS_EMPTY = &weights_empty_mark;

struct mmpi_topo *mmpi_topo_new(int kind, int size)
{
    struct mmpi_topo *t = mmpi_xcalloc(1, sizeof(*t));
    t->refcount = 1;
    t->kind = kind;
    t->size = size;
    t->in_off = mmpi_xcalloc((size_t)size + 1, sizeof(int));
    t->out_off = mmpi_xcalloc((size_t)size + 1, sizeof(int));
    t->consistent = true;
    return t;
}

struct mmpi_topo *mmpi_topo_retain(struct mmpi_topo *t)
{
    if (t)
        __atomic_add_fetch(&t->refcount, 1, __ATOMIC_RELAXED);
    return t;
}

void mmpi_topo_release(struct mmpi_topo *t)
{
    if (!t || __atomic_sub_fetch(&t->refcount, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    free(t->dims);
    free(t->periods);
    free(t->index);
    free(t->edges);
    free(t->weighted);
    free(t->in_w);
    free(t->out_w);
    free(t->in_off);
    free(t->in);
    free(t->in_match);
    free(t->out_off);
    free(t->out);
    free(t);
}

int mmpi_topo_check(const struct mmpi_comm *c, int kind, const struct mmpi_topo **t)
{
    if (!c)
        return MPI_ERR_COMM;
    *t = c->core->topo;
    return *t && (!kind || (*t)->kind == kind) ? MPI_SUCCESS : MPI_ERR_TOPOLOGY;
}

/* Copies min(n, max) ints (callers checked max >= 0 and the array when both are non-zero). */
static void copy_out(int *to, const int *from, int n, int max)
{
    for (int i = 0; i < n && i < max; i++)
        to[i] = from[i];
}

void mmpi_topo_graph_get(const struct mmpi_topo *t, int maxindex, int maxedges, int *index,
                         int *edges)
{
    copy_out(index, t->index, t->size, maxindex);
    copy_out(edges, t->edges, t->nedges, maxedges);
}

void mmpi_topo_graph_neighbors(const struct mmpi_topo *t, int rank, int max, int *neighbors)
{
    copy_out(neighbors, t->out + t->out_off[rank], mmpi_topo_outdegree(t, rank), max);
}

/* Whether a weights output array is to be written. */
static bool wants(const int *w, int max)
{
    return max > 0 && w && w != MPI_UNWEIGHTED && w != MPI_WEIGHTS_EMPTY;
}

void mmpi_topo_dist_neighbors(const struct mmpi_topo *t, int rank, int maxin, int *sources,
                              int *sourceweights, int maxout, int *destinations,
                              int *destweights)
{
    int in = t->in_off[rank], out = t->out_off[rank];
    copy_out(sources, t->in + in, mmpi_topo_indegree(t, rank), maxin);
    copy_out(destinations, t->out + out, mmpi_topo_outdegree(t, rank), maxout);
    if (t->weighted[rank] && wants(sourceweights, maxin))
        copy_out(sourceweights, t->in_w + in, mmpi_topo_indegree(t, rank), maxin);
    if (t->weighted[rank] && wants(destweights, maxout))
        copy_out(destweights, t->out_w + out, mmpi_topo_outdegree(t, rank), maxout);
}

void mmpi_topo_alloc_edges(struct mmpi_topo *t)
{
    size_t nin = (size_t)t->in_off[t->size], nout = (size_t)t->out_off[t->size];
    t->in = mmpi_xmalloc((nin ? nin : 1) * sizeof(int));
    t->in_match = mmpi_xmalloc((nin ? nin : 1) * sizeof(int));
    t->out = mmpi_xmalloc((nout ? nout : 1) * sizeof(int));
}

/* One directed edge seen from one end: (from, to) and its slot in that end's list. */
struct edge {
    int from, to, slot;
};

static int edge_order(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return (x->slot > y->slot) - (x->slot < y->slot);
}

/* Both lists sorted by (from, to, slot): the k-th edge from -> to of the sender's list
 * (outgoing slots ascending) pairs with the k-th one of the receiver's list, exactly the
 * matching of the point-to-point code in MPI-4.1 §8.6 (messages with one tag, in order). */
void mmpi_topo_match_edges(struct mmpi_topo *t)
{
    size_t nin = (size_t)t->in_off[t->size], nout = (size_t)t->out_off[t->size];
    struct edge *in = mmpi_xmalloc((nin + 1) * sizeof(*in));
    struct edge *out = mmpi_xmalloc((nout + 1) * sizeof(*out));
    for (int r = 0; r < t->size; r++) {
        for (int j = t->in_off[r]; j < t->in_off[r + 1]; j++)
            in[j] = (struct edge){t->in[j], r, j};
        for (int k = t->out_off[r]; k < t->out_off[r + 1]; k++)
            out[k] = (struct edge){r, t->out[k], k - t->out_off[r]};
    }
    qsort(in, nin, sizeof(*in), edge_order);
    qsort(out, nout, sizeof(*out), edge_order);
    t->consistent = nin == nout;
    for (size_t i = 0; i < nin; i++) {
        bool same = i < nout && in[i].from == out[i].from && in[i].to == out[i].to;
        t->in_match[in[i].slot] = same ? out[i].slot : -1;
        t->consistent &= same;
    }
    free(in);
    free(out);
}
