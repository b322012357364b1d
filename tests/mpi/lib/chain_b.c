/* chain_b.c: the leaf of a chain of two libraries: it uses MPI and keeps the rank's rank. */
#include <mpi.h>

static int my_rank = -1;
int chain_b_calls;

int chain_b_rank(void)
{
    chain_b_calls++;
    if (my_rank < 0)
        MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    return my_rank;
}
