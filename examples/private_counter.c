/*
 * private_counter.c: each rank is a thread of one process, yet each has its own globals, as if
 * it were a process of its own. Every rank increments the same global counter once and prints
 * it: under mini_mpi every rank prints 1.
 */
#include <mpi.h>
#include <stdio.h>

int counter; /* one per rank: each rank runs its own copy of the program image */

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    counter++;
    if (counter != 1 || rank == 0 || rank == size - 1)
        printf("rank %d of %d: counter = %d\n", rank, size, counter);
    MPI_Finalize();
    return counter == 1 ? 0 : 1;
}
