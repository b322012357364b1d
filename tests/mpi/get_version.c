/*
 * get_version.c: MPI_Get_version reports the MPI_VERSION and MPI_SUBVERSION of the mpi.h the
 * program was built with (MPI-4.1 §9.1.1), before MPI_Init, between MPI_Init and
 * MPI_Finalize, and after MPI_Finalize; MPI_Get_library_version names a version string that
 * fits MPI_MAX_LIBRARY_VERSION_STRING.
 */
#include <string.h>

#include "mtest.h"

static void check_version(void)
{
    int v = -1, s = -1;
    CHECK(MPI_Get_version(&v, &s) == MPI_SUCCESS);
    CHECK(v == MPI_VERSION && s == MPI_SUBVERSION);
    CHECK(MPI_VERSION == 4 && MPI_SUBVERSION == 1); /* the standard this library implements */
}

int main(int argc, char **argv)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = -1;
    check_version();
    MPI_Init(&argc, &argv);
    check_version();
    CHECK(MPI_Get_library_version(lib, &len) == MPI_SUCCESS);
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && (int)strlen(lib) == len);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    check_version();
    if (rank == 0 && mtest_errors == 0)
        printf(" No Errors\n");
    return mtest_errors ? 1 : 0;
}
