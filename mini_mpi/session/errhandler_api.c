/*
 * session/errhandler_api.c: the error handler calls of sessions (MPI-4.1 §9.3.4):
 * MPI_Session_create_errhandler, _set_, _get_ and _call_errhandler. MPI_Session_create_errhandler
 * may come before any session or MPI_Init (a handler for MPI_Session_init), so it enters with
 * mmpi_enter_anytime; the others enter through mmpi_session_enter (session.h).
 */
#include "session/session.h"

MMPI_PROFILED(Session_create_errhandler);
int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Session_create_errhandler);
    int err = MPI_SUCCESS;

    if (!self)
        return MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
    err = mmpi_errhandler_create(self, MMPI_ERRH_FOR_SESSION, (void (*)(void))fn, errhandler);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Session_create_errhandler);
    goto fn_exit;
}

MMPI_PROFILED(Session_set_errhandler);
int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    struct mmpi_rank *self;
    struct mmpi_session *s;
    int err = mmpi_session_enter(MMPI_CALL_Session_set_errhandler, session, &self, &s);

    if (err)
        goto fn_fail;
    struct mmpi_errhandler *e = mmpi_errhandler_get(self, errhandler);
    MMPI_FAIL_IF(!mmpi_session_handler_ok(e), MPI_ERR_ERRHANDLER);
    mmpi_errhandler_retain(e);
    mmpi_errhandler_release(s->errhandler);
    s->errhandler = e;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_session(self, s, err, MMPI_CALL_Session_set_errhandler);
    goto fn_exit;
}

MMPI_PROFILED(Session_get_errhandler);
int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    struct mmpi_rank *self;
    struct mmpi_session *s;
    int err = mmpi_session_enter(MMPI_CALL_Session_get_errhandler, session, &self, &s);

    if (err == MPI_SUCCESS && !errhandler)
        err = MPI_ERR_ARG;
    if (err)
        goto fn_fail;
    mmpi_errhandler_retain(s->errhandler); /* MPI-4.1 §9.3: the program frees what get returns */
    *errhandler = s->errhandler->handle;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_session(self, s, err, MMPI_CALL_Session_get_errhandler);
    goto fn_exit;
}

MMPI_PROFILED(Session_call_errhandler);
int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    struct mmpi_rank *self;
    struct mmpi_session *s;
    int err = mmpi_session_enter(MMPI_CALL_Session_call_errhandler, session, &self, &s);

    if (err)
        goto fn_fail; /* no session: raised with no object */
    /* The call is the invocation of the session's handler; MPI-4.1 §9.3.4: success once the
     * handler has returned, whatever it returned. */
    mmpi_err_raise_session(self, s, errorcode, MMPI_CALL_Session_call_errhandler);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_session(self, s, err, MMPI_CALL_Session_call_errhandler);
    goto fn_exit;
}
