/* errhandler_initial.c: run with --initial-errhandler mpi_errors_return: errors return instead of
 * ending the job, and MPI_INFO_ENV says which handler was chosen (MPI-4.1 §11.2.1). */
#include <string.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    int size, flag, len = MPI_MAX_INFO_VAL;
    char value[MPI_MAX_INFO_VAL];
    MPI_Errhandler eh;
    MPI_Init(&argc, &argv);
    CHECK(MPI_Comm_size(MPI_COMM_NULL, &size) == MPI_ERR_COMM);
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh) == MPI_SUCCESS);
    CHECK(eh == MPI_ERRORS_RETURN);
    CHECK(MPI_Info_get_string(MPI_INFO_ENV, "mpi_initial_errhandler", &len, value, &flag) ==
          MPI_SUCCESS);
    CHECK(flag && !strcmp(value, "mpi_errors_return"));
    return mtest_finish();
}
