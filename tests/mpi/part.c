/* part.c: partitioned communication (MPI-4.1 chapter 4). Ranks pair up (2i, 2i+1); every check
 * runs in every pair at once, so that 8 and 64 ranks also check that pairs do not disturb each
 * other (matching by communicator, source and tag).
 *
 * Without arguments: the normal paths (MPI_Pready, _range, _list, MPI_Parrived, different
 * partitionings and datatypes on the two sides, several activations, MPI_Startall/Waitall in
 * both directions, matching in init order, a sender that readies everything before its
 * receiver's init, an intercommunicator, MPI_PROC_NULL, zero counts, truncation,
 * MPI_Request_get_status, partitions readied by several threads at once and polled by several
 * threads), then the error class of every bad argument.
 * With an argument, in pairs whose odd rank r has (r / 2) % 2 == 0 (the victims the testlist's
 * MINI_MPI_FAULTS kills; other pairs must run unharmed):
 *   fail-send K  the sender is the odd rank, which dies entering its K-th MPI_Pready (8
 *                partitions per activation): the receiver gets MPI_ERR_PROC_FAILED from
 *                MPI_Wait (blocked in it when the sender dies, for odd K) and, for even K,
 *                from MPI_Parrived polled on a partition not readied; the readied ones have
 *                arrived with their data; a later activation fails at once;
 *   fail-recv K  the receiver is the odd rank, which dies entering its K-th MPI_Start: the
 *                sender's activation K, blocked in MPI_Wait, completes with MPI_ERR_PROC_FAILED;
 *   fail-init    the sender dies entering MPI_Psend_init: the receiver's request never matches,
 *                and MPI_Parrived and MPI_Wait give MPI_ERR_PROC_FAILED;
 *   revoke       the sender readies half the partitions and revokes the communicator while
 *                the receiver waits: MPI_ERR_REVOKED on both sides, the readied half arrived,
 *                later activations and inits fail with MPI_ERR_REVOKED.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

#define P 8 /* sender partitions */
#define C 4 /* ints per sender partition */
#define N (P * C)

static int rank, size, peer;
static bool sender; /* this rank's role in the pair */

static int val(int round, int i)
{
    return round * 1000 + i;
}

static void fill(int *buf, int n, int round)
{
    for (int i = 0; i < n; i++)
        buf[i] = val(round, i);
}

static int bad_values(const int *buf, int from, int to, int round)
{
    int bad = 0;
    for (int i = from; i < to; i++)
        if (buf[i] != val(round, i))
            bad++;
    return bad;
}

/* One pair exchange: the sender has P partitions of C ints, the receiver rp partitions of
 * N / rp ints; rounds activations; partitions readied in reverse order (one call each), by
 * range or by list; the receiver polls every partition with MPI_Parrived and checks its data
 * as soon as it has arrived, then waits. */
enum how { ONE_BY_ONE, RANGE, LIST };
static void exchange(MPI_Comm comm, int rp, int rounds, enum how how)
{
    int buf[N] = {0};
    MPI_Request req;
    MPI_Status st;
    if (sender)
        CHECK(MPI_Psend_init(buf, P, C, MPI_INT, peer, 7, comm, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
    else
        CHECK(MPI_Precv_init(buf, rp, N / rp, MPI_INT, peer, 7, comm, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
    for (int r = 1; r <= rounds; r++) {
        if (sender) {
            CHECK(MPI_Start(&req) == MPI_SUCCESS);
            fill(buf, N, r);
            if (how == ONE_BY_ONE) {
                for (int p = P - 1; p >= 0; p--)
                    CHECK(MPI_Pready(p, req) == MPI_SUCCESS);
            } else if (how == RANGE) {
                CHECK(MPI_Pready_range(P / 2, P - 1, req) == MPI_SUCCESS);
                CHECK(MPI_Pready_range(0, P / 2 - 1, req) == MPI_SUCCESS);
            } else {
                int odd[P / 2], even[P / 2];
                for (int i = 0; i < P / 2; i++) {
                    odd[i] = 2 * i + 1;
                    even[i] = 2 * i;
                }
                CHECK(MPI_Pready_list(P / 2, odd, req) == MPI_SUCCESS);
                CHECK(MPI_Pready_list(P / 2, even, req) == MPI_SUCCESS);
            }
            CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
        } else {
            memset(buf, 0, sizeof buf);
            CHECK(MPI_Start(&req) == MPI_SUCCESS);
            int left = rp, seen[N] = {0};
            while (left > 0) {
                for (int p = 0; p < rp; p++) {
                    int flag = 0;
                    if (seen[p])
                        continue;
                    CHECK(MPI_Parrived(req, p, &flag) == MPI_SUCCESS);
                    if (flag) {
                        CHECK(bad_values(buf, p * (N / rp), (p + 1) * (N / rp), r) == 0);
                        seen[p] = 1;
                        left--;
                    }
                }
            }
            CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
            int count = -1;
            MPI_Get_count(&st, MPI_INT, &count);
            CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 7 && count == N);
            CHECK(bad_values(buf, 0, N, r) == 0);
            int flag = 0; /* inactive: arrived */
            CHECK(MPI_Parrived(req, 0, &flag) == MPI_SUCCESS && flag);
        }
        CHECK(req != MPI_REQUEST_NULL);
    }
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS && req == MPI_REQUEST_NULL);
}

/* Both directions at once, started by MPI_Startall and completed by MPI_Waitall (or a Testall
 * loop); the send side uses a vector type (every other int of a 2N array), the receive side
 * plain ints. */
static void both_ways(MPI_Comm comm)
{
    int sbuf[2 * N], rbuf[N];
    MPI_Datatype vec, every_other;
    MPI_Type_vector(C, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(2 * C * sizeof(int)), &every_other);
    MPI_Type_commit(&every_other);
    MPI_Type_free(&vec);
    MPI_Request reqs[2];
    CHECK(MPI_Psend_init(sbuf, P, 1, every_other, peer, 3, comm, MPI_INFO_NULL, &reqs[0]) ==
          MPI_SUCCESS);
    CHECK(MPI_Precv_init(rbuf, 2, N / 2, MPI_INT, peer, 3, comm, MPI_INFO_NULL, &reqs[1]) ==
          MPI_SUCCESS);
    MPI_Type_free(&every_other); /* the request keeps it */
    for (int r = 1; r <= 3; r++) {
        for (int i = 0; i < N; i++) {
            sbuf[2 * i] = val(r, i);
            sbuf[2 * i + 1] = -1;
        }
        memset(rbuf, 0, sizeof rbuf);
        CHECK(MPI_Startall(2, reqs) == MPI_SUCCESS);
        CHECK(MPI_Pready_range(0, P - 1, reqs[0]) == MPI_SUCCESS);
        MPI_Status st[2];
        if (r % 2) {
            CHECK(MPI_Waitall(2, reqs, st) == MPI_SUCCESS);
        } else {
            int flag = 0;
            while (!flag)
                CHECK(MPI_Testall(2, reqs, &flag, st) == MPI_SUCCESS);
        }
        CHECK(bad_values(rbuf, 0, N, r) == 0);
        CHECK(st[1].MPI_SOURCE == peer && st[1].MPI_TAG == 3);
    }
    CHECK(MPI_Request_free(&reqs[0]) == MPI_SUCCESS);
    CHECK(MPI_Request_free(&reqs[1]) == MPI_SUCCESS);
}

/* Three requests with one (comm, source, tag) match in init order, whatever the order of their
 * starts; the sender readies all before its receiver even initializes (late receiver). */
static void init_order(MPI_Comm comm)
{
    int bufs[3][N];
    MPI_Request reqs[3];
    if (sender) {
        for (int k = 0; k < 3; k++) {
            CHECK(MPI_Psend_init(bufs[k], P, C, MPI_INT, peer, 5, comm, MPI_INFO_NULL,
                                 &reqs[k]) == MPI_SUCCESS);
        }
        for (int k = 2; k >= 0; k--) {
            CHECK(MPI_Start(&reqs[k]) == MPI_SUCCESS);
            fill(bufs[k], N, k + 1);
            CHECK(MPI_Pready_range(0, P - 1, reqs[k]) == MPI_SUCCESS);
        }
        MPI_Barrier(comm); /* the receiver initializes after this */
        CHECK(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    } else {
        MPI_Barrier(comm);
        for (int k = 0; k < 3; k++) {
            memset(bufs[k], 0, sizeof bufs[k]);
            CHECK(MPI_Precv_init(bufs[k], 1, N, MPI_INT, peer, 5, comm, MPI_INFO_NULL,
                                 &reqs[k]) == MPI_SUCCESS);
        }
        CHECK(MPI_Startall(3, reqs) == MPI_SUCCESS);
        CHECK(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
        for (int k = 0; k < 3; k++)
            CHECK(bad_values(bufs[k], 0, N, k + 1) == 0);
    }
    for (int k = 0; k < 3; k++)
        CHECK(MPI_Request_free(&reqs[k]) == MPI_SUCCESS);
}

/* MPI_PROC_NULL, zero counts, a send larger than the receive, MPI_Request_get_status. */
static void special(MPI_Comm comm)
{
    int buf[2 * N] = {0}, flag = 0;
    MPI_Request req;
    MPI_Status st;
    CHECK(MPI_Psend_init(buf, P, C, MPI_INT, MPI_PROC_NULL, 0, comm, MPI_INFO_NULL, &req) ==
          MPI_SUCCESS);
    CHECK(MPI_Start(&req) == MPI_SUCCESS);
    CHECK(MPI_Pready_range(0, P - 1, req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS && st.MPI_SOURCE == MPI_PROC_NULL);
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
    CHECK(MPI_Precv_init(buf, P, C, MPI_INT, MPI_PROC_NULL, 0, comm, MPI_INFO_NULL, &req) ==
          MPI_SUCCESS);
    CHECK(MPI_Start(&req) == MPI_SUCCESS);
    CHECK(MPI_Parrived(req, P - 1, &flag) == MPI_SUCCESS && flag);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS && st.MPI_SOURCE == MPI_PROC_NULL);
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS);

    /* Zero counts: every partition arrives with the (empty) message. */
    if (sender) {
        CHECK(MPI_Psend_init(NULL, 2, 0, MPI_INT, peer, 1, comm, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        CHECK(MPI_Pready_range(0, 1, req) == MPI_SUCCESS);
    } else {
        CHECK(MPI_Precv_init(NULL, 3, 0, MPI_INT, peer, 1, comm, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        do
            CHECK(MPI_Request_get_status(req, &flag, &st) == MPI_SUCCESS);
        while (!flag);
        CHECK(MPI_Parrived(req, 2, &flag) == MPI_SUCCESS && flag);
    }
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS);

    /* 2N ints into N: the receive fails with MPI_ERR_TRUNCATE, holding the first N. */
    fill(buf, 2 * N, 9);
    if (sender) {
        CHECK(MPI_Psend_init(buf, 2, N, MPI_INT, peer, 2, comm, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        CHECK(MPI_Pready(1, req) == MPI_SUCCESS);
        CHECK(MPI_Pready(0, req) == MPI_SUCCESS);
        CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    } else {
        memset(buf, 0, sizeof buf);
        CHECK(MPI_Precv_init(buf, P, C, MPI_INT, peer, 2, comm, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        CHECK(MPI_Wait(&req, &st) == MPI_ERR_TRUNCATE);
        CHECK(bad_values(buf, 0, N, 9) == 0 && buf[N] == 0);
    }
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
}

/* An intercommunicator between the even and the odd ranks: each even rank sends to the odd rank
 * of its pair (same rank in the other group), completed by MPI_Waitany and MPI_Waitsome. */
static void intercomm(void)
{
    int buf[N] = {0}, lr;
    MPI_Comm local, inter;
    MPI_Request req;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 99, &inter);
    MPI_Comm_rank(local, &lr);
    if (sender)
        CHECK(MPI_Psend_init(buf, P, C, MPI_INT, lr, 4, inter, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
    else
        CHECK(MPI_Precv_init(buf, 2, N / 2, MPI_INT, lr, 4, inter, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
    for (int r = 1; r <= 2; r++) {
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        if (sender) {
            fill(buf, N, r);
            CHECK(MPI_Pready_range(0, P - 1, req) == MPI_SUCCESS);
            int idx = -1;
            CHECK(MPI_Waitany(1, &req, &idx, MPI_STATUS_IGNORE) == MPI_SUCCESS && idx == 0);
        } else {
            int out = 0, idx[1];
            MPI_Status st[1];
            while (out == 0)
                CHECK(MPI_Waitsome(1, &req, &out, idx, st) == MPI_SUCCESS);
            CHECK(out == 1 && st[0].MPI_SOURCE == lr && bad_values(buf, 0, N, r) == 0);
        }
    }
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

/* ---- Several threads of one rank: readying (sender), polling (receiver) ---------------- */

#define TP 64 /* partitions */
#define TC 16 /* ints each */
#define NTHREADS 4
#define TROUNDS 20
static int tbuf[TP * TC];
static MPI_Request treq;
static pthread_barrier_t tbar;
static int terrs[NTHREADS];

static void *thread_body(void *arg)
{
    int t = (int)(intptr_t)arg;
    for (int r = 1; r <= TROUNDS; r++) {
        pthread_barrier_wait(&tbar); /* the main thread started activation r */
        if (sender) {
            for (int p = t; p < TP; p += NTHREADS) {
                for (int i = p * TC; i < (p + 1) * TC; i++)
                    tbuf[i] = val(r, i);
                if (MPI_Pready(p, treq) != MPI_SUCCESS)
                    terrs[t]++;
            }
        } else {
            for (int p = t; p < TP / 2; p += NTHREADS) { /* partitions of 2 * TC */
                int flag = 0;
                while (!flag)
                    if (MPI_Parrived(treq, p, &flag) != MPI_SUCCESS)
                        terrs[t]++, flag = 1;
                terrs[t] += bad_values(tbuf, p * 2 * TC, (p + 1) * 2 * TC, r);
            }
        }
        pthread_barrier_wait(&tbar); /* the main thread completes activation r */
    }
    return NULL;
}

static void threads(MPI_Comm comm)
{
    pthread_t th[NTHREADS];
    pthread_barrier_init(&tbar, NULL, NTHREADS + 1);
    if (sender)
        CHECK(MPI_Psend_init(tbuf, TP, TC, MPI_INT, peer, 9, comm, MPI_INFO_NULL, &treq) ==
              MPI_SUCCESS);
    else
        CHECK(MPI_Precv_init(tbuf, TP / 2, 2 * TC, MPI_INT, peer, 9, comm, MPI_INFO_NULL,
                             &treq) == MPI_SUCCESS);
    for (int t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, thread_body, (void *)(intptr_t)t);
    for (int r = 1; r <= TROUNDS; r++) {
        CHECK(MPI_Start(&treq) == MPI_SUCCESS);
        pthread_barrier_wait(&tbar);
        pthread_barrier_wait(&tbar);
        CHECK(MPI_Wait(&treq, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        if (!sender)
            CHECK(bad_values(tbuf, 0, TP * TC, r) == 0);
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        CHECK(terrs[t] == 0);
    }
    CHECK(MPI_Request_free(&treq) == MPI_SUCCESS);
    pthread_barrier_destroy(&tbar);
}

/* ---- Bad arguments ------------------------------------------------------------------------ */

static void bad_args(MPI_Comm comm)
{
    int buf[N], rbuf[N], flag, parts[2] = {0, P};
    MPI_Request req, rreq, other;
    MPI_Info info, freed;
    MPI_Info_create(&info);
    freed = info;
    MPI_Info_free(&info); /* sets info to MPI_INFO_NULL: freed names nothing now */
    CHECK(MPI_Psend_init(buf, 0, C, MPI_INT, peer, 0, comm, MPI_INFO_NULL, &req) == MPI_ERR_ARG);
    CHECK(MPI_Psend_init(buf, -1, C, MPI_INT, peer, 0, comm, MPI_INFO_NULL, &req) ==
          MPI_ERR_ARG);
    CHECK(MPI_Psend_init(buf, P, -1, MPI_INT, peer, 0, comm, MPI_INFO_NULL, &req) ==
          MPI_ERR_COUNT);
    CHECK(MPI_Psend_init(buf, P, C, MPI_DATATYPE_NULL, peer, 0, comm, MPI_INFO_NULL, &req) ==
          MPI_ERR_TYPE);
    CHECK(MPI_Psend_init(buf, P, C, MPI_INT, size, 0, comm, MPI_INFO_NULL, &req) ==
          MPI_ERR_RANK);
    CHECK(MPI_Psend_init(buf, P, C, MPI_INT, peer, -1, comm, MPI_INFO_NULL, &req) == MPI_ERR_TAG);
    CHECK(MPI_Psend_init(NULL, P, C, MPI_INT, peer, 0, comm, MPI_INFO_NULL, &req) ==
          MPI_ERR_BUFFER);
    CHECK(MPI_Psend_init(buf, P, C, MPI_INT, peer, 0, MPI_COMM_NULL, MPI_INFO_NULL, &req) ==
          MPI_ERR_COMM);
    CHECK(MPI_Psend_init(buf, P, C, MPI_INT, peer, 0, comm, freed, &req) == MPI_ERR_INFO);
    CHECK(MPI_Psend_init(buf, P, C, MPI_INT, peer, 0, comm, MPI_INFO_NULL, NULL) == MPI_ERR_ARG);
    /* §4.2.2: no wildcards */
    CHECK(MPI_Precv_init(buf, P, C, MPI_INT, MPI_ANY_SOURCE, 0, comm, MPI_INFO_NULL, &req) ==
          MPI_ERR_RANK);
    CHECK(MPI_Precv_init(buf, P, C, MPI_INT, peer, MPI_ANY_TAG, comm, MPI_INFO_NULL, &req) ==
          MPI_ERR_TAG);
    CHECK(MPI_Precv_init(buf, 0, C, MPI_INT, peer, 0, comm, MPI_INFO_NULL, &req) == MPI_ERR_ARG);

    /* A send request and a receive request to self's own rank on tag 11: a pair of their own. */
    CHECK(MPI_Psend_init(buf, P, C, MPI_INT, rank, 11, comm, MPI_INFO_NULL, &req) == MPI_SUCCESS);
    CHECK(MPI_Precv_init(rbuf, P, C, MPI_INT, rank, 11, comm, MPI_INFO_NULL, &rreq) ==
          MPI_SUCCESS);
    CHECK(MPI_Pready(0, req) == MPI_ERR_REQUEST); /* inactive */
    CHECK(MPI_Parrived(rreq, 0, &flag) == MPI_SUCCESS && flag); /* inactive: arrived */
    CHECK(MPI_Start(&req) == MPI_SUCCESS);
    CHECK(MPI_Start(&req) == MPI_ERR_REQUEST); /* active */
    CHECK(MPI_Pready(P, req) == MPI_ERR_ARG);
    CHECK(MPI_Pready(-1, req) == MPI_ERR_ARG);
    CHECK(MPI_Pready_range(1, 0, req) == MPI_ERR_ARG);
    CHECK(MPI_Pready_range(0, P, req) == MPI_ERR_ARG);
    CHECK(MPI_Pready_list(2, parts, req) == MPI_ERR_ARG); /* P is out of range: none marked */
    CHECK(MPI_Pready_list(-1, parts, req) == MPI_ERR_ARG);
    CHECK(MPI_Pready_list(1, NULL, req) == MPI_ERR_ARG);
    CHECK(MPI_Pready_list(0, NULL, req) == MPI_SUCCESS);
    CHECK(MPI_Pready(0, rreq) == MPI_ERR_REQUEST);           /* a receive request */
    CHECK(MPI_Pready(0, MPI_REQUEST_NULL) == MPI_ERR_REQUEST);
    CHECK(MPI_Parrived(req, 0, &flag) == MPI_ERR_REQUEST);  /* a send request */
    flag = 0; /* §4.2.4: a null request is like an inactive one */
    CHECK(MPI_Parrived(MPI_REQUEST_NULL, 0, &flag) == MPI_SUCCESS && flag);
    CHECK(MPI_Start(&rreq) == MPI_SUCCESS);
    CHECK(MPI_Parrived(rreq, P, &flag) == MPI_ERR_ARG);
    CHECK(MPI_Parrived(rreq, -1, &flag) == MPI_ERR_ARG);
    CHECK(MPI_Parrived(rreq, 0, NULL) == MPI_ERR_ARG);
    CHECK(MPI_Parrived(rreq, 0, &flag) == MPI_SUCCESS && !flag);
    CHECK(MPI_Pready_range(0, P - 2, req) == MPI_SUCCESS);
    CHECK(MPI_Pready(0, req) == MPI_ERR_ARG); /* already ready */
    CHECK(MPI_Parrived(rreq, 0, &flag) == MPI_SUCCESS && flag);
    CHECK(MPI_Parrived(rreq, P - 1, &flag) == MPI_SUCCESS && !flag);
    CHECK(MPI_Pready(P - 1, req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&rreq, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    /* An ordinary request is not a partitioned one. */
    CHECK(MPI_Isend(buf, 1, MPI_INT, rank, 12, comm, &other) == MPI_SUCCESS);
    CHECK(MPI_Pready(0, other) == MPI_ERR_REQUEST);
    CHECK(MPI_Parrived(other, 0, &flag) == MPI_ERR_REQUEST);
    CHECK(MPI_Recv(buf, 1, MPI_INT, rank, 12, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Wait(&other, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
    CHECK(MPI_Request_free(&rreq) == MPI_SUCCESS);
    CHECK(MPI_Pready(0, req) == MPI_ERR_REQUEST); /* freed: MPI_REQUEST_NULL */
}

/* ---- Failures ------------------------------------------------------------------------------ */

static bool victim_pair(void)
{
    int odd = rank | 1;
    return (odd / 2) % 2 == 0;
}

/* The survivor of a pair whose sender dies entering its K-th MPI_Pready. */
static void fail_send(MPI_Comm comm, int k)
{
    int buf[N], flag;
    int dead_round = (k - 1) / P + 1, readied = (k - 1) % P;
    bool odd = rank % 2;
    sender = odd;
    MPI_Request req;
    if (sender) {
        CHECK(MPI_Psend_init(buf, P, C, MPI_INT, peer, 0, comm, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
        for (int r = 1; r <= dead_round + 1; r++) {
            CHECK(MPI_Start(&req) == MPI_SUCCESS);
            fill(buf, N, r);
            for (int p = 0; p < P; p++)
                CHECK(MPI_Pready(p, req) == MPI_SUCCESS); /* the victim dies in one */
            CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        }
        CHECK(!victim_pair());
        CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
        return;
    }
    CHECK(MPI_Precv_init(buf, P, C, MPI_INT, peer, 0, comm, MPI_INFO_NULL, &req) == MPI_SUCCESS);
    for (int r = 1; r <= dead_round + 1; r++) {
        memset(buf, 0, sizeof buf);
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        if (!victim_pair() || r < dead_round) {
            CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            CHECK(bad_values(buf, 0, N, r) == 0);
            continue;
        }
        if (r == dead_round && k % 2 == 0) {
            /* Poll the last partition until the death is known, then look at every one: the
             * readied ones arrived (and say so), the others fail. (Odd K: blocked in MPI_Wait
             * when the sender dies.) */
            int err;
            while ((err = MPI_Parrived(req, P - 1, &flag)) == MPI_SUCCESS && !flag)
                ;
            CHECK(err == MPI_ERR_PROC_FAILED);
            for (int p = 0; p < P; p++) {
                err = MPI_Parrived(req, p, &flag);
                if (p < readied)
                    CHECK(err == MPI_SUCCESS && flag &&
                          bad_values(buf, p * C, (p + 1) * C, r) == 0);
                else
                    CHECK(err == MPI_ERR_PROC_FAILED);
            }
        }
        if (r > dead_round)
            CHECK(MPI_Parrived(req, 0, &flag) == MPI_ERR_PROC_FAILED);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_ERR_PROC_FAILED);
        CHECK(req != MPI_REQUEST_NULL);
        if (r == dead_round)
            CHECK(bad_values(buf, 0, readied * C, r) == 0);
    }
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
}

/* The survivor of a pair whose receiver dies entering its K-th MPI_Start: the sender waits
 * (blocked) for activation K. */
static void fail_recv(MPI_Comm comm, int k)
{
    int buf[N];
    sender = rank % 2 == 0;
    MPI_Request req;
    if (!sender) {
        CHECK(MPI_Precv_init(buf, P, C, MPI_INT, peer, 0, comm, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
        for (int r = 1; r <= k + 1; r++) {
            CHECK(MPI_Start(&req) == MPI_SUCCESS); /* the victim dies in its K-th */
            CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            CHECK(bad_values(buf, 0, N, r) == 0);
        }
        CHECK(!victim_pair());
        CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
        return;
    }
    CHECK(MPI_Psend_init(buf, P, C, MPI_INT, peer, 0, comm, MPI_INFO_NULL, &req) == MPI_SUCCESS);
    for (int r = 1; r <= k + 1; r++) {
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        fill(buf, N, r);
        CHECK(MPI_Pready_range(0, P - 1, req) == MPI_SUCCESS); /* local: succeeds */
        int want = victim_pair() && r >= k ? MPI_ERR_PROC_FAILED : MPI_SUCCESS;
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == want);
    }
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
}

/* The sender dies entering MPI_Psend_init: the receive never matches. */
static void fail_init(MPI_Comm comm)
{
    int buf[N], flag;
    MPI_Request req;
    if (rank % 2) {
        CHECK(MPI_Psend_init(buf, P, C, MPI_INT, peer, 0, comm, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
        CHECK(!victim_pair());
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        fill(buf, N, 1);
        CHECK(MPI_Pready_range(0, P - 1, req) == MPI_SUCCESS);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
        return;
    }
    CHECK(MPI_Precv_init(buf, P, C, MPI_INT, peer, 0, comm, MPI_INFO_NULL, &req) == MPI_SUCCESS);
    CHECK(MPI_Start(&req) == MPI_SUCCESS);
    if (victim_pair()) {
        int err;
        while ((err = MPI_Parrived(req, 0, &flag)) == MPI_SUCCESS && !flag)
            ;
        CHECK(err == MPI_ERR_PROC_FAILED);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_ERR_PROC_FAILED);
    } else {
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(bad_values(buf, 0, N, 1) == 0);
    }
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
}

/* Every pair revokes its own communicator (a split of comm) in activation 2, after the sender
 * readied half the partitions, while the receiver waits. */
static void revoke(MPI_Comm world)
{
    int buf[N], flag;
    MPI_Comm comm;
    MPI_Request req;
    MPI_Comm_split(world, rank / 2, rank, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int mate = rank % 2 ? 0 : 1; /* the peer's rank in the pair's communicator */
    if (sender)
        CHECK(MPI_Psend_init(buf, P, C, MPI_INT, mate, 0, comm, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
    else
        CHECK(MPI_Precv_init(buf, P, C, MPI_INT, mate, 0, comm, MPI_INFO_NULL, &req) ==
              MPI_SUCCESS);
    for (int r = 1; r <= 3; r++) {
        if (!sender)
            memset(buf, 0, sizeof buf);
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        if (r == 2)
            MPI_Barrier(world); /* the receiver has started activation 2 */
        if (sender) {
            fill(buf, N, r);
            if (r == 2) {
                CHECK(MPI_Pready_range(0, P / 2 - 1, req) == MPI_SUCCESS);
                CHECK(MPIX_Comm_revoke(comm) == MPI_SUCCESS);
                CHECK(MPI_Pready_range(P / 2, P - 1, req) == MPI_SUCCESS); /* local */
            } else {
                CHECK(MPI_Pready_range(0, P - 1, req) == MPI_SUCCESS);
            }
            CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == (r == 1 ? MPI_SUCCESS : MPI_ERR_REVOKED));
        } else {
            int err = MPI_Wait(&req, MPI_STATUS_IGNORE);
            CHECK(err == (r == 1 ? MPI_SUCCESS : MPI_ERR_REVOKED));
            if (r == 1)
                CHECK(bad_values(buf, 0, N, r) == 0);
            if (r == 2) /* the readied half arrived before the revoke */
                CHECK(bad_values(buf, 0, N / 2, r) == 0);
        }
    }
    if (!sender) { /* MPI_Parrived during a revoked activation */
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        CHECK(MPI_Parrived(req, 0, &flag) == MPI_ERR_REVOKED);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_ERR_REVOKED);
    }
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
    MPI_Request again;
    CHECK(MPI_Psend_init(buf, P, C, MPI_INT, mate, 0, comm, MPI_INFO_NULL, &again) ==
          MPI_ERR_REVOKED);
    MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size % 2) {
        fprintf(stderr, "part: needs an even number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    peer = rank ^ 1;
    sender = rank % 2 == 0;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    const char *mode = argc > 1 ? argv[1] : "";
    int k = argc > 2 ? atoi(argv[2]) : 0;
    if (!strcmp(mode, "fail-send")) {
        fail_send(comm, k);
    } else if (!strcmp(mode, "fail-recv")) {
        fail_recv(comm, k);
    } else if (!strcmp(mode, "fail-init")) {
        fail_init(comm);
    } else if (!strcmp(mode, "revoke")) {
        revoke(MPI_COMM_WORLD);
    } else {
        exchange(comm, P, 3, ONE_BY_ONE);
        exchange(comm, 2, 2, RANGE);
        exchange(comm, 16, 2, LIST);
        exchange(comm, 1, 1, ONE_BY_ONE);
        both_ways(comm);
        init_order(comm);
        special(comm);
        intercomm();
        if (provided == MPI_THREAD_MULTIPLE)
            threads(comm);
        bad_args(comm);
        MPI_Barrier(comm);
    }
    MPI_Comm_free(&comm);
    return mtest_finish();
}
