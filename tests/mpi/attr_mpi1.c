/* attr_mpi1.c: the deprecated MPI-1 attribute names many codes still use (MPI_Keyval_create,
 * MPI_Keyval_free, MPI_Attr_put, MPI_Attr_get, MPI_Attr_delete, MPI_NULL_COPY_FN,
 * MPI_NULL_DELETE_FN, MPI_DUP_FN) work as their MPI-2 forms, interoperate with them, and copy
 * at MPI_Comm_dup. */
#include "mtest.h"

static int copies, deletes;

static int my_copy(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    copies++;
    /* A program's own callback may call the predefined ones. */
    return MPI_DUP_FN(old, keyval, extra, in, out, flag);
}

static int my_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    deletes++;
    return MPI_SUCCESS; /* (MPICH's MPI_NULL_DELETE_FN is a null pointer: not callable) */
}

int main(int argc, char **argv)
{
    int k1, k2, k3, flag, v1 = 11, v2 = 22, v3 = 33, *p, cls;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    CHECK(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k1, NULL) == MPI_SUCCESS);
    CHECK(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k2, NULL) == MPI_SUCCESS);
    CHECK(MPI_Keyval_create(my_copy, my_delete, &k3, NULL) == MPI_SUCCESS);
    CHECK(MPI_Attr_put(MPI_COMM_WORLD, k1, &v1) == MPI_SUCCESS);
    CHECK(MPI_Attr_put(MPI_COMM_WORLD, k2, &v2) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, k3, &v3) == MPI_SUCCESS); /* mixed names */
    CHECK(MPI_Attr_get(MPI_COMM_WORLD, k1, &p, &flag) == MPI_SUCCESS && flag && *p == 11);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, k2, &p, &flag) == MPI_SUCCESS && flag && *p == 22);

    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
    CHECK(copies == 1);
    CHECK(MPI_Attr_get(dup, k1, &p, &flag) == MPI_SUCCESS && flag == 0); /* NULL_COPY_FN */
    CHECK(MPI_Attr_get(dup, k2, &p, &flag) == MPI_SUCCESS && flag && p == &v2); /* DUP_FN */
    CHECK(MPI_Attr_get(dup, k3, &p, &flag) == MPI_SUCCESS && flag && p == &v3);
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS && deletes == 1);

    CHECK(MPI_Attr_delete(MPI_COMM_WORLD, k3) == MPI_SUCCESS && deletes == 2);
    CHECK(MPI_Attr_delete(MPI_COMM_WORLD, k1) == MPI_SUCCESS);
    CHECK(MPI_Attr_get(MPI_COMM_WORLD, k1, &p, &flag) == MPI_SUCCESS && flag == 0);
    CHECK(MPI_Keyval_free(&k1) == MPI_SUCCESS && k1 == MPI_KEYVAL_INVALID);
    CHECK(MPI_Keyval_free(&k3) == MPI_SUCCESS);
    CHECK(MPI_Comm_free_keyval(&k2) == MPI_SUCCESS); /* a keyval still in use on WORLD */

    /* The MPI-1 names check their arguments like the others. */
    MPI_Error_class(MPI_Attr_put(MPI_COMM_WORLD, MPI_TAG_UB, &v1), &cls);
    CHECK(cls == MPI_ERR_KEYVAL);
    MPI_Error_class(MPI_Attr_get(MPI_COMM_NULL, MPI_TAG_UB, &p, &flag), &cls);
    CHECK(cls == MPI_ERR_COMM);
    MPI_Error_class(MPI_Keyval_free(&k1), &cls);
    CHECK(cls == MPI_ERR_KEYVAL);
    MPI_Error_class(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, NULL, NULL), &cls);
    CHECK(cls == MPI_ERR_ARG);
    MPI_Error_class(MPI_Attr_delete(MPI_COMM_WORLD, MPI_KEYVAL_INVALID), &cls);
    CHECK(cls == MPI_ERR_KEYVAL);
    /* MPI_TAG_UB through the MPI-1 name. */
    CHECK(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag) == MPI_SUCCESS && flag &&
          *p >= 32767);
    return mtest_finish();
}
