/*
 * bench/rma_detect.c: failure detection in a window's synchronization, next to the
 * communicator's in the same run: from the moment a rank dies to the moment the survivors'
 * MPI_Barrier (phase 1), MPI_Win_fence (phase 2) and MPI_Win_lock behind the dead rank's
 * exclusive lock (phase 3, the dead-holder rule of docs/rma.md) return MPIX_ERR_PROC_FAILED.
 *
 * The method is bench/detect.h's: the victim announces its time of death, then raises
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


#if BENCH_HAVE_ULFM
#include "detect.h"

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
