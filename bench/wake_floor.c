/*
 * bench/wake_floor.c: the machine's floor for failure detection (not an MPI program). It
 * replays, without MPI, what bench/ulfm_detect.c measures: a thread that has slept for a
 * while on a futex (a survivor asleep in MPI_Barrier) is woken by a thread that is running
 * (the victim publishing its death), and we time from just before the wake-up call to the
 * moment the sleeper runs again. Nothing of mini_mpi is on that path: it is the kernel's and the
 * hypervisor's cost, which a detection time cannot beat.
 *
 * Two figures, median of 25 trials each:
 *   wake_after_idle  the sleeper slept 20 ms (as in ulfm_detect) and the waker spun for 2 ms
 *                    before waking it (as the victim does): cold caches, idle vCPU.
 *   wake_warm        the same after a 50 us sleep, every trial back to back.
 * Output: RESULT name=<figure> bytes=0 ranks=2 value=<us> unit=us, plus an INFO line with min
 * and max. Printed under bench/run.sh's table.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TRIALS 25

static uint32_t word;          /* the futex the sleeper waits on */
static int64_t woke_at;        /* atomic: when the sleeper ran again (ns), 0 before */
static uint32_t asleep;        /* atomic: the sleeper is about to wait on `word` */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *sleeper(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t seen = __atomic_load_n(&word, __ATOMIC_SEQ_CST);
        __atomic_store_n(&asleep, 1, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(&word, __ATOMIC_SEQ_CST) == seen)
            syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
        __atomic_store_n(&woke_at, now_ns(), __ATOMIC_SEQ_CST);
    }
    return NULL;
}

static void sleep_us(double us)
{
    struct timespec ts = {(time_t)(us / 1e6), (long)((us - (double)(time_t)(us / 1e6) * 1e6) * 1e3)};
    nanosleep(&ts, NULL);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One figure: TRIALS wake-ups of a sleeper that slept idle_us, the waker spinning spin_us
 * first. */
static void measure(const char *name, double idle_us, double spin_us)
{
    double t[TRIALS];
    for (int i = 0; i < TRIALS; i++) {
        while (!__atomic_load_n(&asleep, __ATOMIC_SEQ_CST))
            sleep_us(100);
        sleep_us(idle_us); /* the sleeper is in (or entering) its futex wait meanwhile */
        int64_t spin_end = now_ns() + (int64_t)(spin_us * 1e3);
        while (now_ns() < spin_end)
            ;
        __atomic_store_n(&woke_at, 0, __ATOMIC_SEQ_CST);
        __atomic_store_n(&asleep, 0, __ATOMIC_SEQ_CST);
        int64_t t0 = now_ns();
        __atomic_fetch_add(&word, 1, __ATOMIC_SEQ_CST);
        syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        int64_t w;
        while ((w = __atomic_load_n(&woke_at, __ATOMIC_SEQ_CST)) == 0)
            sched_yield(); /* lets the sleeper run here if the scheduler put it on this CPU */
        t[i] = 1e-3 * (double)(w - t0);
    }
    qsort(t, TRIALS, sizeof t[0], by_value);
    printf("INFO %s: median %.1f us, min %.1f, max %.1f over %d trials (slept %.0f us)\n", name,
           t[TRIALS / 2], t[0], t[TRIALS - 1], TRIALS, idle_us);
    printf("RESULT name=%s bytes=0 ranks=2 value=%.2f unit=us\n", name, t[TRIALS / 2]);
}

int main(void)
{
    pthread_t th;
    if (pthread_create(&th, NULL, sleeper, NULL) != 0) {
        fprintf(stderr, "wake_floor: cannot create a thread\n");
        return 1;
    }
    measure("wake_after_idle", 20000, 2000);
    measure("wake_warm", 50, 0);
    return 0;
}
