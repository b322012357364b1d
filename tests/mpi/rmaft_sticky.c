/* rmaft_sticky.c: "once a window has raised MPI_ERR_PROC_FAILED at a process, every later
 * operation on that window at that process raises too" (the one-sided sections of Process
 * Fault Tolerance), with MINI_MPI_FAULTS='kill 3 at MPI_Win_fence#2': the survivors' second
 * fence raises MPI_ERR_PROC_FAILED; then a put to a live member, a lock of a live member (which
 * holds nothing afterwards), its unlock, a PSCW start, its complete and a fence raise it too; MPI_Win_get_failed names
 * world rank 3; MPI_Win_free frees and returns MPI_WIN_NULL; a window created on the shrunken
 * communicator works again (the rule is per window). */
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
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    long mem[4] = {0}, v = 1;
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(eclass(MPIX_Win_revoke(MPI_WIN_NULL)) == MPI_ERR_WIN);
    CHECK(eclass(MPIX_Win_get_failed(win, NULL)) == MPI_ERR_ARG);
    CHECK(MPI_Win_fence(0, win) == MPI_SUCCESS);
    CHECK(eclass(MPI_Win_fence(0, win)) == MPI_ERR_PROC_FAILED); /* rank 3 dies here */
    int peer = (rank + 1) % 3;
    CHECK(eclass(MPI_Put(&v, 1, MPI_LONG, peer, 0, 1, MPI_LONG, win)) == MPI_ERR_PROC_FAILED);
    CHECK(eclass(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win)) == MPI_ERR_PROC_FAILED);
    CHECK(eclass(MPI_Win_unlock(peer, win)) == MPI_ERR_PROC_FAILED); /* no lock is held */
    MPI_Group world, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &peer, &g);
    CHECK(eclass(MPI_Win_start(g, 0, win)) == MPI_ERR_PROC_FAILED);
    CHECK(eclass(MPI_Win_complete(win)) == MPI_ERR_PROC_FAILED); /* no epoch opened */
    MPI_Group_free(&g);
    CHECK(eclass(MPI_Win_fence(0, win)) == MPI_ERR_PROC_FAILED);
    MPI_Group failed;
    CHECK(MPIX_Win_get_failed(win, &failed) == MPI_SUCCESS);
    int n, zero = 0, w3 = -1;
    MPI_Group_size(failed, &n);
    CHECK(n == 1);
    if (n == 1)
        MPI_Group_translate_ranks(failed, 1, &zero, world, &w3);
    CHECK(w3 == 3);
    MPI_Group_free(&failed);
    MPI_Group_free(&world);
    int rc = eclass(MPI_Win_free(&win));
    CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
    CHECK(win == MPI_WIN_NULL);

    MPI_Comm shrunk;
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk) == MPI_SUCCESS);
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, shrunk, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win) == MPI_SUCCESS);
    CHECK(MPI_Put(&v, 1, MPI_LONG, peer, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock(peer, win) == MPI_SUCCESS);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS);
    MPI_Comm_free(&shrunk);
    return mtest_finish();
}
