/*
 * bench/barrier.c: microseconds per MPI_Barrier on MPI_COMM_WORLD. Median of batches after
 * warm-up (bench/common.h).
 */
#include "common.h"

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
    double t = bench_time_steps(bench_barrier_step, NULL, MPI_COMM_WORLD, bench_budget(0.3), 5, 20);
    if (rank == 0)
        bench_result("barrier", 0, size, t * 1e6, "us");
    MPI_Finalize();
    return 0;
}
