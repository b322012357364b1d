/* p2p_nonblocking.c: nonblocking communication and completion (MPI-4.1 §3.7) between pairs of
 * ranks (0,1), (2,3), ...: MPI_Isend/MPI_Irecv completed with MPI_Waitall, Waitany, Waitsome,
 * Testall, Testany and Testsome, on arrays mixing MPI_REQUEST_NULL with active requests and on
 * all-null arrays (index/outcount MPI_UNDEFINED, empty status); MPI_Request_get_status, which
 * does not free the request; MPI_Request_free on a pending send (the message is still delivered);
 * sends to and receives from MPI_PROC_NULL (source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0). */
#include <string.h>

#include "mtest.h"

#define N 6            /* messages per completion function */
#define LEN 5000       /* ints per message: above common eager limits */
#define BIGLEN (1 << 18)

static int partner;

static int value(int src, int tag, int k)
{
    return src * 100000 + tag * 1000 + k % 1000;
}

static void check_empty(const MPI_Status *st)
{
    int count = -1;
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG);
    CHECK(MPI_Get_count(st, MPI_INT, &count) == MPI_SUCCESS && count == 0);
}

/* Posts N receives at even slots of req[2N] (odd slots MPI_REQUEST_NULL) and N sends in snd[].
 * Message i has tag base + i. */
static void post(int base, int *rbuf, int *sbuf, MPI_Request *req, MPI_Request *snd, int rank)
{
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < LEN; k++)
            sbuf[i * LEN + k] = value(rank, base + i, k);
        memset(rbuf + i * LEN, 0, sizeof(int) * LEN);
        CHECK(MPI_Irecv(rbuf + i * LEN, LEN, MPI_INT, partner, base + i, MPI_COMM_WORLD,
                        &req[2 * i]) == MPI_SUCCESS);
        req[2 * i + 1] = MPI_REQUEST_NULL;
    }
    /* Send in reverse order so that completion order differs from posting order. */
    for (int i = N - 1; i >= 0; i--)
        CHECK(MPI_Isend(sbuf + i * LEN, LEN, MPI_INT, partner, base + i, MPI_COMM_WORLD,
                        &snd[i]) == MPI_SUCCESS);
}

/* Checks that slot `idx` of req[] completed correctly (with status st, NULL if ignored). */
static void done(int idx, int base, const int *rbuf, const MPI_Status *st, char *seen,
                 MPI_Request *req)
{
    CHECK(idx >= 0 && idx < 2 * N && idx % 2 == 0);
    if (idx < 0 || idx >= 2 * N || idx % 2)
        return;
    int i = idx / 2;
    CHECK(!seen[i]);
    seen[i] = 1;
    CHECK(req[idx] == MPI_REQUEST_NULL);
    if (st)
        CHECK(st->MPI_SOURCE == partner && st->MPI_TAG == base + i);
    CHECK(rbuf[i * LEN] == value(partner, base + i, 0));
    CHECK(rbuf[i * LEN + LEN - 1] == value(partner, base + i, LEN - 1));
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    partner = rank ^ 1;
    int *rbuf = malloc(sizeof(int) * N * LEN), *sbuf = malloc(sizeof(int) * N * LEN);
    MPI_Request req[2 * N], snd[N], nul[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st, sts[2 * N];
    int idx, flag, outcount, indices[2 * N];

    /* All-null arrays complete at once (MPI-4.1 §3.7.5). */
    idx = -5;
    CHECK(MPI_Waitany(3, nul, &idx, &st) == MPI_SUCCESS && idx == MPI_UNDEFINED);
    check_empty(&st);
    idx = -5, flag = 0;
    CHECK(MPI_Testany(3, nul, &idx, &flag, &st) == MPI_SUCCESS && flag && idx == MPI_UNDEFINED);
    check_empty(&st);
    flag = 0;
    CHECK(MPI_Testall(3, nul, &flag, sts) == MPI_SUCCESS && flag);
    check_empty(&sts[0]);
    CHECK(MPI_Waitall(3, nul, sts) == MPI_SUCCESS);
    check_empty(&sts[2]);
    outcount = -5;
    CHECK(MPI_Waitsome(3, nul, &outcount, indices, sts) == MPI_SUCCESS);
    CHECK(outcount == MPI_UNDEFINED);
    outcount = -5;
    CHECK(MPI_Testsome(3, nul, &outcount, indices, sts) == MPI_SUCCESS);
    CHECK(outcount == MPI_UNDEFINED);
    CHECK(MPI_Waitall(0, NULL, MPI_STATUSES_IGNORE) == MPI_SUCCESS);

    /* MPI_PROC_NULL: complete at once with source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0. */
    {
        MPI_Request r[2];
        int count = -1;
        CHECK(MPI_Isend(sbuf, 10, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r[0]) == MPI_SUCCESS);
        CHECK(MPI_Irecv(rbuf, 10, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r[1]) == MPI_SUCCESS);
        CHECK(MPI_Waitall(2, r, sts) == MPI_SUCCESS);
#if !defined(MPICH_NUMVERSION) || MPICH_NUMVERSION >= 40200000
        /* MPICH before 4.2 leaves source and tag 0 here (pmodels/mpich#6805). */
        CHECK(sts[1].MPI_SOURCE == MPI_PROC_NULL && sts[1].MPI_TAG == MPI_ANY_TAG);
#endif
        CHECK(MPI_Get_count(&sts[1], MPI_INT, &count) == MPI_SUCCESS && count == 0);
        CHECK(MPI_Send(sbuf, 10, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD) == MPI_SUCCESS);
        count = -1;
        CHECK(MPI_Recv(rbuf, 10, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
        CHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == 0);
    }

    if (partner < size) {
        char seen[N];
        int base;

        /* Waitall with nulls in the array. */
        base = 100, memset(seen, 0, N);
        post(base, rbuf, sbuf, req, snd, rank);
        CHECK(MPI_Waitall(2 * N, req, sts) == MPI_SUCCESS);
        for (int i = 0; i < 2 * N; i += 2)
            done(i, base, rbuf, &sts[i], seen, req);
        CHECK(MPI_Waitall(N, snd, MPI_STATUSES_IGNORE) == MPI_SUCCESS);

        /* Waitany until MPI_UNDEFINED. */
        base = 200, memset(seen, 0, N);
        post(base, rbuf, sbuf, req, snd, rank);
        for (int i = 0; i < N; i++) {
            CHECK(MPI_Waitany(2 * N, req, &idx, &st) == MPI_SUCCESS);
            done(idx, base, rbuf, &st, seen, req);
        }
        CHECK(MPI_Waitany(2 * N, req, &idx, &st) == MPI_SUCCESS && idx == MPI_UNDEFINED);
        CHECK(MPI_Waitall(N, snd, MPI_STATUSES_IGNORE) == MPI_SUCCESS);

        /* Waitsome until MPI_UNDEFINED. */
        base = 300, memset(seen, 0, N);
        post(base, rbuf, sbuf, req, snd, rank);
        for (int got = 0; got < N;) {
            CHECK(MPI_Waitsome(2 * N, req, &outcount, indices, sts) == MPI_SUCCESS);
            CHECK(outcount >= 1 && outcount <= N - got);
            if (outcount < 1 || outcount > N - got)
                break;
            for (int j = 0; j < outcount; j++)
                done(indices[j], base, rbuf, &sts[j], seen, req);
            got += outcount;
        }
        CHECK(MPI_Waitsome(2 * N, req, &outcount, indices, sts) == MPI_SUCCESS &&
              outcount == MPI_UNDEFINED);
        CHECK(MPI_Waitall(N, snd, MPI_STATUSES_IGNORE) == MPI_SUCCESS);

        /* Testall until true. */
        base = 400, memset(seen, 0, N), flag = 0;
        post(base, rbuf, sbuf, req, snd, rank);
        while (!flag)
            CHECK(MPI_Testall(2 * N, req, &flag, sts) == MPI_SUCCESS);
        for (int i = 0; i < 2 * N; i += 2)
            done(i, base, rbuf, &sts[i], seen, req);
        flag = 0;
        while (!flag)
            CHECK(MPI_Testall(N, snd, &flag, MPI_STATUSES_IGNORE) == MPI_SUCCESS);

        /* Testany until index MPI_UNDEFINED with flag true. */
        base = 500, memset(seen, 0, N);
        post(base, rbuf, sbuf, req, snd, rank);
        for (int got = 0;;) {
            CHECK(MPI_Testany(2 * N, req, &idx, &flag, &st) == MPI_SUCCESS);
            if (!flag)
                continue;
            if (idx == MPI_UNDEFINED)
                break;
            done(idx, base, rbuf, &st, seen, req);
            CHECK(++got <= N);
        }
        CHECK(memchr(seen, 0, N) == NULL);
        CHECK(MPI_Waitall(N, snd, MPI_STATUSES_IGNORE) == MPI_SUCCESS);

        /* Testsome until MPI_UNDEFINED (outcount 0 means nothing yet). */
        base = 600, memset(seen, 0, N);
        post(base, rbuf, sbuf, req, snd, rank);
        for (;;) {
            CHECK(MPI_Testsome(2 * N, req, &outcount, indices, MPI_STATUSES_IGNORE) ==
                  MPI_SUCCESS);
            if (outcount == MPI_UNDEFINED || outcount < 0)
                break;
            for (int j = 0; j < outcount; j++)
                done(indices[j], base, rbuf, NULL, seen, req);
        }
        CHECK(memchr(seen, 0, N) == NULL);
        CHECK(MPI_Waitall(N, snd, MPI_STATUSES_IGNORE) == MPI_SUCCESS);

        /* Request_get_status leaves the request allocated; Wait then frees it. */
        {
            MPI_Request r;
            int v = rank, got = -1;
            CHECK(MPI_Irecv(&got, 1, MPI_INT, partner, 700, MPI_COMM_WORLD, &r) == MPI_SUCCESS);
            CHECK(MPI_Send(&v, 1, MPI_INT, partner, 700, MPI_COMM_WORLD) == MPI_SUCCESS);
            flag = 0;
            while (!flag)
                CHECK(MPI_Request_get_status(r, &flag, &st) == MPI_SUCCESS);
            CHECK(r != MPI_REQUEST_NULL);
            CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == 700 && got == partner);
            CHECK(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag);
            CHECK(MPI_Wait(&r, &st) == MPI_SUCCESS && r == MPI_REQUEST_NULL);
            CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == 700);
            flag = 0;
            CHECK(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st) == MPI_SUCCESS && flag);
            check_empty(&st);
        }

        /* Request_free on a pending (large) send: still delivered. The buffer is reused only
         * after the partner acknowledges receipt. */
        {
            int *big = malloc(sizeof(int) * BIGLEN), *in = malloc(sizeof(int) * BIGLEN), ack = 0;
            MPI_Request r;
            for (int k = 0; k < BIGLEN; k++)
                big[k] = value(rank, 8, k);
            CHECK(MPI_Isend(big, BIGLEN, MPI_INT, partner, 800, MPI_COMM_WORLD, &r) == MPI_SUCCESS);
            CHECK(MPI_Request_free(&r) == MPI_SUCCESS && r == MPI_REQUEST_NULL);
            CHECK(MPI_Recv(in, BIGLEN, MPI_INT, partner, 800, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
                  MPI_SUCCESS);
            int bad = 0;
            for (int k = 0; k < BIGLEN; k++)
                bad += in[k] != value(partner, 8, k);
            CHECK(bad == 0);
            CHECK(MPI_Sendrecv(&ack, 1, MPI_INT, partner, 801, &ack, 1, MPI_INT, partner, 801,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            free(big);
            free(in);
        }
    }
    free(rbuf);
    free(sbuf);
    return mtest_finish();
}
