/* comm_create_idup.c: MPI_Comm_idup (MPI-4.1 §7.4.2) overlapped with point-to-point traffic:
 * several idups outstanding at once with sends and receives in flight, completion through
 * MPI_Waitall, MPI_Test loops (one rank late, so the others really poll) and MPI_Waitany; the
 * new communicators are distinct contexts that work; the handle is valid at completion; the
 * error handler is inherited; bad input gets its class. */
#include <unistd.h>

#include "mtest.h"

static int cls(int err)
{
    int c = err;
    MPI_Error_class(err, &c);
    return c;
}

static void check_works(MPI_Comm comm, int size)
{
    int one = 1, sum = 0;
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS && sum == size);
}

int main(int argc, char **argv)
{
    int rank, size, left, right, in = -1, out, flag, idx;
    MPI_Comm d1 = MPI_COMM_NULL, d2 = MPI_COMM_NULL, d3, half, hd;
    MPI_Request reqs[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;

    /* Two idups and a ring exchange in flight together. */
    out = rank;
    CHECK(MPI_Irecv(&in, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &reqs[0]) == MPI_SUCCESS);
    CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &d1, &reqs[1]) == MPI_SUCCESS);
    CHECK(MPI_Isend(&out, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &reqs[2]) == MPI_SUCCESS);
    CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &d2, &reqs[3]) == MPI_SUCCESS);
    CHECK(MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    CHECK(in == left);
    CHECK(d1 != MPI_COMM_NULL && d2 != MPI_COMM_NULL && d1 != d2);
    check_works(d1, size);
    check_works(d2, size);
    /* Separate contexts: a message on d1 is not received on d2 or WORLD. */
    out = 100 + rank;
    CHECK(MPI_Send(&out, 1, MPI_INT, right, 0, d1) == MPI_SUCCESS || size == 1);
    if (size > 1) {
        CHECK(MPI_Iprobe(left, 0, d2, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag);
        CHECK(MPI_Recv(&in, 1, MPI_INT, left, 0, d1, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
              in == 100 + left);
    }

    /* A Test loop while rank 0 arrives late; point-to-point keeps flowing meanwhile. */
    if (rank == 0)
        usleep(20000);
    CHECK(MPI_Comm_idup(d1, &d3, &reqs[0]) == MPI_SUCCESS);
    do {
        CHECK(MPI_Test(&reqs[0], &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    } while (!flag);
    CHECK(reqs[0] == MPI_REQUEST_NULL);
    check_works(d3, size);
    MPI_Comm_free(&d3);

    /* Idups on different communicators, completed by MPI_Waitany. */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN); /* inherited by its idup */
    CHECK(MPI_Comm_idup(half, &hd, &reqs[0]) == MPI_SUCCESS);
    CHECK(MPI_Comm_idup(d2, &d3, &reqs[1]) == MPI_SUCCESS);
    for (int i = 0; i < 2; i++)
        CHECK(MPI_Waitany(2, reqs, &idx, MPI_STATUS_IGNORE) == MPI_SUCCESS && idx >= 0);
    check_works(hd, rank % 2 ? size / 2 : (size + 1) / 2);
    check_works(d3, size);
    MPI_Errhandler got;
    CHECK(MPI_Comm_get_errhandler(hd, &got) == MPI_SUCCESS && got == MPI_ERRORS_RETURN);
    MPI_Comm_free(&hd);
    MPI_Comm_free(&d3);
    MPI_Comm_free(&half);

    /* Many in flight on one communicator, completed in reverse order. */
    enum { N = 8 };
    MPI_Comm many[N];
    MPI_Request mr[N];
    for (int i = 0; i < N; i++)
        CHECK(MPI_Comm_idup(d1, &many[i], &mr[i]) == MPI_SUCCESS);
    for (int i = N - 1; i >= 0; i--)
        CHECK(MPI_Wait(&mr[i], MPI_STATUS_IGNORE) == MPI_SUCCESS);
    for (int i = 0; i < N; i++) {
        check_works(many[i], size);
        MPI_Comm_free(&many[i]);
    }

    /* Bad input. */
    CHECK(cls(MPI_Comm_idup(MPI_COMM_NULL, &d3, &reqs[0])) == MPI_ERR_COMM);
    CHECK(cls(MPI_Comm_idup(d1, &d3, NULL)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Comm_idup(d1, NULL, &reqs[0])) == MPI_ERR_ARG);
    MPI_Comm_free(&d1);
    MPI_Comm_free(&d2);
    return mtest_finish();
}
