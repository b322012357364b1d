/* p2p_order.c: the non-overtaking rule (MPI-4.1 §3.5). Rank 0 MPI_Isends 2000 messages of mixed
 * sizes (4 B to 64 KiB) with one tag to rank 1, which receives them in order, some of them with
 * MPI_ANY_TAG and/or MPI_ANY_SOURCE, checking sequence numbers, counts and data. Then rank 0 sends
 * messages with two tags interleaved and rank 1 receives all of the first tag, then all of the
 * second: each tag's messages must arrive in sending order. Ranks beyond 1 only take part in
 * MPI_Init/MPI_Finalize. */
#include <string.h>

#include "mtest.h"

#define NMSG 2000
#define NINTER 300
enum { TAG_SEQ = 5, TAG_A = 6, TAG_B = 7 };

/* Length in ints of message i: 1 int (4 B) up to 16384 ints (64 KiB). */
static int msg_len(int i)
{
    static const int lens[] = {1, 2, 25, 256, 1024, 4096, 4097, 16384, 3, 1};
    return lens[i % 10];
}

static int value(int i, int k)
{
    return k == 0 ? i : i * 131 + k;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2);
    if (size < 2)
        return mtest_finish();

    if (rank == 0) {
        /* Part 1: every pending send has its own region of one big buffer. */
        size_t total = 0;
        for (int i = 0; i < NMSG; i++)
            total += (size_t)msg_len(i);
        int *buf = malloc(total * sizeof(int));
        MPI_Request *req = malloc(sizeof(MPI_Request) * NMSG);
        size_t off = 0;
        for (int i = 0; i < NMSG; i++) {
            int n = msg_len(i);
            for (int k = 0; k < n; k++)
                buf[off + (size_t)k] = value(i, k);
            CHECK(MPI_Isend(buf + off, n, MPI_INT, 1, TAG_SEQ, MPI_COMM_WORLD, &req[i]) ==
                  MPI_SUCCESS);
            off += (size_t)n;
        }
        CHECK(MPI_Waitall(NMSG, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);

        /* Part 2: tags A and B interleaved (A, B, A, B, ...), sizes mixed. */
        off = 0;
        for (int i = 0; i < NINTER; i++) {
            int n = msg_len(i);
            for (int k = 0; k < n; k++)
                buf[off + (size_t)k] = value(i, k);
            CHECK(MPI_Isend(buf + off, n, MPI_INT, 1, i % 2 ? TAG_B : TAG_A, MPI_COMM_WORLD,
                            &req[i]) == MPI_SUCCESS);
            off += (size_t)n;
        }
        CHECK(MPI_Waitall(NINTER, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
        free(buf);
        free(req);
    } else if (rank == 1) {
        int *buf = malloc(sizeof(int) * 16384);
        int bad = 0;
        for (int i = 0; i < NMSG; i++) {
            MPI_Status st;
            int count = -1, n = msg_len(i);
            int src = (i % 3 == 1) ? MPI_ANY_SOURCE : 0;
            int tag = (i % 5 >= 3) ? MPI_ANY_TAG : TAG_SEQ;
            CHECK(MPI_Recv(buf, 16384, MPI_INT, src, tag, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
            CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == TAG_SEQ);
            CHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == n);
            if (buf[0] != i) {
                if (bad++ == 0)
                    fprintf(stderr, "message %d arrived as number %d\n", buf[0], i);
                continue;
            }
            for (int k = 1; k < n && k < count; k++)
                if (buf[k] != value(i, k) && bad++ == 0)
                    fprintf(stderr, "message %d: element %d wrong\n", i, k);
        }
        CHECK(bad == 0);

        /* Part 2: all of tag A first (even sequence numbers), then all of tag B. */
        for (int pass = 0; pass < 2; pass++) {
            for (int i = pass; i < NINTER; i += 2) {
                MPI_Status st;
                int count = -1;
                CHECK(MPI_Recv(buf, 16384, MPI_INT, pass ? MPI_ANY_SOURCE : 0,
                               pass ? TAG_B : TAG_A, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
                CHECK(st.MPI_TAG == (pass ? TAG_B : TAG_A));
                CHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS &&
                      count == msg_len(i));
                CHECK(buf[0] == i);
                if (buf[0] == i && count == msg_len(i))
                    CHECK(buf[count - 1] == value(i, count - 1));
            }
        }
        free(buf);
    }
    return mtest_finish();
}
