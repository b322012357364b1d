/*
 * topo/graph_api.c: MPI entry points for graph and distributed graph topologies and the kind
 * query (MPI-4.1 §8.5.3-8.5.5, §8.5.8): Graph_create, Dist_graph_create_adjacent,
 * Dist_graph_create, Topo_test, Graphdims_get, Graph_get, Graph_neighbors_count,
 * Graph_neighbors, Dist_graph_neighbors_count, Dist_graph_neighbors, Graph_map. Bindings
 * only (constructors: create.c; the queries that copy tables out: object.c). Classes:
 * MPI_ERR_ARG for bad counts, degrees, index arrays, weights and graph edges (as MPICH),
 * MPI_ERR_RANK for a process rank out of range, MPI_ERR_TOPOLOGY for a communicator of
 * another kind.
 */
#include <stdlib.h>

#include "coll/check.h"
#include "comm/info.h"
#include "topo/topo.h"

/* MPI_Graph_create's description: nnodes nodes, index non-decreasing, edges name nodes. */
static int check_graph(int size, int nnodes, const int *index, const int *edges)
{
    if (nnodes < 0 || nnodes > size || (nnodes > 0 && (!index || !edges)))
        return MPI_ERR_ARG;
    for (int i = 0; i < nnodes; i++)
        if (index[i] < 0 || (i > 0 && index[i] < index[i - 1]))
            return MPI_ERR_ARG;
    for (int e = 0; nnodes > 0 && e < index[nnodes - 1]; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

MMPI_PROFILED(Graph_create);
int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int reorder, MPI_Comm *comm_graph)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Graph_create);
    struct mmpi_comm *c = mmpi_comm_get(self, comm_old), *made = NULL;
    int err = MPI_SUCCESS;

    if ((err = mmpi_coll_check_comm(c)))
        goto fn_fail;
    MMPI_FAIL_IF(!comm_graph, MPI_ERR_ARG);
    if ((err = check_graph(c->core->size, nnodes, index, edges)))
        goto fn_fail;
    if (nnodes == 0) {
        *comm_graph = MPI_COMM_NULL; /* an empty graph has no members (as MPICH) */
        goto fn_exit;
    }
    if ((err = mmpi_topo_graph_create(self, c, nnodes, index, edges, &made)) ||
        (err = mmpi_topo_publish(self, made, comm_graph)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (comm_graph)
        *comm_graph = MPI_COMM_NULL;
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Graph_create);
    goto fn_exit;
}

/* n ranks of a communicator of `size`. */
static int check_ranks(const int *ranks, int n, int size)
{
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= size)
            return MPI_ERR_RANK;
    return MPI_SUCCESS;
}

/* A weights argument for n edges; *w becomes NULL for MPI_UNWEIGHTED (§8.5.4). */
static int check_weights(const int **w, int n)
{
    if (*w == MPI_UNWEIGHTED) {
        *w = NULL;
        return MPI_SUCCESS;
    }
    if (n > 0 && (!*w || *w == MPI_WEIGHTS_EMPTY))
        return MPI_ERR_ARG;
    for (int i = 0; i < n; i++)
        if ((*w)[i] < 0)
            return MPI_ERR_ARG; /* weights are non-negative */
    if (!*w)
        *w = MPI_WEIGHTS_EMPTY; /* weighted, no edges: never read */
    return MPI_SUCCESS;
}

/* One neighbour list of the adjacent form. */
static int check_list(int degree, const int *ranks, const int **weights, int size)
{
    if (degree < 0 || (degree > 0 && !ranks))
        return MPI_ERR_ARG;
    int err = check_ranks(ranks, degree, size);
    return err ? err : check_weights(weights, degree);
}

MMPI_PROFILED(Dist_graph_create_adjacent);
int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Dist_graph_create_adjacent);
    struct mmpi_comm *c = mmpi_comm_get(self, comm_old), *made = NULL;
    struct mmpi_info *hints; /* §8.5.4: hints only, none used */
    int err = MPI_SUCCESS;

    if ((err = mmpi_coll_check_comm(c)))
        goto fn_fail;
    MMPI_FAIL_IF(!comm_dist_graph, MPI_ERR_ARG);
    if ((err = mmpi_info_arg(self, info, &hints)) ||
        (err = check_list(indegree, sources, &sourceweights, c->core->size)) ||
        (err = check_list(outdegree, destinations, &destweights, c->core->size)))
        goto fn_fail;
    if ((err = mmpi_topo_dist_adjacent(self, c, indegree, sources, sourceweights, outdegree,
                                       destinations, destweights, &made)) ||
        (err = mmpi_topo_publish(self, made, comm_dist_graph)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (comm_dist_graph)
        *comm_dist_graph = MPI_COMM_NULL;
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Dist_graph_create_adjacent);
    goto fn_exit;
}

MMPI_PROFILED(Dist_graph_create);
int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info,
                           int reorder, MPI_Comm *comm_dist_graph)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Dist_graph_create);
    struct mmpi_comm *c = mmpi_comm_get(self, comm_old), *made = NULL;
    struct mmpi_info *hints; /* §8.5.4: hints only, none used */
    long nedges = 0;
    int err = MPI_SUCCESS;

    if ((err = mmpi_coll_check_comm(c)) || (err = mmpi_info_arg(self, info, &hints)))
        goto fn_fail;
    MMPI_FAIL_IF(!comm_dist_graph || n < 0 || (n > 0 && (!sources || !degrees)), MPI_ERR_ARG);
    for (int i = 0; i < n; i++) {
        MMPI_FAIL_IF(degrees[i] < 0, MPI_ERR_ARG);
        nedges += degrees[i];
    }
    MMPI_FAIL_IF(nedges > 0x7fffffffL || (nedges > 0 && !destinations), MPI_ERR_ARG);
    if ((err = check_ranks(sources, n, c->core->size)) ||
        (err = check_ranks(destinations, (int)nedges, c->core->size)) ||
        (err = check_weights(&weights, (int)nedges)))
        goto fn_fail;
    if ((err = mmpi_topo_dist_create(self, c, n, sources, degrees, destinations, weights,
                                     &made)) ||
        (err = mmpi_topo_publish(self, made, comm_dist_graph)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (comm_dist_graph)
        *comm_dist_graph = MPI_COMM_NULL;
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Dist_graph_create);
    goto fn_exit;
}

MMPI_PROFILED(Topo_test);
int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Topo_test);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(!status, MPI_ERR_ARG);
    *status = c->core->topo ? c->core->topo->kind : MPI_UNDEFINED;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Topo_test);
    goto fn_exit;
}

MMPI_PROFILED(Graphdims_get);
int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Graphdims_get);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    const struct mmpi_topo *t;
    int err = MPI_SUCCESS;

    if ((err = mmpi_topo_check(c, MPI_GRAPH, &t)))
        goto fn_fail;
    MMPI_FAIL_IF(!nnodes || !nedges, MPI_ERR_ARG);
    *nnodes = t->size;
    *nedges = t->nedges;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Graphdims_get);
    goto fn_exit;
}

MMPI_PROFILED(Graph_get);
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Graph_get);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    const struct mmpi_topo *t;
    int err = MPI_SUCCESS;

    if ((err = mmpi_topo_check(c, MPI_GRAPH, &t)))
        goto fn_fail;
    MMPI_FAIL_IF(maxindex < 0 || maxedges < 0 || (maxindex && !index) || (maxedges && !edges),
                 MPI_ERR_ARG);
    mmpi_topo_graph_get(t, maxindex, maxedges, index, edges);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Graph_get);
    goto fn_exit;
}

/* The graph topology of c and a rank of it. */
static int check_graph_rank(const struct mmpi_comm *c, int rank, const struct mmpi_topo **t)
{
    int err = mmpi_topo_check(c, MPI_GRAPH, t);
    return err ? err : rank < 0 || rank >= (*t)->size ? MPI_ERR_RANK : MPI_SUCCESS;
}

MMPI_PROFILED(Graph_neighbors_count);
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Graph_neighbors_count);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    const struct mmpi_topo *t;
    int err = MPI_SUCCESS;

    if ((err = check_graph_rank(c, rank, &t)))
        goto fn_fail;
    MMPI_FAIL_IF(!nneighbors, MPI_ERR_ARG);
    *nneighbors = mmpi_topo_outdegree(t, rank);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Graph_neighbors_count);
    goto fn_exit;
}

MMPI_PROFILED(Graph_neighbors);
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Graph_neighbors);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    const struct mmpi_topo *t;
    int err = MPI_SUCCESS;

    if ((err = check_graph_rank(c, rank, &t)))
        goto fn_fail;
    MMPI_FAIL_IF(maxneighbors < 0 || (maxneighbors > 0 && !neighbors), MPI_ERR_ARG);
    mmpi_topo_graph_neighbors(t, rank, maxneighbors, neighbors);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Graph_neighbors);
    goto fn_exit;
}

MMPI_PROFILED(Dist_graph_neighbors_count);
int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree,
                                    int *weighted)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Dist_graph_neighbors_count);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    const struct mmpi_topo *t;
    int err = MPI_SUCCESS;

    if ((err = mmpi_topo_check(c, MPI_DIST_GRAPH, &t)))
        goto fn_fail;
    MMPI_FAIL_IF(!indegree || !outdegree || !weighted, MPI_ERR_ARG);
    *indegree = mmpi_topo_indegree(t, c->rank);
    *outdegree = mmpi_topo_outdegree(t, c->rank);
    *weighted = t->weighted[c->rank];
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Dist_graph_neighbors_count);
    goto fn_exit;
}

MMPI_PROFILED(Dist_graph_neighbors);
int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                              int sourceweights[], int maxoutdegree, int destinations[],
                              int destweights[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Dist_graph_neighbors);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    const struct mmpi_topo *t;
    int err = MPI_SUCCESS;

    if ((err = mmpi_topo_check(c, MPI_DIST_GRAPH, &t)))
        goto fn_fail;
    MMPI_FAIL_IF(maxindegree < 0 || maxoutdegree < 0 || (maxindegree && !sources) ||
                     (maxoutdegree && !destinations),
                 MPI_ERR_ARG);
    mmpi_topo_dist_neighbors(t, c->rank, maxindegree, sources, sourceweights, maxoutdegree,
                             destinations, destweights);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Dist_graph_neighbors);
    goto fn_exit;
}

MMPI_PROFILED(Graph_map);
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                   int *newrank)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Graph_map);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c || c->core->remote, MPI_ERR_COMM);
    MMPI_FAIL_IF(!newrank, MPI_ERR_ARG);
    if ((err = check_graph(c->core->size, nnodes, index, edges)))
        goto fn_fail;
    /* Identity mapping: the ranks Graph_create keeps (§8.5.8). */
    *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Graph_map);
    goto fn_exit;
}
