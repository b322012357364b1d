/*
 * bench/yield_floor.c: the machine's floor for a collective when ranks outnumber cores (not an
 * MPI program). In a barrier among N rank-threads on C cores every thread must run at least
 * once per barrier, so no design can beat "every one of N threads gets the CPU once": here N
 * threads each call sched_yield in a loop (what a waiting rank does when it has nothing to
 * spin for), and we time how long the process takes per thread turn, over all cores. That
 * turn grows with N on its own (the kernel's switch touches each thread's task, kernel stack
 * and user stack, which stop fitting in the caches), so a barrier's cost per rank may grow
 * with N while staying at the same distance from this floor.
 *
 * Arguments: thread counts (default 16 64 256 1024). Each count: median of 5 batches of about
 * 30 ms (at least 100 turns per thread), after one untimed warm-up batch, the threads created
 * once with a 256 KiB stack.
 * Output per count: RESULT name=yield_floor bytes=0 ranks=<N> value=<us per thread turn> unit=us
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BATCHES 5
#define BATCH_TURNS 30000L /* thread turns per batch: ~30 ms at ~1 us a turn */
#define MIN_TURNS 100L     /* per thread and batch, so that the batch's edges do not count */

static pthread_barrier_t edge; /* start and end of every batch: the threads and main */
static long turns_per_thread;
static int batches_left;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *yielder(void *arg)
{
    (void)arg;
    for (int b = 0; b < batches_left; b++) {
        pthread_barrier_wait(&edge);
        for (long i = 0; i < turns_per_thread; i++)
            sched_yield();
        pthread_barrier_wait(&edge);
    }
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median seconds per thread turn among n threads (warm: one untimed batch first), or < 0. */
static double measure(int n)
{
    pthread_t *threads = malloc((size_t)n * sizeof *threads);
    pthread_attr_t attr;
    if (!threads)
        return -1;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 << 10);
    turns_per_thread = BATCH_TURNS / n > MIN_TURNS ? BATCH_TURNS / n : MIN_TURNS;
    batches_left = BATCHES + 1;
    pthread_barrier_init(&edge, NULL, (unsigned)n + 1);
    for (int i = 0; i < n; i++) {
        if (pthread_create(&threads[i], &attr, yielder, NULL)) {
            fprintf(stderr, "yield_floor: could not create %d threads\n", n);
            exit(1);
        }
    }
    pthread_attr_destroy(&attr);
    double v[BATCHES + 1];
    for (int b = 0; b <= BATCHES; b++) {
        pthread_barrier_wait(&edge);
        double t0 = now();
        pthread_barrier_wait(&edge);
        v[b] = (now() - t0) / ((double)n * (double)turns_per_thread);
    }
    for (int i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&edge);
    free(threads);
    qsort(v + 1, BATCHES, sizeof v[0], cmp); /* v[0]: the warm-up */
    return v[1 + BATCHES / 2];
}

int main(int argc, char **argv)
{
    static const int defaults[] = {16, 64, 256, 1024};
    int ncounts = argc > 1 ? argc - 1 : (int)(sizeof defaults / sizeof defaults[0]);
    for (int c = 0; c < ncounts; c++) {
        int n = argc > 1 ? atoi(argv[c + 1]) : defaults[c];
        if (n < 1 || n > 65536) {
            fprintf(stderr, "yield_floor: bad thread count %s\n", argv[c + 1]);
            return 2;
        }
        printf("RESULT name=yield_floor bytes=0 ranks=%d value=%.3f unit=us\n", n,
               measure(n) * 1e6);
        fflush(stdout);
    }
    return 0;
}
