/*
 * coll_mismatch.c: members that call different collectives as the same one (an erroneous
 * program, MPI-4.1 §6.12) get MPI_ERR_OTHER at every member and one line on stderr, instead of
 * a crash while one reads the other's deposit as its own kind; the communicator stays usable.
 * Pairs: Bcast/Gather, Barrier/Allreduce (the fast path at 2 ranks, coll/fast.h, the board
 * above the CPU count), Ibarrier/Iallreduce, Comm_dup/Bcast, MPIX_Comm_agree/MPIX_Comm_shrink.
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>

static int errors;

static void expect_other(const char *what, int rc)
{
    int cls = rc;
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_OTHER) {
        printf("%s: class %d, expected MPI_ERR_OTHER\n", what, cls);
        errors++;
    }
}

int main(int argc, char **argv)
{
    int rank, size, buf[8] = {0}, all[64];
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int rc = rank == 0 ? MPI_Bcast(buf, 8, MPI_INT, 0, MPI_COMM_WORLD)
                       : MPI_Gather(buf, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    expect_other("Bcast/Gather", rc);

    double x = 1, sum = 0;
    rc = rank == size - 1 ? MPI_Barrier(MPI_COMM_WORLD)
                          : MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    expect_other("Barrier/Allreduce", rc);

    MPI_Request req;
    rc = rank % 2 ? MPI_Ibarrier(MPI_COMM_WORLD, &req)
                  : MPI_Iallreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    if (rc == MPI_SUCCESS) /* nonblocking: reported at completion */
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    expect_other("Ibarrier/Iallreduce", rc);

    MPI_Comm dup = MPI_COMM_NULL;
    rc = rank == 0 ? MPI_Comm_dup(MPI_COMM_WORLD, &dup)
                   : MPI_Bcast(buf, 8, MPI_INT, 0, MPI_COMM_WORLD);
    expect_other("Comm_dup/Bcast", rc);
    if (dup != MPI_COMM_NULL) {
        printf("Comm_dup returned a communicator after a mismatch\n");
        errors++;
    }

    int flag = 1;
    MPI_Comm shrunk = MPI_COMM_NULL;
    rc = rank == 0 ? MPIX_Comm_agree(MPI_COMM_WORLD, &flag)
                   : MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk);
    expect_other("agree/shrink", rc);

    /* Still usable: every member calls the same collectives again. */
    x = rank;
    rc = MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS || sum != size * (size - 1) / 2.0) {
        printf("Allreduce after the mismatches: rc %d sum %g\n", rc, sum);
        errors++;
    }
    MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && errors == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
