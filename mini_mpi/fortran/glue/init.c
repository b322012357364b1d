/*
 * fortran/glue/init.c: the Fortran bindings whose arguments have no C counterpart: MPI_Init and
 * MPI_Init_thread, which have no argc/argv in Fortran.
 */
#include "fortran/glue.h"

#pragma GCC diagnostic ignored "-Wmissing-prototypes"

void pmpi_init_(MPI_Fint *ierror)
{
    *ierror = PMPI_Init(NULL, NULL);
}
#pragma weak mpi_init_ = pmpi_init_

void pmpi_init_thread_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)
{
    int rc = PMPI_Init_thread(NULL, NULL, *required, provided);
    if (ierror)
        *ierror = rc;
}
#pragma weak mpi_init_thread_ = pmpi_init_thread_
