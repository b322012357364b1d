/* p2p_probe.c: probing and matched receives (MPI-4.1 §3.8): MPI_Probe then a receive sized from
 * MPI_Get_count; MPI_Iprobe polled until it finds the message; MPI_Mprobe + MPI_Mrecv and
 * MPI_Improbe + MPI_Imrecv (small and 1 MiB messages; the message handle becomes
 * MPI_MESSAGE_NULL); probes of MPI_PROC_NULL (MPI_MESSAGE_NO_PROC, source MPI_PROC_NULL, tag
 * MPI_ANY_TAG, count 0); a message matched by MPI_Mprobe cannot be received by any other receive:
 * an MPI_ANY_SOURCE/MPI_ANY_TAG MPI_Irecv posted afterwards gets the next message. Rank 0 sends,
 * rank 1 probes; other ranks only check MPI_PROC_NULL. */
#include <string.h>

#include "mtest.h"

#define BIG (1 << 18) /* ints: 1 MiB */

static int value(int tag, int k)
{
    return tag * 1000003 + k;
}

static void send(int *buf, int n, int tag)
{
    for (int k = 0; k < n; k++)
        buf[k] = value(tag, k);
    CHECK(MPI_Send(buf, n, MPI_INT, 1, tag, MPI_COMM_WORLD) == MPI_SUCCESS);
}

static int verify(const int *buf, int n, int tag)
{
    for (int k = 0; k < n; k++)
        if (buf[k] != value(tag, k))
            return 0;
    return 1;
}

/* Checks a status from probing or receiving a message of n ints with tag from rank 0. */
static void check_status(const MPI_Status *st, int tag, int n)
{
    int count = -1;
    CHECK(st->MPI_SOURCE == 0 && st->MPI_TAG == tag);
    CHECK(MPI_Get_count(st, MPI_INT, &count) == MPI_SUCCESS && count == n);
}

static void check_proc_null(const MPI_Status *st)
{
    int count = -1;
    CHECK(st->MPI_SOURCE == MPI_PROC_NULL && st->MPI_TAG == MPI_ANY_TAG);
    CHECK(MPI_Get_count(st, MPI_INT, &count) == MPI_SUCCESS && count == 0);
}

int main(int argc, char **argv)
{
    int rank, size, flag, count;
    MPI_Status st;
    MPI_Message msg;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *buf = malloc(sizeof(int) * (BIG + 1)), *buf2 = malloc(sizeof(int) * (BIG + 1));

    /* MPI_PROC_NULL (MPI-4.1 §3.10). */
    CHECK(MPI_Probe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
    check_proc_null(&st);
    flag = 0;
    CHECK(MPI_Iprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS && flag);
    check_proc_null(&st);
    CHECK(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st) == MPI_SUCCESS);
    CHECK(msg == MPI_MESSAGE_NO_PROC);
    check_proc_null(&st);
    CHECK(MPI_Mrecv(buf, 10, MPI_INT, &msg, &st) == MPI_SUCCESS && msg == MPI_MESSAGE_NULL);
    check_proc_null(&st);
    flag = 0;
    CHECK(MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &msg, &st) == MPI_SUCCESS && flag);
    CHECK(msg == MPI_MESSAGE_NO_PROC);
    CHECK(MPI_Imrecv(buf, 10, MPI_INT, &msg, &req) == MPI_SUCCESS && msg == MPI_MESSAGE_NULL);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    check_proc_null(&st);

    if (size >= 2 && rank == 0) {
        send(buf, 100, 1);
        send(buf, 0, 2);
        send(buf, BIG, 3);
        send(buf, 7, 4);
        send(buf, BIG, 5);
        send(buf, 9, 6);
        /* The Mprobe check: two messages with one tag; the second is smaller. */
        send(buf, 20, 7);
        for (int k = 0; k < 5; k++)
            buf[k] = -k;
        CHECK(MPI_Send(buf, 5, MPI_INT, 1, 7, MPI_COMM_WORLD) == MPI_SUCCESS);
    } else if (size >= 2 && rank == 1) {
        /* Probe, then receive exactly the probed size. */
        CHECK(MPI_Probe(0, 1, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        check_status(&st, 1, 100);
        count = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(MPI_Recv(buf, count, MPI_INT, 0, 1, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        check_status(&st, 1, 100);
        CHECK(verify(buf, 100, 1));

        /* Iprobe with wildcards until found (an empty message). */
        flag = 0;
        while (!flag)
            CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) ==
                  MPI_SUCCESS);
        check_status(&st, 2, 0);
        CHECK(MPI_Recv(buf, 0, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);

        /* Probe does not consume: probing twice finds the same message. */
        CHECK(MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        check_status(&st, 3, BIG);
        CHECK(MPI_Probe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        check_status(&st, 3, BIG);

        /* Mprobe + Mrecv of the 1 MiB message; then a small one. */
        CHECK(MPI_Mprobe(0, 3, MPI_COMM_WORLD, &msg, &st) == MPI_SUCCESS);
        CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC);
        check_status(&st, 3, BIG);
        memset(buf, 0, sizeof(int) * BIG);
        CHECK(MPI_Mrecv(buf, BIG, MPI_INT, &msg, &st) == MPI_SUCCESS && msg == MPI_MESSAGE_NULL);
        check_status(&st, 3, BIG);
        CHECK(verify(buf, BIG, 3));
        CHECK(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st) == MPI_SUCCESS);
        check_status(&st, 4, 7);
        CHECK(MPI_Mrecv(buf, 100, MPI_INT, &msg, &st) == MPI_SUCCESS && msg == MPI_MESSAGE_NULL);
        check_status(&st, 4, 7);
        CHECK(verify(buf, 7, 4));

        /* Improbe (polled) + Imrecv, 1 MiB then small. */
        for (int tag = 5; tag <= 6; tag++) {
            int n = tag == 5 ? BIG : 9;
            flag = 0;
            while (!flag)
                CHECK(MPI_Improbe(0, tag, MPI_COMM_WORLD, &flag, &msg, &st) == MPI_SUCCESS);
            check_status(&st, tag, n);
            memset(buf, 0, sizeof(int) * (size_t)n);
            CHECK(MPI_Imrecv(buf, BIG, MPI_INT, &msg, &req) == MPI_SUCCESS);
            CHECK(msg == MPI_MESSAGE_NULL);
            CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
            check_status(&st, tag, n);
            CHECK(verify(buf, n, tag));
        }

        /* A matched message is out of reach of every other receive and probe (§3.8.2). */
        CHECK(MPI_Mprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &msg, &st) == MPI_SUCCESS);
        check_status(&st, 7, 20);
        CHECK(MPI_Irecv(buf2, BIG, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req) ==
              MPI_SUCCESS);
        CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
        check_status(&st, 7, 5);
        CHECK(buf2[0] == 0 && buf2[4] == -4);
        flag = 1;
        CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS);
        CHECK(!flag);
        CHECK(MPI_Mrecv(buf, BIG, MPI_INT, &msg, &st) == MPI_SUCCESS);
        check_status(&st, 7, 20);
        CHECK(verify(buf, 20, 7));
    }
    free(buf);
    free(buf2);
    return mtest_finish();
}
