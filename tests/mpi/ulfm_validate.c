/*
 * ulfm_validate.c: MPIX_Comm_validate, and the detection macros of mpi-ext.h (Open MPI 5's
 * OMPI_HAVE_MPIX_COMM_*: ulfm-testing's shrink.c skips its ishrink half without them).
 * Validate is collective and uniform: MPI_SUCCESS everywhere with no failure (also on a revoked
 * communicator), MPI_ERR_PROC_FAILED at every survivor once a member died (rank 1, by
 * raise(SIGKILL)), acknowledged or not; the shrunk communicator validates again.
 */
#include <signal.h>

#include <mpi-ext.h>

#include "mtest.h"

#if !defined(OMPI_HAVE_MPIX_COMM_ISHRINK) || !defined(OMPI_HAVE_MPIX_COMM_GET_FAILED) || \
    !defined(OMPI_HAVE_MPIX_COMM_ACK_FAILED)
#error "mpi-ext.h must define OMPI_HAVE_MPIX_COMM_ISHRINK, _GET_FAILED and _ACK_FAILED"
#endif

int main(int argc, char **argv)
{
    int rank, size, err, flag, nacked, mine, lo, hi;
    MPI_Comm dup, shrunk;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Bad input: MPI_ERR_COMM, through MPI_COMM_WORLD's handler (no communicator to use). */
    err = MPIX_Comm_validate(MPI_COMM_NULL);
    MPI_Error_class(err, &err);
    CHECK(err == MPI_ERR_COMM);

    /* No failure: success everywhere, on world, self, and a revoked duplicate. */
    CHECK(MPIX_Comm_validate(MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(MPIX_Comm_validate(MPI_COMM_SELF) == MPI_SUCCESS);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    if (rank == size - 1)
        CHECK(MPIX_Comm_revoke(dup) == MPI_SUCCESS);
    CHECK(MPIX_Comm_validate(dup) == MPI_SUCCESS);
    MPI_Comm_free(&dup);

    if (rank == 1)
        raise(SIGKILL);

    /* A member died: every survivor gets MPI_ERR_PROC_FAILED, before and after acknowledging. */
    err = MPIX_Comm_validate(MPI_COMM_WORLD);
    CHECK(err == MPI_ERR_PROC_FAILED);
    CHECK(MPIX_Comm_ack_failed(MPI_COMM_WORLD, size, &nacked) == MPI_SUCCESS && nacked == 1);
    CHECK(MPIX_Comm_validate(MPI_COMM_WORLD) == MPI_ERR_PROC_FAILED);
    /* Uniform: agreement over the verdicts (bitwise AND of the error class and its complement). */
    mine = err;
    flag = mine;
    CHECK(MPIX_Comm_agree(MPI_COMM_WORLD, &flag) == MPI_SUCCESS);
    lo = flag;
    flag = ~mine;
    CHECK(MPIX_Comm_agree(MPI_COMM_WORLD, &flag) == MPI_SUCCESS);
    hi = ~flag;
    CHECK(lo == mine && hi == mine);

    /* The survivors' communicator validates. */
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
    CHECK(MPIX_Comm_validate(shrunk) == MPI_SUCCESS);
    MPI_Comm_free(&shrunk);
    return mtest_finish();
}
