/* p2p_persistent.c: persistent requests (MPI-4.1 §3.9) between pairs (0,1), (2,3), ...:
 * MPI_Send_init, MPI_Ssend_init, MPI_Bsend_init (with an attached buffer) and MPI_Recv_init,
 * started with MPI_Start and MPI_Startall for 100 iterations, data changing every iteration
 * (small and 20 000-int messages). MPI_Wait/MPI_Test on an inactive persistent request return at
 * once with an empty status and leave the handle; MPI_Request_free of inactive persistent
 * requests sets MPI_REQUEST_NULL. */
#include <string.h>

#include "mtest.h"

#define ITERS 100
#define NREQ 3
static const int lens[NREQ] = {1, 20000, 300}; /* Send_init, Ssend_init, Bsend_init */

static int value(int src, int it, int r, int k)
{
    return src * 1000000 + it * 1000 + r * 100 + k % 100;
}

static void check_empty(const MPI_Status *st)
{
    int count = -1, cancelled = 1;
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG);
    CHECK(MPI_Get_count(st, MPI_INT, &count) == MPI_SUCCESS && count == 0);
    CHECK(MPI_Test_cancelled(st, &cancelled) == MPI_SUCCESS && !cancelled);
}

static void check_inactive(MPI_Request *req)
{
    MPI_Status st;
    int flag = 0;
    MPI_Request before = *req;
    CHECK(MPI_Wait(req, &st) == MPI_SUCCESS);
    CHECK(*req == before && *req != MPI_REQUEST_NULL);
    check_empty(&st);
    CHECK(MPI_Test(req, &flag, &st) == MPI_SUCCESS && flag);
    CHECK(*req == before);
    check_empty(&st);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = rank ^ 1;
    int *sbuf[NREQ], *rbuf[NREQ];
    for (int r = 0; r < NREQ; r++) {
        sbuf[r] = malloc(sizeof(int) * (size_t)lens[r]);
        rbuf[r] = malloc(sizeof(int) * (size_t)lens[r]);
    }

    if (partner < size) {
        MPI_Request sreq[NREQ], rreq[NREQ], all[2 * NREQ];
        MPI_Status sts[2 * NREQ];
        /* Room for two buffered messages in flight (iteration i+1 may start before the
         * partner received iteration i's), plus slack. */
        int psize = 0;
        MPI_Pack_size(lens[2], MPI_INT, MPI_COMM_WORLD, &psize);
        int bsize = 4 * (psize + MPI_BSEND_OVERHEAD);
        char *bbuf = malloc((size_t)bsize);
        CHECK(MPI_Buffer_attach(bbuf, bsize) == MPI_SUCCESS);

        CHECK(MPI_Send_init(sbuf[0], lens[0], MPI_INT, partner, 0, MPI_COMM_WORLD, &sreq[0]) ==
              MPI_SUCCESS);
        CHECK(MPI_Ssend_init(sbuf[1], lens[1], MPI_INT, partner, 1, MPI_COMM_WORLD, &sreq[1]) ==
              MPI_SUCCESS);
        CHECK(MPI_Bsend_init(sbuf[2], lens[2], MPI_INT, partner, 2, MPI_COMM_WORLD, &sreq[2]) ==
              MPI_SUCCESS);
        for (int r = 0; r < NREQ; r++)
            CHECK(MPI_Recv_init(rbuf[r], lens[r], MPI_INT, r == 1 ? MPI_ANY_SOURCE : partner, r,
                                MPI_COMM_WORLD, &rreq[r]) == MPI_SUCCESS);

        /* Not yet started: inactive. */
        check_inactive(&sreq[0]);
        check_inactive(&rreq[1]);

        for (int it = 0; it < ITERS; it++) {
            for (int r = 0; r < NREQ; r++) {
                for (int k = 0; k < lens[r]; k++)
                    sbuf[r][k] = value(rank, it, r, k);
                memset(rbuf[r], 0xff, sizeof(int) * (size_t)lens[r]);
            }
            if (it % 2) {
                for (int r = 0; r < NREQ; r++) {
                    CHECK(MPI_Start(&rreq[r]) == MPI_SUCCESS);
                    CHECK(MPI_Start(&sreq[r]) == MPI_SUCCESS);
                }
            } else {
                CHECK(MPI_Startall(NREQ, rreq) == MPI_SUCCESS);
                CHECK(MPI_Startall(NREQ, sreq) == MPI_SUCCESS);
            }
            for (int r = 0; r < NREQ; r++)
                all[r] = rreq[r], all[NREQ + r] = sreq[r];
            CHECK(MPI_Waitall(2 * NREQ, all, sts) == MPI_SUCCESS);
            for (int r = 0; r < NREQ; r++) {
                int count = -1, bad = 0;
                /* Persistent handles stay valid after completion. */
                CHECK(all[r] == rreq[r] && all[NREQ + r] == sreq[r]);
                CHECK(sts[r].MPI_SOURCE == partner && sts[r].MPI_TAG == r);
                CHECK(MPI_Get_count(&sts[r], MPI_INT, &count) == MPI_SUCCESS &&
                      count == lens[r]);
                for (int k = 0; k < lens[r]; k++)
                    bad += rbuf[r][k] != value(partner, it, r, k);
                CHECK(bad == 0);
            }
        }

        /* Completed: inactive again. */
        for (int r = 0; r < NREQ; r++) {
            check_inactive(&sreq[r]);
            check_inactive(&rreq[r]);
        }
        for (int r = 0; r < NREQ; r++) {
            CHECK(MPI_Request_free(&sreq[r]) == MPI_SUCCESS && sreq[r] == MPI_REQUEST_NULL);
            CHECK(MPI_Request_free(&rreq[r]) == MPI_SUCCESS && rreq[r] == MPI_REQUEST_NULL);
        }
        void *dbuf;
        int dsize;
        CHECK(MPI_Buffer_detach(&dbuf, &dsize) == MPI_SUCCESS && dbuf == bbuf);
        free(bbuf);

        /* A persistent request freed without ever being started. */
        MPI_Request never;
        CHECK(MPI_Recv_init(rbuf[0], 1, MPI_INT, partner, 50, MPI_COMM_WORLD, &never) ==
              MPI_SUCCESS);
        CHECK(MPI_Request_free(&never) == MPI_SUCCESS && never == MPI_REQUEST_NULL);
    }
    for (int r = 0; r < NREQ; r++) {
        free(sbuf[r]);
        free(rbuf[r]);
    }
    return mtest_finish();
}
