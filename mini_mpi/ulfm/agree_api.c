/*
 * ulfm/agree_api.c: the MPI entry points MPIX_Comm_agree and MPIX_Comm_iagree (§17.3.3). Bindings
 * only: each checks the communicator and its pointers and calls mmpi_ulfm_agree or
 * mmpi_ulfm_iagree (agree.c, which holds the algorithm and its theory of operation; inter_agree.c
 * for an intercommunicator). Agreement ignores revocation; its MPI_ERR_PROC_FAILED is the same at
 * every member.
 */
#include "ulfm/ulfm.h"

MMPI_FT_PROFILED(Comm_agree);
int PMPIX_Comm_agree(MPI_Comm comm, int *flag)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_agree);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = !c ? MPI_ERR_COMM : !flag ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = mmpi_ulfm_agree(self, c, flag)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPIX_CALL_Comm_agree);
    goto fn_exit;
}

MMPI_FT_PROFILED(Comm_iagree);
int PMPIX_Comm_iagree(MPI_Comm comm, int *flag, MPI_Request *request)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_iagree);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = !c ? MPI_ERR_COMM : (!flag || !request) ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = mmpi_ulfm_iagree(self, c, flag, request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPIX_CALL_Comm_iagree);
    goto fn_exit;
}
