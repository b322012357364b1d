/*
 * ioft.h: helpers of the tests of files under process failure (tests/mpi/ioft_*.c): a file name
 * unique to the run, the error class of a return code, and the verdict of the survivors.
 */
#ifndef IOFT_H
#define IOFT_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mtest.h"

/* The poisoned pointer of docs/io.md ("Files and process failures"), MINI_MPI_POISON=1. */
#define IOFT_POISON ((MPI_Offset)1 << 30)

static inline void ioft_name(char *buf, size_t len, const char *what)
{
    snprintf(buf, len, "%s/mmpi_%s_%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", what,
             (int)getpid());
}

static inline int ioft_class(int err)
{
    int cls;
    MPI_Error_class(err, &cls);
    return cls;
}

/* Sums the errors over the survivors (MPIX_Comm_shrink) and prints the verdict at the lowest
 * one. Collective over the live ranks of MPI_COMM_WORLD. */
static inline int ioft_finish(void)
{
    MPI_Comm alive;
    int errs = mtest_errors, total = 0, rank;
    MPIX_Comm_shrink(MPI_COMM_WORLD, &alive);
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, alive);
    MPI_Comm_rank(alive, &rank);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Comm_free(&alive);
    MPI_Finalize();
    return total ? 1 : 0;
}

#endif
