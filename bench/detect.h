/*
 * bench/detect.h: the announced death that bench/io_detect.c and bench/rma_detect.c measure
 * detection from. The victim announces its time of death to every survivor, then raises
 * SIGKILL at that time; each survivor measures from the announced time to its operation's
 * error. Needs a global MPI_Wtime (MPI_WTIME_IS_GLOBAL). Include after bench/ulfm.h, inside
 * `#if BENCH_HAVE_ULFM`.
 */
#ifndef BENCH_DETECT_H
#define BENCH_DETECT_H

#include <signal.h>
#include <time.h>

#include <mpi.h>

#define TAG_DEATH 22
#define TAG_REPORT 23

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

/* One phase: `victim` of comm runs prep (if any), then dies `lead` s from now while the others
 * run op(); returns at
 * rank 0 of comm the slowest survivor's detection (ms), or -1 if some op did not fail with
 * MPIX_ERR_PROC_FAILED. */
static double phase(MPI_Comm comm, int victim, double lead, int (*op)(void *), void *arg,
                    void (*prep)(void *))
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double td;
    if (rank == victim) {
        if (prep)
            prep(arg);
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

#endif /* BENCH_DETECT_H */
