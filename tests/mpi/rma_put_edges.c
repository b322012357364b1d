/* rma_put_edges.c: MPI_Put of contiguous predefined types in passive-target epochs at the edges
 * of the window (the last bytes, one byte past them, a displacement far outside, a displacement
 * unit), into the caller's own window with the origin overlapping the target, and the errors
 * of MPI_Win_flush and MPI_Win_flush_local (rank, epoch). Every put is checked by reading the
 * target memory after the epoch. Ring pattern: rank r targets r+1. */
#include <stdint.h>
#include <string.h>

#include "mtest.h"

#define BYTES 64

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size;

    /* Byte window. */
    char mem[BYTES];
    memset(mem, 0, sizeof mem);
    MPI_Win win;
    MPI_Win_create(mem, BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int64_t v = 0x0102030405060708 + rank;
    int three[3] = {rank + 1, rank + 2, rank + 3};

    /* Outside an epoch: MPI_ERR_RMA_SYNC, nothing moves. */
    CHECK(MPI_Put(&v, 1, MPI_INT64_T, right, 0, 1, MPI_INT64_T, win) == MPI_ERR_RMA_SYNC);
    CHECK(MPI_Win_flush(right, win) == MPI_ERR_RMA_SYNC);
    CHECK(MPI_Win_flush_local(right, win) == MPI_ERR_RMA_SYNC);

    MPI_Win_lock_all(0, win);
    CHECK(MPI_Put(&v, 1, MPI_INT64_T, right, BYTES - 8, 1, MPI_INT64_T, win) == MPI_SUCCESS);
    CHECK(MPI_Put(&v, 1, MPI_INT64_T, right, BYTES - 7, 1, MPI_INT64_T, win) ==
          MPI_ERR_RMA_RANGE);
    CHECK(MPI_Put(&v, 1, MPI_INT64_T, right, BYTES, 1, MPI_INT64_T, win) == MPI_ERR_RMA_RANGE);
    CHECK(MPI_Put(&v, 1, MPI_INT64_T, right, (MPI_Aint)1 << 60, 1, MPI_INT64_T, win) ==
          MPI_ERR_RMA_RANGE);
    CHECK(MPI_Put(&v, 1, MPI_INT64_T, right, -1, 1, MPI_INT64_T, win) == MPI_ERR_DISP);
    CHECK(MPI_Put(&v, 1, MPI_INT64_T, size, 0, 1, MPI_INT64_T, win) == MPI_ERR_RANK);
    CHECK(MPI_Put(&v, 1, MPI_INT64_T, right, 0, 2, MPI_INT, win) == MPI_SUCCESS);
    CHECK(MPI_Put(&v, 1, MPI_INT64_T, right, 0, 1, MPI_INT, win) == MPI_ERR_TYPE);
    CHECK(MPI_Put(three, 3, MPI_INT, right, 8, 3, MPI_INT, win) == MPI_SUCCESS);
    CHECK(MPI_Put(&v, 0, MPI_INT64_T, right, BYTES, 0, MPI_INT64_T, win) == MPI_SUCCESS);
    CHECK(MPI_Put(&v, 1, MPI_INT64_T, MPI_PROC_NULL, 0, 1, MPI_INT64_T, win) == MPI_SUCCESS);
    CHECK(MPI_Win_flush(right, win) == MPI_SUCCESS);
    CHECK(MPI_Win_flush_local(right, win) == MPI_SUCCESS);
    CHECK(MPI_Win_flush(MPI_PROC_NULL, win) == MPI_SUCCESS);
    CHECK(MPI_Win_flush(size, win) == MPI_ERR_RANK);
    CHECK(MPI_Win_flush(-5, win) == MPI_ERR_RANK);
    CHECK(MPI_Win_flush_local(size, win) == MPI_ERR_RANK);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    int left = (rank + size - 1) % size;
    int64_t want = 0x0102030405060708 + left, got;
    memcpy(&got, mem + BYTES - 8, 8);
    CHECK(got == want);
    memcpy(&got, mem, 8);
    CHECK(got == want);
    int got3[3];
    memcpy(got3, mem + 8, sizeof got3);
    CHECK(got3[0] == left + 1 && got3[1] == left + 2 && got3[2] == left + 3);
    MPI_Barrier(MPI_COMM_WORLD);

    /* Into the caller's own window, the origin overlapping the target: the bytes the origin
     * held before the put, as memmove leaves them. */
    for (int i = 0; i < BYTES; i++)
        mem[i] = (char)i;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    CHECK(MPI_Put(mem, 8, MPI_BYTE, rank, 4, 8, MPI_BYTE, win) == MPI_SUCCESS);
    CHECK(MPI_Put(mem + 32, 3, MPI_INT, rank, 30, 3, MPI_INT, win) == MPI_SUCCESS);
    CHECK(MPI_Win_flush(rank, win) == MPI_SUCCESS);
    CHECK(MPI_Win_flush(right == rank ? MPI_PROC_NULL : right, win) ==
          (right == rank ? MPI_SUCCESS : MPI_ERR_RMA_SYNC));
    MPI_Win_unlock(rank, win);
    for (int i = 0; i < 8; i++)
        CHECK(mem[4 + i] == (char)i);
    for (int i = 0; i < 12; i++)
        CHECK(mem[30 + i] == (char)(32 + i));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);

    /* A displacement unit of 8: the last element fits, the one after does not. */
    int64_t lmem[8] = {0};
    MPI_Win_create(lmem, sizeof lmem, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    int64_t two[2] = {rank + 10, rank + 20};
    CHECK(MPI_Put(two, 2, MPI_INT64_T, right, 6, 2, MPI_INT64_T, win) == MPI_SUCCESS);
    CHECK(MPI_Put(two, 2, MPI_INT64_T, right, 7, 2, MPI_INT64_T, win) == MPI_ERR_RMA_RANGE);
    CHECK(MPI_Put(two, 1, MPI_INT64_T, right, 8, 1, MPI_INT64_T, win) == MPI_ERR_RMA_RANGE);
    CHECK(MPI_Win_flush(right, win) == MPI_SUCCESS);
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(lmem[6] == left + 10 && lmem[7] == left + 20 && lmem[0] == 0);
    MPI_Win_free(&win);
    return mtest_finish();
}
