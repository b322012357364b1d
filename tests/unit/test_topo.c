/*
 * test_topo.c: unit tests of the pure parts of the topology subsystem (mini_mpi/topo/):
 * MPI_Dims_create's search (dims.c), Cartesian arithmetic and neighbour tables (cart.c), and
 * the pairing of graph edges (object.c). No world of ranks is needed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "topo/topo.h"

static void dims(int n, int nd, const int *in, const int *want)
{
    int d[8];
    memcpy(d, in, (size_t)nd * sizeof(int));
    assert_int_equal(mmpi_dims_create(n, nd, d), MPI_SUCCESS);
    assert_memory_equal(d, want, (size_t)nd * sizeof(int));
}

static void dims_create_balances_like_mpich(void **state)
{
    (void)state;
    /* Results of Debian's MPICH 4.0. */
    dims(12, 2, (int[]){0, 0}, (int[]){4, 3});
    dims(16, 3, (int[]){0, 0, 0}, (int[]){4, 2, 2});
    dims(30, 4, (int[]){0, 0, 0, 0}, (int[]){5, 3, 2, 1});
    dims(256, 3, (int[]){0, 0, 0}, (int[]){8, 8, 4});
    dims(360, 3, (int[]){0, 0, 0}, (int[]){10, 6, 6}); /* not 9x8x5: same spread */
    dims(7, 2, (int[]){0, 0}, (int[]){7, 1});
    dims(1, 3, (int[]){0, 0, 0}, (int[]){1, 1, 1});
    dims(120, 4, (int[]){3, 0, 2, 0}, (int[]){3, 5, 2, 4});
    dims(24, 3, (int[]){2, 3, 4}, (int[]){2, 3, 4});
}

static void dims_create_errors_leave_dims(void **state)
{
    (void)state;
    int d[3] = {2, 0, 0}, neg[2] = {0, -2};
    assert_int_equal(mmpi_dims_create(7, 3, d), MPI_ERR_DIMS);
    assert_int_equal(d[1], 0);
    assert_int_equal(mmpi_dims_create(6, 2, neg), MPI_ERR_DIMS);
    assert_int_equal(mmpi_dims_create(0, 2, d), MPI_ERR_ARG);
    int all[2] = {2, 3};
    assert_int_equal(mmpi_dims_create(12, 2, all), MPI_ERR_DIMS);
    assert_int_equal(mmpi_dims_create(6, 2, all), MPI_SUCCESS);
}

static void cart_arithmetic_round_trips(void **state)
{
    (void)state;
    const int d[3] = {3, 4, 2}, open[3] = {0, 0, 0}, per[3] = {1, 0, 1};
    int c[3], s, t;
    for (int r = 0; r < 24; r++) {
        mmpi_cart_coords(3, d, r, c);
        assert_int_equal(c[0] * 8 + c[1] * 2 + c[2], r); /* row-major */
        assert_int_equal(mmpi_cart_rank(3, d, open, c), r);
    }
    assert_int_equal(mmpi_cart_rank(3, d, open, (int[]){3, 0, 0}), -1);
    assert_int_equal(mmpi_cart_rank(3, d, per, (int[]){3, 0, 0}), 0);
    assert_int_equal(mmpi_cart_rank(3, d, per, (int[]){-1, 0, -3}), 2 * 8 + 1);
    assert_int_equal(mmpi_cart_rank(3, d, per, (int[]){0, 4, 0}), -1);
    mmpi_cart_shift(3, d, per, 0, 0, 1, &s, &t); /* periodic: wraps */
    assert_int_equal(s, 16);
    assert_int_equal(t, 8);
    mmpi_cart_shift(3, d, per, 0, 1, 1, &s, &t); /* open: off the edge */
    assert_int_equal(s, MPI_PROC_NULL);
    assert_int_equal(t, 2);
    mmpi_cart_shift(3, d, per, 0, 2, 5, &s, &t); /* displacement beyond the extent */
    assert_int_equal(s, 1);
    assert_int_equal(t, 1);
    mmpi_cart_shift(3, d, open, 0, 0, -7, &s, &t);
    assert_int_equal(s, MPI_PROC_NULL);
    assert_int_equal(t, MPI_PROC_NULL);
}

static void cart_neighbourhoods_pair_opposite_blocks(void **state)
{
    (void)state;
    /* A periodic ring of 2: both neighbours are the other process; block 0 (sent towards -1)
     * must land in block 1 (received from +1) and conversely (MPI-4.1 §8.6). */
    struct mmpi_topo *t = mmpi_cart_topo_new(1, (int[]){2}, (int[]){1});
    assert_int_equal(t->size, 2);
    assert_int_equal(t->in[0], 1);
    assert_int_equal(t->in[1], 1);
    assert_int_equal(t->in_match[0], 1);
    assert_int_equal(t->in_match[1], 0);
    mmpi_topo_release(t);
    /* Open 2x3: corner 0 has no -1 neighbours. */
    t = mmpi_cart_topo_new(2, (int[]){2, 3}, (int[]){0, 0});
    assert_int_equal(mmpi_topo_indegree(t, 0), 4);
    assert_int_equal(t->in[0], MPI_PROC_NULL);
    assert_int_equal(t->in[1], 3);
    assert_int_equal(t->in[2], MPI_PROC_NULL);
    assert_int_equal(t->in[3], 1);
    assert_int_equal(t->in_match[0], -1);
    assert_int_equal(t->in_match[3], 2);
    mmpi_topo_release(t);
    /* Zero dimensions: one process, no neighbours. */
    t = mmpi_cart_topo_new(0, NULL, NULL);
    assert_int_equal(t->size, 1);
    assert_int_equal(mmpi_topo_outdegree(t, 0), 0);
    mmpi_topo_release(t);
}

/* A graph topology from per-rank lists (n <= 4, degree <= 4). */
static struct mmpi_topo *graph(int n, const int in[][5], const int out[][5])
{
    struct mmpi_topo *t = mmpi_topo_new(MPI_DIST_GRAPH, n);
    for (int r = 0; r < n; r++) {
        t->in_off[r + 1] = t->in_off[r] + in[r][0];
        t->out_off[r + 1] = t->out_off[r] + out[r][0];
    }
    mmpi_topo_alloc_edges(t);
    for (int r = 0; r < n; r++) {
        memcpy(t->in + t->in_off[r], in[r] + 1, (size_t)in[r][0] * sizeof(int));
        memcpy(t->out + t->out_off[r], out[r] + 1, (size_t)out[r][0] * sizeof(int));
    }
    mmpi_topo_match_edges(t);
    return t;
}

static void graph_edges_pair_in_order(void **state)
{
    (void)state;
    /* 0 sends to 1 twice and to itself; 1 lists 0 twice among its sources, 0 lists itself.
     * The k-th edge 0 -> 1 (out slots 0 and 2) feeds the k-th occurrence of 0 in 1's list. */
    const int in[2][5] = {{1, 0}, {3, 0, 1, 0}}, out[2][5] = {{3, 1, 0, 1}, {1, 1}};
    struct mmpi_topo *t = graph(2, in, out);
    assert_true(t->consistent);
    assert_int_equal(t->in_match[0], 1);               /* 0 <- 0: its slot 1 */
    assert_int_equal(t->in_match[t->in_off[1]], 0);     /* 1 <- 0, first: slot 0 */
    assert_int_equal(t->in_match[t->in_off[1] + 1], 0); /* 1 <- 1: its slot 0 */
    assert_int_equal(t->in_match[t->in_off[1] + 2], 2); /* 1 <- 0, second: slot 2 */
    mmpi_topo_release(t);
    /* Inconsistent: 1 expects something from 0 that 0 does not send. */
    const int in2[2][5] = {{0}, {1, 0}}, out2[2][5] = {{0}, {0}};
    t = graph(2, in2, out2);
    assert_false(t->consistent);
    mmpi_topo_release(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dims_create_balances_like_mpich),
        cmocka_unit_test(dims_create_errors_leave_dims),
        cmocka_unit_test(cart_arithmetic_round_trips),
        cmocka_unit_test(cart_neighbourhoods_pair_opposite_blocks),
        cmocka_unit_test(graph_edges_pair_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
