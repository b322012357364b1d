/* privlib_fresh.c: a rank that starts later gets fresh copies of its private libraries, as it
 * gets a fresh program image: a restarted rank (MPIX_Comm_restart_rank) and spawned children
 * (MPI_Comm_spawn of the same program) see libcounter.so's count start from 0, although the
 * dead incarnation and the parents had counted already. Two ranks. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>

int counter_next(void);
extern int counter_calls;

static int check_fresh(const char *who, int rank)
{
    int got = counter_next();
    if (got == 1 && counter_calls == 1)
        return 0;
    printf("%s %d: counter_next() = %d, counter_calls = %d; expected 1 and 1\n", who, rank, got,
           counter_calls);
    return 1;
}

int main(int argc, char **argv)
{
    int rank, flag = 0, errs = 0, total = 0, *incarnation = NULL;
    MPI_Comm parent, children;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) { /* a spawned child */
        errs = check_fresh("child", rank);
        MPI_Send(&errs, 1, MPI_INT, 0, 2, parent);
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MINI_MPI_INCARNATION, &incarnation, &flag);
    errs = check_fresh(flag && *incarnation ? "restarted rank" : "rank", rank);
    if (rank == 1 && !(flag && *incarnation)) {
        counter_next(); /* state the next incarnation must not inherit */
        raise(SIGKILL);
    }
    if (rank == 1) {
        MPI_Send(&errs, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        errs = 0;
    } else {
        int v, more = 0;
        if (MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
            MPI_ERR_PROC_FAILED) {
            printf("rank 0: the first incarnation of rank 1 did not fail\n");
            errs++;
        }
        if (MPIX_Comm_restart_rank(MPI_COMM_WORLD, 1) != MPI_SUCCESS) {
            printf("rank 0: restart failed\n");
            errs++;
        }
        MPI_Recv(&more, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        errs += more;
    }
    /* Both ranks (rank 1 in its new incarnation) spawn two children of this program. */
    MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children,
                   MPI_ERRCODES_IGNORE);
    if (rank == 0)
        for (int i = 0; i < 2; i++) {
            int more = 0;
            MPI_Recv(&more, 1, MPI_INT, MPI_ANY_SOURCE, 2, children, MPI_STATUS_IGNORE);
            errs += more;
        }
    MPI_Comm_disconnect(&children);
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
