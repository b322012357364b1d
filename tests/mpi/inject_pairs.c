/*
 * inject_pairs.c: a plain MPI program (no ULFM, no mini_mpi header) whose every MPI call is
 * traced on stdout, built both here and with another MPI's mpicc to check that
 * MINI_MPI_FAULTS kills the same rank at the same call on both (tests/tools/inject_other_mpi.sh).
 * Ranks 2k and 2k+1 exchange ROUNDS times (MPI_Sendrecv), one pair after the other: rank r >= 2
 * starts once rank r - 2 has finished and sent it a go-ahead (MPI_Send/MPI_Recv), so a pair
 * without the victim has completed its exchanges, untouched, before a later pair's rank dies,
 * whatever the launcher does then. Everyone then meets in MPI_Barrier and MPI_Allreduce. A
 * killed rank's last line is "rank R enters MPI_X #n". Errors are returned (MPI_ERRORS_RETURN)
 * and printed with the call. With the argument `slow` each rank sleeps 2 s before finalizing
 * (for time directives).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define ROUNDS 4

static int rank = -1;

static void trace(const char *what, const char *call, int n)
{
    printf("rank %d %s %s #%d\n", rank, what, call, n);
    fflush(stdout);
}

#define CALL(name, n, ...)                                                            \
    do {                                                                              \
        trace("enters", #name, n);                                                    \
        int rc_ = name(__VA_ARGS__);                                                  \
        if (rc_ != MPI_SUCCESS)                                                       \
            printf("rank %d error %d in %s #%d\n", rank, rc_, #name, n);              \
        else                                                                          \
            trace("left", #name, n);                                                  \
        fflush(stdout);                                                               \
    } while (0)

int main(int argc, char **argv)
{
    int size, out, in, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int partner = rank ^ 1, go = 1;
    if (rank >= 2)
        CALL(MPI_Recv, 1, &go, 1, MPI_INT, rank - 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 1; i <= ROUNDS && partner < size; i++) {
        out = rank * 100 + i;
        CALL(MPI_Sendrecv, i, &out, 1, MPI_INT, partner, i, &in, 1, MPI_INT, partner, i,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank + 2 < size)
        CALL(MPI_Send, 1, &go, 1, MPI_INT, rank + 2, 0, MPI_COMM_WORLD);
    CALL(MPI_Barrier, 1, MPI_COMM_WORLD);
    CALL(MPI_Allreduce, 1, &rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size * (size - 1) / 2)
        printf("rank %d wrong sum %d\n", rank, sum);
    if (argc > 1 && !strcmp(argv[1], "slow"))
        sleep(2);
    CALL(MPI_Finalize, 1);
    if (rank == 0)
        printf(" No Errors\n");
    return 0;
}
