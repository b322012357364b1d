/*
 * attr/comm_api.c: MPI entry points caching attributes on communicators (MPI-4.1 §7.7.2) and
 * their deprecated MPI-1 names (MPI_Keyval_create, MPI_Attr_put, ...), which behave the same
 * and differ only in the call name errors report. Datatypes: type_api.c.
 */
#include "attr/attr.h"

static int create_keyval(mmpi_attr_copy_fn *copy_fn, mmpi_attr_delete_fn *delete_fn,
                         int *keyval, void *extra_state, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!keyval, MPI_ERR_ARG);
    if ((err = mmpi_keyval_create(self, MMPI_HANDLE_KIND_COMM, copy_fn, delete_fn, extra_state,
                                  keyval)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

static int free_keyval(int *keyval, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!keyval, MPI_ERR_ARG);
    if ((err = mmpi_keyval_free(self, MMPI_HANDLE_KIND_COMM, *keyval)))
        goto fn_fail;
    *keyval = MPI_KEYVAL_INVALID;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

static int set_attr(MPI_Comm comm, int keyval, void *value, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_attr_obj o;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    o = mmpi_attr_comm_obj(c);
    if ((err = mmpi_attr_set(self, &o, keyval, value, false)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

static int get_attr(MPI_Comm comm, int keyval, void *value, int *flag, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_attr_obj o;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(!value || !flag, MPI_ERR_ARG);
    o = mmpi_attr_comm_obj(c);
    if ((err = mmpi_attr_get(self, &o, keyval, (void **)value, flag)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

static int delete_attr(MPI_Comm comm, int keyval, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_attr_obj o;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    o = mmpi_attr_comm_obj(c);
    if ((err = mmpi_attr_delete(self, &o, keyval)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Comm_create_keyval);
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                            int *comm_keyval, void *extra_state)
{
    return create_keyval(comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, extra_state,
                         MMPI_CALL_Comm_create_keyval);
}

MMPI_PROFILED(Comm_free_keyval);
int PMPI_Comm_free_keyval(int *comm_keyval)
{
    return free_keyval(comm_keyval, MMPI_CALL_Comm_free_keyval);
}

MMPI_PROFILED(Comm_set_attr);
int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    return set_attr(comm, comm_keyval, attribute_val, MMPI_CALL_Comm_set_attr);
}

MMPI_PROFILED(Comm_get_attr);
int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    return get_attr(comm, comm_keyval, attribute_val, flag, MMPI_CALL_Comm_get_attr);
}

MMPI_PROFILED(Comm_delete_attr);
int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    return delete_attr(comm, comm_keyval, MMPI_CALL_Comm_delete_attr);
}

/* ---- Deprecated MPI-1 names (MPI-1 §5.7) -------------------------------------------------- */

MMPI_PROFILED(Keyval_create);
int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
    return create_keyval(copy_fn, delete_fn, keyval, extra_state, MMPI_CALL_Keyval_create);
}

MMPI_PROFILED(Keyval_free);
int PMPI_Keyval_free(int *keyval)
{
    return free_keyval(keyval, MMPI_CALL_Keyval_free);
}

MMPI_PROFILED(Attr_put);
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return set_attr(comm, keyval, attribute_val, MMPI_CALL_Attr_put);
}

MMPI_PROFILED(Attr_get);
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return get_attr(comm, keyval, attribute_val, flag, MMPI_CALL_Attr_get);
}

MMPI_PROFILED(Attr_delete);
int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return delete_attr(comm, keyval, MMPI_CALL_Attr_delete);
}
