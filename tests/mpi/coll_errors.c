/* coll_errors.c: bad arguments to collectives give the right error class through the
 * communicator's error handler: root out of range (MPI_ERR_ROOT), invalid communicator
 * (MPI_ERR_COMM), negative count (MPI_ERR_COUNT), null or uncommitted datatype (MPI_ERR_TYPE),
 * invalid op and op/type pair (MPI_ERR_OP), MPI_IN_PLACE or NULL where not allowed and aliased
 * buffers (MPI_ERR_BUFFER), missing arrays or request (MPI_ERR_ARG), a revoked communicator
 * (MPI_ERR_REVOKED), for blocking and nonblocking forms. A user handler sees the code. Every
 * error here is raised at every member, so the collective sequence stays aligned; a final
 * Allreduce checks it. */
#include "mtest.h"

static int handler_calls, handler_code;

static void handler(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
}

int main(int argc, char **argv)
{
    int rank, size, buf[64] = {0}, out[64] = {0}, counts[1024], displs[1024];
    MPI_Request req;
    MPI_Datatype uncommitted;
    MPI_Comm dup, self = MPI_COMM_SELF;
    MPI_Errhandler eh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    for (int i = 0; i < 1024; i++)
        counts[i] = 1, displs[i] = i % 64;

    /* Roots. */
    CHECK(MPI_Bcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD) == MPI_ERR_ROOT);
    CHECK(MPI_Bcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD) == MPI_ERR_ROOT);
    CHECK(MPI_Ibcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD, &req) == MPI_ERR_ROOT);
    CHECK(MPI_Gather(buf, 1, MPI_INT, out, 1, MPI_INT, size, MPI_COMM_WORLD) == MPI_ERR_ROOT);
    CHECK(MPI_Scatterv(buf, counts, displs, MPI_INT, out, 1, MPI_INT, -2, MPI_COMM_WORLD) ==
          MPI_ERR_ROOT);
    CHECK(MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, size + 3, MPI_COMM_WORLD) == MPI_ERR_ROOT);
    CHECK(MPI_Ireduce(buf, out, 1, MPI_INT, MPI_SUM, MPI_ROOT, MPI_COMM_WORLD, &req) ==
          MPI_ERR_ROOT);

    /* Communicators. */
    CHECK(MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_NULL) == MPI_ERR_COMM);
    CHECK(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_SUM, 12345) == MPI_ERR_COMM);
    CHECK(MPI_Ialltoall(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_NULL, &req) ==
          MPI_ERR_COMM);

    /* Counts and types. */
    CHECK(MPI_Bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_ERR_COUNT);
    CHECK(MPI_Allreduce(buf, out, -4, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_COUNT);
    CHECK(MPI_Allgather(buf, -1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD) == MPI_ERR_COUNT);
    CHECK(MPI_Reduce_scatter_block(buf, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) ==
          MPI_ERR_COUNT);
    for (int i = 0; i < size; i++)
        counts[i] = -1;
    CHECK(MPI_Reduce_scatter(buf, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD) ==
          MPI_ERR_COUNT);
    CHECK(MPI_Allgatherv(buf, 1, MPI_INT, out, counts, displs, MPI_INT, MPI_COMM_WORLD) ==
          MPI_ERR_COUNT);
    for (int i = 0; i < 1024; i++)
        counts[i] = 1;
    CHECK(MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD) == MPI_ERR_TYPE);
    CHECK(MPI_Bcast(buf, 1, uncommitted, 0, MPI_COMM_WORLD) == MPI_ERR_TYPE);
    CHECK(MPI_Allreduce(buf, out, 1, uncommitted, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_TYPE);
    CHECK(MPI_Alltoall(buf, 1, MPI_INT, out, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD) ==
          MPI_ERR_TYPE);

    /* Ops. */
    CHECK(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD) == MPI_ERR_OP);
    CHECK(MPI_Reduce(buf, out, 1, MPI_FLOAT, MPI_BXOR, 0, MPI_COMM_WORLD) == MPI_ERR_OP);
    CHECK(MPI_Iscan(buf, out, 1, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD, &req) == MPI_ERR_OP);
    CHECK(MPI_Exscan(buf, out, 1, MPI_C_BOOL, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_OP);
    CHECK(MPI_Allreduce(buf, out, 1, MPI_INT, (MPI_Op)0x7777, MPI_COMM_WORLD) == MPI_ERR_OP);

    /* Buffers: MPI_IN_PLACE where not allowed, NULL with data, aliasing. */
    CHECK(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_ERR_BUFFER);
    CHECK(MPI_Bcast(NULL, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_ERR_BUFFER);
    CHECK(MPI_Allreduce(NULL, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_BUFFER);
    CHECK(MPI_Allreduce(buf, buf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_BUFFER);
    CHECK(MPI_Allreduce(buf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) ==
          MPI_ERR_BUFFER);
    CHECK(MPI_Alltoall(buf, 1, MPI_INT, buf, 1, MPI_INT, MPI_COMM_WORLD) == MPI_ERR_BUFFER);
    /* Each member's send buffer is its own block of the receive buffer (MPICH's noalias2):
     * every member finds the aliasing in its own arguments. */
    CHECK(MPI_Allgather(&buf[rank], 1, MPI_INT, buf, 1, MPI_INT, MPI_COMM_WORLD) ==
          MPI_ERR_BUFFER);
    CHECK(MPI_Iallgather(&buf[rank], 1, MPI_INT, buf, 1, MPI_INT, MPI_COMM_WORLD, &req) ==
          MPI_ERR_BUFFER);
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = size - 1 - i;
    }
    CHECK(MPI_Allgatherv(&buf[size - 1 - rank], 1, MPI_INT, buf, counts, displs, MPI_INT,
                         MPI_COMM_WORLD) == MPI_ERR_BUFFER);
    CHECK(MPI_Gatherv(&buf[3], 1, MPI_INT, buf, counts, (int[]){3}, MPI_INT, 0, self) ==
          MPI_ERR_BUFFER);
    CHECK(MPI_Scatterv(buf, counts, (int[]){3}, MPI_INT, &buf[3], 1, MPI_INT, 0, self) ==
          MPI_ERR_BUFFER);
    /* Root-only rules on a one-member communicator, where the member is the root. */
    CHECK(MPI_Gather(buf, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, self) == MPI_ERR_BUFFER);
    CHECK(MPI_Scatter(MPI_IN_PLACE, 1, MPI_INT, out, 1, MPI_INT, 0, self) == MPI_ERR_BUFFER);
    CHECK(MPI_Reduce(buf, NULL, 1, MPI_INT, MPI_SUM, 0, self) == MPI_ERR_BUFFER);
    CHECK(MPI_Gather(buf, 1, MPI_INT, buf, 1, MPI_INT, 0, self) == MPI_ERR_BUFFER);
    /* ...and legal forms there. */
    CHECK(MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, out, 1, MPI_INT, 0, self) == MPI_SUCCESS);
    CHECK(MPI_Reduce(MPI_IN_PLACE, out, 1, MPI_INT, MPI_SUM, 0, self) == MPI_SUCCESS);

    /* Missing arrays and requests. */
    CHECK(MPI_Gatherv(buf, 1, MPI_INT, out, NULL, displs, MPI_INT, 0, self) == MPI_ERR_ARG);
    CHECK(MPI_Alltoallv(buf, counts, NULL, MPI_INT, out, counts, displs, MPI_INT,
                        MPI_COMM_WORLD) == MPI_ERR_ARG);
    CHECK(MPI_Alltoallw(buf, counts, displs, NULL, out, counts, displs, NULL, MPI_COMM_WORLD) ==
          MPI_ERR_ARG);
    CHECK(MPI_Reduce_scatter(buf, out, NULL, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_ARG);
    CHECK(MPI_Ibcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD, NULL) == MPI_ERR_ARG);
    CHECK(MPI_Iallreduce(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, NULL) == MPI_ERR_ARG);

    /* A user handler on a dup sees the code, and the call returns what the handler left. */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(dup, eh);
    CHECK(MPI_Bcast(buf, 1, MPI_INT, -5, dup) == MPI_ERR_ROOT);
    CHECK(handler_calls == 1 && handler_code == MPI_ERR_ROOT);
    CHECK(MPI_Allreduce(buf, out, 1, MPI_DOUBLE_INT, MPI_PROD, dup) == MPI_ERR_OP);
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_OP);
    MPI_Errhandler_free(&eh);

    /* Revoked: every collective fails at once, blocking or not. */
    CHECK(MPI_Barrier(dup) == MPI_SUCCESS);
    if (rank == 0)
        CHECK(MPIX_Comm_revoke(dup) == MPI_SUCCESS);
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_SUM, dup) == MPI_ERR_REVOKED);
    CHECK(MPI_Ibcast(buf, 1, MPI_INT, 0, dup, &req) == MPI_ERR_REVOKED);
    CHECK(MPI_Alltoall(buf, 1, MPI_INT, out, 1, MPI_INT, dup) == MPI_ERR_REVOKED);
    CHECK(handler_calls == 5 && handler_code == MPI_ERR_REVOKED);
    MPI_Comm_free(&dup);

    /* The sequence is intact. */
    buf[0] = rank;
    CHECK(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(out[0] == size * (size - 1) / 2);
    MPI_Type_free(&uncommitted);
    return mtest_finish();
}
