/* rmaft_fence.c: a fence whose epoch involves a failed member.
 *
 * Rule checked (paraphrase of the one-sided section of the fault-tolerance chapter, not a
 * verbatim quote): a process failure is reported by the synchronization call that ends the
 * epoch, never by the put that starts an operation; the call raises MPI_ERR_PROC_FAILED when a
 * failure prevents the epoch from completing, and the operations that did not involve the
 * failed process are done.
 *
 * arg=missing, MINI_MPI_FAULTS='kill 3 at MPI_Barrier#1' (4 ranks): in an open fence epoch the
 * survivors learn of rank 3's death from a barrier, then put to rank 3 (returns MPI_SUCCESS, no
 * effect) and to their live neighbour (MPI_SUCCESS); the closing fence raises
 * MPI_ERR_PROC_FAILED at every survivor (rank 3 never arrives). With MINI_MPI_POISON=1 the
 * element each neighbour wrote is poisoned, the element nobody wrote keeps its value.
 *
 * arg=during, MINI_MPI_FAULTS='kill 1 during MPI_Win_fence#2': rank 1 arrives and dies inside
 * the fence; by the documented cut rule rank 0 (below it) gets MPI_SUCCESS, ranks 2 and 3
 * MPI_ERR_PROC_FAILED; after MPIX_Comm_get_failed and MPIX_Comm_failure_ack, MPIX_Comm_agree
 * over the communicator the window was made from gives every survivor the same decision (0: the
 * epoch failed somewhere). Rank 0, whose next fence epoch is open, writes into rank 2's memory
 * where the failed epoch wrote: with MINI_MPI_POISON=1 its value survives the poisoning.
 */
#include "rmaft.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int during = argc > 1 && !strcmp(argv[1], "during");
    long mem[2] = {-5, -6}, v = 100 + rank;
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(MPI_Win_fence(0, win) == MPI_SUCCESS);
    int next = (rank + 1) % size;
    if (!during) {
        CHECK(eclass(MPI_Barrier(MPI_COMM_WORLD)) == MPI_ERR_PROC_FAILED); /* rank 3 dies */
        /* Never at initiation: a put to the failed member returns MPI_SUCCESS. */
        CHECK(MPI_Put(&v, 1, MPI_LONG, 3, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
        int live_next = next == 3 ? 0 : next;
        CHECK(MPI_Put(&v, 1, MPI_LONG, live_next, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
        CHECK(eclass(MPI_Win_fence(0, win)) == MPI_ERR_PROC_FAILED);
        if (rmaft_poison_on())
            CHECK(rmaft_poisoned(&mem[0], sizeof(long)));
        else
            CHECK(mem[0] == 100 + (rank == 0 ? 2 : rank - 1));
        CHECK(mem[1] == -6); /* not targeted */
    } else {
        CHECK(MPI_Put(&v, 1, MPI_LONG, next, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
        int rc = eclass(MPI_Win_fence(0, win)); /* rank 1 dies inside */
        CHECK(rc == (rank < 1 ? MPI_SUCCESS : MPI_ERR_PROC_FAILED));
        if (rank == 3 && rmaft_poison_on())
            CHECK(rmaft_poisoned(&mem[0], sizeof(long)));
        if (rank == 0) {
            CHECK(mem[0] == 100 + size - 1); /* its epoch completed */
            /* Its next epoch is open: it writes where rank 1 wrote in the failed one, maybe
             * before rank 2 poisons that epoch's writes. Its value must survive either way. */
            long w = 777;
            CHECK(MPI_Put(&w, 1, MPI_LONG, 2, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
        }
        /* The uniform decision: every survivor notices and acknowledges the failure (rank 0 was
         * not told of it by its fence), then agrees on the outcome. */
        int ok = rc == MPI_SUCCESS;
        MPI_Group failed;
        CHECK(MPIX_Comm_get_failed(MPI_COMM_WORLD, &failed) == MPI_SUCCESS);
        MPI_Group_free(&failed);
        CHECK(MPIX_Comm_failure_ack(MPI_COMM_WORLD) == MPI_SUCCESS);
        CHECK(MPIX_Comm_agree(MPI_COMM_WORLD, &ok) == MPI_SUCCESS);
        CHECK(ok == 0);
        if (rank == 2)
            CHECK(mem[0] == 777);
    }
    int rc = eclass(MPI_Win_free(&win));
    CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
    CHECK(win == MPI_WIN_NULL);
    return mtest_finish();
}
