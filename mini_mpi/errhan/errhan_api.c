/*
 * errhan/errhan_api.c: MPI entry points of the error handling chapter (MPI-4.1 chapter 9), in its
 * order: error handlers for communicators, then error codes and classes. Bindings only: checks,
 * then one call into errors.c / errhandler.c.
 */
#include <stdlib.h>
#include <string.h>

#include "mmpi.h"

MMPI_PROFILED(Comm_create_errhandler);
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_create_errhandler);
    int err = MPI_SUCCESS;

    err = mmpi_errhandler_create(self, MMPI_ERRH_FOR_COMM, (void (*)(void))fn, errhandler);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Comm_create_errhandler);
    goto fn_exit;
}

static int set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_errhandler *e = mmpi_errhandler_get(self, errhandler);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(!e || e->object != MMPI_ERRH_FOR_COMM, MPI_ERR_ERRHANDLER);
    mmpi_errhandler_retain(e);
    struct mmpi_errhandler *old = c->errhandler;
    c->errhandler = e;
    mmpi_errhandler_release(old);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Comm_set_errhandler);
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_errhandler(comm, errhandler, MMPI_CALL_Comm_set_errhandler);
}

MMPI_PROFILED(Errhandler_set);
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_errhandler(comm, errhandler, MMPI_CALL_Errhandler_set);
}

static int get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(!errhandler, MPI_ERR_ARG);
    /* A handler never set reads as the one errors would use: the default. */
    int owner;
    struct mmpi_errhandler *e = c->errhandler ? c->errhandler
                                              : mmpi_errhandler_default(self, &owner);
    mmpi_errhandler_retain(e); /* MPI-4.1 §9.3: the program frees what get returns */
    *errhandler = e->handle;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Comm_get_errhandler);
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return get_errhandler(comm, errhandler, MMPI_CALL_Comm_get_errhandler);
}

MMPI_PROFILED(Errhandler_get);
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return get_errhandler(comm, errhandler, MMPI_CALL_Errhandler_get);
}

MMPI_PROFILED(Errhandler_create);
int PMPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *errhandler)
{
    return PMPI_Comm_create_errhandler(fn, errhandler);
}

MMPI_PROFILED(Comm_call_errhandler);
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_call_errhandler);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM); /* raised through the default handler: there is no object */
    /* The call is the invocation of comm's handler; MPI-4.1 §9.3.4: success once the handler
     * has returned, whatever it returned. */
    mmpi_err_raise_comm(self, c, errorcode, MMPI_CALL_Comm_call_errhandler);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Comm_call_errhandler);
    goto fn_exit;
}

MMPI_PROFILED(Errhandler_free);
int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Errhandler_free);
    int err = MPI_SUCCESS;
    struct mmpi_errhandler *e = errhandler ? mmpi_errhandler_get(self, *errhandler) : NULL;

    MMPI_FAIL_IF(!e, MPI_ERR_ERRHANDLER);
    if (e->kind == MMPI_ERRH_USER && __atomic_load_n(&e->refcount, __ATOMIC_ACQUIRE) == 1)
        mmpi_handle_remove(self, MMPI_HANDLE_KIND_ERRHANDLER, e->handle);
    mmpi_errhandler_release(e);
    *errhandler = MPI_ERRHANDLER_NULL;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Errhandler_free);
    goto fn_exit;
}

MMPI_PROFILED(Error_string);
int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Error_string);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!string || !resultlen, MPI_ERR_ARG);
    if (!mmpi_error_string(errorcode, string)) {
        string[0] = '\0';
        *resultlen = 0;
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    *resultlen = (int)strlen(string);
fn_exit:
    return err;
fn_fail:
    if (self && mmpi_rank_phase(self) == MMPI_PHASE_INITIALIZED)
        err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Error_string);
    goto fn_exit;
}

MMPI_PROFILED(Error_class);
int PMPI_Error_class(int errorcode, int *errorclass)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Error_class);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!errorclass, MPI_ERR_ARG);
    if ((err = mmpi_error_class_of(errorcode, errorclass)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (self && mmpi_rank_phase(self) == MMPI_PHASE_INITIALIZED)
        err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Error_class);
    goto fn_exit;
}

MMPI_PROFILED(Add_error_class);
int PMPI_Add_error_class(int *errorclass)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Add_error_class);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!errorclass, MPI_ERR_ARG);
    if ((err = mmpi_error_add(-1, errorclass)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Add_error_class);
    goto fn_exit;
}

MMPI_PROFILED(Add_error_code);
int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Add_error_code);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!errorcode || errorclass < 0, MPI_ERR_ARG);
    if ((err = mmpi_error_add(errorclass, errorcode)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Add_error_code);
    goto fn_exit;
}

MMPI_PROFILED(Add_error_string);
int PMPI_Add_error_string(int errorcode, const char *string)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Add_error_string);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!string, MPI_ERR_ARG);
    if ((err = mmpi_error_set_string(errorcode, string)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Add_error_string);
    goto fn_exit;
}

/* MPI_Remove_error_class, _code and _string (MPI-4.1 §9.5): what says which. */
static int remove_error(int value, int what, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    int err = MPI_SUCCESS;

    if ((err = mmpi_error_remove(value, what)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Remove_error_class);
int PMPI_Remove_error_class(int errorclass)
{
    return remove_error(errorclass, 'c', MMPI_CALL_Remove_error_class);
}

MMPI_PROFILED(Remove_error_code);
int PMPI_Remove_error_code(int errorcode)
{
    return remove_error(errorcode, 'd', MMPI_CALL_Remove_error_code);
}

MMPI_PROFILED(Remove_error_string);
int PMPI_Remove_error_string(int errorcode)
{
    return remove_error(errorcode, 's', MMPI_CALL_Remove_error_string);
}
