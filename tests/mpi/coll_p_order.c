/* coll_p_order.c: persistent collectives match by the order of their initialization calls,
 * not of their starts (MPI-4.1 §6.13): members start the same requests in different orders,
 * interleaved differently with blocking and nonblocking collectives, over several activations,
 * on MPI_COMM_WORLD and on a split communicator; the results are those of matching by init
 * order. The hint "mpi_assert_strict_persistent_collective_ordering" with starts in one order
 * works too. */
#include "mtest.h"

enum { NREQ = 4, ROUNDS = 5 };

struct persist {
    MPI_Request req[NREQ];
    int bval, sum, gathered[64], mine;
};

/* Initializes, in this order at every member: Bcast from rank 0, Allreduce, Barrier,
 * Allgather. */
static void init_all(struct persist *p, MPI_Comm comm, MPI_Info info)
{
    CHECK(MPI_Bcast_init(&p->bval, 1, MPI_INT, 0, comm, info, &p->req[0]) == MPI_SUCCESS);
    CHECK(MPI_Allreduce_init(&p->mine, &p->sum, 1, MPI_INT, MPI_SUM, comm, info, &p->req[1]) ==
          MPI_SUCCESS);
    CHECK(MPI_Barrier_init(comm, info, &p->req[2]) == MPI_SUCCESS);
    CHECK(MPI_Allgather_init(&p->mine, 1, MPI_INT, p->gathered, 1, MPI_INT, comm, info,
                             &p->req[3]) == MPI_SUCCESS);
}

/* One round: every member starts all four requests, in an order that depends on its rank (a
 * rotation, reversed on odd ranks unless `same_order`), with a blocking Allreduce on world
 * and a nonblocking Ibarrier on comm between its starts, then checks the results. */
static void run_round(struct persist *p, MPI_Comm comm, int round, int same_order)
{
    int rank, size, wsum = 0, one = 1, wsize;
    MPI_Request ib;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    p->mine = rank + round;
    p->bval = rank == 0 ? 100 + round : -1;
    for (int i = 0; i < 64; i++)
        p->gathered[i] = -1;
    for (int k = 0; k < NREQ; k++) {
        int which = same_order ? k : (rank + (rank % 2 ? NREQ - k : k)) % NREQ;
        CHECK(MPI_Start(&p->req[which]) == MPI_SUCCESS);
        if (k == 1)
            CHECK(MPI_Allreduce(&one, &wsum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) ==
                  MPI_SUCCESS && wsum == wsize);
        if (k == 2)
            CHECK(MPI_Ibarrier(comm, &ib) == MPI_SUCCESS);
    }
    CHECK(MPI_Waitall(NREQ, p->req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Wait(&ib, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(p->bval == 100 + round);
    CHECK(p->sum == size * (size - 1) / 2 + size * round);
    for (int i = 0; i < size; i++)
        CHECK(p->gathered[i] == i + round);
}

static void free_all(struct persist *p)
{
    for (int k = 0; k < NREQ; k++)
        CHECK(MPI_Request_free(&p->req[k]) == MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    int rank, size;
    struct persist world, half, strict;
    MPI_Comm sub;
    MPI_Info info;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size > 64) {
        fprintf(stderr, "at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &sub);
    MPI_Comm_set_errhandler(sub, MPI_ERRORS_RETURN);

    /* MPICH's case: a Bcast and a Barrier started in opposite orders. */
    {
        int a = rank == 0 ? 42 : -1;
        MPI_Request r[2];
        MPI_Bcast_init(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
        MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
        CHECK(MPI_Start(&r[rank == 0 ? 0 : 1]) == MPI_SUCCESS);
        CHECK(MPI_Start(&r[rank == 0 ? 1 : 0]) == MPI_SUCCESS);
        CHECK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
        CHECK(a == 42);
        MPI_Request_free(&r[0]);
        MPI_Request_free(&r[1]);
    }

    /* Requests of two communicators initialized interleaved, started in rank-dependent
     * orders. */
    init_all(&world, MPI_COMM_WORLD, MPI_INFO_NULL);
    init_all(&half, sub, MPI_INFO_NULL);
    for (int round = 0; round < ROUNDS; round++) {
        run_round(&half, sub, round, 0);
        run_round(&world, MPI_COMM_WORLD, round, 0);
    }
    free_all(&world);
    free_all(&half);

    /* The strict-ordering hint, honoured by the program. */
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_strict_persistent_collective_ordering", "true");
    init_all(&strict, MPI_COMM_WORLD, info);
    MPI_Info_free(&info);
    for (int round = 0; round < ROUNDS; round++)
        run_round(&strict, MPI_COMM_WORLD, round, 1);
    free_all(&strict);

    MPI_Comm_free(&sub);
    return mtest_finish();
}
