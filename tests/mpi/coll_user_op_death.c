/*
 * coll_user_op_death.c: a rank dies inside a user-defined reduction operator, on an MPI call the
 * operator makes (the injector's `kill 3 at MPI_Type_size`, with MPI_Type_size called only
 * from the operator). Rank 3 arrives last, so it is the member that would fold everyone's
 * input if the fold ran in the collective's shared step. Every survivor must return from the
 * reduction (MPI_SUCCESS or MPI_ERR_PROC_FAILED) instead of waiting forever for a member that
 * died while the others depended on it.
 *
 * argv[1]: allreduce (default), reduce, scan or reduce_scatter.
 */
#include <string.h>
#include <unistd.h>

#include <mpi-ext.h>

#include "mtest.h"

#define COUNT 256 /* 1 KiB of int: above the small-message paths, within the snapshot size */

static void sum_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int size;
    MPI_Type_size(*dt, &size); /* the call the injector kills rank 3 on */
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *which = argc > 1 ? argv[1] : "allreduce";
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Op op;
    MPI_Op_create(sum_op, 1, &op);
    static int in[COUNT], out[COUNT];
    static int counts[64];
    for (int i = 0; i < COUNT; i++)
        in[i] = rank + i;
    for (int i = 0; i < size && i < 64; i++)
        counts[i] = COUNT / size;

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 3)
        usleep(100 * 1000); /* arrive last */
    int err;
    if (!strcmp(which, "reduce"))
        err = MPI_Reduce(in, out, COUNT, MPI_INT, op, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "scan"))
        err = MPI_Scan(in, out, COUNT, MPI_INT, op, MPI_COMM_WORLD);
    else if (!strcmp(which, "reduce_scatter"))
        err = MPI_Reduce_scatter(in, out, counts, MPI_INT, op, MPI_COMM_WORLD);
    else
        err = MPI_Allreduce(in, out, COUNT, MPI_INT, op, MPI_COMM_WORLD);

    int cls = MPI_SUCCESS;
    MPI_Error_class(err, &cls);
    if (cls != MPI_SUCCESS && cls != MPIX_ERR_PROC_FAILED) {
        fprintf(stderr, "rank %d: %s returned class %d\n", rank, which, cls);
        mtest_errors++;
    }
    MPI_Op_free(&op);
    return mtest_finish();
}
