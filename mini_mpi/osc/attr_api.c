/*
 * osc/attr_api.c: MPI entry points describing a window: names (§7.8), hints (§12.2.7),
 * attributes and keyvals (§7.7.3, with the predefined keys of §12.2.6 answered from the handle
 * object) and error handlers (§9.3.2). Attribute lists are attr/'s, error handler objects
 * errhan/'s: windows only add their object kind.
 */
#include <stdlib.h>
#include <string.h>

#include "attr/attr.h"
#include "comm/info.h"
#include "osc/win.h"

MMPI_PROFILED(Win_set_name);
int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_set_name);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    MMPI_FAIL_IF(!win_name, MPI_ERR_ARG);
    /* §7.8: longer names are truncated */
    strncpy(w->name, win_name, MPI_MAX_OBJECT_NAME - 1);
    w->name[MPI_MAX_OBJECT_NAME - 1] = '\0';
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_set_name);
    goto fn_exit;
}

MMPI_PROFILED(Win_get_name);
int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_get_name);
    struct mmpi_win *w = mmpi_win_get(self, win);
    /* The null handle is a predefined handle with a name of its own (MPI-4.1 §7.8, as
     * MPI_Comm_get_name); a window never named has "" (§7.8). */
    const char *name = win == MPI_WIN_NULL ? "MPI_WIN_NULL" : w ? w->name : NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!name, MPI_ERR_WIN);
    MMPI_FAIL_IF(!win_name || !resultlen, MPI_ERR_ARG);
    strcpy(win_name, name);
    *resultlen = (int)strlen(name);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_get_name);
    goto fn_exit;
}

/* MPI_Win_set_info's implementation. We act on no hint, but keep every one the program set (as
 * for communicators). */
static int merge_hints(struct mmpi_win *w, const struct mmpi_info *hints)
{
    int err = MPI_SUCCESS;
    struct mmpi_info *merged = w->info ? w->info : mmpi_info_new();
    for (int i = 0; merged && err == MPI_SUCCESS && i < hints->n; i++)
        err = mmpi_info_set(merged, hints->keys[i], hints->values[i]);
    if (!merged)
        return MPI_ERR_NO_MEM;
    w->info = merged;
    return err;
}

MMPI_PROFILED(Win_set_info);
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_set_info);
    struct mmpi_win *w = mmpi_win_get(self, win);
    struct mmpi_info *hints = NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    MMPI_FAIL_IF(mmpi_info_arg(self, info, &hints), MPI_ERR_INFO);
    if (!hints)
        goto fn_exit;
    err = merge_hints(w, hints);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_set_info);
    goto fn_exit;
}

/* The hints of §12.2.7 every window reports, with the values that describe it: accumulates
 * are ordered in every way and atomic for any op mix. */
static const char *const standard_hints[][2] = {
    {"no_locks", "false"},
    {"accumulate_ordering", "rar,raw,war,waw"},
    {"accumulate_ops", "same_op_no_op"},
    {"same_size", "false"},
    {"same_disp_unit", "false"},
    {"mpi_accumulate_granularity", "0"},
};

/* MPI_Win_get_info's implementation: a new info object holding the hints above and every one
 * the program set; *info_used is written only on success. */
static int info_used_new(struct mmpi_rank *self, struct mmpi_win *w, MPI_Info *info_used)
{
    int err = MPI_SUCCESS;
    struct mmpi_info *used = mmpi_info_new();
    if (!used)
        err = MPI_ERR_NO_MEM;
    for (size_t i = 0; err == MPI_SUCCESS && i < sizeof standard_hints / sizeof *standard_hints;
         i++) {
        const char *v = w->info ? mmpi_info_lookup(w->info, standard_hints[i][0]) : NULL;
        err = mmpi_info_set(used, standard_hints[i][0], v ? v : standard_hints[i][1]);
    }
    if (err == MPI_SUCCESS && w->core->flavor == MPI_WIN_FLAVOR_SHARED) {
        const char *v = w->info ? mmpi_info_lookup(w->info, "alloc_shared_noncontig") : NULL;
        err = mmpi_info_set(used, "alloc_shared_noncontig", v ? v : "false");
    }
    for (int i = 0; err == MPI_SUCCESS && w->info && i < w->info->n; i++)
        if (!mmpi_info_lookup(used, w->info->keys[i]))
            err = mmpi_info_set(used, w->info->keys[i], w->info->values[i]);
    if (err == MPI_SUCCESS) {
        used->handle = mmpi_handle_new(self, MMPI_HANDLE_KIND_INFO, used);
        if (used->handle == MPI_INFO_NULL)
            err = MPI_ERR_NO_MEM;
        else
            *info_used = used->handle;
    }
    if (err != MPI_SUCCESS)
        mmpi_info_release(used);
    return err;
}

MMPI_PROFILED(Win_get_info);
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_get_info);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    MMPI_FAIL_IF(!info_used, MPI_ERR_ARG);
    err = info_used_new(self, w, info_used);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_get_info);
    goto fn_exit;
}

/* ---- Attributes ------------------------------------------------------------------------ */

MMPI_PROFILED(Win_create_keyval);
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                           void *extra_state)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_create_keyval);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!win_keyval, MPI_ERR_ARG);
    err = mmpi_keyval_create(self, MMPI_HANDLE_KIND_WIN, (mmpi_attr_copy_fn *)win_copy_attr_fn,
                             (mmpi_attr_delete_fn *)win_delete_attr_fn, extra_state, win_keyval);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Win_create_keyval);
    goto fn_exit;
}

MMPI_PROFILED(Win_free_keyval);
int PMPI_Win_free_keyval(int *win_keyval)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_free_keyval);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!win_keyval, MPI_ERR_ARG);
    err = mmpi_keyval_free(self, MMPI_HANDLE_KIND_WIN, *win_keyval);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    *win_keyval = MPI_KEYVAL_INVALID;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Win_free_keyval);
    goto fn_exit;
}

static struct mmpi_attr_obj win_obj(struct mmpi_win *w)
{
    return (struct mmpi_attr_obj){MMPI_HANDLE_KIND_WIN, w->handle, &w->attrs};
}

MMPI_PROFILED(Win_set_attr);
int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_set_attr);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    struct mmpi_attr_obj o = win_obj(w);
    err = mmpi_attr_set(self, &o, win_keyval, attribute_val, false);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_set_attr);
    goto fn_exit;
}

/* The predefined window keys (§12.2.6): what the value points to, or NULL for another key.
 * MPI_WIN_BASE's value is the base itself. */
static bool predefined_attr(struct mmpi_win *w, int keyval, void **value)
{
    switch (keyval) {
    case MPI_WIN_BASE: *value = w->attr_base; return true;
    case MPI_WIN_SIZE: *value = &w->attr_size; return true;
    case MPI_WIN_DISP_UNIT: *value = &w->attr_disp_unit; return true;
    case MPI_WIN_CREATE_FLAVOR: *value = &w->attr_flavor; return true;
    case MPI_WIN_MODEL: *value = &w->attr_model; return true;
    default: return false;
    }
}

/* MPI_Win_get_attr's implementation: a predefined key, else the window's attribute list. */
static int get_attr(struct mmpi_rank *self, struct mmpi_win *w, int keyval, void **value,
                    int *flag)
{
    if (predefined_attr(w, keyval, value)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    struct mmpi_attr_obj o = win_obj(w);
    return mmpi_attr_get(self, &o, keyval, value, flag);
}

MMPI_PROFILED(Win_get_attr);
int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_get_attr);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    MMPI_FAIL_IF(!attribute_val || !flag, MPI_ERR_ARG);
    err = get_attr(self, w, win_keyval, (void **)attribute_val, flag);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_get_attr);
    goto fn_exit;
}

MMPI_PROFILED(Win_delete_attr);
int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_delete_attr);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    struct mmpi_attr_obj o = win_obj(w);
    err = mmpi_attr_delete(self, &o, win_keyval);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_delete_attr);
    goto fn_exit;
}

/* ---- Error handlers -------------------------------------------------------------------- */

MMPI_PROFILED(Win_create_errhandler);
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_create_errhandler);
    int err = MPI_SUCCESS;

    err = mmpi_errhandler_create(self, MMPI_ERRH_FOR_WIN, (void (*)(void))fn, errhandler);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Win_create_errhandler);
    goto fn_exit;
}

MMPI_PROFILED(Win_set_errhandler);
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_set_errhandler);
    struct mmpi_win *w = mmpi_win_get(self, win);
    struct mmpi_errhandler *e = mmpi_errhandler_get(self, errhandler);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    MMPI_FAIL_IF(!e || (e->kind == MMPI_ERRH_USER && e->object != MMPI_ERRH_FOR_WIN),
                 MPI_ERR_ERRHANDLER);
    mmpi_errhandler_retain(e);
    struct mmpi_errhandler *old = w->errhandler;
    w->errhandler = e;
    mmpi_errhandler_release(old);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_set_errhandler);
    goto fn_exit;
}

MMPI_PROFILED(Win_get_errhandler);
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_get_errhandler);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    MMPI_FAIL_IF(!errhandler, MPI_ERR_ARG);
    int owner; /* a handler never set reads as the one errors would use: the default */
    struct mmpi_errhandler *e = w->errhandler ? w->errhandler
                                              : mmpi_errhandler_default(self, &owner);
    mmpi_errhandler_retain(e); /* MPI-4.1 §9.3: the program frees what get returns */
    *errhandler = e->handle;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_get_errhandler);
    goto fn_exit;
}

MMPI_PROFILED(Win_call_errhandler);
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Win_call_errhandler);
    struct mmpi_win *w = mmpi_win_get(self, win);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!w, MPI_ERR_WIN);
    /* Calling the handler is this call's implementation; MPI-4.1 §9.3.4: success once the
     * handler has returned, whatever it returns. */
    mmpi_err_raise_win(self, w, errorcode, MMPI_CALL_Win_call_errhandler);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, w, err, MMPI_CALL_Win_call_errhandler);
    goto fn_exit;
}
