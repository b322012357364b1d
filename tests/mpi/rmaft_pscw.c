/* rmaft_pscw.c: PSCW epochs with a failed peer.
 *
 * Rule checked (paraphrase of the one-sided section of the fault-tolerance chapter, not a
 * verbatim quote): failures are reported in the synchronization calls (MPI_Win_complete,
 * MPI_Win_wait, MPI_Win_test), not when an operation starts; a complete, wait or test that
 * raises MPI_ERR_PROC_FAILED still ends its epoch, and the operations with live processes are
 * done.
 *
 * arg=target, MINI_MPI_FAULTS='kill 2 at MPI_Win_post#1' (3 ranks): rank 0 starts an access
 * epoch to {1, 2}; its puts to both return MPI_SUCCESS (the one to rank 2, which died before
 * posting, moves nothing); MPI_Win_complete raises MPI_ERR_PROC_FAILED and ends the epoch (a
 * second complete raises MPI_ERR_PROC_FAILED again: the failure is sticky); rank 1's MPI_Win_wait succeeds with the data.
 *
 * arg=origin, MINI_MPI_FAULTS='kill 1 at MPI_Win_complete#1': rank 1 puts to ranks 0 and 2 and
 * dies before completing; their MPI_Win_wait (rank 0) and MPI_Win_test (rank 2, which returns
 * flag 1) raise MPI_ERR_PROC_FAILED and end the exposure epoch (a later wait raises it
 * again: the failure is sticky); with MINI_MPI_POISON=1 the element rank 1 wrote is poisoned.
 */
#include "rmaft.h"

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int origin_dies = argc > 1 && !strcmp(argv[1], "origin");
    long mem[2] = {-5, -6}, v = 42;
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Group world, targets, origin;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    /* arg=origin: the origin is rank 1 (rank 0 must live to print the result). */
    int o = origin_dies ? 1 : 0, t[2] = {o == 0 ? 1 : 0, 2};
    MPI_Group_incl(world, 2, t, &targets);
    MPI_Group_incl(world, 1, &o, &origin);
    if (rank == o) {
        CHECK(MPI_Win_start(targets, 0, win) == MPI_SUCCESS);
        CHECK(MPI_Put(&v, 1, MPI_LONG, t[0], 0, 1, MPI_LONG, win) == MPI_SUCCESS);
        CHECK(MPI_Put(&v, 1, MPI_LONG, t[1], 0, 1, MPI_LONG, win) == MPI_SUCCESS);
        CHECK(eclass(MPI_Win_complete(win)) == MPI_ERR_PROC_FAILED); /* arg=target only */
        CHECK(eclass(MPI_Win_complete(win)) == MPI_ERR_PROC_FAILED); /* sticky */
    } else {
        CHECK(MPI_Win_post(origin, 0, win) == MPI_SUCCESS); /* arg=target: rank 2 dies */
        if (!origin_dies) {
            CHECK(MPI_Win_wait(win) == MPI_SUCCESS);
            CHECK(mem[0] == 42 && mem[1] == -6);
        } else {
            if (rank == 0) {
                CHECK(eclass(MPI_Win_wait(win)) == MPI_ERR_PROC_FAILED);
            } else {
                int flag = 0, rc;
                while ((rc = MPI_Win_test(win, &flag)) == MPI_SUCCESS && !flag)
                    CHECK(MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_SELF, &flag,
                                     MPI_STATUS_IGNORE) == MPI_SUCCESS);
                CHECK(eclass(rc) == MPI_ERR_PROC_FAILED && flag == 1);
            }
            CHECK(eclass(MPI_Win_wait(win)) == MPI_ERR_PROC_FAILED); /* ended; sticky */
            if (rmaft_poison_on())
                CHECK(rmaft_poisoned(&mem[0], sizeof(long)));
            else
                CHECK(mem[0] == 42);
            CHECK(mem[1] == -6);
        }
    }
    MPI_Group_free(&targets);
    MPI_Group_free(&origin);
    MPI_Group_free(&world);
    int rc = eclass(MPI_Win_free(&win));
    CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_PROC_FAILED);
    CHECK(win == MPI_WIN_NULL);
    return mtest_finish();
}
