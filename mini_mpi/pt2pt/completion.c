/*
 * completion.c: completing requests, the work of MPI_Wait, MPI_Test and their any/all/some forms
 * (MPI-4.1 §3.7.3, §3.7.5; the entry points and their checks are completion_api.c), for every
 * kind of request: point-to-point, persistent, generalized and those of other subsystems.
 *
 * A null handle or an inactive persistent request counts as complete with an empty status.
 * Errors are returned, never raised here: single-completion calls return the request's error;
 * multiple-completion calls fill MPI_ERROR in every status and return MPI_ERR_IN_STATUS with the
 * first failed request (struct mmpi_completion_failure), for the entry point to raise.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pt2pt/completion.h"
#include "pt2pt/pt2pt.h"
#include "runtime/wait.h"

/* The engine request behind a user request (NULL when inactive). */
static struct mmpi_request *active_part(struct mmpi_request *req)
{
    return req->persistent ? req->inner : req;
}

bool mmpi_completion_ready(struct mmpi_request *req)
{
    struct mmpi_request *a = active_part(req);
    return !a || mmpi_request_poll(a) || a->failure_pending;
}

int mmpi_completion_finish(struct mmpi_rank *self, MPI_Request *handle, struct mmpi_request *req,
                           MPI_Status *status, bool with_error)
{
    int err;
    struct mmpi_request *pending = active_part(req);
    if (pending && !mmpi_request_is_done(pending) && pending->failure_pending)
        return MPI_ERR_PROC_FAILED_PENDING; /* not complete: the request stays as it is */
    if (req->persistent) {
        struct mmpi_request *a = req->inner;
        if (!a) {
            mmpi_status_set_empty(status);
            return MPI_SUCCESS;
        }
        err = a->error;
        req->status = a->status;
        req->error = a->error;
        req->inner = NULL;
        mmpi_pvar_request_done(a);
        mmpi_request_release(a);
        mmpi_status_copy_out(status, &req->status, with_error);
        return err;
    }
    err = req->error;
    if (req->kind == MMPI_REQ_GREQ) {
        /* The user's query function supplies the status and the error (§13.2). */
        req->status.MPI_ERROR = MPI_SUCCESS;
        err = req->query_fn(req->extra_state, &req->status);
        req->status.MPI_ERROR = err;
    }
    mmpi_pvar_request_done(req);
    mmpi_status_copy_out(status, &req->status, with_error);
    mmpi_request_handle_drop(self, req);
    *handle = MPI_REQUEST_NULL;
    return err;
}

/* Resolves handle; *req NULL for MPI_REQUEST_NULL. MPI_ERR_REQUEST for anything invalid. */
int mmpi_completion_lookup(struct mmpi_rank *self, MPI_Request handle, struct mmpi_request **req)
{
    *req = NULL;
    if (handle == MPI_REQUEST_NULL)
        return MPI_SUCCESS;
    *req = mmpi_request_get(self, handle);
    return *req ? MPI_SUCCESS : MPI_ERR_REQUEST;
}

int mmpi_completion_lookup_all(struct mmpi_rank *self, int count, MPI_Request *handles,
                               struct mmpi_request ***reqs_out)
{
    struct mmpi_request **reqs = calloc((size_t)count + 1, sizeof(*reqs));
    if (!reqs)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < count; i++) {
        int err = mmpi_completion_lookup(self, handles[i], &reqs[i]);
        if (err != MPI_SUCCESS) {
            free(reqs);
            return err;
        }
    }
    *reqs_out = reqs;
    return MPI_SUCCESS;
}

int mmpi_completion_wait(struct mmpi_rank *self, MPI_Request *handle, struct mmpi_request *req,
                         MPI_Status *status, MPI_Comm *owner)
{
    mmpi_wait_until_described(self, (bool (*)(void *))mmpi_completion_ready, req,
                              mmpi_request_describe);
    *owner = req->comm; /* read first: the finish may free req */
    return mmpi_completion_finish(self, handle, req, status, false);
}

int mmpi_completion_test(struct mmpi_rank *self, MPI_Request *handle, struct mmpi_request *req,
                         int *flag, MPI_Status *status, MPI_Comm *owner)
{
    if (!mmpi_completion_ready(req)) {
        *flag = 0;
        mmpi_poll_missed();
        return MPI_SUCCESS;
    }
    *flag = 1;
    *owner = req->comm; /* read first: the finish may free req */
    return mmpi_completion_finish(self, handle, req, status, false);
}

/* ---- Multiple completion ------------------------------------------------------------------ */

struct many {
    int count;
    struct mmpi_request **reqs;
};

/* For the hang report: how many requests are pending, and the first of them. */
static void describe_many(const void *arg, char *buf, size_t len)
{
    const struct many *m = arg;
    int pending = 0, first = -1;
    for (int i = 0; i < m->count; i++)
        if (m->reqs[i] && !mmpi_request_is_done(m->reqs[i]) && pending++ == 0)
            first = i;
    char what[200] = "";
    if (first >= 0)
        mmpi_request_describe(m->reqs[first], what, sizeof what);
    snprintf(buf, len, "%d of %d requests pending; request %d: %s", pending, m->count, first,
             what);
}

static bool all_ready(void *arg)
{
    struct many *m = arg;
    for (int i = 0; i < m->count; i++)
        if (m->reqs[i] && !mmpi_completion_ready(m->reqs[i]))
            return false;
    return true;
}

static bool any_ready(void *arg)
{
    struct many *m = arg;
    bool any_active = false;
    for (int i = 0; i < m->count; i++) {
        struct mmpi_request *r = m->reqs[i];
        if (!r || !active_part(r))
            continue;
        any_active = true;
        if (mmpi_completion_ready(r))
            return true;
    }
    return !any_active;
}

/* Finishes every completed, active request of m; returns how many, with their indices and
 * statuses, and the first error's request. */
static int finish_ready(struct mmpi_rank *self, struct many *m, MPI_Request *handles,
                        int *indices, MPI_Status *statuses, int *first_err, MPI_Comm *err_comm)
{
    int n = 0;
    for (int i = 0; i < m->count; i++) {
        struct mmpi_request *r = m->reqs[i];
        if (!r || !active_part(r) || !mmpi_completion_ready(r))
            continue;
        MPI_Comm comm = r->comm;
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[n];
        int err = mmpi_completion_finish(self, &handles[i], r, st, true);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = err;
        if (err != MPI_SUCCESS && *first_err == MPI_SUCCESS) {
            *first_err = err;
            *err_comm = comm;
        }
        m->reqs[i] = NULL;
        indices[n++] = i;
    }
    return n;
}

int mmpi_completion_all(struct mmpi_rank *self, int count, struct mmpi_request **reqs,
                        MPI_Request *handles, MPI_Status *statuses, int *flag,
                        struct mmpi_completion_failure *failed)
{
    struct many m = {count, reqs};

    if (flag) {
        *flag = all_ready(&m);
        if (!*flag) {
            mmpi_poll_missed();
            return MPI_SUCCESS;
        }
    } else {
        mmpi_wait_until_described(self, all_ready, &m, describe_many);
    }
    for (int i = 0; i < count; i++) {
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
        struct mmpi_request *r = m.reqs[i];
        MPI_Comm comm = r ? r->comm : MPI_COMM_NULL; /* the finish may free r */
        int e = r ? mmpi_completion_finish(self, &handles[i], r, st, true) : MPI_SUCCESS;
        if (!r)
            mmpi_status_set_empty(st);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = e;
        if (e != MPI_SUCCESS && failed->first_err == MPI_SUCCESS) {
            failed->first_err = e;
            failed->owner = comm;
        }
    }
    return failed->first_err == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_IN_STATUS;
}

int mmpi_completion_any(struct mmpi_rank *self, int count, struct mmpi_request **reqs,
                        MPI_Request *handles, int *index, int *flag, MPI_Status *status,
                        MPI_Comm *owner)
{
    struct many m = {count, reqs};

    if (!flag)
        mmpi_wait_until_described(self, any_ready, &m, describe_many);
    *index = MPI_UNDEFINED;
    if (flag)
        *flag = 0;
    bool any_active = false;
    for (int i = 0; i < count; i++) {
        struct mmpi_request *r = m.reqs[i];
        if (!r || !active_part(r))
            continue;
        any_active = true;
        if (!mmpi_completion_ready(r))
            continue;
        *owner = r->comm; /* read first: the finish may free r */
        *index = i;
        if (flag)
            *flag = 1;
        return mmpi_completion_finish(self, &handles[i], r, status, false);
    }
    if (!any_active) { /* nothing to wait for: flag true, index undefined, empty status */
        if (flag)
            *flag = 1;
        mmpi_status_set_empty(status);
    } else {
        mmpi_poll_missed();
    }
    return MPI_SUCCESS;
}

int mmpi_completion_some(struct mmpi_rank *self, int count, struct mmpi_request **reqs,
                         MPI_Request *handles, bool wait, int *outcount, int *indices,
                         MPI_Status *statuses, struct mmpi_completion_failure *failed)
{
    struct many m = {count, reqs};

    bool any_active = false;
    for (int i = 0; i < count; i++)
        any_active |= m.reqs[i] && active_part(m.reqs[i]);
    if (!any_active) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    if (wait)
        mmpi_wait_until_described(self, any_ready, &m, describe_many);
    *outcount = finish_ready(self, &m, handles, indices, statuses, &failed->first_err,
                             &failed->owner);
    if (*outcount == 0)
        mmpi_poll_missed();
    return failed->first_err == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_IN_STATUS;
}
