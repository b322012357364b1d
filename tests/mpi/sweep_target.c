/*
 * sweep_target.c: a 3-rank program of known structure for the fault sweep test
 * (tests/tools/fault_sweep.sh). Every decision is taken through MPIX_Comm_agree, whose result
 * is the same at every survivor, so where a rank dies decides the outcome exactly:
 *
 *   call  rank 0            rank 1            rank 2
 *    1    MPI_Init          MPI_Init          MPI_Init
 *    2    MPI_Comm_rank     MPI_Comm_rank     MPI_Comm_rank
 *    3    set_errhandler    set_errhandler    set_errhandler
 *    4    MPI_Barrier       MPI_Barrier       MPI_Barrier       setup
 *    5    MPIX_Comm_agree   MPIX_Comm_agree   MPIX_Comm_agree   setup failed: exit status 3
 *    6                      MPI_Recv from 2   MPI_Ssend to 1    rank 2's data
 *    6/7  MPIX_Comm_agree   MPIX_Comm_agree   MPIX_Comm_agree   data lost: wrong result
 *    7/8  MPI_Barrier       MPI_Barrier       MPI_Barrier       work
 *    8/9  MPIX_Comm_agree   MPIX_Comm_agree   MPIX_Comm_agree   a rank died: shrink, go on
 *    9/10 MPI_Finalize      MPI_Finalize      MPI_Finalize
 *
 * So a death at calls 1-4 of any rank fails the job with status 3; rank 2 dying at calls 5-6
 * (before its data reached rank 1) makes the program print "wrong result" (status 0, no
 * "No Errors"); every other death is recovered from and the lowest surviving rank prints
 * "No Errors". The recovery path makes extra calls (MPIX_Comm_shrink, MPI_Comm_rank,
 * MPI_Comm_free) that a fault-free run does not count.
 *
 * Argument (what the survivors do when rank 2's data was lost, to exercise the sweep's other
 * outcome classes): `hang`: ranks 0 and 1 each wait for the other (a user-code deadlock);
 * `spin`: ranks 0 and 1 compute forever (only a watchdog or a timeout ends that); `crash`:
 * ranks 0 and 1 call abort() (every rank then died of a signal: status 134).
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DATA 42

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int rank, ok, value = -1, lost = 0;
    MPI_Comm comm = MPI_COMM_WORLD;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Setup: a death here cannot be recovered from. */
    ok = MPI_Barrier(comm) == MPI_SUCCESS;
    MPIX_Comm_agree(comm, &ok);
    if (!ok) {
        MPI_Finalize();
        return 3;
    }

    /* Rank 2's data for rank 1: synchronous, so once MPI_Ssend returned rank 1 has it. */
    ok = 1;
    if (rank == 2)
        MPI_Ssend(&(int){DATA}, 1, MPI_INT, 1, 0, comm); /* may fail: rank 1 died */
    else if (rank == 1)
        ok = MPI_Recv(&value, 1, MPI_INT, 2, 0, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
             value == DATA;
    MPIX_Comm_agree(comm, &ok);
    lost = !ok;
    if (lost && rank != 2 && !strcmp(mode, "hang")) {
        int peer = 1 - rank; /* ranks 0 and 1 both receive first: a deadlock */
        MPI_Recv(&value, 1, MPI_INT, peer, 99, comm, MPI_STATUS_IGNORE);
        MPI_Send(&value, 1, MPI_INT, peer, 99, comm);
    }
    if (lost && rank != 2 && !strcmp(mode, "crash"))
        abort();
    for (volatile int spin = 1; lost && rank != 2 && spin && !strcmp(mode, "spin");)
        continue;

    /* Work: a death from here on is recovered from. The agreement fails (uniformly) when some
     * rank died without contributing, even if the barrier itself succeeded. */
    ok = MPI_Barrier(comm) == MPI_SUCCESS;
    int rc = MPIX_Comm_agree(comm, &ok);
    int printer = rank == 0;
    if (rc != MPI_SUCCESS || !ok) {
        MPI_Comm survivors;
        int r;
        MPIX_Comm_shrink(comm, &survivors);
        MPI_Comm_rank(survivors, &r);
        printer = r == 0;
        MPI_Comm_free(&survivors);
    }
    if (printer) {
        printf(lost ? "wrong result: rank 2's data was lost\n" : "No Errors\n");
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
