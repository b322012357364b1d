/*
 * bench/rma_detect.c: failure detection in a window's synchronization, next to the
 * communicator's in the same run: from the moment a rank dies to the moment the survivors'
 * MPI_Barrier (phase 1), MPI_Win_fence (phase 2) and MPI_Win_lock behind the dead rank's
 * exclusive lock (phase 3, the dead-holder rule of docs/rma.md) return MPIX_ERR_PROC_FAILED.
 *
 * The method is bench/io_detect.c's: the victim announces its time of death, then raises
 * SIGKILL at that time; each survivor measures from the announced time to its error. Phase 1:
 * the last rank dies while the others wait in MPI_Barrier. Phase 2: the survivors shrink,
 * create a window, open a fence epoch, and the last of them dies while the others wait in the
 * closing fence. Phase 3: they shrink again and create a window; the last takes the exclusive
 * lock of target 0 and dies holding it while the others wait for that lock. Needs a global
 * MPI_Wtime (MPI_WTIME_IS_GLOBAL) and at least 4 ranks (NA otherwise).
 * Reported (ms, the slowest survivor): rma_detect_barrier, rma_detect_fence, rma_detect_lock,
 * and rma_detect_fence_ratio, rma_detect_lock_ratio over the barrier (goal: at most 2).
 *   bin/mpicc -O2 -Ibench bench/rma_detect.c -o rma_detect && bin/mpiexec -n 16 ./rma_detect
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

static int barrier_op(void *arg)
{
    return MPI_Barrier(*(MPI_Comm *)arg);
}

static int fence_op(void *arg)
{
    return MPI_Win_fence(0, *(MPI_Win *)arg);
}

static int lock_op(void *arg)
{
    return MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, *(MPI_Win *)arg);
}

static void lock_prep(void *arg)
{
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, *(MPI_Win *)arg);
}

/* The survivors of comm, with errors returned. */
static MPI_Comm survivors(MPI_Comm comm)
{
    MPI_Comm alive;
    MPIX_Comm_shrink(comm, &alive);
    MPI_Comm_set_errhandler(alive, MPI_ERRORS_RETURN);
    return alive;
}

static MPI_Win window(MPI_Comm comm, long *mem)
{
    MPI_Win win;
    MPI_Win_create(mem, sizeof(long), sizeof(long), MPI_INFO_NULL, comm, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    return win;
}
#endif

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
#if !BENCH_HAVE_ULFM
    if (rank == 0)
        bench_result_na("rma_detect_fence", 0, size, "ms", "no-ULFM");
    MPI_Finalize();
    return 0;
#else
    int *global, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag);
    if (size < 4 || !flag || !*global) {
        if (rank == 0)
            bench_result_na("rma_detect_fence", 0, size, "ms",
                            size < 4 ? "needs-4-ranks" : "no-global-clock");
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    double lead = 0.02 + 2e-4 * size;
    long mem = 0;
    MPI_Comm world = MPI_COMM_WORLD;
    MPI_Barrier(MPI_COMM_WORLD);
    double t_barrier = phase(MPI_COMM_WORLD, size - 1, lead, barrier_op, &world, NULL);

    MPI_Comm alive = survivors(MPI_COMM_WORLD);
    MPI_Win win = window(alive, &mem);
    MPI_Win_fence(0, win);
    double t_fence = phase(alive, size - 2, lead, fence_op, &win, NULL);
    MPI_Win_free(&win);

    MPI_Comm alive2 = survivors(alive);
    win = window(alive2, &mem);
    double t_lock = phase(alive2, size - 3, lead, lock_op, &win, lock_prep);
    MPI_Win_free(&win);
    if (rank == 0) {
        if (t_barrier < 0 || t_fence < 0 || t_lock < 0) {
            bench_result_na("rma_detect_fence", 0, size, "ms", "wrong-error");
        } else {
            bench_result("rma_detect_barrier", 0, size, t_barrier, "ms");
            bench_result("rma_detect_fence", 0, size, t_fence, "ms");
            bench_result("rma_detect_lock", 0, size, t_lock, "ms");
            bench_result("rma_detect_fence_ratio", 0, size, t_fence / t_barrier, "x");
            bench_result("rma_detect_lock_ratio", 0, size, t_lock / t_barrier, "x");
        }
    }
    MPI_Comm_free(&alive2);
    MPI_Comm_free(&alive);
    MPI_Finalize();
    return 0;
#endif
}
