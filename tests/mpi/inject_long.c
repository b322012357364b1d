/*
 * inject_long.c: a long run for `kill random ... within` (tests/tools/inject_random_spread.sh):
 * every rank makes the same number of MPI calls, thousands (argument: the number of
 * MPI_Comm_rank calls, default 4000, then one MPI_Barrier), so that where a random death lands
 * can be read from its call index alone. Errors return; each rank that finishes prints
 * "rank R done".
 */
#include <stdio.h>
#include <stdlib.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, me;
    long calls = argc > 1 ? atol(argv[1]) : 4000;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (long i = 0; i < calls; i++)
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
