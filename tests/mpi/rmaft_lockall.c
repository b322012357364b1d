/* rmaft_lockall.c: MPI_Win_lock_all and MPI_Win_unlock_all with a failed member.
 *
 * Rule checked (paraphrase of the one-sided section of the fault-tolerance chapter, not a
 * verbatim quote): an operation that involves a failed process raises MPI_ERR_PROC_FAILED in
 * finite time; a lock on a failed process raises it, and failures in passive-target epochs are
 * reported by the unlock calls.
 *
 * arg=lock, MINI_MPI_FAULTS='kill 2 at MPI_Barrier#1' (4 ranks): rank 0's MPI_Win_lock_all
 * raises MPI_ERR_PROC_FAILED and holds no lock afterwards: MPI_Win_unlock_all raises
 * MPI_ERR_PROC_FAILED again (sticky), and rank 1 then takes an exclusive lock on every live member (it would wait
 * forever behind a shared lock rank 0 kept).
 *
 * arg=unlock, MINI_MPI_FAULTS='kill 2 at MPI_Barrier#1': rank 0 holds lock_all when rank 2
 * dies; its put to rank 1 returns MPI_SUCCESS, its MPI_Win_unlock_all raises MPI_ERR_PROC_FAILED
 * and releases every lock (rank 1 then locks every live member exclusively); the put to rank 1
 * is done (or, with MINI_MPI_POISON=1, poisoned: it was written in the failed epoch).
 */
#include "rmaft.h"

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int at_unlock = argc > 1 && !strcmp(argv[1], "unlock");
    long mem[2] = {-5, -6}, v = 7;
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 0 && at_unlock)
        CHECK(MPI_Win_lock_all(0, win) == MPI_SUCCESS);
    CHECK(eclass(MPI_Barrier(MPI_COMM_WORLD)) == MPI_ERR_PROC_FAILED); /* rank 2 dies */
    if (rank == 0 && !at_unlock) {
        CHECK(eclass(MPI_Win_lock_all(0, win)) == MPI_ERR_PROC_FAILED);
        CHECK(eclass(MPI_Win_unlock_all(win)) == MPI_ERR_PROC_FAILED); /* nothing held */
    }
    if (rank == 0 && at_unlock) {
        CHECK(MPI_Put(&v, 1, MPI_LONG, 1, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
        CHECK(MPI_Put(&v, 1, MPI_LONG, 2, 0, 1, MPI_LONG, win) == MPI_SUCCESS); /* dead: no effect */
        CHECK(eclass(MPI_Win_unlock_all(win)) == MPI_ERR_PROC_FAILED);
        CHECK(eclass(MPI_Win_unlock_all(win)) == MPI_ERR_PROC_FAILED); /* ended; sticky */
    }
    MPI_Comm live;
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &live) == MPI_SUCCESS);
    CHECK(MPI_Barrier(live) == MPI_SUCCESS); /* rank 0 is done with its epoch */
    if (rank == 1) {
        for (int r = 0; r < 4; r++) {
            if (r == 2)
                continue;
            CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, r, 0, win) == MPI_SUCCESS);
            CHECK(MPI_Win_unlock(r, win) == MPI_SUCCESS);
        }
        if (at_unlock && rmaft_poison_on())
            CHECK(rmaft_poisoned(&mem[0], sizeof(long)));
        else if (at_unlock)
            CHECK(mem[0] == 7);
        CHECK(mem[1] == -6);
    }
    CHECK(MPI_Barrier(live) == MPI_SUCCESS);
    MPI_Comm_free(&live);
    int rc = eclass(MPI_Win_free(&win));
    CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
    CHECK(win == MPI_WIN_NULL);
    return mtest_finish();
}
