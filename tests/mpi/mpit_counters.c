/*
 * mpit_counters: performance variables against counts the program keeps (docs/
 * tools-interface.md): the unexpected and posted receive queues (synchronous sends wait there
 * as envelopes), agreements, shrinks, one-sided operations and file bytes, each read where the
 * true value is known.
 */
#include <stdio.h>
#include <unistd.h>

#include "mpit_read.h"

static unsigned long long pvar(const char *name, int cls)
{
    return mpit_read(name, cls);
}
#define COUNTER(name) pvar(name, MPI_T_PVAR_CLASS_COUNTER)

int main(int argc, char **argv)
{
    int provided, rank, buf[30] = {0}, flag = 1;
    MPI_Request req[3];
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    /* Three synchronous sends wait in rank 0's unexpected queue until it receives them. */
    if (rank == 1)
        for (int i = 0; i < 3; i++)
            MPI_Issend(buf + 10 * i, 10, MPI_INT, 0, i, MPI_COMM_WORLD, &req[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK(pvar("unexpected_recvq_length", MPI_T_PVAR_CLASS_LEVEL) == 3);
        for (int i = 0; i < 3; i++)
            MPI_Recv(buf, 10, MPI_INT, 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(pvar("unexpected_recvq_length", MPI_T_PVAR_CLASS_LEVEL) == 0);
        CHECK(pvar("unexpected_recvq_hwm", MPI_T_PVAR_CLASS_HIGHWATERMARK) == 3);
        CHECK(COUNTER("msgs_received") == 3 && COUNTER("bytes_received") == 120);
        /* A receive posted before its message waits in the posted queue. */
        MPI_Irecv(buf, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &req[0]);
        CHECK(pvar("posted_recvq_length", MPI_T_PVAR_CLASS_LEVEL) == 1);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        CHECK(pvar("posted_recvq_length", MPI_T_PVAR_CLASS_LEVEL) == 0);
        CHECK(COUNTER("msgs_received") == 4);
    } else {
        MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
        CHECK(COUNTER("msgs_sent") == 3 && COUNTER("bytes_sent") == 120);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(buf, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    }

    /* Agreements and shrinks. */
    MPI_Comm shrunk;
    MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk);
    CHECK(COUNTER("agreements") == 2 && COUNTER("shrinks") == 1);
    MPI_Comm_free(&shrunk);

    /* One-sided operations. */
    int winbuf[4] = {0};
    MPI_Win win;
    MPI_Win_create(winbuf, sizeof winbuf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Put(buf, 1, MPI_INT, 1 - rank, 0, 1, MPI_INT, win);
    MPI_Get(buf, 1, MPI_INT, 1 - rank, 1, 1, MPI_INT, win);
    MPI_Accumulate(buf, 1, MPI_INT, 1 - rank, 2, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    CHECK(COUNTER("rma_ops") == 3);
    MPI_Win_free(&win);

    /* File bytes: each rank writes its own file, then reads it back. */
    char path[64];
    snprintf(path, sizeof path, "mpit_counters.%d", rank);
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh) == MPI_SUCCESS);
    MPI_File_write_at(fh, 0, buf, 25, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_read_at(fh, 0, buf, 10, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    unlink(path);
    CHECK(COUNTER("file_bytes_written") == 100 && COUNTER("file_bytes_read") == 40);

    MPI_T_finalize();
    return mtest_finish();
}
