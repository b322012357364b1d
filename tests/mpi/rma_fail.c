/* rma_fail.c: windows when a member dies (the failure-free semantics' one promise: nothing
 * hangs, and a waiter whose awaited peer failed returns MPI_ERR_PROC_FAILED). argv[1] selects:
 *   lock    MINI_MPI_FAULTS='kill 1 at MPI_Put#1': rank 1 dies holding rank 0's exclusive
 *           lock; rank 2's exclusive lock request on rank 0 fails instead of waiting forever
 *           (the lock is owner-tracked), while rank 3 can still lock rank 1's memory shared.
 *   pscw    MINI_MPI_FAULTS='kill 1 at MPI_Win_complete#1': rank 0 waits for rank 1's complete.
 *   fence   MINI_MPI_FAULTS='kill 2 at MPI_Win_fence#2': the second fence fails everywhere.
 *   during  MINI_MPI_FAULTS='kill 1 during MPI_Win_fence#2': the collectives' cut rule: rank 0
 *           completes the fence, ranks 2 and 3 fail it. */
#include <string.h>

#include "mtest.h"

static int eclass(int rc)
{
    int c;
    MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    int rank, size;
    const char *mode = argc > 1 ? argv[1] : "lock";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    long mem[4] = {0}, v = 1;
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);

    if (!strcmp(mode, "lock")) {
        if (rank == 1)
            CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win) == MPI_SUCCESS);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1)
            MPI_Put(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win); /* dies here */
        if (rank == 2)
            CHECK(eclass(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win)) == MPI_ERR_PROC_FAILED);
        if (rank == 3) {
            CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win) == MPI_SUCCESS);
            CHECK(MPI_Get(&v, 1, MPI_LONG, 1, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
            CHECK(MPI_Win_unlock(1, win) == MPI_SUCCESS);
        }
    } else if (!strcmp(mode, "pscw")) {
        MPI_Group world, g;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        int zero = 0, one = 1;
        if (rank == 0) {
            MPI_Group_incl(world, 1, &one, &g);
            CHECK(MPI_Win_post(g, 0, win) == MPI_SUCCESS);
            CHECK(eclass(MPI_Win_wait(win)) == MPI_ERR_PROC_FAILED);
            MPI_Group_free(&g);
        } else if (rank == 1) {
            MPI_Group_incl(world, 1, &zero, &g);
            MPI_Win_start(g, 0, win);
            MPI_Put(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
            MPI_Win_complete(win); /* dies here */
        }
        MPI_Group_free(&world);
    } else {
        CHECK(MPI_Win_fence(0, win) == MPI_SUCCESS);
        MPI_Put(&v, 1, MPI_LONG, (rank + 1) % size, 0, 1, MPI_LONG, win);
        int rc = eclass(MPI_Win_fence(0, win));
        if (!strcmp(mode, "fence"))
            CHECK(rc == MPI_ERR_PROC_FAILED);
        else
            CHECK(rc == (rank < 1 ? MPI_SUCCESS : MPI_ERR_PROC_FAILED));
    }
    /* Freeing synchronizes with a dead member: it reports the failure, or succeeds when the
     * death is not published yet at the ranks that never waited for it; it never hangs. */
    int rc = eclass(MPI_Win_free(&win));
    CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
    CHECK(win == MPI_WIN_NULL);
    return mtest_finish();
}
