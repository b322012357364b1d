/* p2p_cancel.c: MPI_Cancel and MPI_Test_cancelled (MPI-4.1 §3.8.4).
 * - A posted MPI_Irecv that never matches (specific source and MPI_ANY_SOURCE) is cancelled:
 *   MPI_Wait returns and MPI_Test_cancelled says true. Cancelling a completed receive fails to
 *   cancel it (Test_cancelled false, data delivered).
 * - Cancelling a send (MPI_Isend small and 1 MiB, MPI_Issend; deprecated in MPI-4.1 but valid):
 *   either outcome is allowed. After MPI_Cancel rank 0 tells rank 1, which posts a receive for
 *   the message (so the send completes even where it cannot be cancelled); rank 0 then sends the
 *   outcome with another tag. Not cancelled: that receive gets the message, exactly once;
 *   cancelled: it stays pending (non-overtaking puts the message before the outcome) and is
 *   itself cancelled.
 * Pairs (0,1), (2,3), ...; an odd last rank only does the receive part. */
#include <string.h>

#include "mtest.h"

#define BIG (1 << 18) /* ints: 1 MiB */
enum { TAG_NEVER = 999, TAG_CANCELLED = 2, TAG_OUTCOME = 3, TAG_MSG = 10 };

int main(int argc, char **argv)
{
    int rank, size, flag;
    MPI_Request req;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = rank ^ 1;
    int *buf = malloc(sizeof(int) * BIG);

    /* Receives that never match: from self (nobody sends it) and from anyone. */
    for (int any = 0; any < 2; any++) {
        CHECK(MPI_Irecv(buf, 10, MPI_INT, any ? MPI_ANY_SOURCE : rank, TAG_NEVER, MPI_COMM_WORLD,
                        &req) == MPI_SUCCESS);
        CHECK(MPI_Cancel(&req) == MPI_SUCCESS);
        CHECK(req != MPI_REQUEST_NULL); /* cancel marks; completion still needed */
        CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS && req == MPI_REQUEST_NULL);
        flag = 0;
        CHECK(MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && flag);
    }
    /* A receive already complete (message to self) cannot be cancelled. */
    {
        int v = 77, got = 0;
        MPI_Request s;
        CHECK(MPI_Isend(&v, 1, MPI_INT, rank, 1, MPI_COMM_WORLD, &s) == MPI_SUCCESS);
        CHECK(MPI_Irecv(&got, 1, MPI_INT, rank, 1, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
        CHECK(MPI_Wait(&s, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        flag = 0;
        while (!flag) /* complete it before cancelling */
            CHECK(MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(MPI_Cancel(&req) == MPI_SUCCESS);
        CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
        flag = 1;
        CHECK(MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && !flag);
        CHECK(got == 77 && st.MPI_SOURCE == rank && st.MPI_TAG == 1);
    }

    if (partner < size) {
        static const int lens[] = {1, BIG, 4, BIG};
        for (int c = 0; c < 4; c++) {
            int n = lens[c], tag = TAG_MSG + c, outcome = -1;
            if (rank < partner) {
                for (int k = 0; k < n; k++)
                    buf[k] = c * 1000 + k;
                if (c >= 2)
                    CHECK(MPI_Issend(buf, n, MPI_INT, partner, tag, MPI_COMM_WORLD, &req) ==
                          MPI_SUCCESS);
                else
                    CHECK(MPI_Isend(buf, n, MPI_INT, partner, tag, MPI_COMM_WORLD, &req) ==
                          MPI_SUCCESS);
                CHECK(MPI_Cancel(&req) == MPI_SUCCESS);
                /* Tell the partner the cancel was requested: it then posts a receive for the
                 * message, so that the wait completes even where the send cannot be cancelled
                 * (MPICH and Open MPI wait for a matching receive then). */
                CHECK(MPI_Send(NULL, 0, MPI_INT, partner, TAG_CANCELLED, MPI_COMM_WORLD) ==
                      MPI_SUCCESS);
                CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
                CHECK(MPI_Test_cancelled(&st, &outcome) == MPI_SUCCESS);
                CHECK(MPI_Send(&outcome, 1, MPI_INT, partner, TAG_OUTCOME, MPI_COMM_WORLD) ==
                      MPI_SUCCESS);
            } else {
                MPI_Request r;
                int count = -1;
                memset(buf, 0, sizeof(int) * (size_t)n);
                CHECK(MPI_Recv(NULL, 0, MPI_INT, partner, TAG_CANCELLED, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE) == MPI_SUCCESS);
                CHECK(MPI_Irecv(buf, n, MPI_INT, partner, tag, MPI_COMM_WORLD, &r) ==
                      MPI_SUCCESS);
                CHECK(MPI_Recv(&outcome, 1, MPI_INT, partner, TAG_OUTCOME, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE) == MPI_SUCCESS);
                CHECK(outcome == 0 || outcome == 1);
                if (!outcome) {
                    /* Not cancelled: delivered, to the receive posted before the outcome. */
                    CHECK(MPI_Wait(&r, &st) == MPI_SUCCESS);
                    CHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == n);
                    CHECK(buf[0] == c * 1000 && buf[n - 1] == c * 1000 + n - 1);
                } else {
                    /* Cancelled: the message was sent before the outcome (§3.5), so had it
                     * existed it would have matched r. r must still be pending. */
                    flag = 1;
                    CHECK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag);
                    CHECK(MPI_Cancel(&r) == MPI_SUCCESS);
                    CHECK(MPI_Wait(&r, &st) == MPI_SUCCESS);
                    flag = 0;
                    CHECK(MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && flag);
                }
                /* Exactly once or never: nothing left. */
                flag = 1;
                CHECK(MPI_Iprobe(partner, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE) ==
                      MPI_SUCCESS && !flag);
            }
            if (rank == 0)
                fprintf(stderr, "cancel of %s of %d ints: %s\n", c >= 2 ? "Issend" : "Isend", n,
                        outcome ? "cancelled" : "not cancelled");
        }
    }
    free(buf);
    return mtest_finish();
}
