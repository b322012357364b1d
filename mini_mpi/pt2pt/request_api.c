/*
 * request_api.c: MPI calls that manage requests without completing them: Request_free,
 * Request_get_status, Cancel, Test_cancelled, Status_set_cancelled (MPI-4.1 §3.7.3-3.8), and
 * generalized requests (§13.2).
 */
#include "coll/persistent.h"
#include "pt2pt/completion.h"
#include "pt2pt/match.h"
#include "pt2pt/pt2pt.h"

MMPI_PROFILED(Request_free);
int PMPI_Request_free(MPI_Request *request)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Request_free);
    struct mmpi_request *req = NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!request, MPI_ERR_ARG);
    if ((err = mmpi_completion_lookup(self, *request, &req)))
        goto fn_fail;
    MMPI_FAIL_IF(!req, MPI_ERR_REQUEST); /* freeing MPI_REQUEST_NULL is an error */
    /* A nonblocking or active persistent collective (§6.12, §6.13) may not be freed while its
     * operation runs; once it completed (a test told the program so), freeing it is what a wait
     * would have done, as MPICH allows (its coll/nonblocking3). */
    MMPI_FAIL_IF(mmpi_coll_request_active(req) && !mmpi_request_is_done(req), MPI_ERR_REQUEST);
    /* The operation goes on if active; its engine reference frees it when it completes. A
     * generalized request not yet completed keeps its handle for MPI_Grequest_complete. */
    if (req->kind == MMPI_REQ_GREQ && !mmpi_request_is_done(req))
        req->freed_by_user = true;
    else
        mmpi_request_handle_drop(self, req);
    *request = MPI_REQUEST_NULL;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Request_free);
    goto fn_exit;
}

MMPI_PROFILED(Request_get_status);
int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Request_get_status);
    struct mmpi_request *req = NULL, *a = NULL; /* a: the active part, whose error is raised */
    int err = MPI_SUCCESS;

    if ((err = mmpi_completion_lookup(self, request, &req)))
        goto fn_fail;
    MMPI_FAIL_IF(!flag || !status, MPI_ERR_ARG);
    a = req && req->persistent ? req->inner : req;
    if (!a) { /* §3.7.3: a null or inactive request is complete, with an empty status */
        *flag = 1;
        mmpi_status_set_empty(status);
        goto fn_exit;
    }
    *flag = mmpi_request_poll(a);
    if (*flag) {
        MPI_Status st = a->status;
        if (a->kind == MMPI_REQ_GREQ) {
            st.MPI_ERROR = a->query_fn(a->extra_state, &st);
        }
        mmpi_status_copy_out(status, &st, false);
        if ((err = st.MPI_ERROR))
            goto fn_fail;
    }
fn_exit:
    return err;
fn_fail:
    err = mmpi_request_raise(self, a, err, MMPI_CALL_Request_get_status);
    goto fn_exit;
}

MMPI_PROFILED(Cancel);
int PMPI_Cancel(MPI_Request *request)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Cancel);
    struct mmpi_request *req = NULL, *a;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!request, MPI_ERR_ARG);
    if ((err = mmpi_completion_lookup(self, *request, &req)))
        goto fn_fail;
    MMPI_FAIL_IF(!req, MPI_ERR_REQUEST);
    /* A nonblocking collective's, or a persistent collective's active or not (§6.12, §6.13):
     * cancelling one member's part cannot undo the others'. */
    MMPI_FAIL_IF(req->collective || mmpi_coll_persistent_is(req), MPI_ERR_REQUEST);
    a = req->persistent ? req->inner : req;
    if (!a)
        goto fn_exit; /* an inactive persistent request: nothing to cancel */
    if (a->kind == MMPI_REQ_GREQ) /* §13.2: the cancel function's code is returned as is */
        err = a->cancel_fn(a->extra_state, mmpi_request_is_done(a));
    else if (a->kind == MMPI_REQ_SEND || a->kind == MMPI_REQ_RECV)
        mmpi_match_cancel(a); /* fails harmlessly if already matched: the message is kept */
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Cancel);
    goto fn_exit;
}

MMPI_PROFILED(Test_cancelled);
int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Test_cancelled);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!status || status == MPI_STATUS_IGNORE || !flag, MPI_ERR_ARG);
    *flag = status->mmpi_cancelled != 0;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Test_cancelled);
    goto fn_exit;
}

MMPI_PROFILED(Status_set_cancelled);
int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Status_set_cancelled);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!status || status == MPI_STATUS_IGNORE, MPI_ERR_ARG);
    status->mmpi_cancelled = flag != 0;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Status_set_cancelled);
    goto fn_exit;
}

static void greq_free_state(struct mmpi_request *req)
{
    if (req->free_fn)
        req->free_fn(req->extra_state);
}

MMPI_PROFILED(Grequest_start);
int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Grequest_start);
    struct mmpi_request *req;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!query_fn || !free_fn || !cancel_fn || !request, MPI_ERR_ARG);
    req = mmpi_request_new(self, MMPI_REQ_GREQ);
    req->query_fn = query_fn;
    req->free_fn = free_fn;
    req->cancel_fn = cancel_fn;
    req->extra_state = extra_state;
    req->free_state = greq_free_state;
    if (mmpi_request_handle_new(self, req) == MPI_REQUEST_NULL) {
        req->free_fn = NULL;
        mmpi_request_release(req);
        mmpi_request_release(req);
        err = MPI_ERR_NO_MEM;
        goto fn_fail;
    }
    *request = req->handle;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Grequest_start);
    goto fn_exit;
}

MMPI_PROFILED(Grequest_complete);
int PMPI_Grequest_complete(MPI_Request request)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Grequest_complete);
    struct mmpi_request *req = mmpi_request_get(self, request);
    int err = MPI_SUCCESS;
    bool freed;

    MMPI_FAIL_IF(!req || req->kind != MMPI_REQ_GREQ || mmpi_request_is_done(req), MPI_ERR_REQUEST);
    freed = req->freed_by_user;
    if (freed) /* the user's reference goes with the handle: complete drops the last one */
        mmpi_handle_remove(self, MMPI_HANDLE_KIND_REQUEST, req->handle);
    mmpi_request_complete(req, MPI_SUCCESS);
    if (freed)
        mmpi_request_release(req);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Grequest_complete);
    goto fn_exit;
}
