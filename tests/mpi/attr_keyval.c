/* attr_keyval.c: keyval lifecycle and attribute set/get/overwrite/delete on communicators
 * (MPI-4.1 §7.7.2): delete callbacks at overwrite and delete, a keyval freed while attributes
 * use it stays usable through its old value until the last is deleted (as in MPICH and Open
 * MPI, even for setting) and may be freed again, and every bad input gets its error class
 * (invalid, gone, predefined or other-kind keyvals: MPI_ERR_KEYVAL). Error classes are
 * compared through MPI_Error_class so that the program also checks MPICH and Open MPI. */
#include "mtest.h"

static int cls(int err)
{
    int c = err;
    MPI_Error_class(err, &c);
    return c;
}

static int deletes, last_keyval;
static void *last_value;
static MPI_Comm last_comm;

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    deletes++;
    last_comm = comm;
    last_keyval = keyval;
    last_value = value;
    CHECK(extra == &deletes);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int key, key2, tkey, copy, flag, a = 1, b = 2, *p;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &key, &deletes) ==
          MPI_SUCCESS);
    CHECK(key != MPI_KEYVAL_INVALID);
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key2, NULL) ==
          MPI_SUCCESS && key2 != key);

    /* Absent, set, get, overwrite (the old value is deleted), delete. */
    flag = -1;
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &p, &flag) == MPI_SUCCESS && flag == 0);
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &a) == MPI_SUCCESS);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &p, &flag) == MPI_SUCCESS && flag && p == &a);
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &b) == MPI_SUCCESS);
    CHECK(deletes == 1 && last_value == &a && last_keyval == key &&
          last_comm == MPI_COMM_WORLD);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &p, &flag) == MPI_SUCCESS && flag && p == &b);
    CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, key) == MPI_SUCCESS);
    CHECK(deletes == 2 && last_value == &b);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &p, &flag) == MPI_SUCCESS && flag == 0);
    /* Attributes are per communicator: SELF's value does not show on WORLD. */
    CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, key, &a) == MPI_SUCCESS);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &p, &flag) == MPI_SUCCESS && flag == 0);
    CHECK(MPI_Comm_delete_attr(MPI_COMM_SELF, key) == MPI_SUCCESS && deletes == 3 &&
          last_comm == MPI_COMM_SELF);

    /* A keyval freed while in use: the handle is invalidated for the program, but the values
     * set with it remain, and the old value still gets and deletes them (§7.7.2). */
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &a) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(dup, key, &b) == MPI_SUCCESS);
    copy = key;
    CHECK(MPI_Comm_free_keyval(&key) == MPI_SUCCESS && key == MPI_KEYVAL_INVALID);
    /* Still extant while attributes use it: freeing it again succeeds (as in MPICH). */
    int again = copy;
    CHECK(MPI_Comm_free_keyval(&again) == MPI_SUCCESS && again == MPI_KEYVAL_INVALID);
    CHECK(deletes == 3);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, copy, &p, &flag) == MPI_SUCCESS && flag && p == &a);
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, copy, &b) == MPI_SUCCESS && deletes == 4 &&
          last_value == &a);
    CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, copy) == MPI_SUCCESS && deletes == 5);
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS && deletes == 6 && last_value == &b);
#ifdef MINI_MPI
    /* Gone with its last attribute: the old value is now just invalid. */
    CHECK(cls(MPI_Comm_get_attr(MPI_COMM_WORLD, copy, &p, &flag)) == MPI_ERR_KEYVAL);
#endif

    /* Bad input. */
    CHECK(cls(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL,
                                     NULL)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Comm_free_keyval(NULL)) == MPI_ERR_ARG);
    int invalid = MPI_KEYVAL_INVALID;
    CHECK(cls(MPI_Comm_free_keyval(&invalid)) == MPI_ERR_KEYVAL);
    int predefined = MPI_TAG_UB;
    CHECK(cls(MPI_Comm_free_keyval(&predefined)) == MPI_ERR_KEYVAL);
    CHECK(cls(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &a)) == MPI_ERR_KEYVAL);
    CHECK(cls(MPI_Comm_set_attr(MPI_COMM_WORLD, 12345, &a)) == MPI_ERR_KEYVAL);
    CHECK(cls(MPI_Comm_get_attr(MPI_COMM_WORLD, -7, &p, &flag)) == MPI_ERR_KEYVAL);
    CHECK(cls(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID)) == MPI_ERR_KEYVAL);
    CHECK(cls(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &a)) == MPI_ERR_KEYVAL);
    CHECK(cls(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB)) == MPI_ERR_KEYVAL);
    CHECK(cls(MPI_Comm_set_attr(MPI_COMM_NULL, key2, &a)) == MPI_ERR_COMM);
    CHECK(cls(MPI_Comm_get_attr(MPI_COMM_NULL, key2, &p, &flag)) == MPI_ERR_COMM);
    CHECK(cls(MPI_Comm_delete_attr(MPI_COMM_NULL, key2)) == MPI_ERR_COMM);
    CHECK(cls(MPI_Comm_get_attr(MPI_COMM_WORLD, key2, &p, NULL)) == MPI_ERR_ARG);
    /* Keyvals of another object kind. */
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkey, NULL) ==
          MPI_SUCCESS);
    CHECK(cls(MPI_Comm_set_attr(MPI_COMM_WORLD, tkey, &a)) == MPI_ERR_KEYVAL);
    CHECK(cls(MPI_Type_set_attr(MPI_INT, key2, &a)) == MPI_ERR_KEYVAL);
    CHECK(cls(MPI_Comm_free_keyval(&tkey)) == MPI_ERR_KEYVAL);
    CHECK(cls(MPI_Type_free_keyval(&key2)) == MPI_ERR_KEYVAL);
    CHECK(MPI_Type_free_keyval(&tkey) == MPI_SUCCESS && tkey == MPI_KEYVAL_INVALID);

    /* Many keyvals and attributes at once. */
    enum { N = 200 };
    static int keys[N], vals[N];
    for (int i = 0; i < N; i++) {
        CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &keys[i], &deletes) ==
              MPI_SUCCESS);
        CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, keys[i], &vals[i]) == MPI_SUCCESS);
    }
    for (int i = 0; i < N; i++) {
        CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, keys[i], &p, &flag) == MPI_SUCCESS && flag &&
              p == &vals[i]);
        CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, keys[i]) == MPI_SUCCESS);
        CHECK(MPI_Comm_free_keyval(&keys[i]) == MPI_SUCCESS);
    }
    CHECK(deletes == 6 + N);
    CHECK(MPI_Comm_free_keyval(&key2) == MPI_SUCCESS);
    return mtest_finish();
}
