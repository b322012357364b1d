/*
 * bench/cacheline.c: the floor of a small message between two cores (not an MPI program).
 * Two threads (on CPUs 0 and 1 when the process may use them) ping-pong 2 million times:
 *   flag:    one 64-byte-aligned word; A stores 2i+1 and spins (pause) until it reads 2i+2,
 *            B the mirror image: one cache line moving between the cores, nothing else.
 *   message: two lines, one per direction, each holding a sequence number, a tag and 8 bytes
 *            of payload written before the sequence number (release): what any shared-memory
 *            MPI must at least do for an 8-byte message. The writer must take the line away
 *            from the reader spinning on it (an invalidation) before the reader fetches it.
 *   shared:  the same two cells in the two halves of ONE line (mini_mpi's channels,
 *            pt2pt/chan.h): each side writes the line it has just read, which the
 *            coherence protocol then hands over with one transfer per message. This holds
 *            only when the reply follows the read at once: with tens of nanoseconds of work in
 *            between, the waiting side's next look takes the line back and a message costs as
 *            much as with two lines (measured with a delay loop; not printed).
 * One-way time = round trip / 2, median of 5 batches. Printed under bench/run.sh's table.
 * Output: RESULT name=cacheline_flag|cacheline_message|cacheline_shared bytes=8 ranks=2
 *         value=<ns> unit=ns
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 400000
#define BATCHES 5

struct cell {
    _Alignas(64) uint32_t seq;
    int tag;
    uint64_t data;
};

static _Alignas(64) uint32_t flag;
static struct cell ab, ba;
static _Alignas(64) struct cell shared[4]; /* shared[0] one way, shared[2] the other: one line */
static struct cell *out, *back;            /* the cells of the current mode */
static int mode; /* 0 flag, 1 message, 2 shared */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set); /* best effort */
}

static void put(struct cell *c, uint32_t seq, uint64_t d)
{
    c->data = d;
    c->tag = 1;
    __atomic_store_n(&c->seq, seq, __ATOMIC_RELEASE);
}

static uint64_t get(struct cell *c, uint32_t seq)
{
    while (__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) != seq)
        __builtin_ia32_pause();
    return c->data;
}

static void *peer(void *arg)
{
    pin(1);
    for (uint32_t b = 0; b < BATCHES; b++)
        for (uint32_t i = 0; i < ROUNDS; i++) {
            uint32_t n = b * ROUNDS + i;
            if (mode == 0) {
                while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) != 2 * n + 1)
                    __builtin_ia32_pause();
                __atomic_store_n(&flag, 2 * n + 2, __ATOMIC_RELEASE);
            } else {
                put(back, n + 1, get(out, n + 1));
            }
        }
    return arg;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double run(void)
{
    pthread_t t;
    double ns[BATCHES];
    uint64_t d = 5;
    flag = 0;
    ab.seq = ba.seq = shared[0].seq = shared[2].seq = 0;
    out = mode == 2 ? &shared[0] : &ab;
    back = mode == 2 ? &shared[2] : &ba;
    pthread_create(&t, NULL, peer, NULL);
    for (uint32_t b = 0; b < BATCHES; b++) {
        double t0 = now();
        for (uint32_t i = 0; i < ROUNDS; i++) {
            uint32_t n = b * ROUNDS + i;
            if (mode == 0) {
                __atomic_store_n(&flag, 2 * n + 1, __ATOMIC_RELEASE);
                while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) != 2 * n + 2)
                    __builtin_ia32_pause();
            } else {
                put(out, n + 1, d);
                d = get(back, n + 1);
            }
        }
        ns[b] = (now() - t0) / ROUNDS / 2 * 1e9;
    }
    pthread_join(t, NULL);
    qsort(ns, BATCHES, sizeof ns[0], cmp);
    return ns[BATCHES / 2];
}

int main(void)
{
    pin(0);
    static const char *const names[] = {"cacheline_flag", "cacheline_message",
                                        "cacheline_shared"};
    for (mode = 0; mode < 3; mode++)
        printf("RESULT name=%s bytes=8 ranks=2 value=%.1f unit=ns\n", names[mode], run());
    return 0;
}
