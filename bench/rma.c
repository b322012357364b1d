/*
 * bench/rma.c: one-sided communication. Figures (rank 0 prints them; bench/common.h):
 *   rma_put_latency    8 B MPI_Put + MPI_Win_flush under MPI_Win_lock_all, rank 0 to rank 1 (µs)
 *   rma_put_bandwidth  4 MiB MPI_Put + MPI_Win_flush, rank 0 to rank 1 (GB/s, 1 GB = 10⁹ B)
 *   rma_epoch          an uncontended exclusive MPI_Win_lock / 8 B MPI_Put / MPI_Win_unlock (µs)
 *   rma_put_floor      the machine's floor of rma_put_latency in the same run, timed the same
 *                      way: an 8-byte memcpy and __atomic_thread_fence(__ATOMIC_SEQ_CST) (µs)
 *   rma_epoch_floor    the floor of an owner-tracked exclusive epoch: a compare-and-swap that
 *                      takes a lock word (recording the owner), the 8-byte memcpy, and the
 *                      exchange that frees the word and tells whether anyone waits (µs); the
 *                      two atomic read-modify-writes any lock needs (x86: both full barriers)
 *   rma_fence          MPI_Win_fence on a window of every rank (µs), with
 *   rma_fence_barrier  MPI_Barrier in the same run (µs) and rma_fence_ratio = fence / barrier
 *                      (the two alternate, five measurements each; the ratio is the median of
 *                      the five pairs' ratios)
 *   rma_acc_char, rma_acc_int, rma_acc_float
 *                      1 MiB MPI_Accumulate(MPI_SUM) + MPI_Win_flush under MPI_Win_lock_all,
 *                      rank 0 to rank 1, of MPI_CHAR, MPI_INT, MPI_FLOAT (µs; osu_acc_latency's
 *                      largest size), each with
 *   rma_acc_*_floor    its floor in the same run, timed the same way: one thread adding the same
 *                      1 MiB into a 1 MiB block of its own with a plain loop, vectorised for the
 *                      CPU (AVX-512, AVX2 or the baseline, chosen at load time, as the
 *                      libraries' op kernels are) (µs)
 *   rma_fop            MPI_Fetch_and_op(MPI_SUM) + flush on one counter at rank 0, every rank
 *                      issuing K of them at once between two barriers: wall time / K, the time
 *                      one rank's operation takes under full contention (µs)
 * The point-to-point figures are measured at 2 ranks only (NA elsewhere); fence and
 * fetch-and-op at every size.
 * Standard MPI only.
 */
#include "common.h"

#define BIG (4L << 20)

struct ctx {
    MPI_Win win;
    char *buf;
    long bytes;
    int rank;
};

static void put_step(void *arg)
{
    struct ctx *c = arg;
    if (c->rank == 0) {
        MPI_Put(c->buf, (int)c->bytes, MPI_BYTE, 1, 0, (int)c->bytes, MPI_BYTE, c->win);
        MPI_Win_flush(1, c->win);
    }
}

/* 1 MiB of acc_type, accumulated with MPI_SUM into rank 1's window. */
static MPI_Datatype acc_type;

static void acc_step(void *arg)
{
    struct ctx *c = arg;
    if (c->rank == 0) {
        int size;
        MPI_Type_size(acc_type, &size);
        int n = (int)(c->bytes / size);
        MPI_Accumulate(c->buf, n, acc_type, 1, 0, n, acc_type, MPI_SUM, c->win);
        MPI_Win_flush(1, c->win);
    }
}

static void epoch_step(void *arg)
{
    struct ctx *c = arg;
    if (c->rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, c->win);
        MPI_Put(c->buf, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, c->win);
        MPI_Win_unlock(1, c->win);
    }
}

/* The floors: the same copy into a separate 64-byte block, with nothing of MPI around it. The
 * empty asm keeps the compiler from merging or dropping the copies. */
static char floor_block[64] __attribute__((aligned(64)));
static int floor_word;

static void put_floor_step(void *arg)
{
    struct ctx *c = arg;
    if (c->rank == 0) {
        memcpy(floor_block, c->buf, 8);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        __asm__ volatile("" ::: "memory");
    }
}

/* The accumulate's floor (rma_acc_*_floor): dst[i] += src[i] over 1 MiB, the loop vectorised
 * (-O2 alone does not: its cost model leaves loops of unknown length scalar). */
#define ACC_FLOOR_LOOP(T, name)                                                                   \
    __attribute__((target_clones("avx512f", "avx2", "default"), optimize("O3"))) static void   \
    name(T *restrict dst, const T *restrict src, long n)                                         \
    {                                                                                            \
        for (long i = 0; i < n; i++)                                                             \
            dst[i] += src[i];                                                                    \
    }
ACC_FLOOR_LOOP(signed char, acc_floor_char)
ACC_FLOOR_LOOP(int, acc_floor_int)
ACC_FLOOR_LOOP(float, acc_floor_float)

static void *acc_floor_block; /* 1 MiB, rank 0's own */

static void acc_floor_step(void *arg)
{
    struct ctx *c = arg;
    if (c->rank != 0)
        return;
    if (acc_type == MPI_CHAR)
        acc_floor_char(acc_floor_block, (const signed char *)c->buf, c->bytes);
    else if (acc_type == MPI_INT)
        acc_floor_int(acc_floor_block, (const int *)c->buf, c->bytes / (long)sizeof(int));
    else
        acc_floor_float(acc_floor_block, (const float *)c->buf, c->bytes / (long)sizeof(float));
    __asm__ volatile("" ::: "memory");
}

static void epoch_floor_step(void *arg)
{
    struct ctx *c = arg;
    if (c->rank == 0) {
        int free_word = 0;
        __atomic_compare_exchange_n(&floor_word, &free_word, 1 + c->rank, 0,
                                    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
        memcpy(floor_block, c->buf, 8);
        if (__atomic_exchange_n(&floor_word, 0, __ATOMIC_RELEASE) != 1 + c->rank)
            abort(); /* never: nobody else touches the word */
        __asm__ volatile("" ::: "memory");
    }
}

static void fence_step(void *arg)
{
    MPI_Win_fence(0, ((struct ctx *)arg)->win);
}

/* Seconds for every rank to issue k fetch-and-ops on rank 0's counter (all ranks at once). */
static double fop_round(struct ctx *c, long k)
{
    long one = 1, old;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < k; i++) {
        MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, c->win);
        MPI_Win_flush(0, c->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return MPI_Wtime() - t0;
}

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
    double budget = bench_budget(0.3);
    struct ctx c = {MPI_WIN_NULL, NULL, 8, rank};
    char *mem;
    MPI_Aint winbytes = size == 2 ? BIG : 64;
    MPI_Win_allocate(winbytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &c.win);
    memset(mem, 0, (size_t)winbytes);
    c.buf = malloc(BIG);
    memset(c.buf, 1, BIG);
    MPI_Barrier(MPI_COMM_WORLD);

    if (size == 2) {
        MPI_Win_lock_all(0, c.win);
        double t = bench_time_steps(put_step, &c, MPI_COMM_WORLD, budget, 5, 100);
        if (rank == 0)
            bench_result("rma_put_latency", 8, size, t * 1e6, "us");
        t = bench_time_steps(put_floor_step, &c, MPI_COMM_WORLD, budget, 5, 100);
        if (rank == 0)
            bench_result("rma_put_floor", 8, size, t * 1e6, "us");
        c.bytes = BIG;
        t = bench_time_steps(put_step, &c, MPI_COMM_WORLD, budget, 5, 3);
        if (rank == 0)
            bench_result("rma_put_bandwidth", BIG, size, (double)BIG / t / 1e9, "GB/s");
        static const struct {
            const char *name, *floor;
            MPI_Datatype type;
        } accs[] = {{"rma_acc_char", "rma_acc_char_floor", MPI_CHAR},
                    {"rma_acc_int", "rma_acc_int_floor", MPI_INT},
                    {"rma_acc_float", "rma_acc_float_floor", MPI_FLOAT}};
        c.bytes = 1L << 20;
        memset(c.buf, 0, (size_t)c.bytes); /* sums of zeros: no float overflows or NaNs */
        acc_floor_block = calloc(1, (size_t)c.bytes);
        if (!acc_floor_block)
            MPI_Abort(MPI_COMM_WORLD, 3);
        for (size_t i = 0; i < sizeof accs / sizeof accs[0]; i++) {
            acc_type = accs[i].type;
            t = bench_time_steps(acc_step, &c, MPI_COMM_WORLD, budget, 5, 10);
            if (rank == 0)
                bench_result(accs[i].name, c.bytes, size, t * 1e6, "us");
            t = bench_time_steps(acc_floor_step, &c, MPI_COMM_WORLD, budget, 5, 10);
            if (rank == 0)
                bench_result(accs[i].floor, c.bytes, size, t * 1e6, "us");
        }
        free(acc_floor_block);
        MPI_Win_unlock_all(c.win);
        MPI_Barrier(MPI_COMM_WORLD);
        t = bench_time_steps(epoch_step, &c, MPI_COMM_WORLD, budget, 5, 100);
        if (rank == 0)
            bench_result("rma_epoch", 8, size, t * 1e6, "us");
        t = bench_time_steps(epoch_floor_step, &c, MPI_COMM_WORLD, budget, 5, 100);
        if (rank == 0)
            bench_result("rma_epoch_floor", 8, size, t * 1e6, "us");
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == 0) {
        bench_result_na("rma_put_latency", 8, size, "us", "2_ranks_only");
        bench_result_na("rma_put_bandwidth", BIG, size, "GB/s", "2_ranks_only");
        bench_result_na("rma_epoch", 8, size, "us", "2_ranks_only");
        bench_result_na("rma_acc_char", 1L << 20, size, "us", "2_ranks_only");
        bench_result_na("rma_acc_int", 1L << 20, size, "us", "2_ranks_only");
        bench_result_na("rma_acc_float", 1L << 20, size, "us", "2_ranks_only");
        bench_result_na("rma_acc_char_floor", 1L << 20, size, "us", "2_ranks_only");
        bench_result_na("rma_acc_int_floor", 1L << 20, size, "us", "2_ranks_only");
        bench_result_na("rma_acc_float_floor", 1L << 20, size, "us", "2_ranks_only");
        bench_result_na("rma_put_floor", 8, size, "us", "2_ranks_only");
        bench_result_na("rma_epoch_floor", 8, size, "us", "2_ranks_only");
    }

    /* Fence and barrier alternate, FENCE_ROUNDS measurements each, so that both see the same
     * machine: measured one after the other, a change of load between the two (other jobs on
     * a shared machine) moved the ratio anywhere between 0.3 and 12. The ratio is the median
     * of the rounds' ratios. */
    enum { FENCE_ROUNDS = 5 };
    double tf[FENCE_ROUNDS], tb[FENCE_ROUNDS], ratio[FENCE_ROUNDS];
    MPI_Win_fence(0, c.win);
    for (int i = 0; i < FENCE_ROUNDS; i++) {
        long warm = i == 0 ? 20 : 5;
        tf[i] = bench_time_steps(fence_step, &c, MPI_COMM_WORLD, budget / FENCE_ROUNDS, 3, warm);
        tb[i] = bench_time_steps(bench_barrier_step, NULL, MPI_COMM_WORLD, budget / FENCE_ROUNDS,
                                 3, warm);
        ratio[i] = tb[i] > 0 ? tf[i] / tb[i] : 0;
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, c.win);
    if (rank == 0) {
        bench_result("rma_fence", 0, size, bench_median(tf, FENCE_ROUNDS) * 1e6, "us");
        bench_result("rma_fence_barrier", 0, size, bench_median(tb, FENCE_ROUNDS) * 1e6, "us");
        bench_result("rma_fence_ratio", 0, size, bench_median(ratio, FENCE_ROUNDS), "ratio");
    }

    /* Fetch-and-op: grow k until a round lasts a fifth of the budget (rank 0 decides), then
     * the median of 3 rounds. */
    MPI_Win_lock_all(0, c.win);
    long k = 4;
    for (;;) {
        double t = fop_round(&c, k);
        long msg[1] = {t < budget / 5 && k < (1L << 30) ? 4 * k : -k};
        bench_bcast_longs(msg, 1, MPI_COMM_WORLD);
        if (msg[0] < 0)
            break;
        k = msg[0];
    }
    double rounds[3];
    for (int i = 0; i < 3; i++)
        rounds[i] = fop_round(&c, k) / (double)k;
    MPI_Win_unlock_all(c.win);
    if (rank == 0)
        bench_result("rma_fop", 8, size, bench_median(rounds, 3) * 1e6, "us");

    MPI_Win_free(&c.win);
    free(c.buf);
    MPI_Finalize();
    return 0;
}
