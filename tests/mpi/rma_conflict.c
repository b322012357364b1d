/* rma_conflict.c: a window locked and exposed at once (MPI-4.1 §12.5.3) gives
 * MPI_ERR_RMA_CONFLICT through the window's handler, from either side: MPI_Win_lock and
 * MPI_Win_lock_all on a target inside its PSCW exposure epoch, and MPI_Win_post on a window
 * another member holds locked. A refused lock leaves nothing held (lock_all gives back the
 * targets it took before the exposed one), and the rule ends with the exposure epoch, whether
 * MPI_Win_wait or MPI_Win_test ends it. Run with at least 2 ranks; rank 0 locks, rank 1
 * exposes, the others only take part in the collectives. */
#include "mtest.h"

static int handler_class = MPI_SUCCESS;

static void note_class(MPI_Win *win, int *code, ...)
{
    (void)win;
    MPI_Error_class(*code, &handler_class);
}

/* Rank 0 accesses rank 1 once (start/put/complete), so that rank 1's exposure can end. */
static void access_once(MPI_Win win, MPI_Group g1)
{
    long v = 7;
    CHECK(MPI_Win_start(g1, 0, win) == MPI_SUCCESS);
    CHECK(MPI_Put(&v, 1, MPI_LONG, 1, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
    CHECK(MPI_Win_complete(win) == MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        printf("needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    long mem[2] = {0};
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Errhandler eh;
    MPI_Win_create_errhandler(note_class, &eh);
    MPI_Win_set_errhandler(win, eh);
    MPI_Group world, g0, g1;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, (int[]){0}, &g0);
    MPI_Group_incl(world, 1, (int[]){1}, &g1);

    /* 1. Lock of an exposed target: refused at once, through the handler; lock_all too. */
    if (rank == 1)
        CHECK(MPI_Win_post(g0, 0, win) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        handler_class = MPI_SUCCESS;
        CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win) == MPI_ERR_RMA_CONFLICT);
        CHECK(handler_class == MPI_ERR_RMA_CONFLICT);
        CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win) == MPI_ERR_RMA_CONFLICT);
        CHECK(MPI_Win_lock_all(0, win) == MPI_ERR_RMA_CONFLICT);
        /* Nothing is held: no epoch is open, and target 0 (taken by lock_all before target
         * 1) is free again, so an exclusive lock of it is granted at once. */
        CHECK(MPI_Win_unlock(1, win) == MPI_ERR_RMA_SYNC);
        CHECK(MPI_Win_unlock_all(win) == MPI_ERR_RMA_SYNC);
        CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win) == MPI_SUCCESS);
        CHECK(MPI_Win_unlock(0, win) == MPI_SUCCESS);
        access_once(win, g1);
    }
    if (rank == 1) {
        CHECK(MPI_Win_wait(win) == MPI_SUCCESS);
        CHECK(mem[0] == 7);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 2. The exposure is over: the same lock is granted. */
    if (rank == 0) {
        CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win) == MPI_SUCCESS);
        CHECK(MPI_Win_unlock(1, win) == MPI_SUCCESS);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 3. Post of a locked window (shared, then exclusive): refused, no epoch opened. */
    for (int type = 0; type < 2; type++) {
        if (rank == 0)
            CHECK(MPI_Win_lock(type ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, 1, 0, win) ==
                  MPI_SUCCESS);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1) {
            handler_class = MPI_SUCCESS;
            CHECK(MPI_Win_post(g0, 0, win) == MPI_ERR_RMA_CONFLICT);
            CHECK(handler_class == MPI_ERR_RMA_CONFLICT);
            CHECK(MPI_Win_wait(win) == MPI_ERR_RMA_SYNC); /* no exposure epoch */
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            CHECK(MPI_Win_unlock(1, win) == MPI_SUCCESS);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* 4. Once unlocked, the post succeeds; MPI_Win_test ending the epoch ends the rule too. */
    if (rank == 1)
        CHECK(MPI_Win_post(g0, 0, win) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win) == MPI_ERR_RMA_CONFLICT);
        access_once(win, g1);
    }
    if (rank == 1) {
        int flag = 0;
        while (!flag)
            CHECK(MPI_Win_test(win, &flag) == MPI_SUCCESS);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win) == MPI_SUCCESS);
        CHECK(MPI_Win_unlock(1, win) == MPI_SUCCESS);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Group_free(&g0);
    MPI_Group_free(&g1);
    MPI_Group_free(&world);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS);
    MPI_Errhandler_free(&eh);
    return mtest_finish();
}
