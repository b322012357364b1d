/*
 * ulfm/ack_api.c: the MPI entry points of failure acknowledgement and queries (§17.3.2 of the
 * chapter "Process Fault Tolerance", Open MPI 5 semantics): MPIX_Comm_failure_ack,
 * MPIX_Comm_failure_get_acked, MPIX_Comm_get_failed and MPIX_Comm_ack_failed. Bindings only:
 * each checks its arguments and calls its mmpi_ulfm_* implementation in ack.c, which says what
 * "locally known" and "acknowledged" mean. None of them checks for revocation: they work on a
 * revoked communicator.
 */
#include "ulfm/ulfm.h"

MMPI_FT_PROFILED(Comm_failure_ack);
int PMPIX_Comm_failure_ack(MPI_Comm comm)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_failure_ack);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    mmpi_ulfm_failure_ack(self, c);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPIX_CALL_Comm_failure_ack);
    goto fn_exit;
}

MMPI_FT_PROFILED(Comm_failure_get_acked);
int PMPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_failure_get_acked);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = !c ? MPI_ERR_COMM : !failedgrp ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = mmpi_ulfm_failure_get_acked(self, c, failedgrp)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPIX_CALL_Comm_failure_get_acked);
    goto fn_exit;
}

MMPI_FT_PROFILED(Comm_get_failed);
int PMPIX_Comm_get_failed(MPI_Comm comm, MPI_Group *failedgrp)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_get_failed);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = !c ? MPI_ERR_COMM : !failedgrp ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = mmpi_ulfm_get_failed(self, c, failedgrp)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPIX_CALL_Comm_get_failed);
    goto fn_exit;
}

MMPI_FT_PROFILED(Comm_ack_failed);
int PMPIX_Comm_ack_failed(MPI_Comm comm, int num_to_ack, int *num_acked)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_ack_failed);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = !c ? MPI_ERR_COMM : (!num_acked || num_to_ack < 0) ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    mmpi_ulfm_ack_failed(self, c, num_to_ack, num_acked);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPIX_CALL_Comm_ack_failed);
    goto fn_exit;
}
