/* coll_fail.c: collectives and process failure (chapter "Process Fault Tolerance"). The last
 * rank starts an Iallreduce and dies (raise(SIGKILL)) right after arriving: the survivors'
 * Wait completes, either successfully with the right sum (its contribution stays readable) or
 * with MPI_ERR_PROC_FAILED, the same at every survivor. Then, with the rank dead before the
 * call, every collective (blocking and nonblocking, small and large) reports
 * MPI_ERR_PROC_FAILED at every survivor under MPI_ERRORS_RETURN and nobody hangs; after
 * MPIX_Comm_shrink the survivors' collectives work again. */
#include <signal.h>

#include "mtest.h"

#define BIG 100000

int main(int argc, char **argv)
{
    int rank, size, err, flag;
    MPI_Request req;
    MPI_Comm dup, shrunk;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int victim = size - 1;
    int *in = malloc(BIG * sizeof(int)), *out = malloc(BIG * sizeof(int));
    for (int i = 0; i < BIG; i++)
        in[i] = rank + i;

    /* The victim arrives, then dies. */
    CHECK(MPI_Iallreduce(in, out, BIG, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
    if (rank == victim)
        raise(SIGKILL);
    err = MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(err == MPI_SUCCESS || err == MPI_ERR_PROC_FAILED);
    if (err == MPI_SUCCESS)
        for (int i = 0; i < BIG; i++)
            if (out[i] != size * i + size * (size - 1) / 2) {
                CHECK(out[i] == size * i + size * (size - 1) / 2);
                break;
            }
    /* Every survivor saw the same outcome. */
    flag = err == MPI_SUCCESS;
    CHECK(MPIX_Comm_agree(MPI_COMM_WORLD, &flag) != MPI_ERR_REVOKED);
    CHECK(flag == (err == MPI_SUCCESS));

    /* The victim is dead before these calls: all fail, at every survivor. */
    CHECK(MPI_Allreduce(in, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_PROC_FAILED);
    CHECK(MPI_Allreduce(in, out, BIG, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_PROC_FAILED);
    CHECK(MPI_Bcast(in, BIG, MPI_INT, 0, MPI_COMM_WORLD) == MPI_ERR_PROC_FAILED);
    CHECK(MPI_Bcast(in, 1, MPI_INT, victim, MPI_COMM_WORLD) == MPI_ERR_PROC_FAILED);
    CHECK(MPI_Gather(in, 1, MPI_INT, out, 1, MPI_INT, 0, MPI_COMM_WORLD) ==
          MPI_ERR_PROC_FAILED);
    CHECK(MPI_Alltoall(in, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD) == MPI_ERR_PROC_FAILED);
    CHECK(MPI_Scan(in, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_PROC_FAILED);
    CHECK(MPI_Ireduce(in, out, 4, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_ERR_PROC_FAILED);
    CHECK(MPI_Iallgather(in, 2, MPI_INT, out, 2, MPI_INT, dup, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_ERR_PROC_FAILED);

    /* The survivors carry on. */
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
    int one = 1, n = 0;
    CHECK(MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, shrunk) == MPI_SUCCESS);
    CHECK(n == size - 1);
    CHECK(MPI_Allreduce(in, out, BIG, MPI_INT, MPI_SUM, shrunk) == MPI_SUCCESS);
    CHECK(out[5] == (size - 1) * 5 + (size - 1) * (size - 2) / 2);
    MPI_Comm_free(&shrunk);
    MPI_Comm_free(&dup);
    free(in);
    free(out);
    return mtest_finish();
}
