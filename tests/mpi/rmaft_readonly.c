/* rmaft_readonly.c: memory only read in a failed epoch stays valid; memory written is poisoned.
 *
 * Rule checked (paraphrase of the one-sided section of the fault-tolerance chapter, not a
 * verbatim quote): after a process failure is reported for an epoch, the window memory that
 * operations of that epoch targeted is undefined, except memory that was only read (by
 * MPI_Get, or MPI_Get_accumulate with MPI_NO_OP). With MINI_MPI_POISON=1 the emulator writes
 * its pattern (every byte 0xFF) over exactly the bytes that were targeted by writes.
 *
 * MINI_MPI_FAULTS='kill 3 at MPI_Barrier#1', MINI_MPI_POISON=1 (4 ranks): in a fence epoch
 * each survivor reads element 0 of its neighbour with MPI_Get and element 1 with
 * MPI_Get_accumulate(MPI_NO_OP), writes elements 2 and 4 (a put of a strided type skipping
 * element 3) and accumulates into element 5; the fence raises MPI_ERR_PROC_FAILED. Elements 0,
 * 1 and 3 keep their values; 2, 4 and 5 are poisoned; the values read are right.
 */
#include "rmaft.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    long mem[6], two[2] = {1, 2}, one = 1, got[2] = {0, 0};
    for (int i = 0; i < 6; i++)
        mem[i] = 10 * rank + i;
    MPI_Datatype strided;
    MPI_Type_vector(2, 1, 2, MPI_LONG, &strided);
    MPI_Type_commit(&strided);
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(MPI_Win_fence(0, win) == MPI_SUCCESS);
    CHECK(eclass(MPI_Barrier(MPI_COMM_WORLD)) == MPI_ERR_PROC_FAILED); /* rank 3 dies */
    int next = (rank + 1) % (size - 1);
    CHECK(MPI_Get(&got[0], 1, MPI_LONG, next, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
    CHECK(MPI_Get_accumulate(NULL, 0, MPI_LONG, &got[1], 1, MPI_LONG, next, 1, 1, MPI_LONG,
                             MPI_NO_OP, win) == MPI_SUCCESS);
    CHECK(MPI_Put(two, 2, MPI_LONG, next, 2, 1, strided, win) == MPI_SUCCESS);
    CHECK(MPI_Accumulate(&one, 1, MPI_LONG, next, 5, 1, MPI_LONG, MPI_SUM, win) == MPI_SUCCESS);
    CHECK(eclass(MPI_Win_fence(0, win)) == MPI_ERR_PROC_FAILED);
    CHECK(got[0] == 10 * next && got[1] == 10 * next + 1);
    CHECK(mem[0] == 10 * rank && mem[1] == 10 * rank + 1 && mem[3] == 10 * rank + 3);
    if (rmaft_poison_on()) {
        CHECK(rmaft_poisoned(&mem[2], sizeof(long)));
        CHECK(rmaft_poisoned(&mem[4], 2 * sizeof(long)));
    } else {
        CHECK(mem[2] == 1 && mem[4] == 2 && mem[5] == 10 * rank + 6);
    }
    MPI_Type_free(&strided);
    int rc = eclass(MPI_Win_free(&win));
    CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
    CHECK(win == MPI_WIN_NULL);
    return mtest_finish();
}
