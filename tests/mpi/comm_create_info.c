/* comm_create_info.c: communicator hints (MPI-4.1 §7.4.4): MPI_Comm_set_info and
 * MPI_Comm_get_info (a new object each time, the program frees it), MPI_Comm_dup keeps the
 * parent's hints (MPICH 4.0 drops them), MPI_Comm_dup_with_info and MPI_Comm_idup_with_info
 * take the given ones, and the bad-input classes. The four hints of §7.4.4 are always there
 * ("false" by default); a hint the library does not know ("my_hint") is ignored (MPI-4.1 §10)
 * and never comes back. */
#include <string.h>

#include "mtest.h"

#ifdef MINI_MPI
#define MINI(x) x
#else
#define MINI(x) ((void)0)
#endif

static int cls(int err)
{
    int c = err;
    MPI_Error_class(err, &c);
    return c;
}

/* The value of key in info, or "" when absent. */
static const char *value(MPI_Info info, const char *key)
{
    static char buf[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, buf, &flag);
    return flag ? buf : "";
}

static void check_hint(MPI_Comm comm, const char *key, const char *want)
{
    MPI_Info used = MPI_INFO_NULL;
    CHECK(MPI_Comm_get_info(comm, &used) == MPI_SUCCESS && used != MPI_INFO_NULL);
    CHECK(!strcmp(value(used, key), want));
    MPI_Info_free(&used);
}

int main(int argc, char **argv)
{
    MPI_Comm dup, dup2, dup3;
    MPI_Info info, other, used;
    MPI_Request req;
    int nkeys;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Info_set(info, "my_hint", "42");
    CHECK(MPI_Comm_set_info(dup, info) == MPI_SUCCESS);
    MPI_Info_free(&info); /* the communicator keeps its own copy */
    check_hint(dup, "mpi_assert_no_any_tag", "true");
    check_hint(dup, "mpi_assert_no_any_source", "false");
    check_hint(dup, "my_hint", "");
    /* Two get_info calls give two objects. */
    MPI_Comm_get_info(dup, &used);
    MPI_Comm_get_info(dup, &info);
    CHECK(used != info);
    MPI_Info_free(&used);
    MPI_Info_free(&info);

    /* Dup keeps the hints; dup_with_info replaces them. */
    CHECK(MPI_Comm_dup(dup, &dup2) == MPI_SUCCESS);
    MINI(check_hint(dup2, "mpi_assert_no_any_tag", "true"));
    check_hint(dup2, "my_hint", "");
    MPI_Info_create(&other);
    MPI_Info_set(other, "my_hint", "7");
    MPI_Info_set(other, "mpi_assert_allow_overtaking", "true");
    CHECK(MPI_Comm_dup_with_info(dup, other, &dup3) == MPI_SUCCESS);
    check_hint(dup3, "my_hint", "");
    check_hint(dup3, "mpi_assert_allow_overtaking", "true");
    check_hint(dup3, "mpi_assert_no_any_tag", "false");
    check_hint(dup, "mpi_assert_no_any_tag", "true"); /* the parent's stay */
    check_hint(dup, "mpi_assert_allow_overtaking", "false");
    MPI_Comm_free(&dup3);
    CHECK(MPI_Comm_idup_with_info(dup, other, &dup3, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    check_hint(dup3, "mpi_assert_allow_overtaking", "true");
    MPI_Comm_free(&dup3);
    MPI_Info_free(&other);
    /* A later set_info updates. */
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_exact_length", "true");
    CHECK(MPI_Comm_set_info(dup2, info) == MPI_SUCCESS);
    check_hint(dup2, "mpi_assert_exact_length", "true");
    MPI_Info_free(&info);

    /* A communicator nobody gave hints to answers an (empty or default) object. */
    CHECK(MPI_Comm_get_info(MPI_COMM_WORLD, &used) == MPI_SUCCESS && used != MPI_INFO_NULL);
    CHECK(MPI_Info_get_nkeys(used, &nkeys) == MPI_SUCCESS);
    check_hint(MPI_COMM_WORLD, "mpi_assert_no_any_tag", "false");
    MPI_Info_free(&used);

    /* Bad input. */
    MPI_Info_create(&info);
    CHECK(cls(MPI_Comm_set_info(MPI_COMM_NULL, info)) == MPI_ERR_COMM);
    CHECK(cls(MPI_Comm_get_info(MPI_COMM_NULL, &used)) == MPI_ERR_COMM);
    CHECK(cls(MPI_Comm_get_info(dup, NULL)) == MPI_ERR_ARG);
#ifdef MINI_MPI /* (handles are pointers in Open MPI) */
    CHECK(cls(MPI_Comm_set_info(dup, (MPI_Info)77)) == MPI_ERR_INFO);
    CHECK(cls(MPI_Comm_dup_with_info(dup, (MPI_Info)77, &dup3)) == MPI_ERR_INFO);
#endif
    CHECK(cls(MPI_Comm_dup_with_info(MPI_COMM_NULL, info, &dup3)) == MPI_ERR_COMM);
    CHECK(cls(MPI_Comm_dup_with_info(dup, info, NULL)) == MPI_ERR_ARG);
    MPI_Info_free(&info);
    MPI_Comm_free(&dup2);
    MPI_Comm_free(&dup);
    return mtest_finish();
}
