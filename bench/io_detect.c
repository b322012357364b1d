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

#include <unistd.h>

#if BENCH_HAVE_ULFM
#include "detect.h"

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
    double t_barrier = phase(MPI_COMM_WORLD, size - 1, lead, barrier_op, &world, NULL);

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
    double t_write = phase(alive, size - 2, lead, write_op, &fh, NULL);
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
