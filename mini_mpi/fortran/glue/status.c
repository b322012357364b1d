/*
 * fortran/glue/status.c: MPI_STATUS_F2F08 and MPI_STATUS_F082F from Fortran (MPI-4.1 §19.3.5),
 * which C has too, so the table's generated bindings (which skip the conversion section) do not
 * make them. A Fortran status and TYPE(MPI_Status) hold the same bytes (docs/fortran.md).
 */
#include "fortran/glue.h"

#pragma GCC diagnostic ignored "-Wmissing-prototypes"

void pmpi_status_f2f08_(const MPI_Fint *f_status, MPI_F08_status *f08_status, MPI_Fint *ierror)
{
    *ierror = PMPI_Status_f2f08(f_status, f08_status);
}
#pragma weak mpi_status_f2f08_ = pmpi_status_f2f08_

void pmpi_status_f082f_(const MPI_F08_status *f08_status, MPI_Fint *f_status, MPI_Fint *ierror)
{
    *ierror = PMPI_Status_f082f(f08_status, f_status);
}
#pragma weak mpi_status_f082f_ = pmpi_status_f082f_
