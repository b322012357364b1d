/*
 * restart_basic.c: restarting a failed rank in place (mini_mpi/restart.h). Four ranks; rank 2
 * queues a message to rank 0, then dies, while rank 1 has queued one to it. Ranks 0 and 1 see
 * the failure and restart rank 2 (rank 0 with MPIX_Comm_irestart_rank completed by MPI_Waitany
 * together with a receive, rank 1 with MPI_Comm_restart_rank): one incarnation starts. Checks:
 *  - the new incarnation reads MINI_MPI_INCARNATION = 1 (the others 0);
 *  - neither queued message reaches anyone (both directions discarded);
 *  - point-to-point with the new incarnation works for ranks that restarted it;
 *  - rank 3, which restarted nothing, still talks to rank 0 and sees the old rank 2 failed,
 *    until its own restart call (rank 2 alive: success at once) moves it to the new epoch;
 *  - a collective on MPI_COMM_WORLD then spans the new incarnation;
 *  - MPIX_Comm_get_failed: the world after the restart has no failed member; a communicator
 *    duplicated before the death still reports rank 2;
 *  - bad arguments: MPI_ERR_COMM, MPI_ERR_RANK.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#ifndef MINI_MPI_HAVE_RESTART
#error "MINI_MPI_HAVE_RESTART is not defined by mpi.h"
#endif

static _Thread_local int errors; /* thread-local: also right with MINI_MPI_PRIVATIZE=0 */
#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            errors++;                                                                         \
            printf("rank %d: line %d: ", me, __LINE__);                                       \
            printf(__VA_ARGS__);                                                              \
            printf("\n");                                                                     \
            fflush(stdout);                                                                   \
        }                                                                                     \
    } while (0)

static _Thread_local int me;

static int failed_size(MPI_Comm comm)
{
    MPI_Group g;
    int n = -1;
    MPIX_Comm_get_failed(comm, &g);
    MPI_Group_size(g, &n);
    MPI_Group_free(&g);
    return n;
}

static void new_incarnation(void)
{
    int v = 0, flag = 0;
    MPI_Status st;
    /* Rank 1 sends after its restart call returned: in the new epoch. */
    MPI_Recv(&v, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &st);
    CHECK(v == 108, "from rank 1: %d, expected 108", v);
    /* What rank 1 queued to the dead incarnation (tag 5) was discarded. */
    MPI_Iprobe(1, 5, MPI_COMM_WORLD, &flag, &st);
    CHECK(!flag, "a message to the dead incarnation reached the new one");
    MPI_Recv(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &st);
    CHECK(v == 109, "from rank 0: %d", v);
    v = 110;
    MPI_Send(&v, 1, MPI_INT, 0, 10, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, 3, 13, MPI_COMM_WORLD, &st);
    CHECK(v == 113, "from rank 3: %d", v);
    CHECK(failed_size(MPI_COMM_WORLD) == 0, "failed members in the new epoch");
}

int main(int argc, char **argv)
{
    int size, *inc, flag = 0, v, err;
    MPI_Comm dupc;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MINI_MPI_INCARNATION, &inc, &flag);
    if (!flag || size != 4) {
        printf("rank %d: no MINI_MPI_INCARNATION attribute, or not 4 ranks\n", me);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    CHECK(*inc == (me == 2 && *inc ? 1 : 0), "incarnation %d", *inc);

    if (*inc == 1) {
        new_incarnation();
    } else {
        MPI_Comm_dup(MPI_COMM_WORLD, &dupc);
        MPI_Comm_set_errhandler(dupc, MPI_ERRORS_RETURN);
        if (me == 2) {
            v = 106;
            MPI_Send(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD); /* eager: queued at rank 0 */
            MPI_Barrier(dupc); /* rank 1 has queued its tag-5 message */
            raise(SIGKILL);
        }
        if (me == 1) {
            v = 105;
            MPI_Send(&v, 1, MPI_INT, 2, 5, MPI_COMM_WORLD); /* to the incarnation that dies */
        }
        MPI_Barrier(dupc);
        if (me != 3) { /* learn of the failure */
            err = MPI_Recv(&v, 1, MPI_INT, 2, 7, MPI_COMM_WORLD, &st);
            CHECK(err == MPI_ERR_PROC_FAILED, "receive from the dead rank: %d", err);
        }
        if (me == 0) {
            MPI_Request r[2];
            int idx, got = 0, recv_value = 0;
            MPIX_Comm_irestart_rank(MPI_COMM_WORLD, 2, &r[0]);
            MPI_Irecv(&recv_value, 1, MPI_INT, 3, 11, MPI_COMM_WORLD, &r[1]);
            for (int k = 0; k < 2; k++) {
                err = MPI_Waitany(2, r, &idx, &st);
                CHECK(err == MPI_SUCCESS, "Waitany: %d", err);
                got |= 1 << idx;
            }
            CHECK(got == 3 && recv_value == 111, "Waitany: %d, value %d", got, recv_value);
            /* What the dead incarnation had queued here (tag 6) is gone. */
            MPI_Iprobe(2, 6, MPI_COMM_WORLD, &flag, &st);
            CHECK(!flag, "a message from the dead incarnation is still receivable");
            v = 109;
            MPI_Send(&v, 1, MPI_INT, 2, 9, MPI_COMM_WORLD);
            MPI_Recv(&v, 1, MPI_INT, 2, 10, MPI_COMM_WORLD, &st);
            CHECK(v == 110, "from the new incarnation: %d", v);
            CHECK(failed_size(MPI_COMM_WORLD) == 0, "world after the restart: failed members");
            CHECK(failed_size(dupc) == 1, "communicator from before the death: %d failed",
                  failed_size(dupc));
            err = MPIX_Comm_restart_rank(MPI_COMM_SELF, 0);
            CHECK(err == MPI_ERR_COMM, "restart on MPI_COMM_SELF: %d", err);
            err = MPIX_Comm_restart_rank(MPI_COMM_WORLD, 4);
            CHECK(err == MPI_ERR_RANK, "restart of rank 4: %d", err);
        }
        if (me == 1) {
            err = MPI_Comm_restart_rank(MPI_COMM_WORLD, 2);
            CHECK(err == MPI_SUCCESS, "restart: %d", err);
            v = 108;
            MPI_Send(&v, 1, MPI_INT, 2, 8, MPI_COMM_WORLD);
        }
        if (me == 3) {
            v = 111; /* rank 0 and rank 3 were never restarted: any epoch carries it */
            MPI_Send(&v, 1, MPI_INT, 0, 11, MPI_COMM_WORLD);
            /* Its MPI_COMM_WORLD still knows the dead incarnation only. */
            err = MPI_Recv(&v, 1, MPI_INT, 2, 12, MPI_COMM_WORLD, &st);
            CHECK(err == MPI_ERR_PROC_FAILED, "stale receive from rank 2: %d", err);
            err = MPIX_Comm_restart_rank(MPI_COMM_WORLD, 2); /* alive, or joins the start */
            CHECK(err == MPI_SUCCESS, "restart: %d", err);
            err = MPIX_Comm_restart_rank(MPI_COMM_WORLD, 3); /* itself: alive */
            CHECK(err == MPI_SUCCESS, "restart of itself: %d", err);
            v = 113;
            MPI_Send(&v, 1, MPI_INT, 2, 13, MPI_COMM_WORLD);
        }
        MPI_Comm_free(&dupc);
    }
    /* Every rank is in the newest epoch now: a collective spans the new incarnation. */
    int sum = 0;
    v = me + 1;
    err = MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(err == MPI_SUCCESS && sum == 10, "allreduce: %d, sum %d", err, sum);
    int total = 0;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
