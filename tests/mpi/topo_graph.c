/* topo_graph.c: graph and distributed graph topologies (MPI-4.1 §8.5.3-8.5.5, §8.5.8):
 * MPI_Graph_create of a ring plus a hub (rank 0 linked to everybody), its queries for every
 * rank (Graphdims_get, Graph_get whole and truncated, Graph_neighbors_count, Graph_neighbors),
 * a graph with fewer nodes than processes and an empty one, Graph_map; distributed graphs:
 * the adjacent form unweighted, with MPI_WEIGHTS_EMPTY and weighted; the general form with
 * weights naming their edge, so that the (implementation-ordered) lists can be checked as
 * sets with their weights; Topo_test of each and of their dups. */
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

static int rank, size;

/* The ring-plus-hub graph: index and edges for n nodes (edges: node-major). */
static int build(int n, int *index, int *edges)
{
    int ne = 0;
    for (int r = 0; r < n; r++) {
        if (n > 1) {
            edges[ne++] = (r + 1) % n;
            edges[ne++] = (r + n - 1) % n;
        }
        if (r == 0)
            for (int x = 2; x < n - 1; x++)
                edges[ne++] = x; /* the hub's spokes (1 and n-1 are ring neighbours) */
        else if (r >= 2 && r < n - 1)
            edges[ne++] = 0;
        index[r] = ne;
    }
    return ne;
}

static void graph(int n)
{
    int *index = malloc((size_t)(n + 1) * sizeof(int)), *edges = malloc(4 * (size_t)(n + 1) * sizeof(int));
    int *qi = malloc((size_t)(n + 1) * sizeof(int)), *qe = malloc(4 * (size_t)(n + 1) * sizeof(int));
    int ne = build(n, index, edges), nn, nedges, status, count, r;
    MPI_Comm comm, dup;
    CHECK(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &comm) == MPI_SUCCESS);
    CHECK(MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &r) == MPI_SUCCESS);
    CHECK(r == (rank < n ? rank : MPI_UNDEFINED));
    if (rank >= n) {
        CHECK(comm == MPI_COMM_NULL);
        goto out;
    }
    CHECK(MPI_Topo_test(comm, &status) == MPI_SUCCESS && status == MPI_GRAPH);
    CHECK(MPI_Graphdims_get(comm, &nn, &nedges) == MPI_SUCCESS && nn == n && nedges == ne);
    CHECK(MPI_Graph_get(comm, n, ne, qi, qe) == MPI_SUCCESS);
    CHECK(!memcmp(qi, index, (size_t)n * sizeof(int)) && !memcmp(qe, edges, (size_t)ne * sizeof(int)));
    memset(qe, -1, 4 * (size_t)(n + 1) * sizeof(int));
    CHECK(MPI_Graph_get(comm, 1, 1, qi, qe) == MPI_SUCCESS);
    CHECK((ne == 0 ? qe[0] == -1 : qe[0] == edges[0]) && qe[1] == -1); /* no more than asked */
    for (int x = 0; x < n; x++) {
        int first = x ? index[x - 1] : 0;
        CHECK(MPI_Graph_neighbors_count(comm, x, &count) == MPI_SUCCESS);
        CHECK(count == index[x] - first);
        CHECK(MPI_Graph_neighbors(comm, x, count, qe) == MPI_SUCCESS);
        CHECK(!memcmp(qe, edges + first, (size_t)count * sizeof(int)));
    }
    CHECK(MPI_Comm_dup(comm, &dup) == MPI_SUCCESS);
    CHECK(MPI_Topo_test(dup, &status) == MPI_SUCCESS && status == MPI_GRAPH);
    CHECK(MPI_Graphdims_get(dup, &nn, &nedges) == MPI_SUCCESS && nn == n && nedges == ne);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&comm);
out:
    free(index);
    free(edges);
    free(qi);
    free(qe);
}

static void adjacent(void)
{
    MPI_Comm comm;
    int in[2] = {(rank + size - 1) % size, (rank + 1) % size}, out[2] = {in[1], in[0]};
    int indeg, outdeg, weighted, qin[2], qout[2], qw[2] = {-7, -7}, status;
    /* Unweighted. */
    CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, in, MPI_UNWEIGHTED, 2, out,
                                         MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm) ==
          MPI_SUCCESS);
    CHECK(MPI_Topo_test(comm, &status) == MPI_SUCCESS && status == MPI_DIST_GRAPH);
    CHECK(MPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted) == MPI_SUCCESS);
    CHECK(indeg == 2 && outdeg == 2 && !weighted);
    CHECK(MPI_Dist_graph_neighbors(comm, 2, qin, qw, 2, qout, MPI_UNWEIGHTED) == MPI_SUCCESS);
    CHECK(qin[0] == in[0] && qin[1] == in[1] && qout[0] == out[0] && qout[1] == out[1]);
    CHECK(qw[0] == -7 && qw[1] == -7); /* not written for an unweighted graph */
    MPI_Comm_free(&comm);
    /* No edges, weighted (MPI_WEIGHTS_EMPTY), except rank 0 which has a self loop. */
    int self[1] = {rank}, w[1] = {42};
    int deg = rank == 0;
    CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, deg, self, deg ? w : MPI_WEIGHTS_EMPTY,
                                         deg, self, deg ? w : MPI_WEIGHTS_EMPTY, MPI_INFO_NULL,
                                         0, &comm) == MPI_SUCCESS);
    CHECK(MPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted) == MPI_SUCCESS);
    CHECK(indeg == deg && outdeg == deg && weighted);
    if (deg) {
        CHECK(MPI_Dist_graph_neighbors(comm, 1, qin, qw, 1, qout, qw + 1) == MPI_SUCCESS);
        CHECK(qin[0] == 0 && qout[0] == 0 && qw[0] == 42 && qw[1] == 42);
    }
    int one = rank * 2, got = -1;
    CHECK(MPI_Neighbor_allgather(&one, 1, MPI_INT, &got, 1, MPI_INT, comm) == MPI_SUCCESS);
    CHECK(got == (rank == 0 ? 0 : -1));
    /* Members without neighbours may pass NULL arrays (here in the nonblocking w form). */
    int cnt[1] = {1};
    MPI_Aint dsp[1] = {0};
    MPI_Datatype ty[1] = {MPI_INT};
    MPI_Request req;
    one = 5;
    got = -1;
    CHECK(MPI_Ineighbor_alltoallw(&one, deg ? cnt : NULL, deg ? dsp : NULL, deg ? ty : NULL,
                                  &got, deg ? cnt : NULL, deg ? dsp : NULL, deg ? ty : NULL,
                                  comm, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(got == (rank == 0 ? 5 : -1));
    MPI_Comm_free(&comm);
}

/* General form: each rank declares edges r -> r+1 and r -> r+3 (mod size) for itself and,
 * for rank 0, also 0 -> 0; weight = 100 * source + destination. */
static void general(void)
{
    int srcs[1] = {rank}, degs[1], dsts[3], w[3], n = 0;
    dsts[n++] = (rank + 1) % size;
    dsts[n++] = (rank + 3) % size;
    if (rank == 0)
        dsts[n++] = 0;
    for (int i = 0; i < n; i++)
        w[i] = 100 * rank + dsts[i];
    degs[0] = n;
    MPI_Comm comm, dup;
    CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, srcs, degs, dsts, w, MPI_INFO_NULL, 0,
                                &comm) == MPI_SUCCESS);
    CHECK(MPI_Comm_dup(comm, &dup) == MPI_SUCCESS);
    MPI_Comm_free(&comm);
    int indeg, outdeg, weighted, qin[8], qout[8], win[8], wout[8];
    CHECK(MPI_Dist_graph_neighbors_count(dup, &indeg, &outdeg, &weighted) == MPI_SUCCESS);
    int want_in = 2 + (rank == 0);
    CHECK(indeg == want_in && outdeg == n && weighted);
    CHECK(MPI_Dist_graph_neighbors(dup, 8, qin, win, 8, qout, wout) == MPI_SUCCESS);
    for (int j = 0; j < indeg && j < 8; j++) {
        CHECK(win[j] == 100 * qin[j] + rank);
        int s = qin[j];
        CHECK(s == (rank + size - 1) % size || s == (rank + size - 3) % size ||
              (rank == 0 && s == 0));
    }
    for (int k = 0; k < outdeg && k < 8; k++)
        CHECK(wout[k] == 100 * rank + qout[k]);
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    graph(size);
    graph((size + 1) / 2);
    MPI_Comm none;
    CHECK(MPI_Graph_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &none) == MPI_SUCCESS);
    CHECK(none == MPI_COMM_NULL);
    adjacent();
    general();
    return mtest_finish();
}
