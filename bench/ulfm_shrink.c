/*
 * bench/ulfm_shrink.c: milliseconds per MPIX_Comm_shrink of MPI_COMM_WORLD after one failure.
 *
 * After a barrier the last rank kills itself with raise(SIGKILL). The survivors call
 * MPIX_Comm_agree, which fails with MPIX_ERR_PROC_FAILED at all of them, so that every
 * survivor knows of the failure before the timed part (detection is bench/ulfm_detect.c's
 * figure, not this one). Then each survivor times its own MPIX_Comm_shrink; rank 0 collects
 * the times over the shrunk communicator and reports the slowest (ulfm_shrink, ms).
 *
 * That first shrink is one measurement per run (one failure); so that the comparison is not at
 * the mercy of one scheduling accident on a loaded machine, the survivors then shrink the same
 * broken MPI_COMM_WORLD again and again (each result freed), and the median of batches of
 * those is ulfm_shrink_repeat (ms). Before the failure the same run times MPI_Barrier on
 * MPI_COMM_WORLD, the same size (ulfm_shrink_barrier, µs, median of batches). Reported ratios:
 * ulfm_shrink_ratio = repeated shrink / barrier (a shrink is an agreement on the failed group
 * plus a communicator creation, so a few barriers' worth is what it should cost) and
 * ulfm_shrink_first_ratio = first shrink / barrier.
 *
 * Without ULFM (no MPIX_ERR_PROC_FAILED) it prints value=NA note=no-ULFM.
 */
#include "common.h"
#include "ulfm.h"

#include <signal.h>

#if BENCH_HAVE_ULFM
static void shrink_step(void *arg)
{
    int *bad = arg;
    MPI_Comm c = MPI_COMM_NULL;
    if (MPIX_Comm_shrink(MPI_COMM_WORLD, &c) != MPI_SUCCESS)
        *bad = 1;
    else
        MPI_Comm_free(&c);
}
#endif

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
#if !BENCH_HAVE_ULFM
    if (rank == 0) {
        bench_result_na("ulfm_shrink", 0, size, "ms", "no-ULFM");
        bench_result_na("ulfm_shrink_barrier", 0, size, "us", "no-ULFM");
        bench_result_na("ulfm_shrink_repeat", 0, size, "ms", "no-ULFM");
        bench_result_na("ulfm_shrink_ratio", 0, size, "x", "no-ULFM");
        bench_result_na("ulfm_shrink_first_ratio", 0, size, "x", "no-ULFM");
    }
#else
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "ulfm_shrink: needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    double tbar =
        bench_time_steps(bench_barrier_step, NULL, MPI_COMM_WORLD, bench_budget(0.3), 5, 20);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1)
        raise(SIGKILL);
    int flag = 1;
    int rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    if (cls != MPIX_ERR_PROC_FAILED)
        fprintf(stderr, "ulfm_shrink: rank %d: agree after the failure returned %d\n", rank, rc);
    MPI_Comm shrunk = MPI_COMM_NULL;
    double t0 = MPI_Wtime();
    rc = MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk);
    double dt = MPI_Wtime() - t0;
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "ulfm_shrink: rank %d: MPIX_Comm_shrink returned %d\n", rank, rc);
        MPI_Abort(MPI_COMM_WORLD, 4);
    }
    int nrank, nsize;
    MPI_Comm_rank(shrunk, &nrank);
    MPI_Comm_size(shrunk, &nsize);
    MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
    /* Repeated shrinks of the same broken communicator; the timing loop talks over `shrunk`. */
    int bad = 0;
    double trep = bench_time_steps(shrink_step, &bad, shrunk, bench_budget(0.3), 5, 3);
    if (bad) {
        fprintf(stderr, "ulfm_shrink: rank %d: a repeated MPIX_Comm_shrink failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 4);
    }
    if (nrank == 0) {
        double worst = dt;
        for (int r = 1; r < nsize; r++) {
            double x;
            MPI_Recv(&x, 1, MPI_DOUBLE, r, 8, shrunk, MPI_STATUS_IGNORE);
            if (x > worst)
                worst = x;
        }
        if (nsize != size - 1)
            fprintf(stderr, "ulfm_shrink: shrunk size %d, expected %d\n", nsize, size - 1);
        bench_result("ulfm_shrink", 0, size, worst * 1e3, "ms");
        bench_result("ulfm_shrink_repeat", 0, size, trep * 1e3, "ms");
        bench_result("ulfm_shrink_barrier", 0, size, tbar * 1e6, "us");
        bench_result("ulfm_shrink_ratio", 0, size, trep / tbar, "x");
        bench_result("ulfm_shrink_first_ratio", 0, size, worst / tbar, "x");
    } else {
        MPI_Send(&dt, 1, MPI_DOUBLE, 0, 8, shrunk);
    }
    MPI_Comm_free(&shrunk);
#endif
    MPI_Finalize();
    return 0;
}
