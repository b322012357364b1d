/*
 * ulfm/revoke_api.c: the MPI entry points MPIX_Comm_revoke and MPIX_Comm_is_revoked (chapter
 * "Process Fault Tolerance", §17.3.1). Bindings only: the implementation is the fault layer's
 * generic revoke and its query (fault/registry.c, fault/fault.h), which windows and files share.
 * Revoke is local and non-collective: it marks the shared core, which every member
 * sees at once, and wakes every member so that pending operations notice and complete with
 * MPI_ERR_REVOKED (the fault layer's generic revoke, fault/registry.c). For an
 * intercommunicator both groups are woken.
 */
#include "ulfm/ulfm.h"

MMPI_FT_PROFILED(Comm_revoke);
int PMPIX_Comm_revoke(MPI_Comm comm)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_revoke);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    /* An intercommunicator's other group and its bridge (whose board runs its collectives)
     * are linked to its core: they are revoked and woken too (comm/intercomm.c). */
    mmpi_fault_revoke(self->world, &c->core->fault);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPIX_CALL_Comm_revoke);
    goto fn_exit;
}

MMPI_FT_PROFILED(Comm_is_revoked);
int PMPIX_Comm_is_revoked(MPI_Comm comm, int *flag)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_is_revoked);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(!flag, MPI_ERR_ARG);
    *flag = mmpi_fault_revoked(&c->core->fault);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPIX_CALL_Comm_is_revoked);
    goto fn_exit;
}
