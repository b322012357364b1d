/*
 * bench/startup.c: MPI_Init and MPI_Finalize, nothing else. bench/run.sh measures the wall time
 * of the whole `mpiexec -n N ./startup` (launcher, N ranks, init, finalize, exit); the line
 * printed here only tells it that the run got through MPI_Init at every rank it was told of.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        printf("STARTED ranks=%d\n", size);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
