/*
 * restart_report.c: reports name a restarted rank by its incarnation. Rank 2 dies at once;
 * rank 0 restarts it, then both wait for a message the other never sends: the hang detector's
 * report must name "rank 2 (incarnation 1)" (and the dead "rank 2: failed").
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int me, *inc, flag, v;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MINI_MPI_INCARNATION, &inc, &flag);
    if (me == 2 && *inc == 0)
        raise(SIGKILL);
    if (me == 2) {
        MPI_Recv(&v, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (me == 0) {
        if (MPI_Recv(&v, 1, MPI_INT, 2, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
            MPI_ERR_PROC_FAILED)
            printf("rank 0: the receive from the dead rank did not fail\n");
        MPI_Comm_restart_rank(MPI_COMM_WORLD, 2);
        MPI_Recv(&v, 1, MPI_INT, 2, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
