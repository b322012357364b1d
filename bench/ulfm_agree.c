/*
 * bench/ulfm_agree.c: microseconds per MPIX_Comm_agree on MPI_COMM_WORLD with no failures
 * (flag 1 at every rank). Median of batches after warm-up (bench/common.h).
 *
 * The same run also times MPI_Barrier on the same communicator (ulfm_agree_barrier, µs) and
 * reports agree / barrier (ulfm_agree_ratio): an agreement does at least the work of a barrier,
 * and should cost little more than that. Barrier and agree alternate in three
 * rounds and each figure is the median of its rounds, so a burst of load from elsewhere on this
 * shared machine hits both alike.
 *
 * Without ULFM (no MPIX_ERR_PROC_FAILED) it prints value=NA note=no-ULFM.
 */
#include "common.h"
#include "ulfm.h"

#if BENCH_HAVE_ULFM
static void agree_step(void *arg)
{
    int *bad = arg;
    int flag = 1;
    int rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    if (rc != MPI_SUCCESS || flag != 1)
        *bad = 1;
}
#endif

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
#if !BENCH_HAVE_ULFM
    if (rank == 0) {
        bench_result_na("ulfm_agree", 0, size, "us", "no-ULFM");
        bench_result_na("ulfm_agree_barrier", 0, size, "us", "no-ULFM");
        bench_result_na("ulfm_agree_ratio", 0, size, "x", "no-ULFM");
    }
#else
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int bad = 0;
    double ta[3], tb[3];
    for (int round = 0; round < 3; round++) {
        tb[round] = bench_time_steps(bench_barrier_step, NULL, MPI_COMM_WORLD,
                                     bench_budget(0.3) / 3, 5, 10);
        ta[round] = bench_time_steps(agree_step, &bad, MPI_COMM_WORLD, bench_budget(0.3) / 3,
                                     5, 10);
    }
    double t = bench_median(ta, 3), tbar = bench_median(tb, 3);
    if (bad) {
        fprintf(stderr, "ulfm_agree: rank %d: MPIX_Comm_agree failed or flag changed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 4);
    }
    if (rank == 0) {
        bench_result("ulfm_agree", 0, size, t * 1e6, "us");
        bench_result("ulfm_agree_barrier", 0, size, tbar * 1e6, "us");
        bench_result("ulfm_agree_ratio", 0, size, t / tbar, "x");
    }
#endif
    MPI_Finalize();
    return 0;
}
