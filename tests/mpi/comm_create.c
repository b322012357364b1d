/* comm_create.c: MPI_Comm_dup and MPI_Comm_split build working communicators (sizes, ranks in
 * key order, MPI_UNDEFINED gives MPI_COMM_NULL), chains of them, compare, names, free, and
 * inheritance of the error handler; bad input to compare, test_inter and the name calls. */
#include <string.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, r, s, cmp, len;
    MPI_Comm dup, half, rev, none, chain;
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Errhandler eh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
    CHECK(MPI_Comm_size(dup, &s) == MPI_SUCCESS && s == size);
    CHECK(MPI_Comm_rank(dup, &r) == MPI_SUCCESS && r == rank);
    CHECK(MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp) == MPI_SUCCESS && cmp == MPI_CONGRUENT);
    CHECK(MPI_Comm_compare(dup, dup, &cmp) == MPI_SUCCESS && cmp == MPI_IDENT);
    CHECK(MPI_Comm_get_errhandler(dup, &eh) == MPI_SUCCESS && eh == MPI_ERRORS_RETURN);
    CHECK(MPI_Comm_get_name(dup, name, &len) == MPI_SUCCESS && len == 0);
    CHECK(MPI_Comm_set_name(dup, "my dup") == MPI_SUCCESS);
    CHECK(MPI_Comm_get_name(dup, name, &len) == MPI_SUCCESS && !strcmp(name, "my dup"));
    CHECK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len) == MPI_SUCCESS &&
          !strcmp(name, "MPI_COMM_WORLD"));

    CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half) == MPI_SUCCESS);
    CHECK(MPI_Comm_size(half, &s) == MPI_SUCCESS && s == (size + 1 - rank % 2) / 2);
    CHECK(MPI_Comm_rank(half, &r) == MPI_SUCCESS && r == rank / 2);
    CHECK(MPI_Barrier(half) == MPI_SUCCESS);
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev) == MPI_SUCCESS);
    CHECK(MPI_Comm_rank(rev, &r) == MPI_SUCCESS && r == size - 1 - rank);
    CHECK(MPI_Comm_compare(rev, MPI_COMM_WORLD, &cmp) == MPI_SUCCESS &&
          cmp == (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR));
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &none) ==
          MPI_SUCCESS);
    CHECK((rank == 0) == (none != MPI_COMM_NULL));
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &none) == MPI_ERR_ARG || rank != 0);

    /* A chain: split of a dup of a split..., each used, then freed. */
    chain = MPI_COMM_WORLD;
    for (int i = 0; i < 20; i++) {
        MPI_Comm next;
        if (i % 2)
            CHECK(MPI_Comm_dup(chain, &next) == MPI_SUCCESS);
        else
            CHECK(MPI_Comm_split(chain, 0, -rank, &next) == MPI_SUCCESS);
        CHECK(MPI_Barrier(next) == MPI_SUCCESS);
        if (chain != MPI_COMM_WORLD)
            CHECK(MPI_Comm_free(&chain) == MPI_SUCCESS && chain == MPI_COMM_NULL);
        chain = next;
    }
    CHECK(MPI_Comm_size(chain, &s) == MPI_SUCCESS && s == size);
    CHECK(MPI_Comm_free(&chain) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS && dup == MPI_COMM_NULL);
    CHECK(MPI_Comm_free(&half) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&rev) == MPI_SUCCESS);
    if (none != MPI_COMM_NULL)
        CHECK(MPI_Comm_free(&none) == MPI_SUCCESS);
    MPI_Comm world = MPI_COMM_WORLD;
    CHECK(MPI_Comm_free(&world) == MPI_ERR_COMM);
    CHECK(MPI_Comm_size(dup, &s) == MPI_ERR_COMM);

    /* Bad input to compare, test_inter and the name calls: freed or null communicators, NULL
     * outputs, an over-long name (truncated, as MPICH and Open MPI do). */
    int flag;
    CHECK(MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp) == MPI_ERR_COMM);
    CHECK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &cmp) == MPI_ERR_COMM);
    CHECK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, NULL) == MPI_ERR_ARG);
    CHECK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &cmp) == MPI_SUCCESS &&
          cmp == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL));
    CHECK(MPI_Comm_test_inter(MPI_COMM_NULL, &flag) == MPI_ERR_COMM);
    CHECK(MPI_Comm_test_inter(MPI_COMM_WORLD, NULL) == MPI_ERR_ARG);
    CHECK(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag) == MPI_SUCCESS && !flag);
    CHECK(MPI_Comm_set_name(dup, "x") == MPI_ERR_COMM);
    CHECK(MPI_Comm_set_name(MPI_COMM_WORLD, NULL) == MPI_ERR_ARG);
    CHECK(MPI_Comm_get_name(MPI_COMM_NULL, name, &len) == MPI_SUCCESS && /* named too */
          !strcmp(name, "MPI_COMM_NULL"));
    CHECK(MPI_Comm_get_name(MPI_COMM_WORLD, NULL, &len) == MPI_ERR_ARG);
    CHECK(MPI_Comm_get_name(MPI_COMM_WORLD, name, NULL) == MPI_ERR_ARG);
    char longname[2 * MPI_MAX_OBJECT_NAME];
    memset(longname, 'n', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK(MPI_Comm_set_name(MPI_COMM_SELF, longname) == MPI_SUCCESS);
    CHECK(MPI_Comm_get_name(MPI_COMM_SELF, name, &len) == MPI_SUCCESS &&
          len == MPI_MAX_OBJECT_NAME - 1 && strlen(name) == (size_t)len);
    return mtest_finish();
}
