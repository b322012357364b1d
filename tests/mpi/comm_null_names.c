/* comm_null_names.c: the predefined null handles have names (MPI-4.1, as in Open MPI):
 * MPI_Comm_get_name(MPI_COMM_NULL) gives "MPI_COMM_NULL" and MPI_Type_get_name
 * (MPI_DATATYPE_NULL) "MPI_DATATYPE_NULL". Setting those names, and reading the name of a
 * freed handle, are still errors. */
#include <string.h>

#include "mtest.h"

static int cls(int err)
{
    int c = err;
    MPI_Error_class(err, &c);
    return c;
}

int main(int argc, char **argv)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Comm dup, freed;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    CHECK(MPI_Comm_get_name(MPI_COMM_NULL, name, &len) == MPI_SUCCESS);
    CHECK(!strcmp(name, "MPI_COMM_NULL") && len == (int)strlen("MPI_COMM_NULL"));
    len = -1;
    CHECK(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len) == MPI_SUCCESS);
    CHECK(!strcmp(name, "MPI_DATATYPE_NULL") && len == (int)strlen("MPI_DATATYPE_NULL"));
    CHECK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len) == MPI_SUCCESS &&
          !strcmp(name, "MPI_COMM_WORLD"));

    CHECK(cls(MPI_Comm_get_name(MPI_COMM_NULL, NULL, &len)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Comm_set_name(MPI_COMM_NULL, "x")) == MPI_ERR_COMM);
    CHECK(cls(MPI_Type_set_name(MPI_DATATYPE_NULL, "x")) == MPI_ERR_TYPE);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    freed = dup;
    MPI_Comm_free(&dup);
    CHECK(cls(MPI_Comm_get_name(freed, name, &len)) == MPI_ERR_COMM);
    return mtest_finish();
}
