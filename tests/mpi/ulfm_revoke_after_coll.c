/*
 * ulfm_revoke_after_coll.c: a collective that completed (every member arrived, the result was
 * computed) before a revoke gives its result to every member, also to one that collects it
 * only after the revoke. Here rank 0 collects its MPI_Iallreduce after the others returned from
 * theirs and one revoked: it must get the sum, not MPI_ERR_REVOKED. Otherwise a member merely
 * descheduled at that moment would get MPI_ERR_REVOKED, and a loop of collectives with a
 * revoke-and-shrink error handler (MPICH's ft/revoke_shrink.c) would end out of step and hang.
 * Later operations on the revoked communicator still fail.
 */
#include <stdlib.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, v = 1, sum = 0, i;
    MPI_Comm dup;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < 3; i++) { /* a blocking round, a nonblocking one, a bigger one */
        int n = i == 2 ? 1000 : 1;
        int *in = malloc(sizeof(int) * n), *out = calloc(n, sizeof(int));
        for (int k = 0; k < n; k++)
            in[k] = k + rank;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
        /* Nonblocking everywhere: a blocking collective never matches a nonblocking one
         * (MPI-4.1 §6.12); the others complete theirs at once. */
        CHECK(MPI_Iallreduce(in, out, n, MPI_INT, MPI_SUM, dup, &req) == MPI_SUCCESS);
        if (rank != 0)
            CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        MPI_Barrier(MPI_COMM_WORLD); /* the others are done with it */
        if (rank == size - 1)
            CHECK(MPIX_Comm_revoke(dup) == MPI_SUCCESS);
        MPI_Barrier(MPI_COMM_WORLD); /* the revoke is visible */
        if (rank == 0)
            CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        int wrong = 0;
        for (int k = 0; k < n; k++)
            wrong += out[k] != k * size + size * (size - 1) / 2;
        CHECK(wrong == 0);
        CHECK(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, dup) == MPI_ERR_REVOKED);
        CHECK(MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, dup, &req) != MPI_SUCCESS ||
              MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_ERR_REVOKED);
        MPI_Comm_free(&dup);
        free(in);
        free(out);
    }
    return mtest_finish();
}
