/* privlib_spawned.c: the child of spawn_privlib (not run on its own): calls libcounter.so once
 * and reports to the parent whether its count started from 0 in a copy of its own. */
#include <mpi.h>
#include <stdio.h>

int counter_next(void);
extern int counter_calls;

int main(int argc, char **argv)
{
    int rank, errs = 0;
    MPI_Comm parent;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_get_parent(&parent);
    int got = counter_next();
    if (got != 1 || counter_calls != 1) {
        printf("spawned %d: counter_next() = %d, counter_calls = %d; expected 1 and 1\n", rank,
               got, counter_calls);
        errs = 1;
    }
    MPI_Barrier(MPI_COMM_WORLD); /* every child has counted before any reports */
    if (parent != MPI_COMM_NULL) {
        MPI_Send(&errs, 1, MPI_INT, 0, 0, parent);
        MPI_Comm_disconnect(&parent);
    } else if (errs == 0 && rank == 0) {
        printf(" No Errors\n");
    }
    MPI_Finalize();
    return 0;
}
