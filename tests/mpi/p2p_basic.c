/* p2p_basic.c: blocking MPI_Send/MPI_Recv (MPI-4.1 §3.2-3.4) in a ring and between pairs, with
 * message sizes 0, 1, 100, 16384, 16385, 65536, 1 Mi and 4 Mi elements of MPI_INT and of MPI_BYTE
 * (crossing any eager/rendezvous threshold): data, status MPI_SOURCE/MPI_TAG and MPI_Get_count;
 * receives with MPI_ANY_SOURCE, MPI_ANY_TAG and MPI_STATUS_IGNORE; a send to self with
 * MPI_Isend + MPI_Recv; and rank 0 collecting one message from every rank with both wildcards. */
#include <stdint.h>
#include <string.h>

#include "mtest.h"

enum { TAG_RING = 1, TAG_PAIR = 2, TAG_SELF = 3, TAG_ANY_BASE = 100 };

static const int sizes[] = {0, 1, 100, 16384, 16385, 65536, 1 << 20, 4 << 20};
#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

static unsigned char *sbuf, *rbuf;

/* Element k of a message from `src` with tag `tag`, `n` elements long. */
static int value(int src, int tag, int n, int k)
{
    return (int)((unsigned)src * 1000003u + (unsigned)tag * 7919u + (unsigned)n * 31u + (unsigned)k);
}

static void fill(MPI_Datatype type, int src, int tag, int n)
{
    for (int k = 0; k < n; k++) {
        if (type == MPI_INT)
            ((int *)sbuf)[k] = value(src, tag, n, k);
        else
            sbuf[k] = (unsigned char)value(src, tag, n, k);
    }
}

/* Counts mismatching elements of a received message (reports the first). */
static int verify(MPI_Datatype type, int src, int tag, int n)
{
    int bad = 0;
    for (int k = 0; k < n; k++) {
        int ok = type == MPI_INT ? ((int *)rbuf)[k] == value(src, tag, n, k)
                                 : rbuf[k] == (unsigned char)value(src, tag, n, k);
        if (!ok && bad++ == 0)
            fprintf(stderr, "data mismatch from %d, tag %d, n %d at element %d\n", src, tag, n, k);
    }
    return bad;
}

/* Receives from `src` with `tag` and checks everything. mode 0: exact source and tag; 1:
 * MPI_ANY_SOURCE; 2: MPI_ANY_TAG; 3: MPI_STATUS_IGNORE. Each tag has one sender per receiver and
 * messages from one sender arrive in order (§3.5), so a single wildcard matches the intended one. */
static void recv_check(MPI_Datatype type, int n, int src, int tag, int mode)
{
    MPI_Status st;
    int count = -1;
    int rsrc = mode == 1 ? MPI_ANY_SOURCE : src;
    int rtag = mode == 2 ? MPI_ANY_TAG : tag;
    if (n > 0)
        memset(rbuf, 0xa5, (size_t)n * (type == MPI_INT ? sizeof(int) : 1));
    if (mode == 3) {
        CHECK(MPI_Recv(rbuf, n, type, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    } else {
        /* The receive buffer is one element larger than the message (count is an upper bound). */
        CHECK(MPI_Recv(rbuf, n + 1, type, rsrc, rtag, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        CHECK(st.MPI_SOURCE == src);
        CHECK(st.MPI_TAG == tag);
        CHECK(MPI_Get_count(&st, type, &count) == MPI_SUCCESS && count == n);
    }
    CHECK(verify(type, src, tag, n) == 0);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t max = (size_t)(4 << 20) * sizeof(int) + sizeof(int);
    sbuf = malloc(max);
    rbuf = malloc(max);
    CHECK(sbuf != NULL && rbuf != NULL);
    MPI_Datatype types[2] = {MPI_INT, MPI_BYTE};
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int partner = rank ^ 1;

    for (int t = 0; t < 2; t++) {
        MPI_Datatype type = types[t];
        for (int s = 0; s < NSIZES; s++) {
            int n = sizes[s], mode = (s + t) % 4;
            /* Ring: rank 0 sends first, every other rank forwards after receiving. */
            if (size > 1) {
                if (rank == 0) {
                    fill(type, rank, TAG_RING, n);
                    CHECK(MPI_Send(sbuf, n, type, right, TAG_RING, MPI_COMM_WORLD) == MPI_SUCCESS);
                    recv_check(type, n, left, TAG_RING, mode);
                } else {
                    recv_check(type, n, left, TAG_RING, mode);
                    fill(type, rank, TAG_RING, n);
                    CHECK(MPI_Send(sbuf, n, type, right, TAG_RING, MPI_COMM_WORLD) == MPI_SUCCESS);
                }
            }
            /* Pairs (0,1), (2,3), ...: the lower rank sends first. */
            if (partner < size) {
                if (rank < partner) {
                    fill(type, rank, TAG_PAIR, n);
                    CHECK(MPI_Send(sbuf, n, type, partner, TAG_PAIR, MPI_COMM_WORLD) ==
                          MPI_SUCCESS);
                    recv_check(type, n, partner, TAG_PAIR, (mode + 1) % 4);
                } else {
                    recv_check(type, n, partner, TAG_PAIR, (mode + 1) % 4);
                    fill(type, rank, TAG_PAIR, n);
                    CHECK(MPI_Send(sbuf, n, type, partner, TAG_PAIR, MPI_COMM_WORLD) ==
                          MPI_SUCCESS);
                }
            }
            /* Self: MPI-4.1 §3.5 allows a send to self; it needs a nonblocking side. */
            {
                MPI_Request req;
                MPI_Status st;
                fill(type, rank, TAG_SELF, n);
                CHECK(MPI_Isend(sbuf, n, type, rank, TAG_SELF, MPI_COMM_WORLD, &req) ==
                      MPI_SUCCESS);
                recv_check(type, n, rank, TAG_SELF, (mode + 2) % 4);
                CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
                CHECK(req == MPI_REQUEST_NULL);
            }
        }
    }

    /* Rank 0 receives one message from every other rank with MPI_ANY_SOURCE and MPI_ANY_TAG;
     * nothing else is sent to rank 0 from here on, so the wildcards can only match these. */
    if (rank == 0) {
        char *seen = calloc((size_t)size, 1);
        int *msg = malloc(sizeof(int) * (size_t)(size + 2));
        for (int i = 1; i < size; i++) {
            MPI_Status st;
            int count = -1;
            CHECK(MPI_Recv(msg, size + 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                           &st) == MPI_SUCCESS);
            int src = st.MPI_SOURCE;
            CHECK(src > 0 && src < size);
            if (src <= 0 || src >= size)
                continue;
            CHECK(!seen[src]);
            seen[src] = 1;
            CHECK(st.MPI_TAG == TAG_ANY_BASE + src);
            CHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == src % 3 + 1);
            for (int k = 0; k < src % 3 + 1; k++)
                CHECK(msg[k] == src * 10 + k);
        }
        free(seen);
        free(msg);
    } else {
        int msg[3];
        for (int k = 0; k < 3; k++)
            msg[k] = rank * 10 + k;
        CHECK(MPI_Send(msg, rank % 3 + 1, MPI_INT, 0, TAG_ANY_BASE + rank, MPI_COMM_WORLD) ==
              MPI_SUCCESS);
    }
    free(sbuf);
    free(rbuf);
    return mtest_finish();
}
