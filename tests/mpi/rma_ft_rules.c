/* rma_ft_rules.c: the window rules of the fault-tolerance chapter that concern which class a
 * call raises and on which handler, with MINI_MPI_FAULTS='kill 2 at MPI_Barrier#1' (4 ranks):
 *
 *  sticky   "all subsequent operations on the lock must raise MPI_ERR_PROC_FAILED": after
 *           MPI_Win_lock on the failed target raised it, the unlock, data movement (to the dead
 *           and to a live member), flushes, request-based calls, unlock_all, complete, wait and
 *           test, whose epochs the failure kept from opening, raise it too (not
 *           MPI_ERR_RMA_SYNC); likewise after a refused MPI_Win_lock_all.
 *  nocheck  MPI_Win_lock(MPI_MODE_NOCHECK) of the failed target and MPI_Win_lock_all(NOCHECK)
 *           with a failed member raise MPI_ERR_PROC_FAILED as the checked forms do, and
 *           MPI_ERR_REVOKED on a revoked window; no epoch opens.
 *  revoked  on a window both revoked and failed, revocation wins: MPI_Win_lock, lock_all,
 *           start, post (and the calls after them) raise MPI_ERR_REVOKED.
 *  free     the MPI_ERR_PROC_FAILED of MPI_Win_free goes to the window's handler: with
 *           MPI_COMM_WORLD's handler fatal, a window returning errors returns it, and a user
 *           handler on the window is called with it; the window is freed either way. */
#include <string.h>

#include "rmaft.h"

static int rank, size;

static MPI_Win new_window(long *mem)
{
    MPI_Win win;
    MPI_Win_create(mem, 4 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    return win;
}

/* The failure is sticky: every call raises `want`, none opens or needs an epoch. */
static void every_later_call(MPI_Win win, int want)
{
    long v = 1, r = 0;
    int flag = 0;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Group world, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int one = 1;
    MPI_Group_incl(world, 1, &one, &g);
    CHECK(eclass(MPI_Win_unlock(2, win)) == want);
    CHECK(eclass(MPI_Put(&v, 1, MPI_LONG, 2, 0, 1, MPI_LONG, win)) == want);
    CHECK(eclass(MPI_Put(&v, 1, MPI_LONG, 1, 0, 1, MPI_LONG, win)) == want);
    CHECK(eclass(MPI_Get(&r, 1, MPI_LONG, 1, 0, 1, MPI_LONG, win)) == want);
    CHECK(eclass(MPI_Win_flush(2, win)) == want);
    CHECK(eclass(MPI_Win_flush_all(win)) == want);
    CHECK(eclass(MPI_Win_flush_local(1, win)) == want);
    CHECK(eclass(MPI_Rput(&v, 1, MPI_LONG, 2, 0, 1, MPI_LONG, win, &req)) == want);
    CHECK(req == MPI_REQUEST_NULL);
    CHECK(eclass(MPI_Win_unlock_all(win)) == want);
    CHECK(eclass(MPI_Win_complete(win)) == want);
    CHECK(eclass(MPI_Win_wait(win)) == want);
    CHECK(eclass(MPI_Win_test(win, &flag)) == want);
    CHECK(eclass(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win)) == want);
    CHECK(eclass(MPI_Win_lock_all(0, win)) == want);
    CHECK(eclass(MPI_Win_start(g, 0, win)) == want);
    CHECK(eclass(MPI_Win_post(g, 0, win)) == want);
    CHECK(eclass(MPI_Win_unlock(1, win)) == want); /* none of them opened an epoch */
    MPI_Group_free(&g);
    MPI_Group_free(&world);
}

static void free_window(MPI_Win *win)
{
    int rc = eclass(MPI_Win_free(win));
    CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
    CHECK(*win == MPI_WIN_NULL);
}

static void sticky(void)
{
    long mem[4] = {0};
    MPI_Win win = new_window(mem), win2 = new_window(mem);
    CHECK(eclass(MPI_Barrier(MPI_COMM_WORLD)) == MPI_ERR_PROC_FAILED); /* rank 2 dies here */
    CHECK(eclass(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win)) == MPI_ERR_PROC_FAILED);
    every_later_call(win, MPI_ERR_PROC_FAILED);
    CHECK(eclass(MPI_Win_lock_all(0, win2)) == MPI_ERR_PROC_FAILED);
    every_later_call(win2, MPI_ERR_PROC_FAILED);
    free_window(&win);
    free_window(&win2);
}

static void nocheck(void)
{
    long mem[4] = {0};
    MPI_Win win = new_window(mem), win2 = new_window(mem), win3 = new_window(mem);
    CHECK(eclass(MPI_Barrier(MPI_COMM_WORLD)) == MPI_ERR_PROC_FAILED); /* rank 2 dies here */
    CHECK(eclass(MPI_Win_lock(MPI_LOCK_SHARED, 2, MPI_MODE_NOCHECK, win)) ==
          MPI_ERR_PROC_FAILED);
    CHECK(eclass(MPI_Win_unlock(2, win)) == MPI_ERR_PROC_FAILED); /* no epoch opened */
    CHECK(eclass(MPI_Win_lock_all(MPI_MODE_NOCHECK, win2)) == MPI_ERR_PROC_FAILED);
    CHECK(eclass(MPI_Win_unlock_all(win2)) == MPI_ERR_PROC_FAILED);
    /* A revoked window (no failure raised on it yet): no lock can be had either. */
    CHECK(MPIX_Win_revoke(win3) == MPI_SUCCESS);
    CHECK(eclass(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, MPI_MODE_NOCHECK, win3)) ==
          MPI_ERR_REVOKED);
    CHECK(eclass(MPI_Win_lock_all(MPI_MODE_NOCHECK, win3)) == MPI_ERR_REVOKED);
    CHECK(eclass(MPI_Win_unlock_all(win3)) == MPI_ERR_RMA_SYNC); /* nothing opened */
    free_window(&win);
    free_window(&win2);
    CHECK(MPI_Win_free(&win3) == MPI_SUCCESS && win3 == MPI_WIN_NULL);
}

static void revoked(void)
{
    long mem[4] = {0};
    MPI_Win win = new_window(mem);
    CHECK(eclass(MPI_Barrier(MPI_COMM_WORLD)) == MPI_ERR_PROC_FAILED); /* rank 2 dies here */
    CHECK(eclass(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win)) == MPI_ERR_PROC_FAILED);
    /* Every survivor has the sticky failure before anyone revokes. */
    MPI_Comm live;
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &live) == MPI_SUCCESS);
    CHECK(MPI_Barrier(live) == MPI_SUCCESS);
    MPI_Comm_free(&live);
    CHECK(MPIX_Win_revoke(win) == MPI_SUCCESS);
    every_later_call(win, MPI_ERR_REVOKED);
    CHECK(eclass(MPI_Win_fence(0, win)) == MPI_ERR_REVOKED);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS && win == MPI_WIN_NULL);
}

static int handler_calls, handler_class;

static void win_handler(MPI_Win *win, int *code, ...)
{
    (void)win;
    handler_calls++;
    handler_class = eclass(*code);
}

static void free_handler(void)
{
    /* MPI_COMM_WORLD keeps its fatal handler: an error raised there would end the job. */
    long mem[4] = {0};
    MPI_Win win = new_window(mem), win2 = new_window(mem);
    MPI_Errhandler eh;
    MPI_Win_create_errhandler(win_handler, &eh);
    MPI_Win_set_errhandler(win2, eh);
    MPI_Errhandler_free(&eh); /* the window's reference keeps it */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    CHECK(eclass(MPI_Barrier(dup)) == MPI_ERR_PROC_FAILED); /* rank 2 dies here */
    /* Rank 2 never arrives: the free's synchronization fails at every survivor. */
    CHECK(eclass(MPI_Win_free(&win)) == MPI_ERR_PROC_FAILED);
    CHECK(win == MPI_WIN_NULL);
    CHECK(eclass(MPI_Win_free(&win2)) == MPI_ERR_PROC_FAILED);
    CHECK(win2 == MPI_WIN_NULL);
    CHECK(handler_calls == 1 && handler_class == MPI_ERR_PROC_FAILED);
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "free"))
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (!strcmp(mode, "sticky"))
        sticky();
    else if (!strcmp(mode, "nocheck"))
        nocheck();
    else if (!strcmp(mode, "revoked"))
        revoked();
    else if (!strcmp(mode, "free"))
        free_handler();
    else
        CHECK(!"mode: sticky, nocheck, revoked or free");
    return mtest_finish();
}
