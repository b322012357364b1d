/*
 * dead_member_block.c: an erroneous program whose every blocked call waits for a rank that
 * dies, for tests/tools/dead_member_block.sh. Rank 2 dies before it sends anything (argument
 * `raise`: raise(SIGKILL) in the program; `send`: it calls MPI_Send, where a
 * `kill 2 at MPI_Send#1` directive kills it) while rank 0 waits in MPI_Recv from rank 2 and
 * rank 1 waits in MPI_Barrier, then in MPI_Allreduce, on MPI_COMM_WORLD; rank 0 finalizes after
 * its receive failed, without entering either collective (the program is erroneous). Errors
 * return. Each blocked call has the dead rank as a member, so it is not deadlocked: each must
 * end with MPI_ERR_PROC_FAILED, on every run, never with the hang detector's status 123 (the
 * collectives also wait for rank 0, so their reports wait for the world to be quiescent,
 * fault/report.c). Each survivor prints its calls' error classes.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "mtest.h"

static void print_class(int rank, const char *call, int rc)
{
    int cls = rc;
    MPI_Error_class(rc, &cls);
    printf("rank %d %s %s\n", rank, call,
           cls == MPI_SUCCESS ? "MPI_SUCCESS"
           : cls == MPIX_ERR_PROC_FAILED ? "MPI_ERR_PROC_FAILED" : "other error");
}

int main(int argc, char **argv)
{
    int rank, v = 0;
    const char *how = argc > 1 ? argv[1] : "raise";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        print_class(rank, "MPI_Recv", MPI_Recv(&v, 1, MPI_INT, 2, 0, MPI_COMM_WORLD,
                                               MPI_STATUS_IGNORE));
    } else if (rank == 1) {
        int in = 1, out;
        print_class(rank, "MPI_Barrier", MPI_Barrier(MPI_COMM_WORLD));
        print_class(rank, "MPI_Allreduce",
                    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    } else if (rank == 2) {
        if (!strcmp(how, "raise"))
            raise(SIGKILL);
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD); /* killed here by the directive */
        printf("rank 2 survived\n");
    }
    MPI_Finalize();
    return 0;
}
