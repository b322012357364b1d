/*
 * bench/ring.c: ring exchange of 8 bytes. Every step, each rank MPI_Sendrecv's to its right
 * neighbour and from its left one; reports microseconds per step (all N messages of a step
 * travel concurrently). Median of batches after warm-up (bench/common.h).
 */
#include "common.h"

struct ring {
    char sbuf[8], rbuf[8];
    int left, right;
};

static void ring_step(void *arg)
{
    struct ring *r = arg;
    MPI_Sendrecv(r->sbuf, 8, MPI_BYTE, r->right, 2, r->rbuf, 8, MPI_BYTE, r->left, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
    struct ring r;
    memset(r.sbuf, rank & 0xff, sizeof r.sbuf);
    r.left = (rank + size - 1) % size;
    r.right = (rank + 1) % size;
    double t = bench_time_steps(ring_step, &r, MPI_COMM_WORLD, bench_budget(0.3), 5, 20);
    if (rank == 0)
        bench_result("ring", 8, size, t * 1e6, "us");
    MPI_Finalize();
    return 0;
}
