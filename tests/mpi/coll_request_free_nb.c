/*
 * coll_request_free_nb.c: MPI_Request_free on the request of a nonblocking collective, or of an
 * active persistent collective, is erroneous (MPI-4.1 §6.12, §6.13): MPI_ERR_REQUEST through
 * the communicator-less error handler (MPI_COMM_SELF's, as for every request call), the handle
 * left as it was and the operation still completing normally afterwards. Open MPI answers
 * MPI_ERR_REQUEST too; MPICH 4.0 answers MPI_ERR_OTHER. An inactive persistent request and a
 * completed point-to-point one may be freed.
 */
#include "mtest.h"

static void expect_request_error(MPI_Request *req)
{
    MPI_Request before = *req;
    int err = MPI_Request_free(req), cls = -1;
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_REQUEST);
    CHECK(*req == before);
}

int main(int argc, char **argv)
{
    int rank, size, v, sum;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    for (int round = 0; round < 3; round++) {
        v = rank + round;
        sum = -1;
        CHECK(MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req) ==
              MPI_SUCCESS);
        expect_request_error(&req);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(sum == size * round + size * (size - 1) / 2 && req == MPI_REQUEST_NULL);

        CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &req) == MPI_SUCCESS);
        CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS); /* the Ibarrier is done inside */
        expect_request_error(&req); /* completed but not yet waited: still erroneous */
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    }

    /* Persistent: active -> error, inactive -> freed. */
    CHECK(MPI_Allreduce_init(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &req) == MPI_SUCCESS);
    CHECK(MPI_Start(&req) == MPI_SUCCESS);
    expect_request_error(&req);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS && req == MPI_REQUEST_NULL);

    /* A point-to-point request may be freed while active. */
    CHECK(MPI_Isend(&v, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS && req == MPI_REQUEST_NULL);
    CHECK(MPI_Recv(&sum, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
          MPI_SUCCESS);
    return mtest_finish();
}
