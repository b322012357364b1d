/*
 * ulfm_revoke_nonblocking.c: a nonblocking send or receive started on a revoked communicator
 * reports MPI_ERR_REVOKED at completion, never at initiation: the call returns MPI_SUCCESS and a
 * valid request (ulfm-testing's api/revoke.c waits on such requests; Open MPI behaves so). Bad
 * arguments are still raised at once. Blocking calls keep failing at once.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, err, v = 0, cls, flag;
    MPI_Comm dup;
    MPI_Request req[4];
    MPI_Status st[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    if (rank == 0)
        CHECK(MPIX_Comm_revoke(dup) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD); /* everyone now sees the revocation */

    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    req[0] = req[1] = req[2] = req[3] = MPI_REQUEST_NULL;
    CHECK(MPI_Isend(&v, 1, MPI_INT, next, 0, dup, &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Irecv(&v, 1, MPI_INT, prev, 0, dup, &req[1]) == MPI_SUCCESS);
    CHECK(MPI_Issend(&v, 1, MPI_INT, MPI_PROC_NULL, 0, dup, &req[2]) == MPI_SUCCESS);
    CHECK(MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &req[3]) == MPI_SUCCESS);
    CHECK(req[0] != MPI_REQUEST_NULL && req[1] != MPI_REQUEST_NULL);
    CHECK(MPI_Wait(&req[0], &st[0]) == MPI_ERR_REVOKED);
    CHECK(req[0] == MPI_REQUEST_NULL);
    flag = 0;
    CHECK(MPI_Test(&req[1], &flag, MPI_STATUS_IGNORE) == MPI_ERR_REVOKED && flag);
    CHECK(MPI_Waitall(2, &req[2], &st[2]) == MPI_ERR_IN_STATUS);
    CHECK(st[2].MPI_ERROR == MPI_ERR_REVOKED && st[3].MPI_ERROR == MPI_ERR_REVOKED);

    /* Bad arguments are still errors of the call itself. */
    err = MPI_Isend(&v, 1, MPI_INT, size, 0, dup, &req[0]);
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_RANK);
    err = MPI_Irecv(&v, 1, MPI_INT, 0, -5, dup, &req[0]);
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_TAG);
    err = MPI_Irecv(&v, 1, MPI_INT, 0, 0, dup, NULL);
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_ARG);
    /* Blocking calls fail at once. */
    CHECK(MPI_Send(&v, 1, MPI_INT, next, 0, dup) == MPI_ERR_REVOKED);
    CHECK(MPI_Recv(&v, 1, MPI_INT, prev, 0, dup, MPI_STATUS_IGNORE) == MPI_ERR_REVOKED);

    MPI_Comm_free(&dup);
    return mtest_finish();
}
