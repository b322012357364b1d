/*
 * coll_crowd_fail.c: MPI_Barrier and small MPI_Allreduce on a communicator with more members
 * than CPUs (mini_mpi/coll/crowd.c, forced at every size with MINI_MPI_COLL_FAST_MAX=1 in the
 * testlist) after a member died. The last rank dies (raise(SIGKILL)) in the middle of a run of
 * collectives; every later one must fail with MPI_ERR_PROC_FAILED at every survivor, however
 * far the fast survivors run ahead of the slow ones (their arrivals must not complete a
 * collective the dead rank never reached). The shrunken communicator then gives exact results.
 */
#include <mpi-ext.h>
#include <signal.h>

#include "mtest.h"

#define ROUNDS_BEFORE 50
#define ROUNDS_AFTER 200

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int victim = size - 1;

    for (int i = 0; i < ROUNDS_BEFORE; i++) {
        long v = rank + i, sum = -1;
        CHECK(MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
        CHECK(sum == (long)size * i + (long)size * (size - 1) / 2);
        CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
    }
    if (rank == victim)
        raise(SIGKILL);

    /* Survivors: uneven work between the collectives, so that some run ahead. */
    int succeeded = 0;
    for (int i = 0; i < ROUNDS_AFTER; i++) {
        long v = 1, sum = -1;
        if (rank % 3 == 1)
            for (volatile int k = 0; k < 2000 * (i % 5); k++)
                ;
        succeeded += MPI_Barrier(MPI_COMM_WORLD) != MPI_ERR_PROC_FAILED;
        succeeded += MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD) !=
                     MPI_ERR_PROC_FAILED;
    }
    if (succeeded)
        fprintf(stderr, "rank %d: %d collectives without the dead rank did not fail\n", rank,
                succeeded);
    CHECK(succeeded == 0);

    MPI_Comm shrunk, dup;
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk) == MPI_SUCCESS);
    CHECK(MPI_Comm_dup(shrunk, &dup) == MPI_SUCCESS);
    int srank, ssize;
    MPI_Comm_rank(shrunk, &srank);
    MPI_Comm_size(shrunk, &ssize);
    CHECK(ssize == size - 1 && srank == rank);
    for (int i = 0; i < ROUNDS_AFTER; i++) {
        MPI_Comm c = i % 2 ? dup : shrunk;
        double v = srank * 0.5 + i, sum = -1;
        int mx = -1;
        CHECK(MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, c) == MPI_SUCCESS);
        CHECK(sum == ssize * (double)i + 0.5 * ssize * (ssize - 1) / 2);
        CHECK(MPI_Allreduce(&srank, &mx, 1, MPI_INT, MPI_MAX, c) == MPI_SUCCESS);
        CHECK(mx == ssize - 1);
        CHECK(MPI_Barrier(c) == MPI_SUCCESS);
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&shrunk);
    return mtest_finish();
}
