/* topo_errors.c: bad arguments to every topology call give the right error class under
 * MPI_ERRORS_RETURN (MPI-4.1 §8.5, §8.6; classes as MPICH and Open MPI where they agree):
 * MPI_ERR_ARG, MPI_ERR_DIMS, MPI_ERR_RANK, MPI_ERR_COMM, MPI_ERR_TOPOLOGY (a query of the wrong
 * kind, a neighbourhood collective without a topology or on an inconsistent graph),
 * MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_BUFFER; and MPI_ERR_REVOKED for collective calls on a
 * revoked Cartesian communicator, while its local queries still work. Every rank makes the
 * same mistakes, so no collective is left half entered. */
#include "mtest.h"

static int rank, size;

#define EXPECT(call, cls)                                                                   \
    do {                                                                                    \
        int e_ = (call), c_ = e_;                                                           \
        if (e_ != MPI_SUCCESS)                                                              \
            MPI_Error_class(e_, &c_);                                                       \
        if (c_ != (cls))                                                                    \
            fprintf(stderr, "rank %d: %s: class %d, want %d (%s)\n", rank, #call, c_, cls,  \
                    #cls);                                                                  \
        CHECK(c_ == (cls));                                                                 \
    } while (0)

int main(int argc, char **argv)
{
    int r, n, status, s, d, a[4] = {0, 0, 0, 0}, b[4], c3[3];
    MPI_Comm cart, graph, dist, bad;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* MPI_Dims_create */
    EXPECT(MPI_Dims_create(-1, 2, a), MPI_ERR_ARG);
    EXPECT(MPI_Dims_create(0, 2, a), MPI_ERR_ARG);
    EXPECT(MPI_Dims_create(6, -1, a), MPI_ERR_DIMS);
    EXPECT(MPI_Dims_create(6, 2, NULL), MPI_ERR_ARG);
    int neg[2] = {-1, 0}, seven[2] = {2, 0};
    EXPECT(MPI_Dims_create(6, 2, neg), MPI_ERR_DIMS);
    EXPECT(MPI_Dims_create(7, 2, seven), MPI_ERR_DIMS);

    /* MPI_Cart_create */
    int dims[2] = {size, 1}, periods[2] = {0, 1}, zero[2] = {0, 1}, minus[2] = {-1, 1},
        big[2] = {size + 1, 1};
    EXPECT(MPI_Cart_create(MPI_COMM_NULL, 2, dims, periods, 0, &bad), MPI_ERR_COMM);
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, -1, dims, periods, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 2, zero, periods, 0, &bad), MPI_ERR_DIMS);
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 2, minus, periods, 0, &bad), MPI_ERR_DIMS);
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 2, big, periods, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 2, NULL, periods, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Cart_map(MPI_COMM_WORLD, 2, big, periods, &r), MPI_ERR_DIMS);
    EXPECT(MPI_Cart_map(MPI_COMM_WORLD, 2, zero, periods, &r), MPI_ERR_DIMS);
    EXPECT(MPI_Cart_map(MPI_COMM_NULL, 2, dims, periods, &r), MPI_ERR_COMM);

    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart), MPI_SUCCESS);
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    int off[2] = {size, 0}, below[2] = {-1, 0}, wrap[2] = {0, 5};
    EXPECT(MPI_Cart_rank(cart, off, &r), MPI_ERR_ARG);   /* dimension 0 is not periodic */
    EXPECT(MPI_Cart_rank(cart, below, &r), MPI_ERR_ARG);
    EXPECT(MPI_Cart_rank(cart, wrap, &r), MPI_SUCCESS); /* dimension 1 is */
    CHECK(r == 0);
    EXPECT(MPI_Cart_rank(cart, NULL, &r), MPI_ERR_ARG);
    EXPECT(MPI_Cart_coords(cart, size, 2, b), MPI_ERR_RANK);
    EXPECT(MPI_Cart_coords(cart, -1, 2, b), MPI_ERR_RANK);
    EXPECT(MPI_Cart_coords(cart, 0, 1, b), MPI_ERR_ARG);
    EXPECT(MPI_Cart_shift(cart, 2, 1, &s, &d), MPI_ERR_ARG);
    EXPECT(MPI_Cart_shift(cart, -1, 1, &s, &d), MPI_ERR_ARG);
    EXPECT(MPI_Cart_shift(cart, 0, 1, NULL, &d), MPI_ERR_ARG);
    EXPECT(MPI_Cart_get(cart, 1, b, b, b), MPI_ERR_ARG);
    EXPECT(MPI_Cartdim_get(cart, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Cart_sub(cart, NULL, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Cart_sub(cart, a, NULL), MPI_ERR_ARG);

    /* Queries of the wrong kind */
    EXPECT(MPI_Cartdim_get(MPI_COMM_WORLD, &n), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Cart_get(MPI_COMM_WORLD, 2, b, b, b), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Cart_sub(MPI_COMM_WORLD, a, &bad), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &s, &d), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Graphdims_get(cart, &n, &r), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Graph_neighbors_count(cart, 0, &n), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Dist_graph_neighbors_count(cart, &n, &r, &s), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Topo_test(MPI_COMM_NULL, &status), MPI_ERR_COMM);
    EXPECT(MPI_Topo_test(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Cartdim_get(MPI_COMM_NULL, &n), MPI_ERR_COMM);

    /* MPI_Graph_create and its queries */
    int index[1] = {1}, edges[1] = {0}, decreasing[2] = {1, 0}, out_of_range[1] = {1};
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &bad), MPI_ERR_ARG);
    if (size >= 2)
        EXPECT(MPI_Graph_create(MPI_COMM_WORLD, 2, decreasing, edges, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, 1, index, out_of_range, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, 1, NULL, edges, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Graph_map(MPI_COMM_WORLD, size + 1, index, edges, &r), MPI_ERR_ARG);
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &graph), MPI_SUCCESS);
    if (graph != MPI_COMM_NULL) {
        MPI_Comm_set_errhandler(graph, MPI_ERRORS_RETURN);
        EXPECT(MPI_Graph_neighbors_count(graph, 1, &n), MPI_ERR_RANK);
        EXPECT(MPI_Graph_neighbors_count(graph, -1, &n), MPI_ERR_RANK);
        EXPECT(MPI_Graph_neighbors(graph, 0, -1, b), MPI_ERR_ARG);
        EXPECT(MPI_Graph_get(graph, -1, 1, b, b), MPI_ERR_ARG);
        EXPECT(MPI_Cart_coords(graph, 0, 1, b), MPI_ERR_TOPOLOGY);
        EXPECT(MPI_Cart_rank(graph, a, &r), MPI_ERR_TOPOLOGY);
        EXPECT(MPI_Dist_graph_neighbors(graph, 1, b, MPI_UNWEIGHTED, 1, b, MPI_UNWEIGHTED),
               MPI_ERR_TOPOLOGY);
        MPI_Comm_free(&graph);
    }

    /* Distributed graphs */
    int me[1] = {rank}, outside[1] = {size}, w[1] = {1}, negw[1] = {-1}, one[1] = {1},
        minus1[1] = {-1};
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, me, MPI_UNWEIGHTED, 1, me,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, outside, MPI_UNWEIGHTED, 1, me,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &bad), MPI_ERR_RANK);
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, me, NULL, 1, me, w,
                                          MPI_INFO_NULL, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, me, negw, 1, me, w,
                                          MPI_INFO_NULL, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, me, MPI_WEIGHTS_EMPTY, 1, me, w,
                                          MPI_INFO_NULL, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Dist_graph_create(MPI_COMM_WORLD, -1, me, one, me, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, minus1, me, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &bad), MPI_ERR_ARG);
    EXPECT(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, outside, one, me, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &bad), MPI_ERR_RANK);
    EXPECT(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, one, outside, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &bad), MPI_ERR_RANK);
    EXPECT(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, one, me, NULL, MPI_INFO_NULL, 0, &bad),
           MPI_ERR_ARG);
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, me, MPI_UNWEIGHTED, 1, me,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dist),
           MPI_SUCCESS);
    MPI_Comm_set_errhandler(dist, MPI_ERRORS_RETURN);
    EXPECT(MPI_Graph_get(dist, 1, 1, b, b), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Cart_shift(dist, 0, 1, &s, &d), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Dist_graph_neighbors(dist, -1, b, MPI_UNWEIGHTED, 1, b, MPI_UNWEIGHTED),
           MPI_ERR_ARG);

    /* Neighbourhood collectives (dist: a self loop at every rank) */
    int sb[4] = {1, 2, 3, 4}, rb[4], cnt[1] = {1}, dsp[1] = {0};
    MPI_Aint adsp[1] = {0};
    MPI_Datatype types[1] = {MPI_INT}, nulltypes[1] = {MPI_DATATYPE_NULL}, vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec); /* never committed */
    EXPECT(MPI_Neighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_WORLD),
           MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Neighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Neighbor_allgather(sb, -1, MPI_INT, rb, 1, MPI_INT, dist), MPI_ERR_COUNT);
    EXPECT(MPI_Neighbor_allgather(sb, 1, MPI_INT, rb, -1, MPI_INT, dist), MPI_ERR_COUNT);
    EXPECT(MPI_Neighbor_allgather(sb, 1, MPI_DATATYPE_NULL, rb, 1, MPI_INT, dist), MPI_ERR_TYPE);
    EXPECT(MPI_Neighbor_allgather(sb, 1, vec, rb, 1, MPI_INT, dist), MPI_ERR_TYPE);
    EXPECT(MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, rb, 1, MPI_INT, dist),
           MPI_ERR_BUFFER);
    EXPECT(MPI_Neighbor_allgather(sb, 1, MPI_INT, sb, 1, MPI_INT, dist), MPI_ERR_BUFFER);
    EXPECT(MPI_Neighbor_allgather(sb, 1, MPI_INT, NULL, 1, MPI_INT, dist), MPI_ERR_BUFFER);
    EXPECT(MPI_Neighbor_allgatherv(sb, 1, MPI_INT, rb, NULL, dsp, MPI_INT, dist), MPI_ERR_ARG);
    EXPECT(MPI_Neighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_DATATYPE_NULL, dist), MPI_ERR_TYPE);
    EXPECT(MPI_Neighbor_alltoallv(sb, cnt, NULL, MPI_INT, rb, cnt, dsp, MPI_INT, dist),
           MPI_ERR_ARG);
    EXPECT(MPI_Neighbor_alltoallv(sb, minus1, dsp, MPI_INT, rb, cnt, dsp, MPI_INT, dist),
           MPI_ERR_COUNT);
    EXPECT(MPI_Neighbor_alltoallw(sb, cnt, adsp, nulltypes, rb, cnt, adsp, types, dist),
           MPI_ERR_TYPE);
    EXPECT(MPI_Neighbor_alltoallw(sb, cnt, adsp, types, rb, cnt, NULL, types, dist),
           MPI_ERR_ARG);
    EXPECT(MPI_Ineighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, dist, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Ineighbor_alltoall(sb, -1, MPI_INT, rb, 1, MPI_INT, dist, &req), MPI_ERR_COUNT);
    EXPECT(MPI_Ineighbor_alltoallw(sb, cnt, adsp, types, rb, cnt, adsp, types,
                                   MPI_COMM_WORLD, &req), MPI_ERR_TOPOLOGY);
    /* A valid call still works after all that. */
    rb[0] = -1;
    EXPECT(MPI_Neighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, dist), MPI_SUCCESS);
    CHECK(rb[0] == 1);
    MPI_Type_free(&vec);
    MPI_Comm_free(&dist);

    /* An inconsistent graph: every rank expects a message from rank+1 that nobody sends. */
    int next[1] = {(rank + 1) % size};
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, next, MPI_UNWEIGHTED, 0, NULL,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dist),
           MPI_SUCCESS);
    MPI_Comm_set_errhandler(dist, MPI_ERRORS_RETURN);
    EXPECT(MPI_Neighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, dist), MPI_ERR_TOPOLOGY);
    MPI_Comm_free(&dist);

    /* Revoked: collective calls fail, local queries work. Rank 0 revokes; the others may
     * already wait in the collective, which must then fail too. */
    if (rank == 0)
        MPIX_Comm_revoke(cart);
    EXPECT(MPI_Neighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, cart), MPI_ERR_REVOKED);
    EXPECT(MPI_Ineighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, cart, &req), MPI_ERR_REVOKED);
    int keep[2] = {1, 0};
    EXPECT(MPI_Cart_sub(cart, keep, &bad), MPI_ERR_REVOKED);
    EXPECT(MPI_Cart_get(cart, 2, b, b + 2, c3), MPI_SUCCESS);
    CHECK(b[0] == size && c3[0] == rank);
    EXPECT(MPI_Cart_shift(cart, 0, 1, &s, &d), MPI_SUCCESS);
    MPI_Comm_free(&cart);
    return mtest_finish();
}
