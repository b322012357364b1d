/*
 * osc/revoke_api.c: MPIX_Win_revoke and MPIX_Win_get_failed (chapter "Process Fault
 * Tolerance", one-sided sections). Revoke is local and non-collective: it marks the window's
 * shared core (linked to its private communicator's core, so a fence or free blocked in that
 * barrier ends too) and wakes every member; lock, PSCW waits and data movement then complete
 * with MPI_ERR_REVOKED. get_failed reports the window's members whose failure is published.
 */
#include <stdlib.h>

#include "group/group.h"
#include "osc/win.h"
#include "ulfm/ulfm.h"

MMPI_FT_PROFILED(Win_revoke);
int PMPIX_Win_revoke(MPI_Win win)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Win_revoke);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    mmpi_fault_revoke(self->world, &w->core->fault);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPIX_CALL_Win_revoke);
    goto fn_exit;
}

/* MPIX_Win_get_failed's implementation: a new group of the window's members known failed,
 * each of them noticed by the caller; MPI_GROUP_NULL when out of memory. */
static MPI_Group failed_group(struct mmpi_rank *self, struct mmpi_win *w)
{
    struct mmpi_win_core *core = w->core;
    int *members = mmpi_xmalloc(((size_t)core->size + 1) * sizeof(int));
    int n = mmpi_fault_failed_members(self->world, core->world_ranks, core->size, members);
    int *ranks = mmpi_xmalloc(((size_t)n + 1) * sizeof(int));
    for (int i = 0; i < n; i++) {
        ranks[i] = core->world_ranks[members[i]];
        mmpi_fault_notice(self, ranks[i]);
    }
    free(members);
    return mmpi_group_handle_new(self, mmpi_group_new(n, ranks));
}

MMPI_FT_PROFILED(Win_get_failed);
int PMPIX_Win_get_failed(MPI_Win win, MPI_Group *failedgrp)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Win_get_failed);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    MMPI_FAIL_IF(!failedgrp, MPI_ERR_ARG);
    *failedgrp = failed_group(self, w);
    MMPI_FAIL_IF(*failedgrp == MPI_GROUP_NULL, MPI_ERR_NO_MEM);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPIX_CALL_Win_get_failed);
    goto fn_exit;
}
