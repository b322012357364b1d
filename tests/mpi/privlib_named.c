/* privlib_named.c: a library that never calls MPI is shared by all ranks, as the README says,
 * unless MINI_MPI_PRIVATE_LIBS names it. The ranks call it one after the other; argument
 * "private": each must get 1; "shared": rank r gets r + 1. */
#include "mtest.h"
#include <string.h>

int nompi_next(void);

int main(int argc, char **argv)
{
    int rank, size, got = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int private_lib = argc > 1 && !strcmp(argv[1], "private");
    for (int turn = 0; turn < size; turn++) {
        if (turn == rank)
            got = nompi_next();
        MPI_Barrier(MPI_COMM_WORLD);
    }
    int expected = private_lib ? 1 : rank + 1;
    if (got != expected) {
        printf("rank %d: nompi_next() = %d, expected %d\n", rank, got, expected);
        mtest_errors++;
    }
    return mtest_finish();
}
