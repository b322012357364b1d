/*
 * bench/ulfm_detect.c: failure detection time. After a barrier, rank 1 records the time and
 * kills itself with raise(SIGKILL); rank 0 sits in MPI_Recv from rank 1 under
 * MPI_ERRORS_RETURN and records when that receive returns MPI_ERR_PROC_FAILED.
 *
 * Clock: CLOCK_MONOTONIC, one clock for every process of the host, so times taken in different
 * processes compare. Rank 1 hands its kill time over through the file named by argv[1] (written
 * before the kill; bench/run.sh passes a fresh path). Without argv[1] the figure is measured
 * from rank 0's barrier exit instead. Reported: milliseconds from the kill to the error at rank
 * 0 (ulfm_detect). Other ranks only take part in the barrier.
 *
 * Without ULFM (no MPIX_ERR_PROC_FAILED) it prints value=NA note=no-ULFM.
 */
#include "common.h"
#include "ulfm.h"

#include <signal.h>
#include <time.h>

#if BENCH_HAVE_ULFM
static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
#if !BENCH_HAVE_ULFM
    if (rank == 0)
        bench_result_na("ulfm_detect", 0, size, "ms", "no-ULFM");
    MPI_Finalize();
    return 0;
#else
    const char *stamp = argc > 1 ? argv[1] : NULL;
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "ulfm_detect: needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0 && stamp)
        remove(stamp);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        double t = mono();
        if (stamp) {
            FILE *f = fopen(stamp, "w");
            if (f) {
                fprintf(f, "%.9f\n", t);
                fclose(f);
            }
        }
        raise(SIGKILL);
    } else if (rank == 0) {
        double t0 = mono();
        int dummy;
        int rc = MPI_Recv(&dummy, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double t1 = mono();
        int cls = MPI_SUCCESS;
        MPI_Error_class(rc, &cls);
        if (cls != MPIX_ERR_PROC_FAILED) {
            char s[MPI_MAX_ERROR_STRING];
            int len = 0;
            MPI_Error_string(rc, s, &len);
            fprintf(stderr, "ulfm_detect: MPI_Recv from the dead rank returned %d (%s)\n", rc,
                    rc == MPI_SUCCESS ? "success" : s);
            bench_result_na("ulfm_detect", 0, size, "ms", "wrong-error");
        } else {
            double tk = -1;
            FILE *f = stamp ? fopen(stamp, "r") : NULL;
            if (f) {
                if (fscanf(f, "%lf", &tk) != 1)
                    tk = -1;
                fclose(f);
            }
            double from = tk > 0 ? tk : t0;
            bench_result("ulfm_detect", 0, size, (t1 - from) * 1e3, "ms");
        }
        if (stamp)
            remove(stamp);
    }
    MPI_Finalize();
    return 0;
#endif
}
