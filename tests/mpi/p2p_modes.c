/* p2p_modes.c: the communication modes of MPI-4.1 §3.4 between ranks 0 and 1.
 * - Synchronous: an MPI_Issend (small and 1 MiB) is not complete (MPI_Test flag stays false)
 *   while the receiver has not posted its receive; the receiver waits for a "go" message sent
 *   after those tests, sleeping 50 ms first, so the check is on the flag, never on timing.
 *   A blocking MPI_Ssend matched by a late receive completes.
 * - Ready: the receiver posts MPI_Irecv, then sends a 0-byte "ready" message; the sender
 *   receives it and calls MPI_Rsend / MPI_Irsend.
 * - Buffered: MPI_Bsend / MPI_Ibsend with MPI_Buffer_attach/detach (buffer sized with
 *   MPI_Pack_size + MPI_BSEND_OVERHEAD) complete before any receive is posted; detach returns the
 *   attached buffer. a 1 MiB MPI_Bsend with no buffer attached fails with class MPI_ERR_BUFFER under
 *   MPI_ERRORS_RETURN. */
#include <string.h>
#include <unistd.h>

#include "mtest.h"

enum { TAG_S = 1, TAG_GO = 2, TAG_READY = 3, TAG_R = 4, TAG_B = 5, TAG_NOBUF = 6 };
#define BIG (1 << 18) /* ints: 1 MiB */
#define NB 8          /* buffered messages */
#define BLEN 1000     /* ints per buffered message */

static int *buf;

static void fill(int n, int seed)
{
    for (int k = 0; k < n; k++)
        buf[k] = seed * 7 + k;
}

static int verify(int n, int seed)
{
    for (int k = 0; k < n; k++)
        if (buf[k] != seed * 7 + k)
            return 0;
    return 1;
}

static void synchronous(int rank)
{
    static const int lens[] = {1, BIG};
    for (int i = 0; i < 2; i++) {
        int n = lens[i];
        if (rank == 0) {
            MPI_Request req;
            int flag = 0;
            fill(n, i);
            CHECK(MPI_Issend(buf, n, MPI_INT, 1, TAG_S, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
            for (int t = 0; t < 20 && !flag; t++) {
                CHECK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
                usleep(500);
            }
            CHECK(!flag); /* MPI-4.1 §3.4: completes only once the receive has started */
            CHECK(MPI_Send(NULL, 0, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD) == MPI_SUCCESS);
            CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            /* Blocking form, matched by a receive posted late. */
            CHECK(MPI_Ssend(buf, n, MPI_INT, 1, TAG_S, MPI_COMM_WORLD) == MPI_SUCCESS);
        } else {
            CHECK(MPI_Recv(NULL, 0, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
                  MPI_SUCCESS);
            usleep(50000);
            memset(buf, 0, sizeof(int) * (size_t)n);
            CHECK(MPI_Recv(buf, n, MPI_INT, 0, TAG_S, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
                  MPI_SUCCESS);
            CHECK(verify(n, i));
            usleep(20000);
            memset(buf, 0, sizeof(int) * (size_t)n);
            CHECK(MPI_Recv(buf, n, MPI_INT, 0, TAG_S, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
                  MPI_SUCCESS);
            CHECK(verify(n, i));
        }
    }
}

static void ready(int rank)
{
    static const int lens[] = {0, 10, BIG};
    for (int i = 0; i < 3; i++) {
        int n = lens[i];
        for (int nb = 0; nb < 2; nb++) {
            if (rank == 0) {
                CHECK(MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_READY, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE) == MPI_SUCCESS);
                fill(n, 10 + i);
                if (nb) {
                    MPI_Request req;
                    CHECK(MPI_Irsend(buf, n, MPI_INT, 1, TAG_R, MPI_COMM_WORLD, &req) ==
                          MPI_SUCCESS);
                    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
                } else {
                    CHECK(MPI_Rsend(buf, n, MPI_INT, 1, TAG_R, MPI_COMM_WORLD) == MPI_SUCCESS);
                }
            } else {
                MPI_Request req;
                MPI_Status st;
                int count = -1;
                if (n > 0)
                    memset(buf, 0, sizeof(int) * (size_t)n);
                CHECK(MPI_Irecv(buf, n, MPI_INT, 0, TAG_R, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
                CHECK(MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD) == MPI_SUCCESS);
                CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
                CHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == n);
                CHECK(verify(n, 10 + i));
            }
        }
    }
}

static void buffered(int rank)
{
    if (rank == 0) {
        int one = 0, bsize;
        CHECK(MPI_Pack_size(BLEN, MPI_INT, MPI_COMM_WORLD, &one) == MPI_SUCCESS && one > 0);
        bsize = NB * (one + MPI_BSEND_OVERHEAD);
        char *bbuf = malloc((size_t)bsize);
        CHECK(MPI_Buffer_attach(bbuf, bsize) == MPI_SUCCESS);
        /* Each message comes from the same user buffer, reused at once: Bsend copied it. */
        for (int i = 0; i < NB; i++) {
            fill(BLEN, 100 + i);
            if (i % 2) {
                MPI_Request req;
                CHECK(MPI_Ibsend(buf, BLEN, MPI_INT, 1, TAG_B, MPI_COMM_WORLD, &req) ==
                      MPI_SUCCESS);
                CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            } else {
                CHECK(MPI_Bsend(buf, BLEN, MPI_INT, 1, TAG_B, MPI_COMM_WORLD) == MPI_SUCCESS);
            }
            memset(buf, 0xff, sizeof(int) * BLEN);
        }
        /* Only now may rank 1 start receiving. */
        CHECK(MPI_Send(NULL, 0, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD) == MPI_SUCCESS);
        void *dbuf = NULL;
        int dsize = -1;
        CHECK(MPI_Buffer_detach(&dbuf, &dsize) == MPI_SUCCESS); /* waits for delivery */
        CHECK(dbuf == bbuf && dsize == bsize);
        free(bbuf);

        /* No buffer attached any more. 1 MiB, never received: no implementation can send it
         * without buffering (Open MPI completes small ones eagerly without a buffer). */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Bsend(buf, BIG, MPI_INT, 1, TAG_NOBUF, MPI_COMM_WORLD), cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_BUFFER);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    } else {
        CHECK(MPI_Recv(NULL, 0, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        for (int i = 0; i < NB; i++) {
            memset(buf, 0, sizeof(int) * BLEN);
            CHECK(MPI_Recv(buf, BLEN, MPI_INT, 0, TAG_B, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
                  MPI_SUCCESS);
            CHECK(verify(BLEN, 100 + i));
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2);
    buf = malloc(sizeof(int) * BIG);
    if (size >= 2 && rank < 2) {
        synchronous(rank);
        ready(rank);
        buffered(rank);
    }
    free(buf);
    return mtest_finish();
}
