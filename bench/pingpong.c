/*
 * bench/pingpong.c: one-way latency and bandwidth between ranks 0 and 1 (MPI_Send/MPI_Recv).
 *
 * For each size: warm-up, then batches of round trips sized so that the size takes about
 * 0.2 s (BENCH_TIME overrides), median over batches. One-way time = round trip / 2.
 * Prints, at rank 0, for every size both pingpong_latency (us) and pingpong_bandwidth
 * (GB/s, 1e9 bytes per second of one-way time). Ranks beyond 2 only take part in calibration.
 *
 * At 1 KiB it also measures the floor of such a message with the same two ranks on the same
 * CPUs, batch by batch alternately with the ping-pong (this machine's cross-core latency changes
 * within seconds, so a floor measured minutes apart makes a noisy ratio): a shared-memory
 * window (MPI_Win_allocate_shared) holds a buffer per rank and a turn word, and the two ranks
 * take turns copying the other's buffer into their own and passing the turn, as memcpy.c's
 * copy_floor does with two threads. Prints pingpong_floor (us, one way: half a pair of turns)
 * and pingpong_floor_ratio (the median over batches of ping-pong time / floor time).
 *
 * `pingpong --batches N` instead times N batches of 5000 round trips of 8 bytes and prints the
 * best and the median batch, one-way: "min <us> med <us> us". Short batches keep most of them
 * free of interruptions; alternating two libraries run by run with LD_LIBRARY_PATH (the
 * programs have a RUNPATH, which it overrides) gives A/B figures that beat this machine's noise
 * (docs/performance.md, "Comparing two builds of mini_mpi").
 */
#include <sched.h>

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

/* The floor's shared memory: ranks 0 and 1 each own a buffer; the turn word is rank 0's. */
struct floor {
    char *mine;
    const char *theirs;
    unsigned *turn; /* atomic: the number of turns taken */
    unsigned next;  /* this rank's next turn: 0 or 1, then +2 */
    int count;
    MPI_Win win;
};

static inline void bench_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void floor_wait(const unsigned *turn, unsigned want)
{
    for (unsigned spins = 0; __atomic_load_n(turn, __ATOMIC_ACQUIRE) != want;)
        if (++spins % 4096) /* the other rank may have lost its CPU (a loaded machine) */
            bench_cpu_relax();
        else
            sched_yield();
}

/* One pair of turns: rank 0 copies rank 1's buffer into its own, then rank 1 rank 0's. */
static void floor_step(void *arg)
{
    struct floor *f = arg;
    if (!f->mine)
        return;
    floor_wait(f->turn, f->next);
    memcpy(f->mine, f->theirs, (size_t)f->count);
    __atomic_store_n(f->turn, f->next + 1, __ATOMIC_RELEASE);
    f->next += 2;
}

/* Sets up the floor's window for `count` bytes; f->mine stays NULL on ranks other than 0 and 1
 * and when the two do not share memory (then no floor is printed). */
static int floor_init(struct floor *f, int rank, int count)
{
    MPI_Comm pair;
    int pair_size, in_pair = rank < 2;
    memset(f, 0, sizeof(*f));
    f->count = count;
    MPI_Comm_split(MPI_COMM_WORLD, in_pair, rank, &pair);
    MPI_Comm_size(pair, &pair_size);
    MPI_Comm node;
    MPI_Comm_split_type(pair, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int node_size, ok;
    MPI_Comm_size(node, &node_size);
    ok = in_pair && pair_size == 2 && node_size == 2;
    char *base = NULL;
    MPI_Aint bytes = ok ? 128 + count : 0;
    MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, node, &base, &f->win);
    if (ok) {
        MPI_Aint size;
        int disp;
        char *other, *first;
        MPI_Win_shared_query(f->win, !rank, &size, &disp, &other);
        MPI_Win_shared_query(f->win, 0, &size, &disp, &first);
        f->mine = base + 128;
        f->theirs = other + 128;
        f->turn = (unsigned *)first;
        f->next = (unsigned)rank;
        memset(f->mine, rank + 1, (size_t)count);
        if (rank == 0)
            __atomic_store_n(f->turn, 0, __ATOMIC_RELEASE);
    }
    MPI_Comm_free(&node);
    MPI_Comm_free(&pair);
    MPI_Barrier(MPI_COMM_WORLD);
    return ok;
}

/* The 1 KiB figure's floor, in batches alternating with the ping-pong's (above). */
static void floor_compare(int rank, char *buf, int count, double budget)
{
    struct floor f;
    int ok = floor_init(&f, rank, count) || rank >= 2, all_ok; /* the pair decides */
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all_ok) {
        enum { BATCHES = 5 };
        struct pp p = {buf, count, rank};
        double pp[BATCHES], fl[BATCHES], ratio[BATCHES];
        for (int b = 0; b < BATCHES; b++) {
            pp[b] = bench_time_steps(pp_step, &p, MPI_COMM_WORLD, budget / BATCHES, 1, 20);
            fl[b] = bench_time_steps(floor_step, &f, MPI_COMM_WORLD, budget / BATCHES, 1, 20);
            ratio[b] = fl[b] > 0 ? pp[b] / fl[b] : 0;
        }
        if (rank == 0) {
            bench_result("pingpong_floor", count, 2, bench_median(fl, BATCHES) / 2 * 1e6, "us");
            bench_result("pingpong_floor_ratio", count, 2, bench_median(ratio, BATCHES), "x");
        }
    }
    MPI_Win_free(&f.win);
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
        if (sizes[i] == 1024)
            floor_compare(rank, buf, sizes[i], budget);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
