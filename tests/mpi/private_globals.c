/*
 * private_globals.c: every rank has its own copy of the program's globals, statics, thread-locals
 * and of libc state bound to the image (docs/design.md "Private images"). Each rank stamps its rank
 * into them, sleeps
 * so that other ranks run and stamp theirs, and checks nobody overwrote its values. Run with
 * many ranks (64 in the testlist). With MINI_MPI_PRIVATIZE=0 the same program must see its
 * values clobbered (run with arg=shared, expecting the sharing to be detected).
 */
#include <string.h>
#include <time.h>

#include "mtest.h"

int global_rank = -1;            /* .data */
static int bss_counter;          /* .bss */
static __thread int tls_rank = -1;
static char buffer[64];

static int *static_local(void)
{
    static int value = -1;
    return &value;
}

int main(int argc, char **argv)
{
    int rank;
    int shared = argc > 1 && !strcmp(argv[1], "shared");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    global_rank = rank;
    bss_counter++;
    tls_rank = rank;
    *static_local() = rank;
    snprintf(buffer, sizeof buffer, "rank %d", rank);

    /* Give every other rank time to write its own values. */
    for (int i = 0; i < 20; i++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }

    char expect[64];
    snprintf(expect, sizeof expect, "rank %d", rank);
    int clobbered = global_rank != rank || bss_counter != 1 || *static_local() != rank ||
                    strcmp(buffer, expect) != 0;
    if (shared) {
        /* One image: rank 0 sees the last writer's values unless it ran alone. */
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        if (rank == 0)
            CHECK(clobbered || size == 1);
    } else {
        CHECK(!clobbered);
    }
    CHECK(tls_rank == rank); /* thread-locals are per thread in any mode */
    return mtest_finish();
}
