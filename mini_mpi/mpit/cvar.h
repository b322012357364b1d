/*
 * mpit/cvar.h: the table of control variables (mpit/cvar.c), which cvar_api.c and the
 * categories read.
 */
#ifndef MMPI_MPIT_CVAR_H
#define MMPI_MPIT_CVAR_H

#include "mpi.h"

struct mmpi_world;

enum mmpi_cvar_id {
    MMPI_CVAR_NP, MMPI_CVAR_UNIVERSE_SIZE, MMPI_CVAR_PRIVATIZE, MMPI_CVAR_STACK, MMPI_CVAR_FT,
    MMPI_CVAR_EXIT_STATUS, MMPI_CVAR_INITIAL_ERRHANDLER, MMPI_CVAR_CALL_COUNTS,
    MMPI_CVAR_COLL_FAST_MAX, MMPI_CVAR_VERBOSE, MMPI_CVAR_HANG_CHECK, MMPI_CVAR_TIMEOUT,
    MMPI_CVAR_POISON, MMPI_CVAR_BIND, MMPI_NCVARS
};

struct mmpi_cvar {
    const char *name;
    const char *desc;
    MPI_Datatype type;
    int enum_id;                     /* enum mmpi_mpit_enum_id, or -1 */
    int scope;
    /* Both return MPI_SUCCESS or an MPI_T error class; write NULL: read-only. */
    int (*read)(struct mmpi_world *w, void *buf);
    int (*write)(struct mmpi_world *w, const void *buf);
    /* MPI_CHAR variables: the current string (its length + 1 is the handle's count). */
    const char *(*string)(struct mmpi_world *w);
};

extern const struct mmpi_cvar mmpi_cvars[MMPI_NCVARS];

#endif
