/* comm_create_fail.c: the communicator constructors and process failure (chapter "Process
 * Fault Tolerance"; docs/design.md "The fault layer"). Rank 2 is killed on entering the call named
 * by the argument
 * (the testlist sets MINI_MPI_FAULTS=kill 2 at MPI_<call>); every survivor involved gets
 * MPI_ERR_PROC_FAILED under MPI_ERRORS_RETURN, nobody hangs, and afterwards the survivors
 * shrink and work on. Argument "revoke": no death; the parent is revoked and every
 * constructor reports MPI_ERR_REVOKED. Needs at least 4 ranks. */
#include <string.h>

#include "mtest.h"

static int cls(int err)
{
    int c = err;
    MPI_Error_class(err, &c);
    return c;
}

static void survivors_go_on(void)
{
    MPI_Comm shrunk;
    int one = 1, sum = 0, size;
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk) == MPI_SUCCESS);
    MPI_Comm_size(shrunk, &size);
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, shrunk) == MPI_SUCCESS && sum == size);
    MPI_Comm_free(&shrunk);
}

int main(int argc, char **argv)
{
    int rank, size, err;
    const char *what = argc > 1 ? argv[1] : "create";
    MPI_Comm c = MPI_COMM_WORLD, dup;
    MPI_Group world, g012, g013;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 3, (int[]){0, 1, 2}, &g012);
    MPI_Group_incl(world, 3, (int[]){0, 1, 3}, &g013);
    CHECK(size >= 4);

    if (!strcmp(what, "revoke")) {
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        if (rank == 0)
            MPIX_Comm_revoke(dup);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(cls(MPI_Comm_create(dup, world, &c)) == MPI_ERR_REVOKED && c == MPI_COMM_NULL);
        CHECK(cls(MPI_Comm_dup(dup, &c)) == MPI_ERR_REVOKED);
        CHECK(cls(MPI_Comm_split_type(dup, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c)) ==
              MPI_ERR_REVOKED);
        if (rank != 3)
            CHECK(cls(MPI_Comm_create_group(dup, g012, 0, &c)) == MPI_ERR_REVOKED);
        err = MPI_Comm_idup(dup, &c, &req);
        if (err == MPI_SUCCESS)
            err = MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(cls(err) == MPI_ERR_REVOKED && c == MPI_COMM_NULL);
        CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS); /* freeing a revoked one is fine */
        survivors_go_on();
    } else if (!strcmp(what, "create")) {
        err = MPI_Comm_create(MPI_COMM_WORLD, g013, &c); /* rank 2 dies in here */
        CHECK(cls(err) == MPI_ERR_PROC_FAILED && c == MPI_COMM_NULL);
        survivors_go_on();
    } else if (!strcmp(what, "create_group")) {
        err = MPI_Comm_create_group(MPI_COMM_WORLD, g012, 4, &c);
        if (rank <= 2) /* outside the group: MPI_COMM_NULL at once */
            CHECK(cls(err) == MPI_ERR_PROC_FAILED && c == MPI_COMM_NULL);
        else
            CHECK(err == MPI_SUCCESS && c == MPI_COMM_NULL);
        /* A group without the dead rank still works. */
        if (rank != 2 && rank < 4) {
            CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, g013, 4, &c) == MPI_SUCCESS);
            CHECK(MPI_Barrier(c) == MPI_SUCCESS);
            MPI_Comm_free(&c);
        }
        survivors_go_on();
    } else if (!strcmp(what, "split_type")) {
        err = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
        CHECK(cls(err) == MPI_ERR_PROC_FAILED && c == MPI_COMM_NULL);
        survivors_go_on();
    } else if (!strcmp(what, "dup_with_info")) {
        err = MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &c);
        CHECK(cls(err) == MPI_ERR_PROC_FAILED && c == MPI_COMM_NULL);
        survivors_go_on();
    } else if (!strcmp(what, "idup")) {
        CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req) == MPI_SUCCESS);
        err = MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(cls(err) == MPI_ERR_PROC_FAILED && c == MPI_COMM_NULL);
        survivors_go_on();
    } else if (!strcmp(what, "disconnect")) {
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
        err = MPI_Comm_disconnect(&dup);
        CHECK(cls(err) == MPI_ERR_PROC_FAILED && dup == MPI_COMM_NULL);
        survivors_go_on();
    } else {
        CHECK(!"unknown argument");
    }
    MPI_Group_free(&g012);
    MPI_Group_free(&g013);
    MPI_Group_free(&world);
    return mtest_finish();
}
