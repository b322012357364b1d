/*
 * ulfm/shrink_api.c: the MPI entry points MPIX_Comm_shrink and MPIX_Comm_ishrink (§17.3.2).
 * Bindings only: each checks the communicator and its pointers and calls mmpi_ulfm_shrink or
 * mmpi_ulfm_ishrink (shrink.c, which holds the algorithm and its theory of operation;
 * inter_shrink.c for an intercommunicator). Shrink works on a revoked communicator and never
 * raises MPI_ERR_PROC_FAILED or MPI_ERR_REVOKED.
 */
#include "ulfm/ulfm.h"

MMPI_FT_PROFILED(Comm_shrink);
int PMPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_shrink);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = !c ? MPI_ERR_COMM : !newcomm ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = mmpi_ulfm_shrink(self, c, newcomm)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPIX_CALL_Comm_shrink);
    goto fn_exit;
}

MMPI_FT_PROFILED(Comm_ishrink);
int PMPIX_Comm_ishrink(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_ishrink);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = !c ? MPI_ERR_COMM : (!newcomm || !request) ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = mmpi_ulfm_ishrink(self, c, newcomm, request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPIX_CALL_Comm_ishrink);
    goto fn_exit;
}
