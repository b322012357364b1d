/*
 * mpit_read.h: reading one performance variable's whole count through MPI_T (a session and a
 * handle made and freed around the read), for the mpit_* tests.
 */
#ifndef MPIT_READ_H
#define MPIT_READ_H

#include "mtest.h"

static inline unsigned long long mpit_read(const char *name, int var_class)
{
    int index = -1, count;
    unsigned long long v = ~0ull;
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h;
    CHECK(MPI_T_pvar_get_index(name, var_class, &index) == MPI_SUCCESS);
    MPI_T_pvar_session_create(&s);
    MPI_T_pvar_handle_alloc(s, index, NULL, &h, &count);
    CHECK(MPI_T_pvar_read(s, h, &v) == MPI_SUCCESS);
    MPI_T_pvar_session_free(&s);
    return v;
}

#endif
