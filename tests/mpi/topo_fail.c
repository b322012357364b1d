/* topo_fail.c: neighbourhood collectives and process failure (chapter "Process Fault
 * Tolerance"). Run with MINI_MPI_FAULTS="kill 1 at MPI_Neighbor_allgather": rank 1 dies on
 * entering its first MPI_Neighbor_allgather on a periodic ring, and every survivor's call
 * returns MPI_ERR_PROC_FAILED (under MPI_ERRORS_RETURN) instead of hanging, neighbour of rank
 * 1 or not; so do later blocking and nonblocking neighbourhood collectives on the ring and on
 * its dup. Then the last rank starts an MPI_Ineighbor_alltoall and dies right after
 * (raise(SIGKILL)): the survivors' waits complete, with the right data when they succeed
 * (its neighbours may fail instead: its stack buffer dies with it). After MPIX_Comm_shrink the survivors build a new ring and
 * its collectives work. Without the fault spec, the first part checks success instead. */
#include <signal.h>
#include <stdlib.h>

#include "mtest.h"

static int ring_check(MPI_Comm ring, int expect)
{
    int rank, size, left, right, sb = 0, rb[2] = {-1, -1};
    MPI_Comm_rank(ring, &rank);
    MPI_Comm_size(ring, &size);
    MPI_Cart_shift(ring, 0, 1, &left, &right);
    sb = rank;
    int err = MPI_Neighbor_allgather(&sb, 1, MPI_INT, rb, 1, MPI_INT, ring);
    CHECK(err == expect);
    if (err == MPI_SUCCESS)
        CHECK(rb[0] == left && rb[1] == right);
    return err;
}

int main(int argc, char **argv)
{
    int rank, size, err, flag, sb[2], rb[2];
    MPI_Comm ring, dup, shrunk, ring2;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const char *faults = getenv("MINI_MPI_FAULTS");
    int killed = faults && size > 1; /* rank 1 dies in the first allgather */
    int dims[1] = {size}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    MPI_Comm_dup(ring, &dup);

    int expect = killed ? MPI_ERR_PROC_FAILED : MPI_SUCCESS;
    ring_check(ring, expect);
    CHECK(rank != 1 || !killed); /* never reached by the victim */
    ring_check(ring, expect);
    sb[0] = sb[1] = rank;
    CHECK(MPI_Ineighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, dup, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == expect);
    CHECK(MPI_Neighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, dup) == expect);

    /* The survivors carry on without the victims. */
    if (killed) {
        CHECK(MPIX_Comm_shrink(ring, &shrunk) == MPI_SUCCESS);
    } else {
        MPI_Comm_dup(MPI_COMM_WORLD, &shrunk);
    }
    MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
    int n, me;
    MPI_Comm_size(shrunk, &n);
    MPI_Comm_rank(shrunk, &me);
    CHECK(n == size - killed);
    dims[0] = n;
    CHECK(MPI_Cart_create(shrunk, 1, dims, periods, 0, &ring2) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(ring2, MPI_ERRORS_RETURN);
    ring_check(ring2, MPI_SUCCESS);

    /* The last rank of the new ring arrives, then dies (if there is someone left to see). */
    int victim = n - 1;
    if (n >= 2) {
        sb[0] = 10 * me;
        sb[1] = 10 * me + 1;
        rb[0] = rb[1] = -1;
        CHECK(MPI_Ineighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, ring2, &req) ==
              MPI_SUCCESS);
        if (me == victim)
            raise(SIGKILL);
        err = MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(err == MPI_SUCCESS || err == MPI_ERR_PROC_FAILED);
        if (err == MPI_SUCCESS) {
            int left = (me + n - 1) % n, right = (me + 1) % n;
            CHECK(rb[0] == 10 * left + 1 && rb[1] == 10 * right);
        }
        /* A neighbour of the victim may have read its buffer after it died: it must not
         * report success then (the data would be garbage). */
        flag = err == MPI_SUCCESS;
        CHECK(MPIX_Comm_agree(ring2, &flag) != MPI_ERR_REVOKED);
        ring_check(ring2, MPI_ERR_PROC_FAILED);
    }
    MPI_Comm_free(&ring2);
    MPI_Comm_free(&shrunk);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&ring);
    return mtest_finish();
}
