/* rmaft_flush.c: flushes to a failed target.
 *
 * Rule checked (paraphrase of the one-sided section of the fault-tolerance chapter, not a
 * verbatim quote): failures are raised by synchronization calls, the flushes among them, and
 * never at the start of a put or get; operations with live processes complete.
 *
 * MINI_MPI_FAULTS='kill 2 at MPI_Barrier#1' (4 ranks): rank 0 holds lock_all when rank 2 dies.
 * A put to rank 1 and MPI_Win_flush(1) succeed (the value is there); a put and a get to rank 2
 * return MPI_SUCCESS; MPI_Win_flush(2) and MPI_Win_flush_local(2) raise MPI_ERR_PROC_FAILED
 * (the epoch stays open); MPI_Win_unlock_all raises it and ends the epoch; a second one raises
 * it again (the failure is sticky).
 */
#include "rmaft.h"

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    long mem[2] = {-5, -6}, v = 3, got = 0;
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 0)
        CHECK(MPI_Win_lock_all(0, win) == MPI_SUCCESS);
    CHECK(eclass(MPI_Barrier(MPI_COMM_WORLD)) == MPI_ERR_PROC_FAILED); /* rank 2 dies */
    if (rank == 0) {
        CHECK(MPI_Put(&v, 1, MPI_LONG, 1, 1, 1, MPI_LONG, win) == MPI_SUCCESS);
        CHECK(MPI_Win_flush(1, win) == MPI_SUCCESS);
        CHECK(MPI_Get(&got, 1, MPI_LONG, 1, 1, 1, MPI_LONG, win) == MPI_SUCCESS);
        CHECK(MPI_Win_flush_local(1, win) == MPI_SUCCESS);
        CHECK(got == 3);
        CHECK(MPI_Put(&v, 1, MPI_LONG, 2, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
        CHECK(MPI_Get(&got, 1, MPI_LONG, 2, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
        CHECK(eclass(MPI_Win_flush(2, win)) == MPI_ERR_PROC_FAILED);
        CHECK(eclass(MPI_Win_flush_local(2, win)) == MPI_ERR_PROC_FAILED);
        CHECK(eclass(MPI_Win_flush_all(win)) == MPI_ERR_PROC_FAILED);
        CHECK(eclass(MPI_Win_unlock_all(win)) == MPI_ERR_PROC_FAILED);
        CHECK(eclass(MPI_Win_unlock_all(win)) == MPI_ERR_PROC_FAILED);
    }
    MPI_Comm live;
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &live) == MPI_SUCCESS);
    CHECK(MPI_Barrier(live) == MPI_SUCCESS);
    if (rank == 1)
        CHECK(mem[1] == 3);
    MPI_Comm_free(&live);
    int rc = eclass(MPI_Win_free(&win));
    CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
    CHECK(win == MPI_WIN_NULL);
    return mtest_finish();
}
