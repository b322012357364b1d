/*
 * hello.c: the program of the tests/cmake project. Every rank checks that it sees a rank and size
 * consistent with MPI_COMM_WORLD; rank 0 prints "No Errors" (MPICH test convention).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank = -1, size = 0, errs = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 1 || rank < 0 || rank >= size) {
        fprintf(stderr, "rank %d: bad rank or size %d\n", rank, size);
        errs++;
    }
    MPI_Finalize();
    if (rank == 0 && errs == 0)
        printf(" No Errors\n");
    return errs != 0;
}
