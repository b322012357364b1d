/*
 * bench/io_detect.c: failure detection in a collective file write, next to the communicator's
 * in the same run: from the moment a rank dies to the moment the survivors' MPI_Barrier
 * (phase 1), then their MPI_File_write_at_all (phase 2), returns MPIX_ERR_PROC_FAILED.
 *
 * Phase 1 is bench/ulfm_detect.c's measurement with the last rank as victim. The survivors
 * then shrink MPI_COMM_WORLD, open a file on the result and write once together; in phase 2
 * the next-to-last rank dies at an announced time while the others wait in write_at_all. The
 * dead rank announces its time of death beforehand; this program needs a global MPI_Wtime
 * (MPI_WTIME_IS_GLOBAL, as in mini_mpi) and prints NA otherwise. Needs at least 3 ranks.
 * Reported (ms, the slowest survivor): io_detect_barrier, io_detect_write_at_all, and their
 * ratio io_detect_ratio (goal: at most 2). Optional argument: the directory of the file
 * (default $TMPDIR or /tmp).
 */
#include "common.h"
#include "ulfm.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#define TAG_DEATH 22
#define TAG_REPORT 23

#if BENCH_HAVE_ULFM
static void die_at(double td)
{
    raise(0); /* binds raise now: lazy binding is not detection time */
    for (;;) {
        double left = td - MPI_Wtime();
        if (left <= 0)
            break;
        if (left > 2e-3) {
            struct timespec ts = {0, (long)((left - 2e-3) * 1e9)};
            if (ts.tv_nsec > 100000000L)
                ts.tv_nsec = 100000000L;
            nanosleep(&ts, NULL);
        }
    }
    raise(SIGKILL);
}

/* One phase: `victim` of comm dies `lead` s from now while the others run op(); returns at
 * rank 0 of comm the slowest survivor's detection (ms), or -1 if some op did not fail with
 * MPIX_ERR_PROC_FAILED. */
static double phase(MPI_Comm comm, int victim, double lead, int (*op)(void *), void *arg)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double td;
    if (rank == victim) {
        td = MPI_Wtime() + lead;
        for (int s = 0; s < size; s++)
            if (s != victim)
                MPI_Send(&td, 1, MPI_DOUBLE, s, TAG_DEATH, comm);
        die_at(td);
    }
    MPI_Recv(&td, 1, MPI_DOUBLE, victim, TAG_DEATH, comm, MPI_STATUS_IGNORE);
    int cls, rc = op(arg);
    double mine[2] = {(MPI_Wtime() - td) * 1e3, 0};
    MPI_Error_class(rc, &cls);
    mine[1] = cls == MPIX_ERR_PROC_FAILED;
    if (rank != 0) {
        MPI_Send(mine, 2, MPI_DOUBLE, 0, TAG_REPORT, comm);
        return 0;
    }
    double hi = mine[0];
    int wrong = !mine[1];
    for (int s = 1; s < size; s++) {
        double r[2];
        if (s == victim)
            continue;
        MPI_Recv(r, 2, MPI_DOUBLE, s, TAG_REPORT, comm, MPI_STATUS_IGNORE);
        hi = r[0] > hi ? r[0] : hi;
        wrong |= !r[1];
    }
    return wrong ? -1 : hi;
}

static int barrier_op(void *arg)
{
    return MPI_Barrier(*(MPI_Comm *)arg);
}

static int write_op(void *arg)
{
    MPI_File fh = *(MPI_File *)arg;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return MPI_File_write_at_all(fh, rank * 8, &rank, 1, MPI_INT, MPI_STATUS_IGNORE);
}
#endif

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
#if !BENCH_HAVE_ULFM
    if (rank == 0)
        bench_result_na("io_detect_write_at_all", 0, size, "ms", "no-ULFM");
    MPI_Finalize();
    return 0;
#else
    int *global, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag);
    if (size < 3 || !flag || !*global) {
        if (rank == 0)
            bench_result_na("io_detect_write_at_all", 0, size, "ms",
                            size < 3 ? "needs-3-ranks" : "no-global-clock");
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    double lead = 0.02 + 2e-4 * size;
    MPI_Comm world = MPI_COMM_WORLD;
    MPI_Barrier(MPI_COMM_WORLD);
    double t_barrier = phase(MPI_COMM_WORLD, size - 1, lead, barrier_op, &world);

    MPI_Comm alive;
    MPIX_Comm_shrink(MPI_COMM_WORLD, &alive);
    MPI_Comm_set_errhandler(alive, MPI_ERRORS_RETURN);
    char name[512];
    snprintf(name, sizeof name, "%s/io_detect.%d",
             argc > 1 ? argv[1] : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    MPI_File fh;
    MPI_File_open(alive, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
    write_op(&fh);
    double t_write = phase(alive, size - 2, lead, write_op, &fh);
    MPI_File_close(&fh);
    if (rank == 0) {
        unlink(name);
        if (t_barrier < 0 || t_write < 0) {
            bench_result_na("io_detect_write_at_all", 0, size, "ms", "wrong-error");
        } else {
            bench_result("io_detect_barrier", 0, size, t_barrier, "ms");
            bench_result("io_detect_write_at_all", 0, size, t_write, "ms");
            bench_result("io_detect_ratio", 0, size, t_write / t_barrier, "x");
        }
    }
    MPI_Comm_free(&alive);
    MPI_Finalize();
    return 0;
#endif
}
