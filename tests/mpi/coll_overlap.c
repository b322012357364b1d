/* coll_overlap.c: nonblocking collectives overlapped with point-to-point traffic and with each
 * other (MPI-4.1 §6.12): several collectives outstanding on one communicator and on a dup,
 * completed together with point-to-point requests by MPI_Waitall, MPI_Waitany and
 * MPI_Testall loops; a blocking collective and blocking point-to-point between a nonblocking
 * collective's start and its completion, in patterns where one member completes its request
 * before the others have polled theirs. */
#include <string.h>

#include "mtest.h"

#define K 8
#define LEN 5000

int main(int argc, char **argv)
{
    int rank, size, flag;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    for (int round = 0; round < 20; round++) {
        MPI_Request req[K + 2];
        int sums[K], one[K], bc[LEN], token = rank * 1000 + round, got = -1;
        int *gath = malloc((size_t)size * 2 * sizeof(int));
        int *a2a_in = malloc((size_t)size * sizeof(int)), *a2a_out = malloc((size_t)size * sizeof(int));
        int mine[2] = {rank, round};
        /* Point-to-point ring posted first, collectives after: all outstanding together. */
        CHECK(MPI_Irecv(&got, 1, MPI_INT, left, round, MPI_COMM_WORLD, &req[0]) == MPI_SUCCESS);
        CHECK(MPI_Isend(&token, 1, MPI_INT, right, round, MPI_COMM_WORLD, &req[1]) ==
              MPI_SUCCESS);
        for (int i = 0; i < K - 3; i++) {
            one[i] = rank + i;
            CHECK(MPI_Iallreduce(&one[i], &sums[i], 1, MPI_INT, MPI_SUM,
                                 i % 2 ? dup : MPI_COMM_WORLD, &req[2 + i]) == MPI_SUCCESS);
        }
        for (int i = 0; i < LEN; i++)
            bc[i] = rank == round % size ? i + round : -1;
        CHECK(MPI_Ibcast(bc, LEN, MPI_INT, round % size, MPI_COMM_WORLD, &req[K - 1]) ==
              MPI_SUCCESS);
        CHECK(MPI_Igather(mine, 2, MPI_INT, gath, 2, MPI_INT, (round + 1) % size, dup,
                          &req[K]) == MPI_SUCCESS);
        for (int j = 0; j < size; j++)
            a2a_in[j] = rank * size + j;
        CHECK(MPI_Ialltoall(a2a_in, 1, MPI_INT, a2a_out, 1, MPI_INT, MPI_COMM_WORLD,
                            &req[K + 1]) == MPI_SUCCESS);

        /* A blocking collective and blocking point-to-point in between. */
        int s = 0;
        CHECK(MPI_Allreduce(&rank, &s, 1, MPI_INT, MPI_SUM, dup) == MPI_SUCCESS);
        CHECK(s == size * (size - 1) / 2);
        int x = rank, y = -1;
        CHECK(MPI_Sendrecv(&x, 1, MPI_INT, left, 99, &y, 1, MPI_INT, right, 99, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(y == right);

        switch (round % 3) {
        case 0:
            CHECK(MPI_Waitall(K + 2, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
            break;
        case 1:
            for (int done = 0; done < K + 2; done++) {
                int idx;
                CHECK(MPI_Waitany(K + 2, req, &idx, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            }
            break;
        default:
            do
                CHECK(MPI_Testall(K + 2, req, &flag, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
            while (!flag);
            break;
        }
        for (int i = 0; i < K + 2; i++)
            CHECK(req[i] == MPI_REQUEST_NULL);
        CHECK(got == left * 1000 + round);
        for (int i = 0; i < K - 3; i++)
            CHECK(sums[i] == size * (size - 1) / 2 + size * i);
        for (int i = 0; i < LEN; i++)
            if (bc[i] != i + round) {
                CHECK(bc[i] == i + round);
                break;
            }
        if (rank == (round + 1) % size)
            for (int j = 0; j < size; j++)
                CHECK(gath[2 * j] == j && gath[2 * j + 1] == round);
        for (int j = 0; j < size; j++)
            CHECK(a2a_out[j] == j * size + rank);
        free(gath);
        free(a2a_in);
        free(a2a_out);
    }

    /* One member completes before the others have polled: rank 0 waits, then sends; the
     * others receive first and only then wait (legal: completion needs no progress call by
     * the others once they have started the collective). */
    MPI_Request r;
    int v = rank, sum = 0, msg = 0;
    CHECK(MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r) == MPI_SUCCESS);
    if (rank == 0) {
        CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        for (int i = 1; i < size; i++)
            CHECK(MPI_Send(&sum, 1, MPI_INT, i, 7, MPI_COMM_WORLD) == MPI_SUCCESS);
    } else {
        CHECK(MPI_Recv(&msg, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(msg == sum);
    }
    CHECK(sum == size * (size - 1) / 2);

    MPI_Comm_free(&dup);
    return mtest_finish();
}
