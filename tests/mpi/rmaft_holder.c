/* rmaft_holder.c: a lock whose holder dies.
 *
 * Rule checked (paraphrase of the one-sided section of the fault-tolerance chapter, not a
 * verbatim quote): no operation blocks forever because of a failed process; an operation that
 * cannot complete because of a failure raises MPI_ERR_PROC_FAILED. Our documented rule for a
 * lock whose holder died (docs/rma.md): every later request at that target that conflicts with
 * the dead holder's lock (any request after an exclusive holder, an exclusive request after a
 * shared one), already waiting or not, raises MPI_ERR_PROC_FAILED and acquires nothing; a
 * compatible request (shared after shared) is granted; other targets are not concerned.
 *
 * MINI_MPI_FAULTS='kill 1 after MPI_Win_lock#1' (4 ranks; arg=exclusive or arg=shared): rank 1
 * locks target 0 and dies at its next MPI call, holding the lock. Rank 2 had asked for an
 * exclusive lock of target 0 first and waits; it raises MPI_ERR_PROC_FAILED. Rank 3, after
 * learning of the death, asks for a shared lock: MPI_ERR_PROC_FAILED after an exclusive holder,
 * granted after a shared one. Rank 0 locks target 3 exclusively: granted.
 *
 * arg=waiting, MINI_MPI_FAULTS='kill 1 after MPI_Send#1': rank 1 tells rank 2 it holds the
 * exclusive lock, then dies; rank 2 is already waiting for the lock when the death is published,
 * and raises MPI_ERR_PROC_FAILED all the same.
 *
 * arg=poison, MINI_MPI_FAULTS='kill 1 after MPI_Put#1', MINI_MPI_POISON=1: rank 1 locks target
 * 0 exclusively, puts into element 0 and dies: its epoch never ends, so element 0 is poisoned
 * and element 1 keeps its value.
 */
#include "rmaft.h"

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const char *mode = argc > 1 ? argv[1] : "exclusive";
    int shared = !strcmp(mode, "shared"), poison = !strcmp(mode, "poison");
    int waiting = !strcmp(mode, "waiting");
    long mem[2] = {-5, -6}, v = 9;
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int token = 0;
    if (rank == 1) {
        CHECK(MPI_Win_lock(shared ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, 0, 0, win) ==
              MPI_SUCCESS);
        if (poison)
            CHECK(MPI_Put(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
        MPI_Send(&token, 1, MPI_INT, 2, 0, MPI_COMM_WORLD); /* dies on entry, or after it */
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(0);
    }
    if (rank == 2) {
        /* Waits behind the holder when it is exclusive, before or after its death. */
        int rc = MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(eclass(rc) == (waiting ? MPI_SUCCESS : MPI_ERR_PROC_FAILED));
        CHECK(eclass(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win)) == MPI_ERR_PROC_FAILED);
        CHECK(eclass(MPI_Win_unlock(0, win)) == MPI_ERR_PROC_FAILED); /* nothing held */
    }
    MPI_Comm live;
    CHECK(eclass(MPI_Barrier(MPI_COMM_WORLD)) == MPI_ERR_PROC_FAILED);
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &live) == MPI_SUCCESS);
    if (rank == 3) {
        int rc = MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        if (shared) {
            CHECK(rc == MPI_SUCCESS);
            CHECK(MPI_Win_unlock(0, win) == MPI_SUCCESS);
        } else {
            CHECK(eclass(rc) == MPI_ERR_PROC_FAILED);
        }
    }
    if (rank == 0) {
        CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 3, 0, win) == MPI_SUCCESS);
        CHECK(MPI_Win_unlock(3, win) == MPI_SUCCESS);
        if (poison)
            CHECK(rmaft_poisoned(&mem[0], sizeof(long)));
        else
            CHECK(mem[0] == -5);
        CHECK(mem[1] == -6);
    }
    CHECK(MPI_Barrier(live) == MPI_SUCCESS);
    MPI_Comm_free(&live);
    int rc = eclass(MPI_Win_free(&win));
    CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
    CHECK(win == MPI_WIN_NULL);
    return mtest_finish();
}
