/* p2p_chan_race.c: a blocking MPI_Recv takes channel messages without the mailbox lock while
 * the sender drains its own channel (mini_mpi: pt2pt/chan.c, "Taking without the lock"). Rank 0
 * streams messages to rank 1 whose sizes alternate between ones for the small cells, ones for
 * the big cell (which the receive claims before copying), and ones just too big for any cell
 * (each of those, and a big one while the big cell is still full, makes the sender move its
 * channel's messages to the unexpected queue under the lock, racing with the receiver's
 * unlocked take), with varying tags; rank 1
 * receives every one with a blocking MPI_Recv, some into an exact buffer, some into a larger
 * one, some with MPI_ANY_TAG, and checks order, content, count and tag (MPI-4.1 §3.5:
 * non-overtaking, each message delivered exactly once). Plain MPI. */
#include "mtest.h"

#define N 20000
#define MAXLEN 1100 /* ints */

/* Length in ints of message i: 1 and 2 fit a shared cell, 12 a ring slot, 13, 16, 256 and 1024
 * the big cell (4 KiB), 1025 no cell. */
static int len_of(int i)
{
    static const int lens[] = {2, 13, 1, 12, 2, 16, 1, 1, 13, 1024, 256, 1025, 13, 13, 1};
    return lens[i % 15];
}

int main(int argc, char **argv)
{
    int rank, size, buf[MAXLEN];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fprintf(stderr, "p2p_chan_race: needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int i = 0; i < N && rank < 2; i++) {
        int n = len_of(i), tag = i % 3;
        if (rank == 0) {
            for (int k = 0; k < n; k++)
                buf[k] = i * 100 + k;
            CHECK(MPI_Send(buf, n, MPI_INT, 1, tag, MPI_COMM_WORLD) == MPI_SUCCESS);
            if (i % 1000 == 999) /* let the ring fill up now and then */
                CHECK(MPI_Recv(buf, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
                      MPI_SUCCESS);
        } else {
            MPI_Status st;
            int got = -1, room = i % 4 == 1 ? MAXLEN : n;
            int want_tag = i % 5 == 2 ? MPI_ANY_TAG : tag;
            for (int k = 0; k < MAXLEN; k++)
                buf[k] = -1;
            CHECK(MPI_Recv(buf, room, MPI_INT, 0, want_tag, MPI_COMM_WORLD, &st) ==
                  MPI_SUCCESS);
            MPI_Get_count(&st, MPI_INT, &got);
            CHECK(got == n && st.MPI_TAG == tag && st.MPI_SOURCE == 0);
            CHECK(buf[0] == i * 100 && buf[n - 1] == i * 100 + n - 1);
            if (mtest_errors > 10)
                MPI_Abort(MPI_COMM_WORLD, 1);
            if (i % 1000 == 999)
                CHECK(MPI_Send(buf, 1, MPI_INT, 0, 99, MPI_COMM_WORLD) == MPI_SUCCESS);
        }
    }
    return mtest_finish();
}
