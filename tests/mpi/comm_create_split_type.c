/* comm_create_split_type.c: MPI_Comm_split_type (MPI-4.1 §7.4.2). Every rank shares one
 * node: MPI_COMM_TYPE_SHARED gives the whole parent ordered by key, MPI_UNDEFINED gives
 * MPI_COMM_NULL, HW_GUIDED with "mpi_shared_memory" is SHARED, HW_GUIDED with a resource we do
 * not have and HW_UNGUIDED (strict subsets only) give MPI_COMM_NULL; bad types and infos get
 * their classes. */
#include "mtest.h"

static int cls(int err)
{
    int c = err;
    MPI_Error_class(err, &c);
    return c;
}

int main(int argc, char **argv)
{
    int rank, size, r, s;
    MPI_Comm c, half;
    MPI_Info info;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Ordered by key, ties by parent rank. */
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, size - rank, MPI_INFO_NULL,
                              &c) == MPI_SUCCESS);
    CHECK(MPI_Comm_size(c, &s) == MPI_SUCCESS && s == size);
    CHECK(MPI_Comm_rank(c, &r) == MPI_SUCCESS && r == size - 1 - rank);
    CHECK(MPI_Barrier(c) == MPI_SUCCESS);
    MPI_Comm_free(&c);
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c) ==
          MPI_SUCCESS);
    CHECK(MPI_Comm_rank(c, &r) == MPI_SUCCESS && r == rank);
    MPI_Comm_free(&c);
    /* Some ranks opt out. */
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, 0,
                              MPI_INFO_NULL, &c) == MPI_SUCCESS);
    CHECK((c == MPI_COMM_NULL) == (rank % 2 == 1));
    if (c != MPI_COMM_NULL) {
        CHECK(MPI_Comm_size(c, &s) == MPI_SUCCESS && s == (size + 1) / 2);
        MPI_Comm_free(&c);
    }
    /* From a smaller parent: the parent's members only. */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    CHECK(MPI_Comm_split_type(half, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c) == MPI_SUCCESS);
    CHECK(MPI_Comm_size(c, &s) == MPI_SUCCESS && s == (rank % 2 ? size / 2 : (size + 1) / 2));
    MPI_Comm_free(&c);
    MPI_Comm_free(&half);

#ifdef MPI_COMM_TYPE_HW_GUIDED
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c) ==
          MPI_SUCCESS);
    CHECK(c != MPI_COMM_NULL && MPI_Comm_size(c, &s) == MPI_SUCCESS && s == size);
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    MPI_Info_set(info, "mpi_hw_resource_type", "no_such_resource");
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c) ==
          MPI_SUCCESS && c == MPI_COMM_NULL);
    MPI_Info_free(&info);
#endif
#if defined(MINI_MPI) && defined(MPI_COMM_TYPE_HW_UNGUIDED)
    /* Nothing below one shared-memory node here: no strict subset exists. */
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &c) ==
          MPI_SUCCESS && c == MPI_COMM_NULL);
#endif

    /* Bad input (the same at every rank). */
    CHECK(cls(MPI_Comm_split_type(MPI_COMM_NULL, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c)) ==
          MPI_ERR_COMM);
    CHECK(cls(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                                  NULL)) == MPI_ERR_ARG);
#ifdef MINI_MPI /* (MPICH accepts any split type) */
    CHECK(cls(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &c)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, (MPI_Info)77, &c)) ==
          MPI_ERR_INFO);
#endif
    return mtest_finish();
}
