/* abort.c: MPI_Abort at rank 1 ends the whole job with its error code (here 7). The other ranks
 * wait long enough that they would otherwise print; nothing else may be printed. */
#include <time.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 7);
    struct timespec ts = {2, 0};
    nanosleep(&ts, NULL);
    printf("rank %d was not aborted\n", rank);
    return mtest_finish();
}
