/* spawn_lifetime.c: spawned ranks as parts of the job (argv[1] picks the scenario; world rank 0
 * spawns one child with the same argv[1]).
 *   wait      the parents finalize and return at once; the child sleeps 0.2 s, then prints
 *             "child done" and "No Errors": the job waits for it.
 *   status    the child returns 3 after MPI_Finalize: the job's exit status is 3.
 *   deadlock  parent and child each receive from the other: the hang detector reports it
 *             (the child's line included) and ends the job with status 123.
 *   inject    run with MINI_MPI_FAULTS="kill 1 at MPI_Comm_spawn": the other parents' spawn
 *             fails with MPI_ERR_PROC_FAILED; after MPIX_Comm_shrink it succeeds. */
#include <string.h>
#include <unistd.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    MPI_Comm parent, inter;
    int v = 0;
    const char *what = argc > 1 ? argv[1] : "wait";
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        if (!strcmp(what, "deadlock"))
            MPI_Recv(&v, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
        MPI_Comm_free(&parent);
        MPI_Finalize();
        if (!strcmp(what, "wait")) {
            usleep(200000);
            printf("child done\n No Errors\n");
        }
        return !strcmp(what, "status") ? 3 : 0;
    }
    char *args[] = {(char *)what, NULL};
    if (!strcmp(what, "inject")) {
        MPI_Comm dup, shrunk;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
        CHECK(MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, 0, dup, &inter,
                             MPI_ERRCODES_IGNORE) == MPIX_ERR_PROC_FAILED);
        CHECK(MPIX_Comm_shrink(dup, &shrunk) == MPI_SUCCESS);
        CHECK(MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, 0, shrunk, &inter,
                             MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&shrunk);
        MPI_Comm_free(&dup);
        return mtest_finish();
    }
    CHECK(MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                         MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!strcmp(what, "deadlock") && rank == 0)
        MPI_Recv(&v, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return mtest_errors;
}
