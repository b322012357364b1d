/*
 * bench/pingpong.c: one-way latency and bandwidth between ranks 0 and 1 (MPI_Send/MPI_Recv).
 *
 * For each size: warm-up, then batches of round trips sized so that the size takes about
 * 0.2 s (BENCH_TIME overrides), median over batches. One-way time = round trip / 2.
 * Prints, at rank 0, for every size both pingpong_latency (us) and pingpong_bandwidth
 * (GB/s, 1e9 bytes per second of one-way time). Ranks beyond 2 only take part in calibration.
 *
 * `pingpong --batches N` instead times N batches of 5000 round trips of 8 bytes and prints the
 * best and the median batch, one-way: "min <us> med <us> us". Short batches keep most of them
 * free of interruptions; alternating two libraries run by run with LD_LIBRARY_PATH (the
 * programs have a RUNPATH, which it overrides) gives A/B figures that beat this machine's noise
 * (docs/performance.md, "Comparing two builds of mini_mpi").
 */
#include "common.h"

struct pp {
    char *buf;
    int count, rank;
};

static void pp_step(void *arg)
{
    struct pp *p = arg;
    if (p->rank == 0) {
        MPI_Send(p->buf, p->count, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(p->buf, p->count, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (p->rank == 1) {
        MPI_Recv(p->buf, p->count, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(p->buf, p->count, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
}

/* --batches: nbatch batches of 5000 round trips of 8 bytes, best and median batch. */
static void fixed_batches(int rank, int nbatch)
{
    enum { PER = 5000 };
    char buf[8] = {0};
    struct pp p = {buf, 8, rank};
    double *t = malloc(sizeof(double) * (size_t)nbatch);
    if (!t)
        MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int b = 0; b < nbatch; b++) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < PER; i++)
            pp_step(&p);
        t[b] = (MPI_Wtime() - t0) / PER / 2 * 1e6;
    }
    if (rank == 0) {
        double med = bench_median(t, nbatch); /* sorts t */
        printf("min %.4f med %.4f us\n", t[0], med);
    }
    free(t);
}

int main(int argc, char **argv)
{
    static const int sizes[] = {8, 1024, 65536, 1 << 20, 4 << 20};
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "pingpong: needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (argc > 2 && !strcmp(argv[1], "--batches") && atoi(argv[2]) > 0) {
        fixed_batches(rank, atoi(argv[2]));
        MPI_Finalize();
        return 0;
    }
    char *buf = malloc(4 << 20);
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 3);
    memset(buf, rank + 1, 4 << 20);
    double budget = bench_budget(0.2);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        struct pp p = {buf, sizes[i], rank};
        long warm = sizes[i] >= (1 << 20) ? 10 : 200;
        double rt = bench_time_steps(pp_step, &p, MPI_COMM_WORLD, budget, 5, warm);
        if (rank == 0) {
            double one_way = rt / 2;
            bench_result("pingpong_latency", sizes[i], 2, one_way * 1e6, "us");
            bench_result("pingpong_bandwidth", sizes[i], 2, sizes[i] / one_way / 1e9, "GB/s");
        }
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
