/* rmaft_lock.c: a lock on a dead target, and its retry (the one-sided sections of Process
 * Fault Tolerance: a lock targeting a failed process raises MPI_ERR_PROC_FAILED, and that lock
 * can never be acquired again). MINI_MPI_FAULTS='kill 2 at MPI_Barrier#1': each survivor's
 * exclusive and shared locks of rank 2 raise MPI_ERR_PROC_FAILED, every retry too, and no lock
 * is held afterwards: MPI_Win_unlock raises MPI_ERR_PROC_FAILED too ("all subsequent
 * operations on the lock must raise MPI_ERR_PROC_FAILED"). */
#include "mtest.h"

static int eclass(int rc)
{
    int c;
    MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    long mem[4] = {0};
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(eclass(MPI_Barrier(MPI_COMM_WORLD)) == MPI_ERR_PROC_FAILED); /* rank 2 dies here */
    for (int retry = 0; retry < 3; retry++) {
        CHECK(eclass(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win)) == MPI_ERR_PROC_FAILED);
        CHECK(eclass(MPI_Win_unlock(2, win)) == MPI_ERR_PROC_FAILED);
        CHECK(eclass(MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win)) == MPI_ERR_PROC_FAILED);
        CHECK(eclass(MPI_Win_unlock(2, win)) == MPI_ERR_PROC_FAILED);
    }
    int rc = eclass(MPI_Win_free(&win));
    CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
    CHECK(win == MPI_WIN_NULL);
    return mtest_finish();
}
