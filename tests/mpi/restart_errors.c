/*
 * restart_errors.c: the error classes of restarting (docs/restart.md), run with
 * MINI_MPI_FAULTS="kill 2.1 at MPI_Init". Rank 2 dies; rank 0 restarts it: the first new
 * incarnation dies in MPI_Init, so the call returns MPI_ERR_PROC_FAILED; the next call starts
 * incarnation 2, which reports its MINI_MPI_INCARNATION. A restart of a live rank through
 * MPIX_Comm_irestart_rank completes at the first MPI_Test. A spawned rank (not in the
 * launcher's world) gets MPI_ERR_COMM; on a revoked MPI_COMM_WORLD the call returns
 * MPI_ERR_REVOKED at once.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static int errors;
#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            errors++;                                                                         \
            printf(__VA_ARGS__);                                                              \
            printf("\n");                                                                     \
        }                                                                                     \
    } while (0)

int main(int argc, char **argv)
{
    int me, *inc, flag, v, err;
    MPI_Comm parent;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) { /* the spawned child */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        v = MPIX_Comm_restart_rank(MPI_COMM_WORLD, 0);
        MPI_Send(&v, 1, MPI_INT, 0, 1, parent);
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MINI_MPI_INCARNATION, &inc, &flag);
    if (me == 2 && *inc == 0)
        raise(SIGKILL);
    if (me == 2) { /* incarnation 2 */
        v = *inc;
        MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    } else if (me == 0) {
        err = MPI_Recv(&v, 1, MPI_INT, 2, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(err == MPI_ERR_PROC_FAILED, "receive from the dead rank: %d", err);
        err = MPIX_Comm_restart_rank(MPI_COMM_WORLD, 2);
        CHECK(err == MPI_ERR_PROC_FAILED, "incarnation 1 died in MPI_Init: got %d", err);
        err = MPIX_Comm_restart_rank(MPI_COMM_WORLD, 2);
        CHECK(err == MPI_SUCCESS, "second restart: %d", err);
        v = -1;
        MPI_Recv(&v, 1, MPI_INT, 2, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(v == 2, "the new rank 2 reads incarnation %d, expected 2", v);

        MPI_Request req;
        int done = 0;
        err = MPIX_Comm_irestart_rank(MPI_COMM_WORLD, 1, &req); /* alive */
        CHECK(err == MPI_SUCCESS, "irestart of a live rank: %d", err);
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        CHECK(done && req == MPI_REQUEST_NULL, "irestart of a live rank still pending");
        err = MPIX_Comm_irestart_rank(MPI_COMM_WORLD, 1, NULL);
        CHECK(err == MPI_ERR_ARG, "irestart without a request: %d", err);

        MPI_Comm inter;
        char *args[] = {NULL};
        MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter,
                       MPI_ERRCODES_IGNORE);
        MPI_Recv(&v, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE);
        CHECK(v == MPI_ERR_COMM, "restart in a spawned rank: %d", v);
        MPI_Comm_disconnect(&inter);
    }
    /* Rank 1 waits in a barrier of the epoch it never left: the dead incarnation is a member,
     * so it fails rather than waits. */
    if (me == 1) {
        err = MPI_Barrier(MPI_COMM_WORLD);
        CHECK(err == MPI_ERR_PROC_FAILED, "barrier in the old epoch: %d", err);
    }
    if (me == 0) {
        MPIX_Comm_revoke(MPI_COMM_WORLD);
        err = MPIX_Comm_restart_rank(MPI_COMM_WORLD, 1);
        CHECK(err == MPI_ERR_REVOKED, "restart on a revoked world: %d", err);
        if (errors == 0)
            printf(" No Errors\n");
    }
    MPI_Finalize();
    return errors != 0;
}
