/* rmaft_free.c: MPI_Win_free after a process failure.
 *
 * Rule checked (paraphrase of the fault-tolerance chapter, not a verbatim quote): every
 * operation involving a failed process completes in finite time, with MPI_SUCCESS or
 * MPI_ERR_PROC_FAILED; freeing a window whose member failed returns MPI_WIN_NULL either way.
 *
 * MINI_MPI_FAULTS='kill 3 after MPI_Win_lock#1' (4 ranks): rank 3 takes an exclusive lock on
 * target 0 of the first of three windows (created, allocated, dynamic) and dies holding it.
 * Each survivor frees all three windows (no hang, MPI_WIN_NULL, MPI_SUCCESS or
 * MPI_ERR_PROC_FAILED), then makes a window on the shrunken communicator and uses it: the dead
 * member's windows are reclaimed when the job ends (valgrind lists this test).
 */
#include "rmaft.h"

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    long mem[4] = {0}, *amem, v = 1;
    MPI_Win win[3];
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win[0]);
    MPI_Win_allocate(sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &amem, &win[1]);
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win[2]);
    for (int i = 0; i < 3; i++)
        MPI_Win_set_errhandler(win[i], MPI_ERRORS_RETURN);
    if (rank == 3) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win[0]);
        MPI_Barrier(MPI_COMM_WORLD); /* dies on entry */
    }
    CHECK(eclass(MPI_Barrier(MPI_COMM_WORLD)) == MPI_ERR_PROC_FAILED);
    for (int i = 0; i < 3; i++) {
        int rc = eclass(MPI_Win_free(&win[i]));
        CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
        CHECK(win[i] == MPI_WIN_NULL);
    }
    MPI_Comm live;
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &live) == MPI_SUCCESS);
    MPI_Win w;
    CHECK(MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, live, &w) ==
          MPI_SUCCESS);
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w) == MPI_SUCCESS);
    CHECK(MPI_Accumulate(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, w) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock(0, w) == MPI_SUCCESS);
    CHECK(MPI_Win_fence(0, w) == MPI_SUCCESS);
    if (rank == 0)
        CHECK(mem[0] == 3);
    CHECK(MPI_Win_free(&w) == MPI_SUCCESS);
    MPI_Comm_free(&live);
    return mtest_finish();
}
