/*
 * revoke.c: MPIX_Comm_revoke and MPIX_Comm_is_revoked (chapter "Process Fault Tolerance",
 * §17.3.1). Revoke is local and non-collective: it marks the shared core, which every member
 * sees at once, and wakes every member so that pending operations notice and complete with
 * MPI_ERR_REVOKED. For an intercommunicator both groups are woken.
 */
#include "ulfm/ulfm.h"

static void wake_group(struct mmpi_world *w, const struct mmpi_comm_core *g)
{
    for (int i = 0; i < g->size; i++)
        mmpi_rank_wake(w->ranks[g->world_ranks[i]]);
}

MMPI_FT_PROFILED(Comm_revoke);
int PMPIX_Comm_revoke(MPI_Comm comm)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_revoke);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    if (!c)
        return mmpi_err_raise_comm(self, NULL, MPI_ERR_COMM, MMPIX_CALL_Comm_revoke);
    struct mmpi_comm_core *core = c->core;
    __atomic_store_n(&core->revoked, true, __ATOMIC_SEQ_CST);
    if (core->remote)
        __atomic_store_n(&core->remote->revoked, true, __ATOMIC_SEQ_CST);
    if (core->bridge) /* the intercommunicator's collective board (comm/intercomm.h) */
        __atomic_store_n(&core->bridge->revoked, true, __ATOMIC_SEQ_CST);
    wake_group(self->world, core);
    if (core->remote)
        wake_group(self->world, core->remote);
    return MPI_SUCCESS;
}

MMPI_FT_PROFILED(Comm_is_revoked);
int PMPIX_Comm_is_revoked(MPI_Comm comm, int *flag)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_is_revoked);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    if (!c || !flag)
        return mmpi_err_raise_comm(self, c, !c ? MPI_ERR_COMM : MPI_ERR_ARG,
                                   MMPIX_CALL_Comm_is_revoked);
    *flag = __atomic_load_n(&c->core->revoked, __ATOMIC_ACQUIRE);
    return MPI_SUCCESS;
}
