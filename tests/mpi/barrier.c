/* barrier.c: MPI_Barrier and MPI_Ibarrier complete, in order, mixed with each other (Wait and
 * Test), on MPI_COMM_WORLD and MPI_COMM_SELF; an invalid communicator gives MPI_ERR_COMM. */
#include "mtest.h"

int main(int argc, char **argv)
{
    MPI_Request req;
    int flag;
    MPI_Init(&argc, &argv);
    for (int i = 0; i < 1000; i++)
        CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; i < 100; i++) {
        CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &req) == MPI_SUCCESS);
        if (i % 2)
            CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        else
            do
                CHECK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            while (!flag);
        CHECK(req == MPI_REQUEST_NULL);
        CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
    }
    CHECK(MPI_Barrier(MPI_COMM_SELF) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Barrier(MPI_COMM_NULL) == MPI_ERR_COMM);
    return mtest_finish();
}
