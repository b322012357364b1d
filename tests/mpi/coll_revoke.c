/* coll_revoke.c: a communicator revoked while members are inside, or about to enter, its
 * collectives (chapter "Process Fault Tolerance"): every call completes (nobody hangs) with
 * MPI_SUCCESS and correct data, or with MPI_ERR_REVOKED; once a member has seen
 * MPI_ERR_REVOKED every later call fails too. Rounds vary the revoking member, the moment,
 * and the collective (small and large Allreduce, Bcast, Alltoall, Iallreduce), so that the
 * revoke lands before, during and after arrivals. */
#include <string.h>

#include "mtest.h"

#define BIG 30000
#define ITER 40

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *in = malloc(BIG * sizeof(int)), *out = malloc(BIG * sizeof(int));
    int *a2a = malloc((size_t)size * sizeof(int)), *a2b = malloc((size_t)size * sizeof(int));

    for (int round = 0; round < 25; round++) {
        MPI_Comm comm;
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        int revoker = round % size, at = 5 + (round * 7) % 30, kind = round % 5;
        int revoked = 0;
        for (int i = 0; i < ITER; i++) {
            int err, count = kind == 1 || kind == 2 ? BIG : 3;
            if (rank == revoker && i == at)
                CHECK(MPIX_Comm_revoke(comm) == MPI_SUCCESS);
            for (int k = 0; k < count; k++)
                in[k] = rank + k + i;
            for (int j = 0; j < size; j++)
                a2a[j] = rank * size + j + i;
            if (kind == 2)
                memcpy(out, in, (size_t)count * sizeof(int));
            switch (kind) {
            case 0:
            case 1:
                err = MPI_Allreduce(in, out, count, MPI_INT, MPI_SUM, comm);
                break;
            case 2:
                err = MPI_Bcast(out, count, MPI_INT, i % size, comm);
                break;
            case 3:
                err = MPI_Alltoall(a2a, 1, MPI_INT, a2b, 1, MPI_INT, comm);
                break;
            default: {
                MPI_Request req;
                err = MPI_Iallreduce(in, out, count, MPI_INT, MPI_SUM, comm, &req);
                if (err == MPI_SUCCESS)
                    err = MPI_Wait(&req, MPI_STATUS_IGNORE);
                break;
            }
            }
            CHECK(err == MPI_SUCCESS || err == MPI_ERR_REVOKED);
            if (revoked)
                CHECK(err == MPI_ERR_REVOKED);
            if (err != MPI_SUCCESS) {
                revoked = 1;
                continue;
            }
            int ok = 1;
            for (int k = 0; k < count && kind != 3; k++) {
                int want = kind == 2 ? (i % size) + k + i : size * (k + i) + size * (size - 1) / 2;
                ok &= out[k] == want;
            }
            for (int j = 0; j < size && kind == 3; j++)
                ok &= a2b[j] == j * size + rank + i;
            if (!ok)
                fprintf(stderr, "rank %d: round %d iteration %d: wrong data\n", rank, round, i);
            CHECK(ok);
        }
        CHECK(revoked); /* the revoke reaches every member */
        MPI_Comm_free(&comm);
        CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
    }
    free(in);
    free(out);
    free(a2a);
    free(a2b);
    return mtest_finish();
}
