/*
 * ulfm_basic.c: the ULFM recovery cycle on MPI_COMM_WORLD after rank 1 dies (raise(SIGKILL)):
 * a barrier reports MPI_ERR_PROC_FAILED at every survivor; a send to a live rank still works;
 * revoke makes pending and later operations fail with MPI_ERR_REVOKED; agree raises
 * MPI_ERR_PROC_FAILED uniformly until the failure is acknowledged, with a correct flag either
 * way; shrink gives a working communicator of the survivors in their old order.
 */
#include <signal.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, flag, err, r, s, v = 0;
    MPI_Comm shrunk;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        raise(SIGKILL);

    /* The death happened before the call: every survivor raises. */
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_ERR_PROC_FAILED);
    /* Point-to-point between live ranks is unaffected. */
    if (rank == 0 && size > 2)
        CHECK(MPI_Send(&rank, 1, MPI_INT, 2, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    if (rank == 2)
        CHECK(MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    /* With the failure, a receive from it fails, and a nonblocking ANY_SOURCE one is pending. */
    CHECK(MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
          MPI_ERR_PROC_FAILED);
    CHECK(MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_ERR_PROC_FAILED_PENDING);
    CHECK(req != MPI_REQUEST_NULL);
    CHECK(MPI_Cancel(&req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS); /* cancelled */

    /* Agreement: unacknowledged failure -> MPI_ERR_PROC_FAILED everywhere, flag still right. */
    flag = rank == 0 ? 0x6 : 0x7;
    err = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    CHECK(err == MPI_ERR_PROC_FAILED);
    CHECK(flag == 0x6);
    CHECK(MPIX_Comm_failure_ack(MPI_COMM_WORLD) == MPI_SUCCESS);
    flag = 1;
    CHECK(MPIX_Comm_agree(MPI_COMM_WORLD, &flag) == MPI_SUCCESS && flag == 1);

    /* Revoke from rank 0 only: everyone's later operations fail with MPI_ERR_REVOKED. */
    if (rank == 0)
        CHECK(MPIX_Comm_revoke(MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
          MPI_ERR_REVOKED);
    CHECK(MPIX_Comm_is_revoked(MPI_COMM_WORLD, &flag) == MPI_SUCCESS && flag);
    CHECK(MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD) == MPI_ERR_REVOKED);
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_ERR_REVOKED);
    /* Agreement and shrink still work on a revoked communicator. */
    flag = 1;
    CHECK(MPIX_Comm_agree(MPI_COMM_WORLD, &flag) == MPI_SUCCESS);
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk) == MPI_SUCCESS);
    CHECK(MPI_Comm_size(shrunk, &s) == MPI_SUCCESS && s == size - 1);
    CHECK(MPI_Comm_rank(shrunk, &r) == MPI_SUCCESS && r == (rank < 1 ? rank : rank - 1));
    CHECK(MPI_Barrier(shrunk) == MPI_SUCCESS);
    CHECK(MPIX_Comm_is_revoked(shrunk, &flag) == MPI_SUCCESS && !flag);
    /* Iagree: completes once all survivors joined. */
    flag = 3;
    CHECK(MPIX_Comm_iagree(shrunk, &flag, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag == 3);
    CHECK(MPI_Comm_free(&shrunk) == MPI_SUCCESS);

    /* Bad input: each call names its error class. */
    MPI_Group g;
    int n;
    CHECK(MPIX_Comm_revoke(MPI_COMM_NULL) == MPI_ERR_COMM);
    CHECK(MPIX_Comm_is_revoked(MPI_COMM_NULL, &flag) == MPI_ERR_COMM);
    CHECK(MPIX_Comm_agree(MPI_COMM_NULL, &flag) == MPI_ERR_COMM);
    CHECK(MPIX_Comm_agree(MPI_COMM_SELF, NULL) == MPI_ERR_ARG);
    CHECK(MPIX_Comm_iagree(MPI_COMM_SELF, &flag, NULL) == MPI_ERR_ARG);
    CHECK(MPIX_Comm_shrink(MPI_COMM_NULL, &shrunk) == MPI_ERR_COMM);
    CHECK(MPIX_Comm_shrink(MPI_COMM_SELF, NULL) == MPI_ERR_ARG);
    CHECK(MPIX_Comm_ishrink(MPI_COMM_SELF, &shrunk, NULL) == MPI_ERR_ARG);
    CHECK(MPIX_Comm_failure_ack(MPI_COMM_NULL) == MPI_ERR_COMM);
    CHECK(MPIX_Comm_failure_get_acked(MPI_COMM_SELF, NULL) == MPI_ERR_ARG);
    CHECK(MPIX_Comm_get_failed(MPI_COMM_NULL, &g) == MPI_ERR_COMM);
    CHECK(MPIX_Comm_ack_failed(MPI_COMM_SELF, -1, &n) == MPI_ERR_ARG);
    /* get_failed and ack_failed on the world: rank 1 is the one failure. */
    CHECK(MPIX_Comm_get_failed(MPI_COMM_WORLD, &g) == MPI_SUCCESS);
    CHECK(MPI_Group_size(g, &n) == MPI_SUCCESS && n == 1);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
    CHECK(MPIX_Comm_ack_failed(MPI_COMM_WORLD, 1, &n) == MPI_SUCCESS && n == 1);
    /* The chapter's MPI_ names reach the same calls. */
    CHECK(MPI_Comm_is_revoked(MPI_COMM_WORLD, &flag) == MPI_SUCCESS && flag);
    return mtest_finish();
}
