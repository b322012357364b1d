/*
 * mtest.h: the small harness every MPI test program uses, in the spirit of MPICH's mtest: count
 * errors, report them, and print "No Errors" from rank 0 when this rank saw none. Plain MPI only,
 * so the programs also build against MPICH and Open MPI.
 *
 * Until collectives exist, each rank reports its own errors: a rank with errors returns 1 after
 * MPI_Finalize, which makes the job's exit status non-zero (docs/design.md "Exit status").
 */
#ifndef MTEST_H
#define MTEST_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int mtest_errors;

#define CHECK(cond)                                                                         \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            int r_ = -1;                                                                    \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                             \
            fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", r_, __FILE__, __LINE__,  \
                    #cond);                                                                 \
            mtest_errors++;                                                                 \
        }                                                                                   \
    } while (0)

/* Finalizes, prints "No Errors" at rank 0 if it saw none, and returns main's status. */
static inline int mtest_finish(void)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    if (rank == 0 && mtest_errors == 0)
        printf(" No Errors\n");
    fflush(stdout);
    return mtest_errors ? 1 : 0;
}

#endif
