/*
 * op/op_api.c: MPI entry points of MPI-4.1 §6.9.5-6.9.7: MPI_Op_create(_c), MPI_Op_free,
 * MPI_Op_commutative and MPI_Reduce_local. Bindings only: objects are object.c, the arithmetic
 * apply.c. These calls have no communicator: errors are raised without an object (errhan.h).
 */
#include "generated/api_impl.h"
#include "mmpi.h"
#include "op/op.h"

/* MPI_Op_create and _c: one of fn, fn_c (MPI-4.1 §6.9.5). Both bindings by hand: the table
 * cannot widen a function pointer's type. */
static int op_create(MPI_User_function *fn, MPI_User_function_c *fn_c, int commute, MPI_Op *op,
                     enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF((!fn && !fn_c) || !op, MPI_ERR_ARG);
    struct mmpi_op *o = mmpi_op_new(fn, fn_c, commute != 0);
    o->handle = mmpi_handle_new(self, MMPI_HANDLE_KIND_OP, o);
    if (o->handle == MPI_OP_NULL) {
        mmpi_op_release(o);
        err = MPI_ERR_NO_MEM;
        goto fn_fail;
    }
    *op = o->handle;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Op_create);
int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return op_create(user_fn, NULL, commute, op, MMPI_CALL_Op_create);
}

MMPI_PROFILED(Op_create_c);
int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return op_create(NULL, user_fn, commute, op, MMPI_CALL_Op_create_c);
}

MMPI_PROFILED(Op_free);
int PMPI_Op_free(MPI_Op *op)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Op_free);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!op, MPI_ERR_ARG);
    /* Predefined operations cannot be freed (MPI-4.1 §6.9.5). */
    struct mmpi_op *o = mmpi_handle_remove(self, MMPI_HANDLE_KIND_OP, *op);
    MMPI_FAIL_IF(!o, MPI_ERR_OP);
    mmpi_op_release(o); /* pending reductions hold their own references */
    *op = MPI_OP_NULL;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Op_free);
    goto fn_exit;
}

MMPI_PROFILED(Op_commutative);
int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Op_commutative);
    struct mmpi_op *o = mmpi_op_get(self, op);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!o, MPI_ERR_OP);
    MMPI_FAIL_IF(!commute, MPI_ERR_ARG);
    *commute = mmpi_op_is_commutative(o);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Op_commutative);
    goto fn_exit;
}

int mmpi_api_Reduce_local(struct mmpi_rank *self, enum mmpi_call call, const void *inbuf,
                          void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
    struct mmpi_op *o = mmpi_op_get(self, op);
    struct mmpi_datatype *dt = NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(count < 0, MPI_ERR_COUNT);
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    /* MPI_REPLACE and MPI_NO_OP belong to RMA (MPI-4.1 §12.3.4). */
    MMPI_FAIL_IF(!o || mmpi_op_is_rma_only(o) || mmpi_op_check(o, dt) != MPI_SUCCESS, MPI_ERR_OP);
    /* NULL is MPI_BOTTOM, legal with a derived type of absolute addresses (as in pt2pt). */
    MMPI_FAIL_IF(count > 0 && dt->size > 0 &&
                     (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE ||
                      ((!inbuf || !inoutbuf) && mmpi_handle_is_predefined(datatype))),
                 MPI_ERR_BUFFER);
    /* aliased buffers (MPI-4.1 §2.3) */
    MMPI_FAIL_IF(count > 0 && inbuf == inoutbuf, MPI_ERR_BUFFER);
    mmpi_op_apply(o, inbuf, inoutbuf, (size_t)count, dt, datatype);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}
