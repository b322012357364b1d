/* rma_data.c: data movement (MPI-4.1 §12.3) with derived datatypes on both sides and a
 * displacement unit: Put, Get, Accumulate with every predefined op family, Get_accumulate,
 * Fetch_and_op (MPI_NO_OP, MPI_REPLACE), Compare_and_swap, the request-based forms, and the
 * argument errors (range, rank, displacement, op, type). Ring pattern: rank r targets r+1. */
#include <string.h>

#include "mtest.h"

#define N 16

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    long mem[4 * N];
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);

    /* Put: a contiguous origin into a strided target (every other element from disp 2). */
    MPI_Datatype strided;
    MPI_Type_vector(N, 1, 2, MPI_LONG, &strided);
    MPI_Type_commit(&strided);
    long src[2 * N], dst[N]; /* 2N: the strided origin below spans 2N - 1 elements */
    for (int i = 0; i < 2 * N; i++)
        src[i] = 1000 * rank + i;
    for (int i = 0; i < 4 * N; i++)
        mem[i] = -1;
    MPI_Win_fence(0, win);
    CHECK(MPI_Put(src, N, MPI_LONG, right, 2, 1, strided, win) == MPI_SUCCESS);
    MPI_Win_fence(0, win);
    for (int i = 0; i < N; i++)
        CHECK(mem[2 + 2 * i] == 1000 * left + i && mem[3 + 2 * i] == -1);
    /* Get: the strided target into a reversed origin (negative stride type). */
    MPI_Datatype reversed;
    MPI_Type_vector(N, 1, -1, MPI_LONG, &reversed);
    MPI_Type_commit(&reversed);
    CHECK(MPI_Get(dst + N - 1, 1, reversed, right, 2, 1, strided, win) == MPI_SUCCESS);
    MPI_Win_fence(0, win);
    for (int i = 0; i < N; i++)
        CHECK(dst[N - 1 - i] == 1000 * rank + i);

    /* Accumulate: every rank adds into rank 0's first N elements (atomic per element). */
    for (int i = 0; i < 4 * N; i++)
        mem[i] = 0;
    MPI_Win_fence(0, win);
    CHECK(MPI_Accumulate(src, N, MPI_LONG, 0, 0, N, MPI_LONG, MPI_SUM, win) == MPI_SUCCESS);
    MPI_Win_fence(0, win);
    if (rank == 0)
        for (int i = 0; i < N; i++)
            CHECK(mem[i] == 1000L * size * (size - 1) / 2 + (long)size * i);
    /* MAX, BOR, REPLACE with a strided origin */
    MPI_Win_fence(0, win);
    long one = rank + 1;
    CHECK(MPI_Accumulate(&one, 1, MPI_LONG, 0, 2 * N, 1, MPI_LONG, MPI_MAX, win) == 0);
    long bit = 1L << rank;
    CHECK(MPI_Accumulate(&bit, 1, MPI_LONG, 0, 2 * N + 1, 1, MPI_LONG, MPI_BOR, win) == 0);
    if (rank == size - 1)
        CHECK(MPI_Accumulate(src, 1, strided, 0, 3 * N, N, MPI_LONG, MPI_REPLACE, win) == 0);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        CHECK(mem[2 * N] == size);
        CHECK(mem[2 * N + 1] == (1L << size) - 1);
        for (int i = 0; i < N; i++)
            CHECK(mem[3 * N + i] == 1000L * (size - 1) + 2 * i);
    }
    /* Errors: op/type and range. */
    double d = 1.0;
    CHECK(MPI_Accumulate(&d, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, MPI_BOR, win) == MPI_ERR_OP);
    CHECK(MPI_Accumulate(&d, 1, MPI_DOUBLE, 0, 0, 1, MPI_LONG, MPI_SUM, win) == MPI_ERR_TYPE);
    MPI_Op user;
    MPI_Op_create((MPI_User_function *)(void *)main, 1, &user);
    CHECK(MPI_Accumulate(src, 1, MPI_LONG, 0, 0, 1, MPI_LONG, user, win) == MPI_ERR_OP);
    MPI_Op_free(&user);
    CHECK(MPI_Put(src, 2, MPI_LONG, 0, 4 * N - 1, 2, MPI_LONG, win) == MPI_ERR_RMA_RANGE);
    CHECK(MPI_Put(src, 1, MPI_LONG, 0, -1, 1, MPI_LONG, win) == MPI_ERR_DISP);
    CHECK(MPI_Put(src, 1, MPI_LONG, size, 0, 1, MPI_LONG, win) == MPI_ERR_RANK);
    CHECK(MPI_Put(src, -1, MPI_LONG, 0, 0, 1, MPI_LONG, win) == MPI_ERR_COUNT);
    CHECK(MPI_Put(src, 1, MPI_DATATYPE_NULL, 0, 0, 1, MPI_LONG, win) == MPI_ERR_TYPE);
    CHECK(MPI_Put(src, 1, MPI_LONG, MPI_PROC_NULL, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    CHECK(MPI_Put(src, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win) == MPI_ERR_RMA_SYNC);

    /* Passive target: fetch_and_op counter, compare_and_swap, get_accumulate. */
    for (int i = 0; i < 4 * N; i++)
        mem[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    long inc = 1, old, got = -7;
    for (int k = 0; k < 100; k++)
        CHECK(MPI_Fetch_and_op(&inc, &old, MPI_LONG, 0, 0, MPI_SUM, win) == MPI_SUCCESS);
    /* CAS: each rank claims slot 1 only if it is still 0; exactly one wins. */
    long zero = 0, me = rank + 1, prev;
    CHECK(MPI_Compare_and_swap(&me, &zero, &prev, MPI_LONG, 0, 1, win) == MPI_SUCCESS);
    long won = prev == 0;
    CHECK(MPI_Compare_and_swap(&me, &zero, &prev, MPI_DOUBLE, 0, 1, win) == MPI_ERR_TYPE);
    /* Get_accumulate: fetch-and-add of a 2-element block */
    long two[2] = {1, 2}, fetched[2];
    CHECK(MPI_Get_accumulate(two, 2, MPI_LONG, fetched, 2, MPI_LONG, 0, 2, 2, MPI_LONG, MPI_SUM,
                             win) == MPI_SUCCESS);
    /* Request-based */
    MPI_Request req[2];
    CHECK(MPI_Rput(&me, 1, MPI_LONG, right, 8 + 0, 1, MPI_LONG, win, &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Raccumulate(&inc, 1, MPI_LONG, 0, 9, 1, MPI_LONG, MPI_SUM, win, &req[1]) == 0);
    CHECK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Win_flush_all(win) == MPI_SUCCESS);
    MPI_Win_unlock_all(win);
    CHECK(MPI_Rget(&got, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win, &req[0]) == MPI_ERR_RMA_SYNC);
    MPI_Barrier(MPI_COMM_WORLD);
    long wins;
    MPI_Allreduce(&won, &wins, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(wins == 1);
    if (rank == 0) {
        CHECK(mem[0] == 100L * size);
        CHECK(mem[1] >= 1 && mem[1] <= size);
        CHECK(mem[2] == size && mem[3] == 2L * size);
        CHECK(mem[9] == size);
    }
    CHECK(mem[8] == left + 1);
    /* Fetch_and_op with MPI_NO_OP reads; with MPI_REPLACE swaps. */
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    CHECK(MPI_Fetch_and_op(NULL, &got, MPI_LONG, 0, 0, MPI_NO_OP, win) == MPI_SUCCESS &&
          got == 100L * size);
    CHECK(MPI_Rget(&old, 1, MPI_LONG, 0, 9, 1, MPI_LONG, win, &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE) == MPI_SUCCESS && old == size);
    MPI_Win_unlock(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        long nv = 5;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        CHECK(MPI_Fetch_and_op(&nv, &got, MPI_LONG, 0, 0, MPI_REPLACE, win) == MPI_SUCCESS &&
              got == 100L * size);
        MPI_Win_unlock(0, win);
        CHECK(mem[0] == 5);
    }
    MPI_Type_free(&strided);
    MPI_Type_free(&reversed);
    MPI_Win_free(&win);

    /* Dynamic window: addresses as displacements. */
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    long region[4] = {0};
    MPI_Aint addr, addrs[64];
    MPI_Win_attach(win, region, sizeof region);
    MPI_Get_address(region, &addr);
    MPI_Allgather(&addr, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);
    MPI_Win_fence(0, win);
    CHECK(MPI_Put(&me, 1, MPI_LONG, right, MPI_Aint_add(addrs[right], sizeof(long)), 1, MPI_LONG,
                  win) == MPI_SUCCESS);
    CHECK(MPI_Put(&me, 1, MPI_LONG, right, MPI_Aint_add(addrs[right], 4 * sizeof(long)), 1,
                  MPI_LONG, win) == MPI_ERR_RMA_RANGE);
    MPI_Win_fence(0, win);
    CHECK(region[1] == left + 1);
    CHECK(MPI_Aint_diff(MPI_Aint_add(addr, 24), addr) == 24);
    MPI_Win_detach(win, region);
    MPI_Win_free(&win);
    return mtest_finish();
}
