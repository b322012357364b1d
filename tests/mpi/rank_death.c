/*
 * rank_death.c: rank 2 ends itself in the way argv[1] names; every other rank must finish
 * normally (docs/design.md "Ranks are threads": process-wide calls are rank-local). The exit status
 * follows docs/design.md "Exit status":
 * 0 by default (Open MPI ULFM), non-zero with -disable-auto-cleanup (MPICH).
 *   raise-kill raise-term raise-int raise-abrt kill exit _exit abort assert thread-exit
 */
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "mtest.h"

static void *thread_exits(void *arg)
{
    exit(5);
    return arg;
}

static void die(const char *how)
{
    if (!strcmp(how, "raise-kill")) raise(SIGKILL);
    else if (!strcmp(how, "raise-term")) raise(SIGTERM);
    else if (!strcmp(how, "raise-int")) raise(SIGINT);
    else if (!strcmp(how, "raise-abrt")) raise(SIGABRT);
    else if (!strcmp(how, "kill")) kill(getpid(), SIGKILL);
    else if (!strcmp(how, "exit")) exit(3);
    else if (!strcmp(how, "_exit")) _exit(4);
    else if (!strcmp(how, "abort")) abort();
    else if (!strcmp(how, "assert")) assert(!"rank 2 asserts");
    else if (!strcmp(how, "thread-exit")) {
        pthread_t t;
        pthread_create(&t, NULL, thread_exits, NULL);
        pthread_join(t, NULL);
        /* The rank has ended; its main thread unwinds at its next MPI call, this one. */
        int r;
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    }
    fprintf(stderr, "rank 2 survived '%s'\n", how);
    mtest_errors++;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(argc > 1);
    if (rank == 2 && argc > 1)
        die(argv[1]);
    return mtest_finish();
}
