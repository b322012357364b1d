/* p2p_exchange.c: all-to-all point-to-point at scale (meant for 4 and 256 ranks). Every rank
 * MPI_Irecvs from every other rank and MPI_Isends one message to every other rank (tag = sender
 * rank, length depending on the pair), completes all with one MPI_Waitall and checks statuses
 * and data; then a ring of MPI_Sendrecv (send right, receive left) and of
 * MPI_Sendrecv_replace, each repeated so that values travel several hops. */
#include <string.h>

#include "mtest.h"

#define HOPS 3

static int msg_len(int src, int dst)
{
    return 1 + (src * 7 + dst * 3) % 15; /* 1..15: one slot of 16 keeps a guard */
}

static int value(int src, int dst, int k)
{
    return src * 65536 + dst * 16 + k;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int nreq = 2 * (size - 1);
    size_t slots = 16 * (size_t)size > 1000 ? 16 * (size_t)size : 1000;
    int *out = malloc(sizeof(int) * slots), *in = malloc(sizeof(int) * slots);
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(nreq + 1));
    MPI_Status *sts = malloc(sizeof(MPI_Status) * (size_t)(nreq + 1));
    memset(in, 0xff, sizeof(int) * 16 * (size_t)size);

    /* All to all: receives first, then sends, from rank+1 onwards so that not every rank
     * targets rank 0 first. */
    int r = 0;
    for (int d = 1; d < size; d++) {
        int src = (rank + size - d) % size;
        CHECK(MPI_Irecv(in + 16 * src, 16, MPI_INT, src, src, MPI_COMM_WORLD, &req[r++]) ==
              MPI_SUCCESS);
    }
    for (int d = 1; d < size; d++) {
        int dst = (rank + d) % size, n = msg_len(rank, dst);
        for (int k = 0; k < n; k++)
            out[16 * dst + k] = value(rank, dst, k);
        CHECK(MPI_Isend(out + 16 * dst, n, MPI_INT, dst, rank, MPI_COMM_WORLD, &req[r++]) ==
              MPI_SUCCESS);
    }
    CHECK(MPI_Waitall(nreq, req, sts) == MPI_SUCCESS);
    int bad = 0;
    for (int d = 1; d < size; d++) {
        int src = (rank + size - d) % size, n = msg_len(src, rank), count = -1;
        const MPI_Status *st = &sts[d - 1];
        MPI_Get_count(st, MPI_INT, &count);
        if (st->MPI_SOURCE != src || st->MPI_TAG != src || count != n) {
            if (bad++ == 0)
                fprintf(stderr, "rank %d: from %d: status source %d tag %d count %d\n", rank, src,
                        st->MPI_SOURCE, st->MPI_TAG, count);
            continue;
        }
        for (int k = 0; k < n; k++)
            if (in[16 * src + k] != value(src, rank, k) && bad++ == 0)
                fprintf(stderr, "rank %d: from %d: element %d wrong\n", rank, src, k);
        CHECK(in[16 * src + n] == -1); /* nothing written past the message */
    }
    CHECK(bad == 0);
    for (int i = 0; i < nreq; i++)
        CHECK(req[i] == MPI_REQUEST_NULL);

    /* Ring of Sendrecv: after h hops a rank holds the value of rank - h. */
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int cur[2] = {rank, -rank}, next[2];
    for (int h = 1; h <= HOPS; h++) {
        MPI_Status st;
        CHECK(MPI_Sendrecv(cur, 2, MPI_INT, right, 1000 + h, next, 2, MPI_INT, left, 1000 + h,
                           MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 1000 + h);
        int want = ((rank - h) % size + size) % size;
        CHECK(next[0] == want && next[1] == -want);
        cur[0] = next[0], cur[1] = next[1];
    }

    /* Ring of Sendrecv_replace, in the other direction, with a larger message. */
    int n = 1000;
    for (int k = 0; k < n; k++)
        out[k] = rank * 1000 + k;
    for (int h = 1; h <= HOPS; h++) {
        MPI_Status st;
        int count = -1;
        CHECK(MPI_Sendrecv_replace(out, n, MPI_INT, left, 2000, right, 2000, MPI_COMM_WORLD,
                                   &st) == MPI_SUCCESS);
        CHECK(st.MPI_SOURCE == right && st.MPI_TAG == 2000);
        CHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == n);
        int from = (rank + h) % size;
        CHECK(out[0] == from * 1000 && out[n - 1] == from * 1000 + n - 1);
    }
    free(out);
    free(in);
    free(req);
    free(sts);
    return mtest_finish();
}
