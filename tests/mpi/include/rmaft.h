/*
 * rmaft.h: helpers of the window fault-tolerance tests (tests/mpi/rmaft_*.c): the error class of
 * a return code, and the poison pattern MINI_MPI_POISON=1 writes over window memory targeted in
 * a failed epoch (docs/rma.md: every byte 0xFF).
 */
#ifndef RMAFT_H
#define RMAFT_H

#include <stdlib.h>
#include <string.h>

#include "mtest.h"

static inline int eclass(int rc)
{
    int c;
    MPI_Error_class(rc, &c);
    return c;
}

/* Whether every byte of [p, p+n) is the poison pattern. */
static inline int rmaft_poisoned(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != 0xFF)
            return 0;
    return n > 0;
}

/* Whether MINI_MPI_POISON=1 is set for this run. */
static inline int rmaft_poison_on(void)
{
    const char *v = getenv("MINI_MPI_POISON");
    return v && !strcmp(v, "1");
}

#endif
