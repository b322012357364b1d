/*
 * bench/pingpong.c: one-way latency and bandwidth between ranks 0 and 1 (MPI_Send/MPI_Recv).
 *
 * For each size: warm-up, then batches of round trips sized so that the size takes about
 * 0.2 s (BENCH_TIME overrides), median over batches. One-way time = round trip / 2.
 * Prints, at rank 0, for every size both pingpong_latency (us) and pingpong_bandwidth
 * (GB/s, 1e9 bytes per second of one-way time). Ranks beyond 2 only take part in calibration.
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
