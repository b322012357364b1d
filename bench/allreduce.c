/*
 * bench/allreduce.c: microseconds per MPI_Allreduce of one double (8 bytes, MPI_SUM) on
 * MPI_COMM_WORLD. Median of batches after warm-up (bench/common.h).
 */
#include "common.h"

struct ar {
    double in, out;
};

static void allreduce_step(void *arg)
{
    struct ar *a = arg;
    MPI_Allreduce(&a->in, &a->out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
    struct ar a = {1.0, 0.0};
    double t = bench_time_steps(allreduce_step, &a, MPI_COMM_WORLD, bench_budget(0.3), 5, 20);
    if (a.out != (double)size) {
        fprintf(stderr, "allreduce: rank %d got %g, expected %d\n", rank, a.out, size);
        MPI_Abort(MPI_COMM_WORLD, 4);
    }
    if (rank == 0)
        bench_result("allreduce", 8, size, t * 1e6, "us");
    MPI_Finalize();
    return 0;
}
