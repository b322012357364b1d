/*
 * mpit/pvar.h: the table of performance variables (mpit/pvar.c), which pvar_api.c and the
 * categories read.
 */
#ifndef MMPI_MPIT_PVAR_H
#define MMPI_MPIT_PVAR_H

#include <stdint.h>

#include "mpit/mpit.h"

#define MMPI_NPVARS (MMPI_PVAR_NCOUNTERS + 7 + MMPI_NCOLL_OPS * MMPI_NCOLL_FORMS)

struct mmpi_pvar {
    const char *name;
    const char *desc;
    int var_class;                   /* MPI_T_PVAR_CLASS_*: COUNTER ones may be reset */
    int counter;                     /* first slot of a thread's block (mpit.h), or -1: read */
    int count;                       /* elements (consecutive slots), 1 for a read one */
    uint64_t (*read)(struct mmpi_mpit_rank *st);
};

extern const struct mmpi_pvar mmpi_pvars[MMPI_NPVARS];

/* The variable's value for the rank of st, now: its count elements into out. */
void mmpi_pvar_values(int index, struct mmpi_mpit_rank *st, uint64_t *out);

#endif
