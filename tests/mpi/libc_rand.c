/*
 * libc_rand.c: every rank has its own generators, as every process of a real job: after the
 * same srand(s) all ranks draw the same rand() sequence (glibc's: the first values are
 * checked), while the ranks draw at the same time (one draw per barrier). The same for
 * random/srandom, initstate/setstate with a buffer of the program's, and the drand48 family
 * (drand48, lrand48, mrand48, erand48, nrand48, jrand48, seed48, lcong48). A rank that draws
 * without seeding gets glibc's unseeded sequence. Then the pattern of fault-tolerance
 * benchmarks: every rank draws the victims from a shared seed, and all must agree.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DRAWS 64
/* Thread-local, not global: the test also runs with MINI_MPI_PRIVATIZE=0 (one image). */
static __thread int rank, size, errors;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            errors++;                                                                     \
            printf("rank %d: line %d: %s\n", rank, __LINE__, #cond);                       \
        }                                                                                 \
    } while (0)

/* Every rank's sequence must be rank 0's. */
static void same_everywhere(const long *seq, int n)
{
    long ref[DRAWS];
    memcpy(ref, seq, (size_t)n * sizeof(long));
    MPI_Bcast(ref, n, MPI_LONG, 0, MPI_COMM_WORLD);
    CHECK(!memcmp(ref, seq, (size_t)n * sizeof(long)));
}

int main(int argc, char **argv)
{
    long seq[DRAWS];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Unseeded: glibc starts as if srand(1). */
    CHECK(rand() == 1804289383);
    CHECK(rand() == 846930886);

    srand(42);
    for (int i = 0; i < DRAWS; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        seq[i] = rand();
    }
    CHECK(seq[0] == 71876166 && seq[1] == 708592740 && seq[2] == 1483128881);
    same_everywhere(seq, DRAWS);

    /* random() is the same generator; srandom(s) == srand(s). */
    srandom(42);
    CHECK(random() == 71876166);
    CHECK(rand() == 708592740);

    /* A state buffer of the program's. */
    char *state = malloc(64);
    char *old = initstate(5, state, 64);
    CHECK(old != NULL);
    CHECK(random() == 256049136 && random() == 304529766);
    for (int i = 0; i < DRAWS; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        seq[i] = random();
    }
    same_everywhere(seq, DRAWS);
    CHECK(setstate(old) == state); /* back to the default buffer, which continues */
    CHECK(rand() == 1483128881);

    /* drand48 family */
    srand48(7);
    CHECK(drand48() == 0.2664441967654092);
    CHECK(lrand48() == 1464659504 && mrand48() == 1140273416);
    for (int i = 0; i < DRAWS; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        seq[i] = i % 3 == 0 ? lrand48() : i % 3 == 1 ? mrand48() : (long)(drand48() * 1e9);
    }
    same_everywhere(seq, DRAWS);
    unsigned short seed[3] = {1, 2, 3}, xsubi[3] = {4, 5, 6};
    seed48(seed);
    long a = lrand48();
    unsigned short *prev = seed48(seed); /* the state after that one draw, in a static buffer */
    CHECK(lrand48() == a);
    unsigned short after_one[3] = {prev[0], prev[1], prev[2]};
    seed48(seed);
    lrand48();
    CHECK(!memcmp(seed48(seed), after_one, sizeof(after_one)));
    for (int i = 0; i < 8; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        seq[i] = i % 2 ? nrand48(xsubi) : jrand48(xsubi);
    }
    seq[8] = (long)(erand48(xsubi) * 1e9);
    same_everywhere(seq, 9);
    unsigned short param[7] = {1, 2, 3, 0x5, 0xdeec, 0xe66d - 1, 0xb};
    lcong48(param);
    for (int i = 0; i < 8; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        seq[i] = lrand48();
    }
    same_everywhere(seq, 8);

    /* Victims from a seed: every rank computes the same set. */
    srand(2024);
    int victims[4];
    for (int i = 0; i < 4; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        victims[i] = rand() % size;
    }
    long v[4] = {victims[0], victims[1], victims[2], victims[3]};
    same_everywhere(v, 4);
    free(state);

    int total;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
