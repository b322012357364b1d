/*
 * bench/memcpy.c: the machine's single-thread memcpy bandwidth (not an MPI program), the
 * ceiling of a one-copy message transfer. bench/run.sh prints it under the table.
 * For 64 KiB, 1 MiB and 4 MiB between two distinct buffers: repeated copies for about 0.1 s,
 * median of 5 batches, GB/s = 1e9 bytes copied per second.
 * Output: RESULT name=memcpy_bandwidth bytes=<B> ranks=1 value=<GB/s> unit=GB/s
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    return 0;
}
