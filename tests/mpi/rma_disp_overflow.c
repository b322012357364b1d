/* rma_disp_overflow.c: a target displacement whose product with the displacement unit does not
 * fit in an MPI_Aint names no memory of the window (docs/rma.md, Errors): target_disp 2^61 + 1
 * with disp_unit 8 is byte 2^64 + 8, which a wrapping multiplication would turn into element 1.
 * Every data-movement call (the request-based ones included) raises MPI_ERR_RMA_RANGE and the
 * target's memory is untouched, in windows of every flavour with static memory, small and
 * claiming the largest size; so does a target datatype whose extent times the count wraps, a
 * negative extent included. A dynamic window's address range that wraps past the end of the
 * address space is not attached memory, and cannot be attached. Windows whose memory cannot exist (one member's
 * MPI_Win_allocate of the largest size, MPI_Win_allocate_shared segments whose sum wraps) are
 * refused with MPI_ERR_NO_MEM at every member. Ring pattern: rank r targets r+1 (itself with 1 rank),
 * inside a lock_all epoch. */
#include <stdint.h>
#include <string.h>

#include "rmaft.h"

#define N 8
#define BIG ((MPI_Aint)1 << 61) /* BIG * 8 == 2^64 */

/* Every data-movement call at target `t`, displacement `disp` (count 1 of `tdt` at the
 * target); each must raise `want`. */
static void every_call(MPI_Win win, int t, MPI_Aint disp, MPI_Datatype tdt, int tcount, int want)
{
    long v[4] = {-1, -1, -1, -1}, r[4] = {0}, cmp = 0;
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK(eclass(MPI_Put(v, tcount, MPI_LONG, t, disp, tcount, tdt, win)) == want);
    CHECK(eclass(MPI_Get(r, tcount, MPI_LONG, t, disp, tcount, tdt, win)) == want);
    CHECK(eclass(MPI_Accumulate(v, tcount, MPI_LONG, t, disp, tcount, tdt, MPI_SUM, win)) ==
          want);
    CHECK(eclass(MPI_Get_accumulate(v, tcount, MPI_LONG, r, tcount, MPI_LONG, t, disp, tcount,
                                    tdt, MPI_SUM, win)) == want);
    if (tdt == MPI_LONG) {
        CHECK(eclass(MPI_Fetch_and_op(v, r, MPI_LONG, t, disp, MPI_SUM, win)) == want);
        CHECK(eclass(MPI_Compare_and_swap(v, &cmp, r, MPI_LONG, t, disp, win)) == want);
    }
    CHECK(eclass(MPI_Rput(v, tcount, MPI_LONG, t, disp, tcount, tdt, win, &req)) == want);
    CHECK(req == MPI_REQUEST_NULL || MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    req = MPI_REQUEST_NULL;
    CHECK(eclass(MPI_Rget(r, tcount, MPI_LONG, t, disp, tcount, tdt, win, &req)) == want);
    CHECK(req == MPI_REQUEST_NULL || MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    req = MPI_REQUEST_NULL;
    CHECK(eclass(MPI_Raccumulate(v, tcount, MPI_LONG, t, disp, tcount, tdt, MPI_SUM, win,
                                 &req)) == want);
    CHECK(req == MPI_REQUEST_NULL || MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    req = MPI_REQUEST_NULL;
    CHECK(eclass(MPI_Rget_accumulate(v, tcount, MPI_LONG, r, tcount, MPI_LONG, t, disp, tcount,
                                     tdt, MPI_SUM, win, &req)) == want);
    CHECK(req == MPI_REQUEST_NULL || MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
}

/* A window of disp_unit 8 over mem (filled with 0..N-1) claiming `size` bytes; errors return. */
static MPI_Win window_over(long *mem, MPI_Aint size)
{
    for (int i = 0; i < N; i++)
        mem[i] = i;
    MPI_Win win;
    MPI_Win_create(mem, size, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    return win;
}

static int untouched(const long *mem)
{
    for (int i = 0; i < N; i++)
        if (mem[i] != i)
            return 0;
    return 1;
}

/* A window over mem claiming `size` bytes, disp_unit 8: the calls at BIG + 1 (element 1 if the
 * product wrapped) and far displacements raise, and no member's memory changed. */
static void static_window(MPI_Aint size, int right)
{
    long mem[N];
    MPI_Win win = window_over(mem, size);
    MPI_Win_lock_all(0, win);
    every_call(win, right, BIG + 1, MPI_LONG, 1, MPI_ERR_RMA_RANGE);
    every_call(win, right, (MPI_Aint)(((uint64_t)1 << 63) / 8), MPI_LONG, 1, MPI_ERR_RMA_RANGE);
    every_call(win, right, INT64_MAX, MPI_LONG, 1, MPI_ERR_RMA_RANGE);
    every_call(win, right, -1, MPI_LONG, 1, MPI_ERR_DISP);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(untouched(mem));
    MPI_Win_free(&win);
}

/* Target datatypes whose count * extent wraps: extent 2^62 (4 elements: 2^64, element 0 if it
 * wrapped) and -2^62 (3 steps back: -3 * 2^62). */
static void wrapping_types(int right)
{
    long mem[N];
    MPI_Win win = window_over(mem, sizeof mem);
    MPI_Datatype up, down;
    MPI_Type_create_resized(MPI_LONG, 0, (MPI_Aint)1 << 62, &up);
    MPI_Type_commit(&up);
    MPI_Type_create_resized(MPI_LONG, 0, -((MPI_Aint)1 << 62), &down);
    MPI_Type_commit(&down);
    MPI_Win_lock_all(0, win);
    every_call(win, right, 0, up, 4, MPI_ERR_RMA_RANGE);
    every_call(win, right, 0, down, 4, MPI_ERR_RMA_RANGE);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(untouched(mem));
    MPI_Type_free(&up);
    MPI_Type_free(&down);
    MPI_Win_free(&win);
}

/* A dynamic window: a range starting 8 bytes below the end of the address space wraps to 24,
 * one element there ends exactly at the wrap: neither is attached memory. Memory running past
 * the end of the address space cannot be attached (MPI_ERR_SIZE). */
static void dynamic_window(int right)
{
    long mem[N];
    for (int i = 0; i < N; i++)
        mem[i] = i;
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(MPI_Win_attach(win, mem, sizeof mem) == MPI_SUCCESS);
    CHECK(eclass(MPI_Win_attach(win, (void *)(UINTPTR_MAX - 15), 64)) == MPI_ERR_SIZE);
    MPI_Win_lock_all(0, win);
    every_call(win, right, (MPI_Aint)-8, MPI_LONG, 4, MPI_ERR_RMA_RANGE);
    every_call(win, right, (MPI_Aint)-8, MPI_LONG, 1, MPI_ERR_RMA_RANGE);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(untouched(mem));
    CHECK(MPI_Win_detach(win, mem) == MPI_SUCCESS);
    MPI_Win_free(&win);
}

/* Creation that cannot give every member its memory fails at every member, none waiting. */
static void impossible_windows(int rank, int size)
{
    void *base = NULL;
    MPI_Win win = MPI_WIN_NULL;
    MPI_Aint huge = INT64_MAX;
    CHECK(eclass(MPI_Win_allocate(rank == 0 ? huge : 8, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                                  &win)) == MPI_ERR_NO_MEM);
    CHECK(win == MPI_WIN_NULL);
    /* 2^62 each: the segments of two members already exceed the address space. */
    MPI_Aint half = (MPI_Aint)1 << 62;
    CHECK(eclass(MPI_Win_allocate_shared(size > 1 ? half : huge, 8, MPI_INFO_NULL,
                                         MPI_COMM_WORLD, &base, &win)) == MPI_ERR_NO_MEM);
    CHECK(win == MPI_WIN_NULL);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int right = (rank + 1) % size;
    static_window(N * sizeof(long), right);
    /* Erroneous, but accepted at creation (nothing checks memory): the size never makes an
     * overflowing displacement valid. */
    static_window(INT64_MAX, right);
    wrapping_types(right);
    dynamic_window(right);
    impossible_windows(rank, size);
    return mtest_finish();
}
