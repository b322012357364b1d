/*
 * coll_nb_progress.c: a nonblocking collective progresses while a member is blocked in another
 * call (MPI-4.1 §6.12: no polling required). Rank 0 starts an MPI_Iallreduce and then blocks
 * in MPI_Recv from rank 1; rank 1 starts its MPI_Iallreduce, completes it with MPI_Wait, and
 * only then sends. Rank 1's wait needs rank 0's part of the data movement (in the direct and
 * shared modes, forced with MINI_MPI_COLL_SNAPSHOT=0, a member reads the others' buffers
 * itself), which must happen inside rank 0's MPI_Recv. Also with an MPI_Ibcast and an
 * MPI_Iallgather (other engine collectives), and with rank 0 blocked in an MPI_Barrier on
 * another communicator that rank 1 joins only after its wait.
 */
#include <stdlib.h>
#include "mtest.h"

#define N 4096

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *in = malloc(N * sizeof(int)), *out = malloc(N * sizeof(int));
    int *all = malloc((size_t)N * size * sizeof(int));
    MPI_Comm other;
    MPI_Comm_dup(MPI_COMM_WORLD, &other);

    for (int round = 0; round < 4; round++) {
        MPI_Request req;
        int token = 0;
        for (int k = 0; k < N; k++) {
            in[k] = rank + k;
            out[k] = -1;
        }
        switch (round) {
        case 0:
        case 3: CHECK(MPI_Iallreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req) == 0);
            break;
        case 1: CHECK(MPI_Ibcast(rank == 1 ? in : out, N, MPI_INT, 1, MPI_COMM_WORLD, &req) == 0);
            break;
        case 2: CHECK(MPI_Iallgather(in, N, MPI_INT, all, N, MPI_INT, MPI_COMM_WORLD, &req) == 0);
            break;
        }
        if (rank == 0) {
            if (round == 3)
                CHECK(MPI_Barrier(other) == MPI_SUCCESS);
            else
                CHECK(MPI_Recv(&token, 1, MPI_INT, 1, round, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE) == MPI_SUCCESS);
            CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        } else {
            CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            if (round == 3)
                CHECK(MPI_Barrier(other) == MPI_SUCCESS);
            else if (rank == 1)
                CHECK(MPI_Send(&round, 1, MPI_INT, 0, round, MPI_COMM_WORLD) == MPI_SUCCESS);
        }
        int wrong = 0;
        for (int k = 0; k < N; k++) {
            if (round == 0 || round == 3)
                wrong += out[k] != size * k + size * (size - 1) / 2;
            else if (round == 1)
                wrong += (rank == 1 ? in[k] : out[k]) != 1 + k;
            else
                for (int r = 0; r < size; r++)
                    wrong += all[r * N + k] != r + k;
        }
        CHECK(wrong == 0);
        if (rank == 0 && round < 3)
            CHECK(token == round);
    }
    MPI_Comm_free(&other);
    free(in);
    free(out);
    free(all);
    return mtest_finish();
}
