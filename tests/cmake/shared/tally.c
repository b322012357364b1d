/* tally.c: a rank's running total, kept in the library's static storage. */
#include <mpi.h>

static int total;

int tally_add(int v)
{
    total += v;
    return total;
}

int tally_global(void)
{
    int sum = 0;
    MPI_Allreduce(&total, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return sum;
}
