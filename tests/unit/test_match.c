/*
 * test_match.c: unit tests of the point-to-point matching engine (pt2pt/match.c) through the MPI
 * calls of a small world: ordering, wildcards, probe and matched probe, cancel, truncation, and
 * the eager/rendezvous boundary. Rank bodies record failures; the test thread asserts.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pt2pt/match.h"
#include "unit_world.h"

static int failures;

#define EXPECT(cond)                                                                       \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "rank %d: %s:%d: %s\n", rank, __FILE__, __LINE__, #cond);      \
            __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);                            \
        }                                                                                  \
    } while (0)

/* Rank 0 sends 200 messages alternating tags 1 and 2 and sizes either side of the eager limit;
 * rank 1 receives tag 2 first, then tag 1: each tag's sequence must be in order. */
static void ordering_body(int rank, int size, void *arg)
{
    enum { N = 200 };
    static int big0[MMPI_EAGER_MAX / 4 + 16];
    if (rank == 0) {
        MPI_Request reqs[N];
        static int bufs[N][MMPI_EAGER_MAX / 4 + 16];
        for (int i = 0; i < N; i++) {
            int count = (i % 3 == 0) ? MMPI_EAGER_MAX / 4 + 16 : 1;
            bufs[i][0] = i;
            MPI_Isend(bufs[i], count, MPI_INT, 1, 1 + i % 2, MPI_COMM_WORLD, &reqs[i]);
        }
        EXPECT(MPI_Waitall(N, reqs, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    } else if (rank == 1) {
        for (int tag = 2; tag >= 1; tag--) {
            int last = -1;
            for (int k = 0; k < N / 2; k++) {
                MPI_Status st;
                EXPECT(MPI_Recv(big0, MMPI_EAGER_MAX / 4 + 16, MPI_INT, MPI_ANY_SOURCE, tag,
                                MPI_COMM_WORLD, &st) == MPI_SUCCESS);
                EXPECT(big0[0] > last && big0[0] % 2 == tag - 1);
                EXPECT(st.MPI_SOURCE == 0 && st.MPI_TAG == tag);
                last = big0[0];
            }
        }
    }
}

static void ordering(void **state)
{
    failures = 0;
    assert_int_equal(unit_world_run(2, ordering_body, NULL), 0);
    assert_int_equal(failures, 0);
}

/* Probe sees a message without taking it; a matched probe takes it away from other receives. */
static void probe_body(int rank, int size, void *arg)
{
    int v = 0, flag = 0;
    MPI_Status st;
    if (rank == 0) {
        int a = 10, b = 20;
        MPI_Send(&a, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Message msg;
        EXPECT(MPI_Probe(0, 5, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        EXPECT(st.MPI_SOURCE == 0 && st.MPI_TAG == 5 && st.mmpi_count == sizeof(int));
        EXPECT(MPI_Improbe(0, 6, MPI_COMM_WORLD, &flag, &msg, &st) == MPI_SUCCESS && !flag);
        EXPECT(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st) == MPI_SUCCESS);
        /* The first message is now held by msg: a receive gets the second. */
        EXPECT(MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &st) == MPI_SUCCESS && v == 20);
        EXPECT(MPI_Mrecv(&v, 1, MPI_INT, &msg, &st) == MPI_SUCCESS && v == 10);
        EXPECT(msg == MPI_MESSAGE_NULL);
    }
}

static void probe(void **state)
{
    failures = 0;
    assert_int_equal(unit_world_run(2, probe_body, NULL), 0);
    assert_int_equal(failures, 0);
}

/* A posted receive that never matches can be cancelled; a large (rendezvous) send that nobody
 * received can be cancelled too, and is then never delivered. */
static void cancel_body(int rank, int size, void *arg)
{
    static char big[4 * MMPI_EAGER_MAX];
    MPI_Request r;
    MPI_Status st;
    int flag = 0;
    if (rank == 0) {
        EXPECT(MPI_Irecv(&flag, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &r) == MPI_SUCCESS);
        EXPECT(MPI_Cancel(&r) == MPI_SUCCESS);
        EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS);
        EXPECT(MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && flag);
        EXPECT(MPI_Isend(big, sizeof big, MPI_BYTE, 1, 7, MPI_COMM_WORLD, &r) == MPI_SUCCESS);
        EXPECT(MPI_Cancel(&r) == MPI_SUCCESS);
        EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS);
        EXPECT(MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && flag);
        int one = 1;
        MPI_Send(&one, 1, MPI_INT, 1, 8, MPI_COMM_WORLD);
    } else if (rank == 1) {
        int v;
        MPI_Recv(&v, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        EXPECT(MPI_Iprobe(0, 7, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS && !flag);
    }
}

static void cancel(void **state)
{
    failures = 0;
    assert_int_equal(unit_world_run(2, cancel_body, NULL), 0);
    assert_int_equal(failures, 0);
}

/* Too small a receive buffer gives MPI_ERR_TRUNCATE, eager and rendezvous alike. */
static void truncate_body(int rank, int size, void *arg)
{
    static char big[4 * MMPI_EAGER_MAX];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send(big, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        MPI_Send(big, sizeof big, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
    } else if (rank == 1) {
        char small[4];
        MPI_Status st;
        EXPECT(MPI_Recv(small, 4, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &st) == MPI_ERR_TRUNCATE);
        EXPECT(MPI_Recv(big, MMPI_EAGER_MAX, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &st) ==
               MPI_ERR_TRUNCATE);
    }
}

static void truncation(void **state)
{
    failures = 0;
    assert_int_equal(unit_world_run(2, truncate_body, NULL), 0);
    assert_int_equal(failures, 0);
}

/* A receive from a rank that dies completes with MPI_ERR_PROC_FAILED instead of hanging; traffic
 * between live ranks is unaffected. */
static void dead_peer_body(int rank, int size, void *arg)
{
    int v = 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1)
        raise(SIGKILL);
    if (rank == 0) {
        EXPECT(MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
               MPI_ERR_PROC_FAILED);
        v = 42;
        EXPECT(MPI_Send(&v, 1, MPI_INT, 2, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    } else if (rank == 2) {
        EXPECT(MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        EXPECT(v == 42);
    }
}

static void dead_peer(void **state)
{
    failures = 0;
    assert_int_equal(unit_world_run(3, dead_peer_body, NULL), 0);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ordering),
        cmocka_unit_test(probe),
        cmocka_unit_test(cancel),
        cmocka_unit_test(truncation),
        cmocka_unit_test(dead_peer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
