/* info.c: MPI_Info objects (MPI-4.1 §10): set/get/delete, nkeys/nthkey, valuelen, get_string's
 * buffer protocol, dup, free, and the read-only MPI_INFO_ENV. */
#include <string.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    MPI_Info info, dup;
    int flag, n, len;
    char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    CHECK(MPI_Info_create(&info) == MPI_SUCCESS);
    CHECK(MPI_Info_get_nkeys(info, &n) == MPI_SUCCESS && n == 0);
    CHECK(MPI_Info_set(info, "alpha", "1") == MPI_SUCCESS);
    CHECK(MPI_Info_set(info, "beta", "two") == MPI_SUCCESS);
    CHECK(MPI_Info_set(info, "alpha", "one") == MPI_SUCCESS); /* replaces */
    CHECK(MPI_Info_get_nkeys(info, &n) == MPI_SUCCESS && n == 2);
    CHECK(MPI_Info_get_nthkey(info, 0, key) == MPI_SUCCESS && !strcmp(key, "alpha"));
    CHECK(MPI_Info_get_nthkey(info, 1, key) == MPI_SUCCESS && !strcmp(key, "beta"));
    CHECK(MPI_Info_get_nthkey(info, 2, key) == MPI_ERR_ARG);
    CHECK(MPI_Info_get(info, "alpha", MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS && flag &&
          !strcmp(value, "one"));
    CHECK(MPI_Info_get_valuelen(info, "beta", &len, &flag) == MPI_SUCCESS && flag && len == 3);
    CHECK(MPI_Info_get(info, "gamma", MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS && !flag);
    /* get_string: buflen 0 asks for the size (value length + 1). */
    len = 0;
    CHECK(MPI_Info_get_string(info, "beta", &len, value, &flag) == MPI_SUCCESS && flag && len == 4);
    len = 2;
    CHECK(MPI_Info_get_string(info, "beta", &len, value, &flag) == MPI_SUCCESS && len == 4 &&
          !strcmp(value, "t"));
    CHECK(MPI_Info_dup(info, &dup) == MPI_SUCCESS);
    CHECK(MPI_Info_delete(info, "alpha") == MPI_SUCCESS);
    CHECK(MPI_Info_delete(info, "alpha") == MPI_ERR_INFO_NOKEY);
    CHECK(MPI_Info_get_nkeys(dup, &n) == MPI_SUCCESS && n == 2);
    CHECK(MPI_Info_set(info, "", "x") == MPI_ERR_INFO_KEY);
    CHECK(MPI_Info_set(info, "k", NULL) != MPI_SUCCESS);
    CHECK(MPI_Info_free(&info) == MPI_SUCCESS && info == MPI_INFO_NULL);
    CHECK(MPI_Info_free(&dup) == MPI_SUCCESS && dup == MPI_INFO_NULL);
    CHECK(MPI_Info_get_nkeys(info, &n) == MPI_ERR_INFO);
    CHECK(MPI_Info_get_nkeys(12345, &n) == MPI_ERR_INFO);
    /* MPI_INFO_ENV: readable, not modifiable. */
    CHECK(MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS);
    CHECK(flag);
    CHECK(MPI_Info_set(MPI_INFO_ENV, "x", "y") != MPI_SUCCESS);
    return mtest_finish();
}
