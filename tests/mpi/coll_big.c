/* coll_big.c: a barrier and allreduce loop at many ranks (the testlist runs it at 1024):
 * everything completes, results are right, and rank 0 reports the time per iteration. Also a
 * few larger collectives (Bcast, Allgather, Allreduce of a vector) at that scale. */
#include "mtest.h"

#define WARMUP 5 /* untimed: the first collectives also pay for the ranks' first page faults */
#define ITER 50

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double t0 = 0;
    for (int i = -WARMUP; i < ITER; i++) {
        if (i == 0)
            t0 = MPI_Wtime();
        double in = rank + i, out = 0;
        CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
        CHECK(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
        CHECK(out == (double)size * (size - 1) / 2 + (double)size * i);
    }
    double t = (MPI_Wtime() - t0) / ITER;
    int v[64], *all = malloc((size_t)size * sizeof(int));
    for (int k = 0; k < 64; k++)
        v[k] = rank == 0 ? k : -1;
    CHECK(MPI_Bcast(v, 64, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(v[63] == 63);
    CHECK(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int j = 0; j < size; j++)
        if (all[j] != j) {
            CHECK(all[j] == j);
            break;
        }
    for (int k = 0; k < 64; k++)
        v[k] = k;
    CHECK(MPI_Allreduce(MPI_IN_PLACE, v, 64, MPI_INT, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(v[10] == 10);
    free(all);
    if (rank == 0)
        printf("coll_big: %d ranks: %.1f us per barrier+allreduce\n", size, t * 1e6);
    return mtest_finish();
}
