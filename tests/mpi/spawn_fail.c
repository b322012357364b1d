/* spawn_fail.c: failures across a spawn intercommunicator (ULFM, Open MPI 5 semantics).
 * The world spawns 2 children (MPI_ERRORS_RETURN everywhere).
 * 1. Child 1 dies (raise(SIGKILL)): world rank 0's receive from it fails with
 *    MPI_ERR_PROC_FAILED, its receive from child 0 succeeds; after everyone acknowledges the
 *    failure, MPIX_Comm_agree over the intercommunicator gives the AND of the live flags;
 *    MPIX_Comm_shrink gives an intercommunicator with child 0 alone on its side, on which a
 *    broadcast works; a revoke by world rank 0 makes child 0's pending receive and the parents'
 *    barrier on it fail with MPI_ERR_REVOKED.
 * 2. With 2 or more parents, the last world rank dies after telling child 0 it will: child 0's
 *    receive from it on the intercommunicator fails with MPI_ERR_PROC_FAILED; the surviving
 *    parents' MPI_Comm_spawn over a duplicate of MPI_COMM_WORLD fails with
 *    MPI_ERR_PROC_FAILED, succeeds after MPIX_Comm_shrink, and fails with MPI_ERR_REVOKED once
 *    the shrunk communicator is revoked. */
#include <signal.h>
#include <string.h>

#include "mtest.h"

/* MPIX_Comm_agree of `mine`, once more after acknowledging the failure it reported. */
static int agree_acked(MPI_Comm comm, int mine)
{
    int flag = mine, rc = MPIX_Comm_agree(comm, &flag);
    if (rc != MPI_SUCCESS) {
        CHECK(rc == MPIX_ERR_PROC_FAILED);
        MPIX_Comm_failure_ack(comm);
        flag = mine;
        CHECK(MPIX_Comm_agree(comm, &flag) == MPI_SUCCESS);
    }
    return flag;
}

static int child(int argc, char **argv, MPI_Comm parent)
{
    int wrank, nparents, v = 0, flag, rc;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_remote_size(parent, &nparents);
    MPI_Comm_set_errhandler(parent, MPI_ERRORS_RETURN);
    if (argc > 1 && !strcmp(argv[1], "idle")) { /* spawned by the survivors of part 2 */
        MPI_Comm_free(&parent);
        MPI_Finalize();
        return 0;
    }
    if (wrank == 1)
        raise(SIGKILL);
    CHECK(MPI_Send(&wrank, 1, MPI_INT, 0, 1, parent) == MPI_SUCCESS);
    /* Part 1: agree, then shrink. */
    flag = agree_acked(parent, 0x6);
    CHECK(flag == 0x5); /* intercommunicator: the AND of the remote group (the parents) */
    MPI_Comm shrunk;
    int size = -1, rsize = -1;
    CHECK(MPIX_Comm_shrink(parent, &shrunk) == MPI_SUCCESS);
    MPI_Comm_size(shrunk, &size);
    MPI_Comm_remote_size(shrunk, &rsize);
    CHECK(size == 1 && rsize == nparents);
    MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
    CHECK(MPI_Bcast(&v, 1, MPI_INT, 0, shrunk) == MPI_SUCCESS && v == 77);
    CHECK(MPI_Recv(&v, 1, MPI_INT, 0, 2, shrunk, MPI_STATUS_IGNORE) == MPIX_ERR_REVOKED);
    MPI_Comm_free(&shrunk);
    /* Part 2: the last parent says it will die, then does. */
    if (nparents > 1) {
        CHECK(MPI_Recv(&v, 1, MPI_INT, nparents - 1, 3, parent, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        rc = MPI_Recv(&v, 1, MPI_INT, nparents - 1, 4, parent, MPI_STATUS_IGNORE);
        CHECK(rc == MPIX_ERR_PROC_FAILED);
    }
    int errs = mtest_errors;
    CHECK(MPI_Send(&errs, 1, MPI_INT, 0, 5, parent) == MPI_SUCCESS);
    MPI_Comm_free(&parent);
    MPI_Finalize();
    return 0;
}

static void part2(int rank, int size, char *self, MPI_Comm inter)
{
    MPI_Comm dup, shrunk, more;
    int rc, v = 0;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    if (rank == size - 1) {
        CHECK(MPI_Send(&v, 1, MPI_INT, 0, 3, inter) == MPI_SUCCESS);
        raise(SIGKILL);
    }
    char *idle[] = {"idle", NULL};
    rc = MPI_Comm_spawn(self, idle, 1, MPI_INFO_NULL, 0, dup, &more, MPI_ERRCODES_IGNORE);
    CHECK(rc == MPIX_ERR_PROC_FAILED && more == MPI_COMM_NULL);
    CHECK(MPIX_Comm_shrink(dup, &shrunk) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
    int codes[1] = {-1};
    CHECK(MPI_Comm_spawn(self, idle, 1, MPI_INFO_NULL, 0, shrunk, &more, codes) == MPI_SUCCESS &&
          codes[0] == MPI_SUCCESS);
    MPI_Comm_free(&more);
    CHECK(MPIX_Comm_revoke(shrunk) == MPI_SUCCESS);
    rc = MPI_Comm_spawn(self, idle, 1, MPI_INFO_NULL, 0, shrunk, &more, MPI_ERRCODES_IGNORE);
    CHECK(rc == MPIX_ERR_REVOKED && more == MPI_COMM_NULL);
    MPI_Comm_free(&shrunk);
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    MPI_Comm parent, inter, shrunk;
    int rank, size, v = -1, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL)
        return child(argc, argv, parent);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                         MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    if (rank == 0) {
        CHECK(MPI_Recv(&v, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE) == MPI_SUCCESS && v == 0);
        CHECK(MPI_Recv(&v, 1, MPI_INT, 1, 1, inter, MPI_STATUS_IGNORE) == MPIX_ERR_PROC_FAILED);
    }
    flag = agree_acked(inter, 0x5);
    CHECK(flag == 0x6); /* the remote group: child 0 alone */
    int lsize = -1, rsize = -1;
    CHECK(MPIX_Comm_shrink(inter, &shrunk) == MPI_SUCCESS);
    MPI_Comm_size(shrunk, &lsize);
    MPI_Comm_remote_size(shrunk, &rsize);
    CHECK(lsize == size && rsize == 1);
    MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
    v = 77;
    CHECK(MPI_Bcast(&v, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, shrunk) == MPI_SUCCESS);
    if (rank == 0)
        CHECK(MPIX_Comm_revoke(shrunk) == MPI_SUCCESS);
    CHECK(MPI_Barrier(shrunk) == MPIX_ERR_REVOKED);
    MPI_Comm_free(&shrunk);

    if (size > 1)
        part2(rank, size, argv[0], inter);
    if (rank == 0) {
        CHECK(MPI_Recv(&v, 1, MPI_INT, 0, 5, inter, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        mtest_errors += v;
    }
    MPI_Comm_free(&inter);
    return mtest_finish();
}
