/* topo_neighbor.c: every neighbourhood collective (MPI-4.1 §8.6, §8.7), blocking and
 * nonblocking, on Cartesian grids (1 to 3 dimensions, periodic or not, including periodic
 * dimensions of size 1 and 2), a graph with repeated edges, and distributed graphs (adjacent
 * form with repeated edges and self loops, general form), checked against values computed
 * here from the topology the test built. Each block a member sends names the sender, the
 * receiver and which edge it is, so a block delivered to the wrong slot is caught:
 *  - Cartesian: block k of the sender lands in block k^1 of the receiver (MPI-4.1 §8.6,
 *    MPI-4.0 erratum), MPI_PROC_NULL neighbours leave the receive block untouched;
 *  - graphs: the k-th edge from s to d matches the k-th occurrence of s in d's sources. */
#include <string.h>

#include "mtest.h"

static int rank, size;
static char stage[64]; /* named in failure reports */

enum { CART, GRAPH };

/* The value of element e of the block that rank `from` sends to its outgoing slot k, whose
 * destination is `to`, being the occ-th edge from -> to of from's list. */
static int value(int kind, int from, int k, int to, int occ, int e)
{
    int edge = kind == CART ? k : to * 100 + occ;
    return (from * 100000 + edge) * 10 + e;
}

/* The value expected in element e of incoming slot j (from src); -1: untouched. */
static int expected(int kind, const int *in, int j, int e)
{
    int src = in[j], occ = 0;
    if (src == MPI_PROC_NULL)
        return -1;
    for (int i = 0; i < j; i++)
        occ += in[i] == src;
    return value(kind, src, j ^ 1, rank, occ, e);
}

static int occurrence(const int *out, int k)
{
    int occ = 0;
    for (int i = 0; i < k; i++)
        occ += out[i] == out[k];
    return occ;
}

#define MAXN 64
#define W 3 /* elements per block at most */

/* Runs the five collectives, blocking (nb = 0) and nonblocking (nb = 1), on comm whose
 * neighbourhoods are in[indeg] and out[outdeg]. */
static void check_all(MPI_Comm comm, int kind, int indeg, const int *in, int outdeg,
                      const int *out)
{
    int sbuf[MAXN * W], rbuf[MAXN * W * 2], counts[MAXN], displs[MAXN], scounts[MAXN],
        sdispls[MAXN];
    MPI_Aint adispls[MAXN], asdispls[MAXN];
    MPI_Datatype types[MAXN], stypes[MAXN], pair;
    MPI_Request req;
    int errors_before = mtest_errors;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    for (int nb = 0; nb < 2; nb++) {
        /* allgather: 2 ints; only meaningful for graphs where every edge gets the same block;
         * the "edge" part of the value is then the sender's own rank. */
        for (int i = 0; i < 2; i++)
            sbuf[i] = rank * 10 + i;
        for (int i = 0; i < MAXN * W * 2; i++)
            rbuf[i] = -1;
        if (nb)
            CHECK(MPI_Ineighbor_allgather(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, comm, &req) ==
                  MPI_SUCCESS && MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        else
            CHECK(MPI_Neighbor_allgather(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, comm) ==
                  MPI_SUCCESS);
        for (int j = 0; j < indeg; j++)
            for (int i = 0; i < 2; i++)
                CHECK(rbuf[2 * j + i] == (in[j] == MPI_PROC_NULL ? -1 : in[j] * 10 + i));

        /* allgatherv: sender s sends 1 + s % 2 ints; blocks stored in reverse order. */
        int mine = 1 + rank % 2, pos = 0;
        for (int j = indeg - 1; j >= 0; j--) {
            counts[j] = in[j] == MPI_PROC_NULL ? 1 : 1 + in[j] % 2;
            displs[j] = pos;
            pos += counts[j] + 1;
        }
        for (int i = 0; i < MAXN * W * 2; i++)
            rbuf[i] = -1;
        if (nb)
            CHECK(MPI_Ineighbor_allgatherv(sbuf, mine, MPI_INT, rbuf, counts, displs, MPI_INT,
                                           comm, &req) == MPI_SUCCESS &&
                  MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        else
            CHECK(MPI_Neighbor_allgatherv(sbuf, mine, MPI_INT, rbuf, counts, displs, MPI_INT,
                                          comm) == MPI_SUCCESS);
        for (int j = 0; j < indeg; j++) {
            for (int i = 0; i < counts[j]; i++)
                CHECK(rbuf[displs[j] + i] == (in[j] == MPI_PROC_NULL ? -1 : in[j] * 10 + i));
            CHECK(rbuf[displs[j] + counts[j]] == -1); /* the gap stays */
        }

        /* alltoall: one int per edge. */
        for (int k = 0; k < outdeg; k++)
            sbuf[k] = value(kind, rank, k, out[k], occurrence(out, k), 0);
        for (int i = 0; i < MAXN * W * 2; i++)
            rbuf[i] = -1;
        if (nb)
            CHECK(MPI_Ineighbor_alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm, &req) ==
                  MPI_SUCCESS && MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        else
            CHECK(MPI_Neighbor_alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm) ==
                  MPI_SUCCESS);
        for (int j = 0; j < indeg; j++)
            CHECK(rbuf[j] == expected(kind, in, j, 0));

        /* alltoallv: W ints per edge, sent from reversed places, received with gaps. */
        for (int k = 0; k < outdeg; k++) {
            scounts[k] = W;
            sdispls[k] = (outdeg - 1 - k) * W;
            for (int e = 0; e < W; e++)
                sbuf[sdispls[k] + e] = value(kind, rank, k, out[k], occurrence(out, k), e);
        }
        for (int j = 0; j < indeg; j++) {
            counts[j] = W;
            displs[j] = j * (W + 1);
        }
        for (int i = 0; i < MAXN * W * 2; i++)
            rbuf[i] = -1;
        if (nb)
            CHECK(MPI_Ineighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, counts, displs,
                                          MPI_INT, comm, &req) == MPI_SUCCESS &&
                  MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        else
            CHECK(MPI_Neighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, counts, displs,
                                         MPI_INT, comm) == MPI_SUCCESS);
        for (int j = 0; j < indeg; j++) {
            for (int e = 0; e < W; e++)
                CHECK(rbuf[displs[j] + e] == expected(kind, in, j, e));
            CHECK(rbuf[displs[j] + W] == -1);
        }

        /* alltoallw: 2 MPI_INTs sent, one contiguous pair received, byte displacements. */
        for (int k = 0; k < outdeg; k++) {
            scounts[k] = 2;
            asdispls[k] = (MPI_Aint)(k * 2 * sizeof(int));
            stypes[k] = MPI_INT;
            for (int e = 0; e < 2; e++)
                sbuf[2 * k + e] = value(kind, rank, k, out[k], occurrence(out, k), e);
        }
        for (int j = 0; j < indeg; j++) {
            counts[j] = 1;
            adispls[j] = (MPI_Aint)((indeg - 1 - j) * 3 * sizeof(int));
            types[j] = pair;
        }
        for (int i = 0; i < MAXN * W * 2; i++)
            rbuf[i] = -1;
        if (nb)
            CHECK(MPI_Ineighbor_alltoallw(sbuf, scounts, asdispls, stypes, rbuf, counts,
                                          adispls, types, comm, &req) == MPI_SUCCESS &&
                  MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        else
            CHECK(MPI_Neighbor_alltoallw(sbuf, scounts, asdispls, stypes, rbuf, counts, adispls,
                                         types, comm) == MPI_SUCCESS);
        for (int j = 0; j < indeg; j++)
            for (int e = 0; e < 2; e++)
                CHECK(rbuf[(indeg - 1 - j) * 3 + e] == expected(kind, in, j, e));
    }
    MPI_Type_free(&pair);
    if (mtest_errors > errors_before)
        fprintf(stderr, "rank %d: errors in %s\n", rank, stage);
}

/* A Cartesian grid: its neighbourhoods come from coordinates computed here. */
static void cart(int ndims, const int *dims, const int *periods)
{
    MPI_Comm comm;
    int n = 1;
    snprintf(stage, sizeof(stage), "cart ndims %d dims %d,%d,%d periods %d,%d,%d", ndims,
             dims[0], ndims > 1 ? dims[1] : 0, ndims > 2 ? dims[2] : 0, periods[0],
             ndims > 1 ? periods[1] : 0, ndims > 2 ? periods[2] : 0);
    for (int d = 0; d < ndims; d++)
        n *= dims[d];
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &comm) == MPI_SUCCESS);
    if (rank >= n) {
        CHECK(comm == MPI_COMM_NULL);
        return;
    }
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int nb[2 * 3], coords[3], c[3];
    for (int d = ndims - 1, r = rank; d >= 0; d--) {
        coords[d] = r % dims[d];
        r /= dims[d];
    }
    for (int d = 0; d < ndims; d++)
        for (int side = 0; side < 2; side++) {
            memcpy(c, coords, sizeof(c));
            c[d] += side ? 1 : -1;
            if (c[d] < 0 || c[d] >= dims[d]) {
                if (!periods[d]) {
                    nb[2 * d + side] = MPI_PROC_NULL;
                    continue;
                }
                c[d] = (c[d] + dims[d]) % dims[d];
            }
            int r = 0;
            for (int e = 0; e < ndims; e++)
                r = r * dims[e] + c[e];
            nb[2 * d + side] = r;
        }
    for (int d = 0; d < ndims; d++) {
        int src, dst;
        MPI_Cart_shift(comm, d, 1, &src, &dst);
        CHECK(src == nb[2 * d] && dst == nb[2 * d + 1]);
    }
    check_all(comm, CART, 2 * ndims, nb, 2 * ndims, nb);
    MPI_Comm dup;
    MPI_Comm_dup(comm, &dup); /* a dup is Cartesian too, and separate */
    check_all(dup, CART, 2 * ndims, nb, 2 * ndims, nb);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&comm);
}

/* MPI_Graph_create: r's neighbours are r+1, r-1, r+1 again (repeated edge), and rank 0 also
 * has itself twice. Symmetric with equal multiplicities, as neighbourhood collectives on
 * graphs require (§8.6). */
static void graph(void)
{
    int index[MAXN], edges[MAXN * 5], ne = 0, nbrs[8];
    for (int r = 0; r < size; r++) {
        edges[ne++] = (r + 1) % size;
        edges[ne++] = (r + size - 1) % size;
        edges[ne++] = (r + 1) % size;
        edges[ne++] = (r + size - 1) % size;
        if (r == 0) {
            edges[ne++] = 0;
            edges[ne++] = 0;
        }
        index[r] = ne;
    }
    MPI_Comm comm;
    snprintf(stage, sizeof(stage), "graph");
    CHECK(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &comm) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int first = rank ? index[rank - 1] : 0, deg = index[rank] - first, count;
    CHECK(MPI_Graph_neighbors_count(comm, rank, &count) == MPI_SUCCESS && count == deg);
    CHECK(MPI_Graph_neighbors(comm, rank, 8, nbrs) == MPI_SUCCESS);
    for (int i = 0; i < deg; i++)
        CHECK(nbrs[i] == edges[first + i]);
    check_all(comm, GRAPH, deg, edges + first, deg, edges + first);
    MPI_Comm_free(&comm);
}

/* Adjacent form: r sends to r+1, r+2, r+1 and itself; receives from r-1 twice, r-2 and
 * itself, listed in a shuffled order. */
static void dist_adjacent(void)
{
    int out[4] = {(rank + 1) % size, (rank + 2) % size, (rank + 1) % size, rank};
    int in[4] = {rank, (rank + size - 1) % size, (rank + size - 2) % size,
                 (rank + size - 1) % size};
    int w_in[4] = {1, 2, 3, 4}, w_out[4] = {5, 6, 7, 8};
    MPI_Comm comm;
    snprintf(stage, sizeof(stage), "dist graph adjacent");
    CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 4, in, w_in, 4, out, w_out,
                                         MPI_INFO_NULL, 1, &comm) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int indeg, outdeg, weighted, qin[4], qout[4], qwin[4], qwout[4];
    CHECK(MPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted) == MPI_SUCCESS);
    CHECK(indeg == 4 && outdeg == 4 && weighted);
    CHECK(MPI_Dist_graph_neighbors(comm, 4, qin, qwin, 4, qout, qwout) == MPI_SUCCESS);
    for (int i = 0; i < 4; i++)
        CHECK(qin[i] == in[i] && qout[i] == out[i] && qwin[i] == w_in[i] &&
              qwout[i] == w_out[i]);
    check_all(comm, GRAPH, 4, in, 4, out);
    MPI_Comm_free(&comm);
}

/* General form: rank r declares the edge (r*3+1) % size -> r on behalf of that rank, and
 * rank 0 declares r -> (r+1) % size for every r, so that edges are spread over members.
 * The order of neighbours is the implementation's (§8.5.4): the queried lists are used. */
static void dist_general(void)
{
    int srcs[MAXN + 1], degs[MAXN + 1], dsts[MAXN + 1], n = 0;
    srcs[n] = (rank * 3 + 1) % size;
    degs[n] = 1;
    dsts[n++] = rank;
    if (rank == 0)
        for (int r = 0; r < size; r++) {
            srcs[n] = r;
            degs[n] = 1;
            dsts[n++] = (r + 1) % size;
        }
    MPI_Comm comm;
    snprintf(stage, sizeof(stage), "dist graph general");
    CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts, MPI_UNWEIGHTED,
                                MPI_INFO_NULL, 0, &comm) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int indeg, outdeg, weighted, in[MAXN + 2], out[MAXN + 2];
    CHECK(MPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted) == MPI_SUCCESS);
    CHECK(!weighted);
    /* In: rank-1 (from rank 0's edges) and every r with (r*3+1) % size == rank's source...
     * counted here: edges x -> rank. */
    int want_in = 1, want_out = 1;
    for (int r = 0; r < size; r++) {
        want_in += r == rank;                  /* (r*3+1)%size -> r, with r == rank */
        want_out += (r * 3 + 1) % size == rank; /* rank -> r */
    }
    CHECK(indeg == want_in && outdeg == want_out);
    if (indeg > MAXN + 2 || outdeg > MAXN + 2)
        return;
    CHECK(MPI_Dist_graph_neighbors(comm, indeg, in, MPI_UNWEIGHTED, outdeg, out,
                                   MPI_UNWEIGHTED) == MPI_SUCCESS);
    /* The multisets: in = {rank-1, (rank*3+1)%size}, out = {rank+1} + {r : (3r+1)%size == rank}. */
    int a = (rank + size - 1) % size, b = (rank * 3 + 1) % size;
    CHECK((in[0] == a && in[1] == b) || (in[0] == b && in[1] == a));
    int found = 0;
    for (int k = 0; k < outdeg; k++)
        found += out[k] == (rank + 1) % size;
    CHECK(found >= 1);
    /* Repeated (s, d) pairs can occur (rank-1 == (rank*3+1)%size): the k-th rule still
     * decides, and value() names the occurrence. */
    check_all(comm, GRAPH, indeg, in, outdeg, out);
    MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size > MAXN) {
        if (rank == 0)
            printf("size at most %d\n", MAXN);
        MPI_Finalize();
        return 1;
    }
    int d1[1] = {size}, p1[1] = {1}, np1[1] = {0};
    cart(1, d1, p1);
    cart(1, d1, np1);
    int d2[2] = {0, 0}, p2[2] = {0, 0}, pp2[2] = {1, 1};
    MPI_Dims_create(size, 2, d2);
    cart(2, d2, p2);
    cart(2, d2, pp2);
    int d3[3] = {0, 0, 0}, p3[3] = {1, 0, 1};
    MPI_Dims_create(size, 3, d3);
    cart(3, d3, p3);
    int dl[2] = {1, size}, pl[2] = {1, 1}; /* a periodic dimension of size 1 */
    cart(2, dl, pl);
    int dh[1] = {size > 1 ? size - 1 : 1}; /* fewer grid points than ranks */
    cart(1, dh, p1);
    graph();
    dist_adjacent();
    dist_general();
    return mtest_finish();
}
