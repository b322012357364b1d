/* topo_cart.c: Cartesian topologies (MPI-4.1 §8.5.1, §8.5.5-8.5.8) at any size: grids of 1 to
 * 3 dimensions, periodic or not, from MPI_Dims_create; Cart_get/Cartdim_get/Topo_test;
 * Cart_coords <-> Cart_rank round trips for every rank, wrap-around in periodic dimensions and
 * MPI_ERR_ARG off a non-periodic one; Cart_shift by several displacements against coordinates
 * computed here; MPI_Comm_dup keeps the topology and MPI_Comm_split drops it; Cart_sub
 * (membership checked with an Allreduce of world ranks); Cart_map; a zero-dimensional grid
 * and a grid smaller than the communicator. */
#include <string.h>

#include "mtest.h"

static int rank, size;

static void coords_of(int nd, const int *dims, int r, int *c)
{
    for (int d = nd - 1; d >= 0; d--) {
        c[d] = r % dims[d];
        r /= dims[d];
    }
}

/* Rank at c (wrapped where periodic), or MPI_PROC_NULL off the grid. */
static int rank_at(int nd, const int *dims, const int *periods, const int *c)
{
    int r = 0;
    for (int d = 0; d < nd; d++) {
        int x = c[d];
        if (x < 0 || x >= dims[d]) {
            if (!periods[d])
                return MPI_PROC_NULL;
            x = ((x % dims[d]) + dims[d]) % dims[d];
        }
        r = r * dims[d] + x;
    }
    return r;
}

static void check_sub(MPI_Comm comm, int nd, const int *dims, const int *periods,
                      const int *remain)
{
    MPI_Comm sub;
    int c[3], sd[3], sp[3], sc[3], kept = 0, subsize = 1, subrank = 0, n, r, status;
    CHECK(MPI_Cart_sub(comm, remain, &sub) == MPI_SUCCESS);
    coords_of(nd, dims, rank, c);
    for (int d = 0; d < nd; d++)
        if (remain[d]) {
            subsize *= dims[d];
            subrank = subrank * dims[d] + c[d];
            kept++;
        }
    MPI_Comm_size(sub, &n);
    MPI_Comm_rank(sub, &r);
    CHECK(n == subsize && r == subrank);
    CHECK(MPI_Topo_test(sub, &status) == MPI_SUCCESS && status == MPI_CART);
    CHECK(MPI_Cartdim_get(sub, &n) == MPI_SUCCESS && n == kept);
    CHECK(MPI_Cart_get(sub, 3, sd, sp, sc) == MPI_SUCCESS);
    for (int d = 0, k = 0; d < nd; d++)
        if (remain[d]) {
            CHECK(sd[k] == dims[d] && sp[k] == periods[d] && sc[k] == c[d]);
            k++;
        }
    /* The members: every grid point that agrees with mine on the dropped coordinates. */
    int want = 0, got = -1, cc[3];
    for (int x = 0; x < size && x < 1000; x++) {
        int total = 1;
        for (int d = 0; d < nd; d++)
            total *= dims[d];
        if (x >= total)
            break;
        coords_of(nd, dims, x, cc);
        int same = 1;
        for (int d = 0; d < nd; d++)
            same &= remain[d] || cc[d] == c[d];
        want += same ? x : 0;
    }
    CHECK(MPI_Allreduce(&rank, &got, 1, MPI_INT, MPI_SUM, sub) == MPI_SUCCESS && got == want);
    MPI_Comm_free(&sub);
}

static void grid(int nd, const int *periods)
{
    int dims[3] = {0, 0, 0}, d2[3], p2[3], c2[3], c[3], cc[3], r, n, status;
    MPI_Comm comm, dup, split;
    CHECK(MPI_Dims_create(size, nd, dims) == MPI_SUCCESS);
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 1, &comm) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &r);
    CHECK(r == rank); /* reorder is allowed to keep ranks, and does here */
    CHECK(MPI_Topo_test(comm, &status) == MPI_SUCCESS && status == MPI_CART);
    CHECK(MPI_Cartdim_get(comm, &n) == MPI_SUCCESS && n == nd);
    CHECK(MPI_Cart_get(comm, 3, d2, p2, c2) == MPI_SUCCESS);
    coords_of(nd, dims, rank, c);
    for (int d = 0; d < nd; d++)
        CHECK(d2[d] == dims[d] && !!p2[d] == !!periods[d] && c2[d] == c[d]);

    for (int x = 0; x < size; x++) {
        CHECK(MPI_Cart_coords(comm, x, nd, cc) == MPI_SUCCESS);
        coords_of(nd, dims, x, c);
        CHECK(memcmp(c, cc, (size_t)nd * sizeof(int)) == 0);
        CHECK(MPI_Cart_rank(comm, cc, &r) == MPI_SUCCESS && r == x);
        for (int d = 0; d < nd; d++) {
            int save = cc[d];
            cc[d] = save + 2 * dims[d];
            int want = rank_at(nd, dims, periods, cc), e = MPI_Cart_rank(comm, cc, &r);
            if (want == MPI_PROC_NULL)
                CHECK(e == MPI_ERR_ARG);
            else
                CHECK(e == MPI_SUCCESS && r == x);
            cc[d] = -1;
            want = rank_at(nd, dims, periods, cc);
            e = MPI_Cart_rank(comm, cc, &r);
            CHECK(want == MPI_PROC_NULL ? e == MPI_ERR_ARG : e == MPI_SUCCESS && r == want);
            cc[d] = save;
        }
    }
    coords_of(nd, dims, rank, c);
    for (int d = 0; d < nd; d++)
        for (int disp = -3; disp <= 3; disp++) {
            int src, dst;
            CHECK(MPI_Cart_shift(comm, d, disp, &src, &dst) == MPI_SUCCESS);
            memcpy(cc, c, sizeof(cc));
            cc[d] = c[d] + disp;
            CHECK(dst == rank_at(nd, dims, periods, cc));
            cc[d] = c[d] - disp;
            CHECK(src == rank_at(nd, dims, periods, cc));
        }

    /* A dup keeps the topology; a split does not. */
    CHECK(MPI_Comm_dup(comm, &dup) == MPI_SUCCESS);
    CHECK(MPI_Topo_test(dup, &status) == MPI_SUCCESS && status == MPI_CART);
    CHECK(MPI_Cart_get(dup, 3, d2, p2, c2) == MPI_SUCCESS && d2[0] == dims[0]);
    CHECK(MPI_Comm_split(comm, 0, rank, &split) == MPI_SUCCESS);
    CHECK(MPI_Topo_test(split, &status) == MPI_SUCCESS && status == MPI_UNDEFINED);
    MPI_Comm_free(&split);
    MPI_Comm_free(&comm); /* the dup's topology outlives the original */
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    CHECK(MPI_Cartdim_get(dup, &n) == MPI_SUCCESS && n == nd);

    int remain[3] = {0, 1, 0};
    if (nd >= 2)
        check_sub(dup, nd, dims, periods, remain);
    int keep_all[3] = {1, 1, 1}, keep_none[3] = {0, 0, 0}, alt[3] = {1, 0, 1};
    check_sub(dup, nd, dims, periods, keep_all);
    check_sub(dup, nd, dims, periods, keep_none);
    if (nd == 3)
        check_sub(dup, nd, dims, periods, alt);
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    int r, n, status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    CHECK(MPI_Topo_test(MPI_COMM_WORLD, &status) == MPI_SUCCESS && status == MPI_UNDEFINED);
    int periodic[3] = {1, 1, 1}, open[3] = {0, 0, 0}, mixed[3] = {1, 0, 1};
    for (int nd = 1; nd <= 3; nd++) {
        grid(nd, periodic);
        grid(nd, open);
        grid(nd, mixed);
    }

    /* A grid smaller than the communicator: the others get MPI_COMM_NULL. */
    MPI_Comm comm;
    int half[1] = {(size + 1) / 2}, p[1] = {0};
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, half, p, 0, &comm) == MPI_SUCCESS);
    CHECK((comm == MPI_COMM_NULL) == (rank >= half[0]));
    CHECK(MPI_Cart_map(MPI_COMM_WORLD, 1, half, p, &r) == MPI_SUCCESS);
    CHECK(r == (rank < half[0] ? rank : MPI_UNDEFINED));
    if (comm != MPI_COMM_NULL) {
        MPI_Comm_size(comm, &n);
        CHECK(n == half[0]);
        MPI_Comm_free(&comm);
    }

    /* Zero dimensions: one process, no coordinates (§8.5.1). */
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &comm) == MPI_SUCCESS);
    CHECK((comm == MPI_COMM_NULL) == (rank != 0));
    if (comm != MPI_COMM_NULL) {
        MPI_Comm_size(comm, &n);
        CHECK(n == 1);
        CHECK(MPI_Cartdim_get(comm, &n) == MPI_SUCCESS && n == 0);
        CHECK(MPI_Cart_rank(comm, NULL, &r) == MPI_SUCCESS && r == 0);
        MPI_Comm_free(&comm);
    }
    return mtest_finish();
}
