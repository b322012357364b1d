/* hello.c: the smallest MPI program: every rank knows its rank and the world size. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, flag;
    CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && !flag);
    CHECK(MPI_Init(&argc, &argv) == MPI_SUCCESS);
    CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && flag);
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS);
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size) == MPI_SUCCESS);
    CHECK(rank >= 0 && rank < size);
    CHECK(MPI_Comm_rank(MPI_COMM_SELF, &rank) == MPI_SUCCESS && rank == 0);
    CHECK(MPI_Comm_size(MPI_COMM_SELF, &size) == MPI_SUCCESS && size == 1);
    int r = mtest_finish();
    CHECK(MPI_Finalized(&flag) == MPI_SUCCESS && flag);
    return r ? r : mtest_errors;
}
