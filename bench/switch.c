/*
 * bench/switch.c: the machine's cost of handing the CPU from one thread to another (not an MPI
 * program), the floor of any operation in which more ranks than cores must each run once.
 * Two threads pinned to CPU 0 pass a byte back and forth through two pipes: every pass blocks
 * one thread and wakes the other on the same core, i.e. one context switch plus a wake-up.
 * Median of 5 batches of ~20 ms. Printed under bench/run.sh's table.
 * Output: RESULT name=context_switch bytes=0 ranks=1 value=<us per switch> unit=us
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int ab[2], ba[2];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void pin0(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *echo(void *arg)
{
    (void)arg;
    pin0();
    char c;
    for (;;) {
        if (read(ab[0], &c, 1) != 1 || c == 'q')
            return NULL;
        if (write(ba[1], &c, 1) != 1)
            return NULL;
    }
}

static double run(long n)
{
    char c = 'x';
    double t0 = now();
    for (long i = 0; i < n; i++) {
        if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
            exit(1);
    }
    return (now() - t0) / (2.0 * (double)n); /* two switches per round trip */
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    if (pipe(ab) || pipe(ba))
        return 1;
    pin0();
    pthread_t t;
    if (pthread_create(&t, NULL, echo, NULL))
        return 1;
    run(100); /* warm-up */
    double per = run(1000);
    long n = (long)(0.02 / (2 * per)) + 1;
    double v[5];
    for (int i = 0; i < 5; i++)
        v[i] = run(n);
    qsort(v, 5, sizeof v[0], cmp);
    char q = 'q';
    if (write(ab[1], &q, 1) != 1)
        return 1;
    pthread_join(t, NULL);
    printf("RESULT name=context_switch bytes=0 ranks=1 value=%.3g unit=us\n", v[2] * 1e6);
    return 0;
}
