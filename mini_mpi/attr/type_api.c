/*
 * attr/type_api.c: MPI entry points caching attributes on datatypes (MPI-4.1 §7.7.4),
 * predefined datatypes included. Errors have no communicator: they go to MPI_COMM_SELF's
 * handler, else MPI_COMM_WORLD's, as for every datatype call.
 */
#include "attr/attr.h"
#include "datatype/datatype.h"

MMPI_PROFILED(Type_create_keyval);
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn,
                            int *type_keyval, void *extra_state)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_create_keyval);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!type_keyval, MPI_ERR_ARG);
    if ((err = mmpi_keyval_create(self, MMPI_HANDLE_KIND_DATATYPE, type_copy_attr_fn,
                                  type_delete_attr_fn, extra_state, type_keyval)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_create_keyval);
    goto fn_exit;
}

MMPI_PROFILED(Type_free_keyval);
int PMPI_Type_free_keyval(int *type_keyval)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_free_keyval);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!type_keyval, MPI_ERR_ARG);
    if ((err = mmpi_keyval_free(self, MMPI_HANDLE_KIND_DATATYPE, *type_keyval)))
        goto fn_fail;
    *type_keyval = MPI_KEYVAL_INVALID;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_free_keyval);
    goto fn_exit;
}

MMPI_PROFILED(Type_set_attr);
int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_set_attr);
    struct mmpi_attr_obj o;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!mmpi_datatype_get(self, datatype), MPI_ERR_TYPE);
    o = mmpi_attr_type_obj(self, datatype, true);
    if ((err = mmpi_attr_set(self, &o, type_keyval, attribute_val, false)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_set_attr);
    goto fn_exit;
}

MMPI_PROFILED(Type_get_attr);
int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_get_attr);
    struct mmpi_attr_obj o;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!mmpi_datatype_get(self, datatype), MPI_ERR_TYPE);
    MMPI_FAIL_IF(!attribute_val || !flag, MPI_ERR_ARG);
    o = mmpi_attr_type_obj(self, datatype, false);
    if ((err = mmpi_attr_get(self, &o, type_keyval, (void **)attribute_val, flag)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_get_attr);
    goto fn_exit;
}

MMPI_PROFILED(Type_delete_attr);
int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_delete_attr);
    struct mmpi_attr_obj o;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!mmpi_datatype_get(self, datatype), MPI_ERR_TYPE);
    o = mmpi_attr_type_obj(self, datatype, false);
    if ((err = mmpi_attr_delete(self, &o, type_keyval)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_delete_attr);
    goto fn_exit;
}
