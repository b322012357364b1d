/*
 * osc/win_api.c: MPI entry points creating, describing and freeing windows (MPI-4.1 §12.2),
 * in the chapter's order. Bindings only: checks, then one call into create.c. Errors of the
 * creation calls go to the communicator's handler; the others to the window's (win.h).
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comm/info.h"
#include "generated/api_impl.h"
#include "group/group.h"
#include "osc/win.h"

/* The checks every creation call makes. */
static int check_create(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Aint size,
                        MPI_Aint disp_unit, MPI_Info info, struct mmpi_info **hints,
                        const void *win)
{
    if (!c || c->core->remote)
        return MPI_ERR_COMM; /* windows are over intracommunicators (§12.2.1) */
    if (mmpi_fault_revoked(&c->core->fault))
        return MPI_ERR_REVOKED;
    if (size < 0)
        return MPI_ERR_SIZE;
    if (disp_unit <= 0)
        return MPI_ERR_ARG; /* MPICH's class for a non-positive displacement unit */
    if (mmpi_info_arg(self, info, hints) != MPI_SUCCESS)
        return MPI_ERR_INFO;
    if (!win)
        return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

static int create(struct mmpi_rank *self, enum mmpi_call call, int flavor, void *base,
                  MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                  MPI_Win *win)
{
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_info *hints = NULL;
    struct mmpi_win *w = NULL;
    int err = check_create(self, c, size, disp_unit, info, &hints, win);

    if (err == MPI_SUCCESS && baseptr == NULL && flavor != MPI_WIN_FLAVOR_CREATE &&
        flavor != MPI_WIN_FLAVOR_DYNAMIC)
        err = MPI_ERR_ARG;
    /* As MPICH: memory of a nonzero size exposed at NULL. */
    if (err == MPI_SUCCESS && flavor == MPI_WIN_FLAVOR_CREATE && !base && size > 0)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        goto fn_fail;
    void *b = base;
    err = mmpi_win_create(self, c, flavor, &b, size, disp_unit, hints, &w);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    if (baseptr)
        *(void **)baseptr = b;
    *win = w->handle;
fn_exit:
    return err;
fn_fail:
    if (win)
        *win = MPI_WIN_NULL;
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Win_create(struct mmpi_rank *self, enum mmpi_call call, void *base, MPI_Aint size,
                        MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return create(self, call, MPI_WIN_FLAVOR_CREATE, base, size, disp_unit, info, comm, NULL, win);
}

int mmpi_api_Win_allocate(struct mmpi_rank *self, enum mmpi_call call, MPI_Aint size,
                          MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                          MPI_Win *win)
{
    return create(self, call, MPI_WIN_FLAVOR_ALLOCATE, NULL, size, disp_unit, info, comm, baseptr,
                  win);
}

int mmpi_api_Win_allocate_shared(struct mmpi_rank *self, enum mmpi_call call, MPI_Aint size,
                                 MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                 MPI_Win *win)
{
    return create(self, call, MPI_WIN_FLAVOR_SHARED, NULL, size, disp_unit, info, comm, baseptr,
                  win);
}

/* MPI_Win_shared_query and _c: the unit as an MPI_Aint (NULL: missing); a unit above
 * max_unit (one from MPI_Win_create_c asked through the int form) is MPI_ERR_VALUE_TOO_LARGE
 * (MPI-4.1 §5.2). */
static int shared_query(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr,
                        MPI_Aint max_unit, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    MMPI_FAIL_IF(rank != MPI_PROC_NULL && (rank < 0 || rank >= w->core->size), MPI_ERR_RANK);
    MMPI_FAIL_IF(!size || !disp_unit || !baseptr, MPI_ERR_ARG);
    /* Every window is in the one address space, so every flavour answers (MPI-4.1 §12.2.3);
     * a dynamic window has no memory of its own to name. MPI_PROC_NULL: the lowest rank with
     * a non-empty segment. */
    const struct mmpi_win_target *t = NULL;
    if (rank == MPI_PROC_NULL) {
        for (int r = 0; r < w->core->size && !t; r++)
            if (w->core->targets[r].size > 0)
                t = &w->core->targets[r];
    } else {
        t = &w->core->targets[rank];
    }
    MMPI_FAIL_IF(t && t->disp_unit > max_unit, MPI_ERR_VALUE_TOO_LARGE);
    if (!t || w->core->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        *size = 0;
        *disp_unit = t ? t->disp_unit : 1;
        *(void **)baseptr = NULL;
    } else {
        *size = t->size;
        *disp_unit = t->disp_unit;
        *(void **)baseptr = t->size > 0 ? t->base : NULL; /* MPICH: no memory, no address */
    }
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Win_shared_query);
int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    MPI_Aint unit = 0;
    int err = shared_query(win, rank, size, disp_unit ? &unit : NULL, baseptr, INT_MAX,
                           MMPI_CALL_Win_shared_query);
    if (err == MPI_SUCCESS)
        *disp_unit = (int)unit;
    return err;
}

MMPI_PROFILED(Win_shared_query_c);
int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                            void *baseptr)
{
    return shared_query(win, rank, size, disp_unit, baseptr, INTPTR_MAX,
                        MMPI_CALL_Win_shared_query_c);
}

MMPI_PROFILED(Win_create_dynamic);
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return create(mmpi_enter(MMPI_CALL_Win_create_dynamic), MMPI_CALL_Win_create_dynamic,
                  MPI_WIN_FLAVOR_DYNAMIC, NULL, 0, 1, info, comm, NULL, win);
}

MMPI_PROFILED(Win_attach);
int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_attach);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    err = mmpi_win_attach(w, base, size);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_attach);
    goto fn_exit;
}

MMPI_PROFILED(Win_detach);
int PMPI_Win_detach(MPI_Win win, const void *base)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_detach);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    err = mmpi_win_detach(w, base);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_detach);
    goto fn_exit;
}

MMPI_PROFILED(Win_free);
int PMPI_Win_free(MPI_Win *win)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_free);
    struct mmpi_win *w = win ? mmpi_win_get(self, *win) : NULL;
    struct mmpi_errhandler *h = NULL;
    MPI_Win handle = MPI_WIN_NULL;
    bool freed = false;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, win ? MPI_ERR_WIN : MPI_ERR_ARG);
    /* An open epoch or a failing delete callback leaves the window as it was; once the
     * members synchronize, the window is gone whatever the synchronization reports. Its
     * handler is kept past the free for that report (below). */
    handle = w->handle;
    h = w->errhandler ? w->errhandler : mmpi_errhandler_default(self, &handle);
    mmpi_errhandler_retain(h);
    err = mmpi_win_free(self, w, &freed);
    if (freed)
        *win = MPI_WIN_NULL;
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    if (h)
        mmpi_errhandler_release(h);
    return err;
fn_fail:
    /* A freed window's error (MPI_ERR_PROC_FAILED) still goes to the window's handler, as
     * Open MPI does, applied to the handle the program passed. */
    err = freed ? mmpi_err_invoke(self, h, handle, err, MMPI_CALL_Win_free)
                : mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_free);
    goto fn_exit;
}

MMPI_PROFILED(Win_get_group);
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_get_group);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = !w ? MPI_ERR_WIN : !group ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    MPI_Group h = mmpi_group_handle_new(self, mmpi_group_of_core(w->comm->core));
    MMPI_FAIL_IF(h == MPI_GROUP_NULL, MPI_ERR_NO_MEM);
    *group = h;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_get_group);
    goto fn_exit;
}
