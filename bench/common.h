/*
 * bench/common.h: helpers shared by the benchmark programs.
 *
 * Owns the result line format, the timing loop (warm-up, calibration to a time budget, median of
 * several batches) and a point-to-point broadcast of one integer. Standard MPI only, so the same
 * sources build with mini_mpi, MPICH and Open MPI.
 *
 * Result lines, printed by rank 0 only, one per figure, parsed by bench/run.sh:
 *   RESULT name=<figure> bytes=<B> ranks=<N> value=<number|NA> unit=<unit> [note=<word>]
 *
 * The timing loop agrees on iteration counts with point-to-point messages only (rank 0 sends to
 * every other rank), so a benchmark of one collective needs no other collective.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_TAG_CTRL 31000 /* calibration messages; benchmarks use smaller tags */

/* Prints one result line (rank 0 calls it). */
static inline void bench_result(const char *name, long bytes, int ranks, double value,
                                const char *unit)
{
    printf("RESULT name=%s bytes=%ld ranks=%d value=%.6g unit=%s\n", name, bytes, ranks, value,
           unit);
    fflush(stdout);
}

/* A figure this library cannot produce (e.g. no ULFM): value NA and a one-word reason. */
static inline void bench_result_na(const char *name, long bytes, int ranks, const char *unit,
                                   const char *note)
{
    printf("RESULT name=%s bytes=%ld ranks=%d value=NA unit=%s note=%s\n", name, bytes, ranks,
           unit, note);
    fflush(stdout);
}

/* Rank 0's v[0..n-1] reaches every rank of comm (linear, point-to-point only). */
static inline void bench_bcast_longs(long *v, int n, MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            MPI_Send(v, n, MPI_LONG, r, BENCH_TAG_CTRL, comm);
    } else {
        MPI_Recv(v, n, MPI_LONG, 0, BENCH_TAG_CTRL, comm, MPI_STATUS_IGNORE);
    }
}

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One step of the measured operation; every rank of comm calls it the same number of times. */
typedef void bench_step_fn(void *ctx);

/* A bench_step_fn: one MPI_Barrier on MPI_COMM_WORLD (barrier.c, and the reference figure of
 * the ULFM programs). */
static inline void bench_barrier_step(void *arg)
{
    (void)arg;
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Time budget per measurement in seconds; BENCH_TIME overrides (the runner's --quick sets it). */
static inline double bench_budget(double dflt)
{
    const char *s = getenv("BENCH_TIME");
    double t = s ? atof(s) : 0.0;
    return t > 0.0 ? t : dflt;
}

/*
 * Runs step() collectively over comm and returns, at rank 0, the median over `nbatch` batches of
 * the seconds per step (0 elsewhere). Warm-up: `warm` steps. Calibration: rank 0 times growing
 * step counts until one run lasts a tenth of a batch, then fixes the batch length so that all
 * batches together take about `budget` seconds (at least one step per batch, and fewer batches,
 * at least 3, when single steps are very slow).
 */
static inline double bench_time_steps(bench_step_fn *step, void *ctx, MPI_Comm comm,
                                      double budget, int nbatch, long warm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    for (long i = 0; i < warm; i++)
        step(ctx);

    double per_batch = budget / nbatch;
    long n = 1, batch_len = 0;
    while (batch_len == 0) {
        double t0 = MPI_Wtime();
        for (long i = 0; i < n; i++)
            step(ctx);
        double t = MPI_Wtime() - t0;
        long msg[2] = {0, nbatch}; /* [0] > 0: next calibration count; < 0: -(batch length) */
        if (rank == 0) {
            if (t >= per_batch / 10 || n >= (1L << 40)) {
                double per_step = t / (double)n;
                long len = (long)(per_batch / (per_step > 0 ? per_step : 1e-9));
                if (len < 1)
                    len = 1;
                /* Single steps longer than a batch: fewer batches (still a median of 3). */
                if (per_step > per_batch && nbatch > 3)
                    msg[1] = 3;
                msg[0] = -len;
            } else {
                double grow = t > 0 ? (per_batch / 5) / t : 100.0;
                if (grow < 2)
                    grow = 2;
                if (grow > 100)
                    grow = 100;
                msg[0] = (long)((double)n * grow);
            }
        }
        bench_bcast_longs(msg, 2, comm);
        nbatch = (int)msg[1];
        if (msg[0] < 0)
            batch_len = -msg[0];
        else
            n = msg[0];
    }

    double per[16];
    if (nbatch > 16)
        nbatch = 16;
    for (int b = 0; b < nbatch; b++) {
        double t0 = MPI_Wtime();
        for (long i = 0; i < batch_len; i++)
            step(ctx);
        per[b] = (MPI_Wtime() - t0) / (double)batch_len;
    }
    return rank == 0 ? bench_median(per, nbatch) : 0.0;
}

/* The common start of every benchmark: MPI_Init, rank and size. */
static inline void bench_init(int *argc, char ***argv, int *rank, int *size)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
}

#endif /* BENCH_COMMON_H */
