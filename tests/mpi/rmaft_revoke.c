/* rmaft_revoke.c: MPIX_Win_revoke and MPIX_Win_get_failed. argv[1] selects:
 *   revoke  "Win_revoke ... all pending and future operations on the window complete with an
 *           error of class MPI_ERR_REVOKED" (Process Fault Tolerance, one-sided sections): rank 1
 *           waits for rank 0's exclusive lock, ranks 2.. wait in a fence, rank 0 revokes; each
 *           wait ends with MPI_ERR_REVOKED, rank 0's put and unlock report it too, and
 *           MPI_Win_free then frees locally and returns MPI_WIN_NULL.
 *   pscw    (2 ranks) rank 0 exposes its window to rank 1, rank 1 revokes: rank 0's Win_test
 *           ends the exposure epoch with MPI_ERR_REVOKED (a later Win_wait has no epoch to end),
 *           and rank 1's start/complete epoch ends with MPI_ERR_REVOKED.
 *   failed  MINI_MPI_FAULTS='kill 3 at MPI_Barrier#1': "MPI_Win_get_failed returns the group of
 *           failed processes of the window": exactly world rank 3, and before any failure the
 *           group is empty. */
#include <string.h>

#include "mtest.h"

static int eclass(int rc)
{
    int c;
    MPI_Error_class(rc, &c);
    return c;
}

/* The world ranks of the failed group of win (at most 8). */
static int failed_world_ranks(MPI_Win win, int *out)
{
    MPI_Group failed, world;
    int n;
    CHECK(MPIX_Win_get_failed(win, &failed) == MPI_SUCCESS);
    MPI_Group_size(failed, &n);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int in[8];
    for (int i = 0; i < n && i < 8; i++)
        in[i] = i;
    MPI_Group_translate_ranks(failed, n < 8 ? n : 8, in, world, out);
    MPI_Group_free(&world);
    MPI_Group_free(&failed);
    return n;
}

int main(int argc, char **argv)
{
    int rank, size, got[8];
    const char *mode = argc > 1 ? argv[1] : "revoke";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    long mem[4] = {0}, v = 1;
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(failed_world_ranks(win, got) == 0);

    if (!strcmp(mode, "revoke")) {
        if (rank == 0)
            CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win) == MPI_SUCCESS);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            CHECK(MPI_Put(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
            CHECK(MPIX_Win_revoke(win) == MPI_SUCCESS);
            CHECK(eclass(MPI_Put(&v, 1, MPI_LONG, 0, 1, 1, MPI_LONG, win)) == MPI_ERR_REVOKED);
            CHECK(eclass(MPI_Win_flush(0, win)) == MPI_ERR_REVOKED);
            CHECK(eclass(MPI_Win_unlock(0, win)) == MPI_ERR_REVOKED);
            /* The revoked window's lock was released: the epoch ended. */
            CHECK(eclass(MPI_Win_unlock(0, win)) == MPI_ERR_RMA_SYNC);
            CHECK(mem[1] == 0);
        } else if (rank == 1) {
            /* Blocks until the revoke (or sees it at once): never acquires. */
            CHECK(eclass(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win)) == MPI_ERR_REVOKED);
        } else {
            CHECK(eclass(MPI_Win_fence(0, win)) == MPI_ERR_REVOKED);
        }
        /* Later: every operation at every process. */
        CHECK(eclass(MPI_Win_lock(MPI_LOCK_SHARED, (rank + 1) % size, 0, win)) ==
              MPI_ERR_REVOKED);
        CHECK(eclass(MPI_Win_fence(0, win)) == MPI_ERR_REVOKED);
        CHECK(failed_world_ranks(win, got) == 0);
        int rc = eclass(MPI_Win_free(&win));
        CHECK(rc == MPI_SUCCESS);
    } else if (!strcmp(mode, "pscw")) {
        MPI_Group world, g;
        int other = 1 - rank, flag = 0;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, 1, &other, &g);
        if (rank == 0)
            CHECK(MPI_Win_post(g, 0, win) == MPI_SUCCESS);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1)
            CHECK(MPIX_Win_revoke(win) == MPI_SUCCESS);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            CHECK(eclass(MPI_Win_test(win, &flag)) == MPI_ERR_REVOKED && flag);
            CHECK(eclass(MPI_Win_wait(win)) == MPI_ERR_RMA_SYNC);
        } else {
            MPI_Win_start(g, 0, win);
            CHECK(eclass(MPI_Win_complete(win)) == MPI_ERR_REVOKED);
            CHECK(eclass(MPI_Win_complete(win)) == MPI_ERR_RMA_SYNC);
        }
        MPI_Group_free(&g);
        MPI_Group_free(&world);
        int rc = eclass(MPI_Win_free(&win));
        CHECK(rc == MPI_SUCCESS);
    } else {
        int rc = eclass(MPI_Barrier(MPI_COMM_WORLD)); /* rank 3 dies here */
        CHECK(rc == MPI_ERR_PROC_FAILED);
        CHECK(failed_world_ranks(win, got) == 1 && got[0] == 3);
        rc = eclass(MPI_Win_free(&win));
        CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
    }
    CHECK(win == MPI_WIN_NULL);
    return mtest_finish();
}
