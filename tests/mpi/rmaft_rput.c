/* rmaft_rput.c: request-based operations whose epoch fails.
 *
 * Rule checked (paraphrase of the one-sided section of the fault-tolerance chapter, and of its
 * general rule for nonblocking operations, not a verbatim quote): a request-based operation
 * reports a process failure at its completion (MPI_Wait, MPI_Test), not when it starts; an
 * operation that does not involve the failed process completes normally.
 *
 * MINI_MPI_FAULTS='kill 2 at MPI_Barrier#1' (4 ranks): rank 0 holds lock_all when rank 2 dies.
 * MPI_Rput to rank 2 returns MPI_SUCCESS and a request; MPI_Wait on it raises
 * MPI_ERR_PROC_FAILED through the window's error handler (a handler set on the window counts
 * it). MPI_Rput and MPI_Rget_accumulate to rank 1 complete with MPI_SUCCESS in the same epoch;
 * MPI_Win_unlock_all then raises MPI_ERR_PROC_FAILED, and rank 1 holds the value.
 */
#include "rmaft.h"

static int handled;

static void win_handler(MPI_Win *win, int *code, ...)
{
    (void)win;
    if (eclass(*code) == MPI_ERR_PROC_FAILED)
        handled++;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    long mem[2] = {-5, -6}, v = 11, old = 0;
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Errhandler eh;
    MPI_Win_create_errhandler(win_handler, &eh);
    MPI_Win_set_errhandler(win, eh);
    if (rank == 0)
        CHECK(MPI_Win_lock_all(0, win) == MPI_SUCCESS);
    CHECK(eclass(MPI_Barrier(MPI_COMM_WORLD)) == MPI_ERR_PROC_FAILED); /* rank 2 dies */
    if (rank == 0) {
        MPI_Request dead, live[2];
        CHECK(MPI_Rput(&v, 1, MPI_LONG, 2, 0, 1, MPI_LONG, win, &dead) == MPI_SUCCESS);
        CHECK(handled == 0); /* not at initiation */
        CHECK(MPI_Rput(&v, 1, MPI_LONG, 1, 0, 1, MPI_LONG, win, &live[0]) == MPI_SUCCESS);
        CHECK(MPI_Rget_accumulate(&v, 1, MPI_LONG, &old, 1, MPI_LONG, 1, 1, 1, MPI_LONG, MPI_SUM,
                                  win, &live[1]) == MPI_SUCCESS);
        CHECK(MPI_Waitall(2, live, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
        CHECK(old == -6);
        CHECK(eclass(MPI_Wait(&dead, MPI_STATUS_IGNORE)) == MPI_ERR_PROC_FAILED);
        CHECK(handled == 1); /* through the window's handler */
        CHECK(dead == MPI_REQUEST_NULL);
        CHECK(eclass(MPI_Win_unlock_all(win)) == MPI_ERR_PROC_FAILED);
    }
    MPI_Comm live;
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &live) == MPI_SUCCESS);
    CHECK(MPI_Barrier(live) == MPI_SUCCESS);
    if (rank == 1 && !rmaft_poison_on())
        CHECK(mem[0] == 11 && mem[1] == 5);
    MPI_Comm_free(&live);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    int rc = eclass(MPI_Win_free(&win));
    CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
    CHECK(win == MPI_WIN_NULL);
    return mtest_finish();
}
