/*
 * bench/memcpy.c: the floors of a one-copy message transfer (not an MPI program); bench/run.sh
 * prints them under the table.
 *
 * memcpy_bandwidth: one thread's memcpy between two distinct buffers in its own caches, for
 * 64 KiB, 1 MiB and 4 MiB: repeated copies for about 0.1 s, median of 5 batches, GB/s = 1e9
 * bytes copied per second.
 *
 * copy_floor_<size>: the honest floor of a one-copy message between two cores. Two threads,
 * pinned to CPUs 0 and 1, take turns copying the buffer the other one has just written into
 * their own, as the ping-pong's two ranks would if each message were one copy made by its
 * receiver: each copy reads lines last written by the other core and writes lines its own
 * core wrote last, then hands over with one flag. For 1 KiB, 64 KiB, 1 MiB and 4 MiB: 5
 * batches of about 20 ms of turns, median; GB/s = 1e9 bytes per second of one turn (one-way
 * time, the flag's trip included).
 *
 * Output: RESULT name=memcpy_bandwidth bytes=<B> ranks=1 value=<GB/s> unit=GB/s
 *         RESULT name=copy_floor_<1k|64k|1m|4m> bytes=<B> ranks=2 value=<GB/s> unit=GB/s
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX (4 << 20)

static char *buf[2];
static size_t size;
static long turns;
static unsigned turn __attribute__((aligned(64))); /* atomic: whose copy is next */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    (void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Thread `me` (0 or 1) makes its copies: turns 2k + me, from the other's buffer into its own. */
static void run(int me)
{
    for (long t = me; t < 2 * turns; t += 2) {
        for (unsigned spins = 0; __atomic_load_n(&turn, __ATOMIC_ACQUIRE) != (unsigned)t;)
            if (++spins % 4096) /* the other thread may have lost its CPU (a loaded machine) */
                __builtin_ia32_pause();
            else
                sched_yield();
        memcpy(buf[me], buf[!me], size);
        __atomic_store_n(&turn, (unsigned)t + 1, __ATOMIC_RELEASE);
    }
}

static void *other(void *arg)
{
    (void)arg;
    pin(1);
    run(1);
    return NULL;
}

/* Seconds per turn over `n` turns each. */
static double batch(long n)
{
    turns = n;
    __atomic_store_n(&turn, 0, __ATOMIC_RELEASE);
    pthread_t t;
    double t0 = now();
    if (pthread_create(&t, NULL, other, NULL))
        exit(1);
    run(0);
    pthread_join(t, NULL);
    return (now() - t0) / (double)(2 * n);
}

/* The copy floor at each size (the header). */
static void copy_floors(void)
{
    static const struct {
        size_t bytes;
        const char *name;
    } sizes[] = {{1024, "1k"}, {65536, "64k"}, {1 << 20, "1m"}, {4 << 20, "4m"}};
    buf[0] = malloc(MAX);
    buf[1] = malloc(MAX);
    if (!buf[0] || !buf[1])
        exit(1);
    memset(buf[0], 1, MAX);
    memset(buf[1], 2, MAX);
    pin(0);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size = sizes[i].bytes;
        long n = 4;
        while (batch(n) * (double)(2 * n) < 0.005 && n < (1L << 24)) /* ~20 ms per batch */
            n *= 2;
        n *= 4;
        double bw[5];
        for (int b = 0; b < 5; b++)
            bw[b] = (double)size / batch(n) / 1e9;
        qsort(bw, 5, sizeof bw[0], cmp);
        printf("RESULT name=copy_floor_%s bytes=%zu ranks=2 value=%.4g unit=GB/s\n", sizes[i].name,
               size, bw[2]);
    }
    free(buf[0]);
    free(buf[1]);
}

int main(void)
{
    static const size_t sizes[] = {65536, 1 << 20, 4 << 20};
    char *src = malloc(4 << 20), *dst = malloc(4 << 20);
    if (!src || !dst)
        return 1;
    memset(src, 1, 4 << 20);
    memset(dst, 2, 4 << 20);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        long reps = 1;
        for (;;) { /* calibrate to ~20 ms per batch */
            double t0 = now();
            for (long r = 0; r < reps; r++) {
                memcpy(dst, src, n);
                __asm__ volatile("" ::"r"(dst) : "memory");
            }
            if (now() - t0 > 0.005)
                break;
            reps *= 2;
        }
        reps *= 4;
        double bw[5];
        for (int b = 0; b < 5; b++) {
            double t0 = now();
            for (long r = 0; r < reps; r++) {
                memcpy(dst, src, n);
                __asm__ volatile("" ::"r"(dst) : "memory");
            }
            bw[b] = (double)n * (double)reps / (now() - t0) / 1e9;
        }
        qsort(bw, 5, sizeof bw[0], cmp);
        printf("RESULT name=memcpy_bandwidth bytes=%zu ranks=1 value=%.4g unit=GB/s\n", n, bw[2]);
    }
    free(src);
    free(dst);
    copy_floors();
    return 0;
}
