/*
 * fortran/glue/grequest.c: generalized requests from Fortran (MPI-4.1 §13.2). The three
 * functions written in Fortran take every argument by reference, EXTRA_STATE an
 * INTEGER(KIND=MPI_ADDRESS_KIND), STATUS an INTEGER array of MPI_STATUS_SIZE (the bytes of a C
 * status) and COMPLETE a LOGICAL: the request carries them with the address of the program's
 * EXTRA_STATE variable, which they receive (so what they write there, the program sees, as
 * with MPICH and Open MPI), and C calls them through the trampolines below. The free
 * trampoline frees that carrier.
 */
#include <stdlib.h>

#include "fortran/glue.h"

#pragma GCC diagnostic ignored "-Wmissing-prototypes"

typedef void fquery_fn(MPI_Aint *extra_state, MPI_Fint *status, MPI_Fint *ierror);
typedef void ffree_fn(MPI_Aint *extra_state, MPI_Fint *ierror);
typedef void fcancel_fn(MPI_Aint *extra_state, MPI_Fint *complete, MPI_Fint *ierror);

struct fgreq {
    fquery_fn *query;
    ffree_fn *free;
    fcancel_fn *cancel;
    MPI_Aint *extra;
};

static int query_tramp(void *extra_state, MPI_Status *status)
{
    struct fgreq *g = extra_state;
    MPI_Fint ierr = MPI_SUCCESS;
    g->query(g->extra, (MPI_Fint *)status, &ierr);
    return ierr;
}

static int free_tramp(void *extra_state)
{
    struct fgreq *g = extra_state;
    MPI_Fint ierr = MPI_SUCCESS;
    g->free(g->extra, &ierr);
    free(g);
    return ierr;
}

static int cancel_tramp(void *extra_state, int complete)
{
    struct fgreq *g = extra_state;
    MPI_Fint ierr = MPI_SUCCESS, fcomplete = complete != 0;
    g->cancel(g->extra, &fcomplete, &ierr);
    return ierr;
}

void pmpi_grequest_start_(fquery_fn *query_fn, ffree_fn *free_fn, fcancel_fn *cancel_fn,
                          MPI_Aint *extra_state, MPI_Fint *request, MPI_Fint *ierror)
{
    struct fgreq *g = malloc(sizeof(*g));
    if (!g) {
        *ierror = MPI_ERR_NO_MEM;
        return;
    }
    *g = (struct fgreq){query_fn, free_fn, cancel_fn, extra_state};
    int rc = PMPI_Grequest_start(query_tramp, free_tramp, cancel_tramp, g, request);
    if (rc != MPI_SUCCESS)
        free(g);
    *ierror = rc;
}
#pragma weak mpi_grequest_start_ = pmpi_grequest_start_
