/*
 * pt2pt/get_status_api.c: the MPI entry points MPI_Request_get_status_any, _all and _some
 * (MPI-4.1 §3.7.5): MPI_Testany, MPI_Testall and MPI_Testsome without their side effect: a
 * complete request is reported, never freed or made inactive, so the handles stay as they are
 * and a later Wait or Test still completes them. Bad arguments are raised on no object; the
 * errors of the requests inspected as the completion calls raise them (completion.h).
 */
#include <stdlib.h>

#include "pt2pt/completion.h"
#include "pt2pt/pt2pt.h"
#include "runtime/wait.h"

/* Whether req (not NULL) would complete now, and if so its status and error, as Test would
 * report them: an inactive persistent request is complete with an empty status; a
 * generalized one asks its query function; a receive from MPI_ANY_SOURCE held by an
 * unacknowledged failure reports MPI_ERR_PROC_FAILED_PENDING (and stays pending). */
static bool peek(struct mmpi_request *req, MPI_Status *st, int *err)
{
    struct mmpi_request *a = req->persistent ? req->inner : req;
    *err = MPI_SUCCESS;
    if (!a) {
        mmpi_status_set_empty(st);
        return true;
    }
    if (!mmpi_request_poll(a)) {
        if (!a->failure_pending)
            return false;
        mmpi_status_set_empty(st);
        *err = st->MPI_ERROR = MPI_ERR_PROC_FAILED_PENDING;
        return true;
    }
    *st = a->status;
    if (a->kind == MMPI_REQ_GREQ)
        st->MPI_ERROR = a->query_fn(a->extra_state, st);
    *err = st->MPI_ERROR;
    return true;
}

static bool is_active(const struct mmpi_request *r)
{
    return r && (!r->persistent || r->inner);
}

/* The checks the three calls share: count and array, then every handle. */
static int lookup(struct mmpi_rank *self, int count, const MPI_Request *handles,
                  struct mmpi_request ***reqs)
{
    if (count < 0)
        return MPI_ERR_COUNT;
    if (count > 0 && !handles)
        return MPI_ERR_ARG;
    return mmpi_completion_lookup_all(self, count, (MPI_Request *)handles, reqs);
}

MMPI_PROFILED(Request_get_status_any);
int PMPI_Request_get_status_any(int count, const MPI_Request array_of_requests[], int *index,
                                int *flag, MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Request_get_status_any);
    struct mmpi_request **reqs = NULL;
    MPI_Comm owner = MPI_COMM_NULL; /* set once a request's own error is to be raised */
    bool any_active = false;
    int err = MPI_SUCCESS;

    if ((err = lookup(self, count, array_of_requests, &reqs)))
        goto fn_fail;
    MMPI_FAIL_IF(!index || !flag || !status, MPI_ERR_ARG);
    *index = MPI_UNDEFINED;
    *flag = 0;
    for (int i = 0; i < count; i++) {
        MPI_Status st;
        if (!is_active(reqs[i]))
            continue;
        any_active = true;
        if (!peek(reqs[i], &st, &err))
            continue;
        *index = i;
        *flag = 1;
        mmpi_status_copy_out(status, &st, false); /* one request: MPI_ERROR untouched */
        if (err != MPI_SUCCESS) {
            owner = reqs[i]->comm;
            goto fn_fail;
        }
        goto fn_exit;
    }
    if (!any_active) { /* §3.7.5: flag true, index undefined, an empty status */
        *flag = 1;
        mmpi_status_set_empty(status);
    } else {
        mmpi_poll_missed(); /* a polling loop must let the other rank-threads run */
    }
fn_exit:
    free(reqs);
    return err;
fn_fail:
    err = mmpi_err_raise_request_owner(self, owner, err, MMPI_CALL_Request_get_status_any);
    goto fn_exit;
}

MMPI_PROFILED(Request_get_status_all);
int PMPI_Request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                                MPI_Status array_of_statuses[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Request_get_status_all);
    struct mmpi_request **reqs = NULL;
    struct mmpi_completion_failure failed = {MPI_SUCCESS, MPI_COMM_NULL};
    MPI_Status *st = NULL;
    int err = MPI_SUCCESS;

    if ((err = lookup(self, count, array_of_requests, &reqs)))
        goto fn_fail;
    MMPI_FAIL_IF(!flag || (count > 0 && !array_of_statuses), MPI_ERR_ARG);
    st = malloc(sizeof(*st) * (size_t)(count + 1));
    MMPI_FAIL_IF(!st, MPI_ERR_NO_MEM);
    *flag = 1;
    for (int i = 0; i < count; i++) {
        int e = MPI_SUCCESS;
        if (!reqs[i]) {
            mmpi_status_set_empty(&st[i]);
        } else if (!peek(reqs[i], &st[i], &e)) {
            *flag = 0; /* the statuses are left as they were (§3.7.5) */
            mmpi_poll_missed();
            goto fn_exit;
        }
        st[i].MPI_ERROR = e;
        if (e != MPI_SUCCESS && failed.first_err == MPI_SUCCESS) {
            failed.first_err = e;
            failed.owner = reqs[i]->comm;
        }
    }
    for (int i = 0; array_of_statuses != MPI_STATUSES_IGNORE && i < count; i++)
        array_of_statuses[i] = st[i];
    MMPI_FAIL_IF(failed.first_err != MPI_SUCCESS, MPI_ERR_IN_STATUS);
fn_exit:
    free(st);
    free(reqs);
    return err;
fn_fail:
    err = mmpi_completion_raise_many(self, err, &failed, MMPI_CALL_Request_get_status_all);
    goto fn_exit;
}

MMPI_PROFILED(Request_get_status_some);
int PMPI_Request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount,
                                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Request_get_status_some);
    struct mmpi_request **reqs = NULL;
    struct mmpi_completion_failure failed = {MPI_SUCCESS, MPI_COMM_NULL};
    bool any_active = false;
    int err = MPI_SUCCESS, n = 0;

    if ((err = lookup(self, incount, array_of_requests, &reqs)))
        goto fn_fail;
    MMPI_FAIL_IF(!outcount || (incount > 0 && (!array_of_indices || !array_of_statuses)),
                 MPI_ERR_ARG);
    for (int i = 0; i < incount; i++) {
        MPI_Status st;
        int e;
        if (!is_active(reqs[i]))
            continue;
        any_active = true;
        if (!peek(reqs[i], &st, &e))
            continue;
        st.MPI_ERROR = e;
        if (array_of_statuses != MPI_STATUSES_IGNORE)
            array_of_statuses[n] = st;
        array_of_indices[n++] = i;
        if (e != MPI_SUCCESS && failed.first_err == MPI_SUCCESS) {
            failed.first_err = e;
            failed.owner = reqs[i]->comm;
        }
    }
    *outcount = any_active ? n : MPI_UNDEFINED; /* §3.7.5: none active */
    if (any_active && n == 0)
        mmpi_poll_missed();
    MMPI_FAIL_IF(failed.first_err != MPI_SUCCESS, MPI_ERR_IN_STATUS);
fn_exit:
    free(reqs);
    return err;
fn_fail:
    err = mmpi_completion_raise_many(self, err, &failed, MMPI_CALL_Request_get_status_some);
    goto fn_exit;
}
