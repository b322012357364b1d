/* spawn_nested.c: a child spawns a grandchild (MPI-4.1 §11.8.2: any MPI process may spawn).
 * The world spawns 2 children; the children, over their own MPI_COMM_WORLD, spawn 1
 * grandchild (root: child 1). A token goes world rank 0 -> child 0 -> grandchild, which adds
 * its generation and sends it back along the same path; the grandchild's parent group is the
 * children's world (its remote size is 2), and the MPI_COMM_WORLD of each generation is its
 * own. argv[1] names the generation. */
#include <string.h>

#include "mtest.h"

static int generation(int argc, char **argv)
{
    return argc > 1 ? atoi(argv[1]) : 0;
}

int main(int argc, char **argv)
{
    MPI_Comm parent, kids;
    int rank, size, rsize = -1, token = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_parent(&parent);
    int gen = generation(argc, argv);
    CHECK((gen == 0) == (parent == MPI_COMM_NULL));
    if (gen == 0) {
        char *args[] = {"1", NULL};
        CHECK(MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &kids,
                             MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
        if (rank == 0) {
            token = 100;
            CHECK(MPI_Send(&token, 1, MPI_INT, 0, 0, kids) == MPI_SUCCESS);
            CHECK(MPI_Recv(&token, 1, MPI_INT, 0, 0, kids, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            CHECK(token == 100 + 1 + 2); /* each generation added its number */
        }
        int errs = 0, sum = 0;
        CHECK(MPI_Reduce(&errs, &sum, 1, MPI_INT, MPI_SUM, rank == 0 ? MPI_ROOT : MPI_PROC_NULL,
                         kids) == MPI_SUCCESS);
        mtest_errors += sum;
        MPI_Comm_free(&kids);
        return mtest_finish();
    }
    MPI_Comm_remote_size(parent, &rsize);
    if (gen == 1) {
        CHECK(size == 2);
        char *args[] = {"2", NULL};
        CHECK(MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, 1, MPI_COMM_WORLD, &kids,
                             MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
        int ksize = -1;
        MPI_Comm_remote_size(kids, &ksize);
        CHECK(ksize == 1);
        if (rank == 0) {
            CHECK(MPI_Recv(&token, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            token += 1;
            CHECK(MPI_Send(&token, 1, MPI_INT, 0, 0, kids) == MPI_SUCCESS);
            CHECK(MPI_Recv(&token, 1, MPI_INT, 0, 0, kids, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            CHECK(MPI_Send(&token, 1, MPI_INT, 0, 0, parent) == MPI_SUCCESS);
        }
        int errs = 0, sum = 0; /* the grandchild's count, then ours to the world */
        CHECK(MPI_Reduce(&errs, &sum, 1, MPI_INT, MPI_SUM, rank == 0 ? MPI_ROOT : MPI_PROC_NULL,
                         kids) == MPI_SUCCESS);
        errs = mtest_errors + sum;
        CHECK(MPI_Reduce(&errs, NULL, 1, MPI_INT, MPI_SUM, 0, parent) == MPI_SUCCESS);
        MPI_Comm_free(&kids);
    } else {
        CHECK(gen == 2 && size == 1 && rsize == 2);
        CHECK(MPI_Recv(&token, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        token += 2;
        CHECK(MPI_Send(&token, 1, MPI_INT, 0, 0, parent) == MPI_SUCCESS);
        int errs = mtest_errors;
        CHECK(MPI_Reduce(&errs, NULL, 1, MPI_INT, MPI_SUM, 0, parent) == MPI_SUCCESS);
    }
    MPI_Comm_free(&parent);
    MPI_Finalize();
    return 0;
}
