/* rma_sync.c: synchronization (MPI-4.1 §12.5): fence epochs and assertions, PSCW with start
 * issued before the matching post, exclusive locks that really exclude (a read-modify-write of
 * plain loads and stores under MPI_LOCK_EXCLUSIVE from every rank), shared locks held together,
 * lock_all, flush, Win_sync, and every synchronization misuse giving MPI_ERR_RMA_SYNC. */
#include "mtest.h"

#define ROUNDS 200

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    long mem[4] = {0};
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);

    /* Fence: NOPRECEDE opens, NOSUCCEED closes. */
    CHECK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win) == MPI_SUCCESS);
    long v = rank;
    CHECK(MPI_Put(&v, 1, MPI_LONG, right, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
    CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED | MPI_MODE_NOSTORE, win) == MPI_SUCCESS);
    CHECK(mem[0] == left);
    CHECK(MPI_Win_fence(1 << 30, win) == MPI_ERR_ASSERT);

    /* PSCW in a ring: everyone starts (towards right) before posting (to left). */
    MPI_Group world, gright, gleft;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &right, &gright);
    MPI_Group_incl(world, 1, &left, &gleft);
    for (int round = 0; round < 3; round++) {
        CHECK(MPI_Win_start(gright, 0, win) == MPI_SUCCESS);
        CHECK(MPI_Win_post(gleft, 0, win) == MPI_SUCCESS);
        v = 100 * round + rank;
        CHECK(MPI_Put(&v, 1, MPI_LONG, right, 1, 1, MPI_LONG, win) == MPI_SUCCESS);
        CHECK(MPI_Win_start(gright, 0, win) == MPI_ERR_RMA_SYNC); /* nested */
        CHECK(MPI_Put(&v, 1, MPI_LONG, left, 1, 1, MPI_LONG, win) ==
              (left == right ? MPI_SUCCESS : MPI_ERR_RMA_SYNC)); /* not in the group */
        CHECK(MPI_Win_complete(win) == MPI_SUCCESS);
        if (round == 1) {
            int flag = 0;
            while (!flag)
                CHECK(MPI_Win_test(win, &flag) == MPI_SUCCESS);
        } else {
            CHECK(MPI_Win_wait(win) == MPI_SUCCESS);
        }
        CHECK(mem[1] == 100 * round + left);
    }
    CHECK(MPI_Win_complete(win) == MPI_ERR_RMA_SYNC);
    CHECK(MPI_Win_wait(win) == MPI_ERR_RMA_SYNC);
    MPI_Group_free(&gright);
    MPI_Group_free(&gleft);
    MPI_Group_free(&world);

    /* Exclusive locks exclude: a non-atomic increment of rank 0's mem[2] from every rank. */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < ROUNDS; k++) {
        long x;
        CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win) == MPI_SUCCESS);
        CHECK(MPI_Get(&x, 1, MPI_LONG, 0, 2, 1, MPI_LONG, win) == MPI_SUCCESS);
        CHECK(MPI_Win_flush(0, win) == MPI_SUCCESS);
        x++;
        CHECK(MPI_Put(&x, 1, MPI_LONG, 0, 2, 1, MPI_LONG, win) == MPI_SUCCESS);
        CHECK(MPI_Win_unlock(0, win) == MPI_SUCCESS);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        CHECK(mem[2] == (long)ROUNDS * size);

    /* Shared locks are held together: everyone holds rank 0 shared across a barrier. */
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win) == MPI_ERR_RMA_SYNC); /* twice */
    CHECK(MPI_Win_lock_all(0, win) == MPI_ERR_RMA_SYNC);
    CHECK(MPI_Win_flush(right, win) == (right == 0 ? MPI_SUCCESS : MPI_ERR_RMA_SYNC));
    CHECK(MPI_Win_fence(0, win) == MPI_ERR_RMA_SYNC);
    CHECK(MPI_Win_free(&win) == MPI_ERR_RMA_SYNC && win != MPI_WIN_NULL);
    CHECK(MPI_Win_unlock(0, win) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock(0, win) == MPI_ERR_RMA_SYNC);
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED + 7, 0, 0, win) == MPI_ERR_LOCKTYPE);
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win) == MPI_ERR_RANK);
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 0, win) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock(MPI_PROC_NULL, win) == MPI_SUCCESS);

    /* lock_all with Win_sync: a flag written by the left neighbour becomes visible. */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_Win_lock_all(0, win) == MPI_SUCCESS);
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win) == MPI_ERR_RMA_SYNC);
    v = 1;
    CHECK(MPI_Put(&v, 1, MPI_LONG, right, 3, 1, MPI_LONG, win) == MPI_SUCCESS);
    CHECK(MPI_Win_flush_local(right, win) == MPI_SUCCESS);
    while (1) {
        CHECK(MPI_Win_sync(win) == MPI_SUCCESS);
        if (__atomic_load_n(&mem[3], __ATOMIC_ACQUIRE) == 1)
            break;
        MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &(int){0}, MPI_STATUS_IGNORE);
    }
    CHECK(MPI_Win_unlock_all(win) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock_all(win) == MPI_ERR_RMA_SYNC);
    CHECK(MPI_Win_flush_all(win) == MPI_ERR_RMA_SYNC);
    /* NOCHECK locks acquire nothing but open the epoch. */
    CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, MPI_MODE_NOCHECK, win) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock(right, win) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS);
    return mtest_finish();
}
