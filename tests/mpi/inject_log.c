/*
 * inject_log.c: a fixed sequence of MPI calls whose per-rank return codes are printed, one line
 * per call, for the fault-injector tests (tests/tools/inject.sh): which rank died where, and
 * whether every run of the same spec gives the same outcomes. Errors return; after each round a
 * surviving rank acknowledges failures so that the next round's outcomes are well defined.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, v = 0, in;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (argc > 1 && !strcmp(argv[1], "slow"))
        usleep(20000); /* computing, outside MPI: where a timed death finds the rank */
    for (int round = 1; round <= 6; round++) {
        int b = MPI_Barrier(MPI_COMM_WORLD);
        int s = MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, round, &in, 1, MPI_INT,
                             (rank + size - 1) % size, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int flag = 1;
        MPIX_Comm_failure_ack(MPI_COMM_WORLD);
        int a = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
        printf("rank %d round %d barrier %d sendrecv %d agree %d\n", rank, round, b, s, a);
    }
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
