/*
 * osc/failure_link.c: the failure queries of one-sided communication (failure_link.h),
 * answered by the fault layer (fault/fault.h).
 */
#include "osc/failure_link.h"
#include "osc/win.h"

bool mmpi_osc_member_failed(const struct mmpi_win_core *core, int r)
{
    return mmpi_fault_world_rank_failed(mmpi_world, core->targets[r].world_rank);
}

/* What a call on a window with the sticky failure reports: revocation wins over the failure
 * (docs/rma.md), as it does in every call that checks it. */
static int sticky_class(const struct mmpi_win *w)
{
    return mmpi_fault_revoked(&w->core->fault) ? MPI_ERR_REVOKED : MPI_ERR_PROC_FAILED;
}

int mmpi_osc_sticky(struct mmpi_win *w, int err)
{
    if (!w)
        return err;
    if (err == MPI_ERR_PROC_FAILED)
        w->proc_failed = true;
    /* A synchronization error after the failure is the failure's: the lock, lock_all, start
     * or post it refused opened no epoch for this call to end or use. */
    else if (w->proc_failed && (err == MPI_SUCCESS || err == MPI_ERR_RMA_SYNC))
        err = sticky_class(w);
    return err;
}

int mmpi_osc_epoch_refused(const struct mmpi_win *w)
{
    return w->proc_failed ? sticky_class(w) : MPI_SUCCESS;
}

void mmpi_osc_member_reported(struct mmpi_rank *self, const struct mmpi_win_core *core, int r)
{
    mmpi_fault_notice(self, core->targets[r].world_rank);
}

bool mmpi_osc_any_member_failed(struct mmpi_rank *self, const struct mmpi_win_core *core)
{
    if (!mmpi_fault_any(self->world))
        return false;
    bool any = false;
    for (int r = 0; r < core->size; r++)
        if (mmpi_osc_member_failed(core, r)) {
            mmpi_osc_member_reported(self, core, r);
            any = true;
        }
    return any;
}
