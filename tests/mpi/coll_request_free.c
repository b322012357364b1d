/*
 * coll_request_free.c: MPI_Request_free and MPI_Cancel on the request of a nonblocking
 * collective are erroneous (MPI-4.1 §6.12, §6.13): MPI_ERR_REQUEST through the error handler,
 * and the request stays valid, so the collective still completes with the right result.
 * An inactive persistent collective request may be freed.
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>

static int errors;

static void expect_class(const char *what, int rc, int want)
{
    int cls = rc;
    MPI_Error_class(rc, &cls);
    if (cls != want) {
        printf("%s: class %d, expected %d\n", what, cls, want);
        errors++;
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    expect_class("Request_free(Ibarrier)", MPI_Request_free(&req), MPI_ERR_REQUEST);
    expect_class("Wait(Ibarrier)", MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);

    int x = rank + 1, sum = 0;
    MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    expect_class("Cancel(Iallreduce)", MPI_Cancel(&req), MPI_ERR_REQUEST);
    expect_class("Request_free(Iallreduce)", MPI_Request_free(&req), MPI_ERR_REQUEST);
    expect_class("Wait(Iallreduce)", MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
    if (sum != size * (size + 1) / 2) {
        printf("Iallreduce: %d, expected %d\n", sum, size * (size + 1) / 2);
        errors++;
    }

    MPI_Comm dup;
    MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
    expect_class("Request_free(Comm_idup)", MPI_Request_free(&req), MPI_ERR_REQUEST);
    expect_class("Wait(Comm_idup)", MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
    MPI_Comm_free(&dup);

    int flag = 1;
    MPIX_Comm_iagree(MPI_COMM_WORLD, &flag, &req);
    expect_class("Request_free(Comm_iagree)", MPI_Request_free(&req), MPI_ERR_REQUEST);
    expect_class("Wait(Comm_iagree)", MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);

    /* Persistent: cancel is erroneous active or not; freeing is fine once inactive. */
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    expect_class("Cancel(active Barrier_init)", MPI_Cancel(&req), MPI_ERR_REQUEST);
    expect_class("Request_free(active Barrier_init)", MPI_Request_free(&req), MPI_ERR_REQUEST);
    expect_class("Wait(Barrier_init)", MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
    expect_class("Request_free(inactive Barrier_init)", MPI_Request_free(&req), MPI_SUCCESS);
    if (req != MPI_REQUEST_NULL) {
        printf("Request_free left the handle\n");
        errors++;
    }

    MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && errors == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
