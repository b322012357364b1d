/*
 * p2p_chan_fail.c: blocking receives that wait on a sender's channel (mini_mpi's small-message
 * path) and that sender's death (raise(SIGKILL)). Rank 1 sends two small messages to rank 0
 * and dies: rank 0, receiving later, still gets both (they were sent before the death), then a
 * third receive from rank 1 fails with MPI_ERR_PROC_FAILED. Rank 2 waits in a blocking receive
 * from rank 1 that never comes: MPI_ERR_PROC_FAILED in finite time. A revoked communicator
 * ends a blocking receive waiting on a live peer (rank 0 on rank 2) with MPI_ERR_REVOKED.
 */
#include <signal.h>
#include <unistd.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, v = -1;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size < 3) {
        printf("p2p_chan_fail: needs 3 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    /* One message each way first, so the channels exist. */
    if (rank == 1) {
        CHECK(MPI_Send(&rank, 1, MPI_INT, 0, 1, MPI_COMM_WORLD) == MPI_SUCCESS);
        CHECK(MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    } else if (rank == 0) {
        CHECK(MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(MPI_Send(&rank, 1, MPI_INT, 1, 1, MPI_COMM_WORLD) == MPI_SUCCESS);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        int a = 10, b = 11;
        CHECK(MPI_Send(&a, 1, MPI_INT, 0, 2, MPI_COMM_WORLD) == MPI_SUCCESS);
        CHECK(MPI_Send(&b, 1, MPI_INT, 0, 2, MPI_COMM_WORLD) == MPI_SUCCESS);
        raise(SIGKILL);
    }
    if (rank == 0) {
        usleep(20000);
        CHECK(MPI_Recv(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(v == 10);
        CHECK(MPI_Recv(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(v == 11);
        CHECK(MPI_Recv(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
              MPI_ERR_PROC_FAILED);
    } else if (rank == 2) {
        CHECK(MPI_Recv(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
              MPI_ERR_PROC_FAILED);
    }
    /* Revocation: rank 0 waits on rank 2, which revokes instead of sending. */
    if (rank == 0) {
        CHECK(MPI_Recv(&v, 1, MPI_INT, 2, 4, dup, MPI_STATUS_IGNORE) == MPI_ERR_REVOKED);
    } else if (rank == 2) {
        usleep(10000);
        CHECK(MPIX_Comm_revoke(dup) == MPI_SUCCESS);
    }
    MPI_Comm_free(&dup);
    return mtest_finish();
}
