/* coll_bcast.c: MPI_Bcast and MPI_Ibcast from every root, with MPI_INT, MPI_DOUBLE and a
 * non-contiguous vector type (the root and the others may describe the same data with
 * different types of the same signature), counts 0, small and large (the library switches
 * from a snapshot to direct copies with size), on MPI_COMM_WORLD, a dup and a reordering
 * split; several Ibcasts outstanding at once complete in any order. */
#include <string.h>

#include "mtest.h"

#define GAP (-99)

static int wrank;
static MPI_Datatype vec; /* ints 0 and 2 of every 3 */

static int value(int root, int k, int round)
{
    return root * 1000003 + k * 7 + round;
}

/* The buffer of `ints` ints of data, as MPI_INT or as vec (then with gaps). */
static int *make(int use_vec, int ints)
{
    int n = use_vec ? ints / 2 * 3 + 1 : ints + 1;
    int *b = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        b[i] = GAP;
    return b;
}

static int at(int use_vec, int k)
{
    return use_vec ? (k / 2) * 3 + (k % 2) * 2 : k;
}

static void one(MPI_Comm comm, int root, int ints, int root_vec, int other_vec, int nb,
                int round)
{
    int me;
    MPI_Comm_rank(comm, &me);
    int use_vec = me == root ? root_vec : other_vec;
    int *b = make(use_vec, ints);
    if (me == root)
        for (int k = 0; k < ints; k++)
            b[at(use_vec, k)] = value(root, k, round);
    int count = use_vec ? ints / 2 : ints;
    MPI_Datatype dt = use_vec ? vec : MPI_INT;
    if (nb) {
        MPI_Request req;
        CHECK(MPI_Ibcast(b, count, dt, root, comm, &req) == MPI_SUCCESS);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    } else {
        CHECK(MPI_Bcast(b, count, dt, root, comm) == MPI_SUCCESS);
    }
    for (int k = 0; k < ints; k++) {
        if (b[at(use_vec, k)] != value(root, k, round)) {
            fprintf(stderr, "rank %d: bcast root %d ints %d vec %d/%d nb %d: [%d] = %d\n",
                    wrank, root, ints, root_vec, other_vec, nb, k, b[at(use_vec, k)]);
            CHECK(0);
            break;
        }
        if (use_vec && k % 2 == 0 && b[at(1, k) + 1] != GAP) {
            CHECK(0);
            break;
        }
    }
    free(b);
}

static void doubles(MPI_Comm comm, int root, int count, int nb)
{
    int me;
    MPI_Comm_rank(comm, &me);
    double *d = malloc((size_t)(count + 1) * sizeof(double));
    for (int k = 0; k < count; k++)
        d[k] = me == root ? k * 0.5 + root : -1.0;
    if (nb) {
        MPI_Request req;
        CHECK(MPI_Ibcast(d, count, MPI_DOUBLE, root, comm, &req) == MPI_SUCCESS);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    } else {
        CHECK(MPI_Bcast(d, count, MPI_DOUBLE, root, comm) == MPI_SUCCESS);
    }
    for (int k = 0; k < count; k++)
        if (d[k] != k * 0.5 + root) {
            CHECK(d[k] == k * 0.5 + root);
            break;
        }
    free(d);
}

/* Several Ibcasts from different roots outstanding at once, completed in reverse order. */
static void outstanding(MPI_Comm comm)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    enum { K = 6, LEN = 20000 };
    MPI_Request req[K];
    int *b[K];
    for (int i = 0; i < K; i++) {
        int root = i % n, len = i % 2 ? LEN : 3;
        b[i] = malloc(LEN * sizeof(int));
        for (int k = 0; k < len; k++)
            b[i][k] = me == root ? value(root, k, i) : 0;
        CHECK(MPI_Ibcast(b[i], len, MPI_INT, root, comm, &req[i]) == MPI_SUCCESS);
    }
    for (int i = K - 1; i >= 0; i--)
        CHECK(MPI_Wait(&req[i], MPI_STATUS_IGNORE) == MPI_SUCCESS);
    for (int i = 0; i < K; i++) {
        int root = i % n, len = i % 2 ? LEN : 3;
        for (int k = 0; k < len; k++)
            if (b[i][k] != value(root, k, i)) {
                CHECK(b[i][k] == value(root, k, i));
                break;
            }
        free(b[i]);
    }
}

static void run_all(MPI_Comm comm)
{
    int n, round = 0;
    MPI_Comm_size(comm, &n);
    const int sizes[] = {0, 2, 10, 40000};
    for (int root = 0; root < n; root += (n > 4 ? n / 3 : 1))
        for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            for (int nb = 0; nb < 2; nb++) {
                one(comm, root, sizes[s], 0, 0, nb, round++);
                one(comm, root, sizes[s], 1, 0, nb, round++);
                one(comm, root, sizes[s], 0, 1, nb, round++);
                one(comm, root, sizes[s], 1, 1, nb, round++);
                doubles(comm, root, sizes[s], nb);
            }
    outstanding(comm);
}

int main(int argc, char **argv)
{
    int size;
    MPI_Comm dup, split;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, size - wrank, &split);
    run_all(MPI_COMM_WORLD);
    run_all(dup);
    run_all(split);
    run_all(MPI_COMM_SELF);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
    MPI_Type_free(&vec);
    return mtest_finish();
}
