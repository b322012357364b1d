/*
 * completion.c: MPI_Wait, MPI_Test and their any/all/some forms (MPI-4.1 §3.7.3, §3.7.5), for
 * every kind of request: point-to-point, persistent, generalized and those of other subsystems.
 *
 * A null handle or an inactive persistent request counts as complete with an empty status.
 * Errors: single-completion calls raise the request's error on its communicator; multiple-
 * completion calls fill MPI_ERROR in every status and return MPI_ERR_IN_STATUS, the handler
 * seeing the convention's code (raise_multiple).
 */
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>

#include "pt2pt/completion.h"
#include "pt2pt/pt2pt.h"

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

static int lookup_all(struct mmpi_rank *self, int count, MPI_Request *handles,
                      struct mmpi_request ***reqs_out)
{
    if (count < 0)
        return MPI_ERR_COUNT;
    if (count > 0 && !handles)
        return MPI_ERR_ARG;
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

/* Lets other rank-threads run when a test finds nothing: many ranks share few cores, and a rank
 * polling MPI_Test in a loop would otherwise hold its core for a whole time slice. */
static void yield_after_miss(void)
{
    sched_yield();
}

MMPI_PROFILED(Wait);
int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Wait);
    struct mmpi_request *req = NULL;
    int err = request ? mmpi_completion_lookup(self, *request, &req) : MPI_ERR_ARG;

    if (err == MPI_SUCCESS && !status)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Wait);
    if (!req) {
        mmpi_status_set_empty(status);
        return MPI_SUCCESS;
    }
    mmpi_wait_until_described(self, (bool (*)(void *))mmpi_completion_ready, req,
                              mmpi_request_describe);
    MPI_Comm comm = req->comm;
    err = mmpi_completion_finish(self, request, req, status, false);
    if (err != MPI_SUCCESS)
        err = mmpi_err_raise_request_owner(self, comm, err, MMPI_CALL_Wait);
    return err;
}

MMPI_PROFILED(Test);
int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Test);
    struct mmpi_request *req = NULL;
    int err = request ? mmpi_completion_lookup(self, *request, &req) : MPI_ERR_ARG;

    if (err == MPI_SUCCESS && (!status || !flag))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Test);
    if (!req) {
        *flag = 1;
        mmpi_status_set_empty(status);
        return MPI_SUCCESS;
    }
    if (!mmpi_completion_ready(req)) {
        *flag = 0;
        yield_after_miss();
        return MPI_SUCCESS;
    }
    *flag = 1;
    MPI_Comm comm = req->comm;
    err = mmpi_completion_finish(self, request, req, status, false);
    if (err != MPI_SUCCESS)
        err = mmpi_err_raise_request_owner(self, comm, err, MMPI_CALL_Test);
    return err;
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

/* A multiple-completion call in which requests failed; first_err is the first failed request's
 * error, comm its communicator. The call returns MPI_ERR_IN_STATUS, with statuses or with
 * MPI_STATUSES_IGNORE (§3.7.5; Open MPI and MPICH both do, checked on Debian's Open MPI 4.1 and
 * MPICH 4.0); the statuses hold each request's error. What the error handler is given follows
 * the MPI whose conventions the job follows (README, "Ranks, deaths and exit status"): Open MPI's (the default,
 * mpiexec --with-ft ulfm) passes the failed request's own code, so a ULFM handler sees
 * MPI_ERR_PROC_FAILED and can recover; MPICH's (-disable-auto-cleanup) passes
 * MPI_ERR_IN_STATUS. */
static int raise_multiple(struct mmpi_rank *self, MPI_Comm comm, int first_err,
                          enum mmpi_call call)
{
    int code = self->world->config.exit_convention == MMPI_EXIT_MPICH ? MPI_ERR_IN_STATUS
                                                                       : first_err;
    mmpi_err_raise_request_owner(self, comm, code, call); /* a file request: the file's */
    return MPI_ERR_IN_STATUS;
}

static int waitall_or_testall(MPI_Request *handles, int count, MPI_Status *statuses, int *flag,
                              enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct many m = {count, NULL};
    int err = lookup_all(self, count, handles, &m.reqs);

    if (err == MPI_SUCCESS && ((call == MMPI_CALL_Testall && !flag) || !statuses))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS) {
        free(m.reqs);
        return mmpi_err_raise_comm(self, NULL, err, call);
    }
    if (call == MMPI_CALL_Testall) {
        *flag = all_ready(&m);
        if (!*flag) {
            free(m.reqs);
            yield_after_miss();
            return MPI_SUCCESS;
        }
    } else {
        mmpi_wait_until_described(self, all_ready, &m, describe_many);
    }
    int first_err = MPI_SUCCESS;
    MPI_Comm err_comm = MPI_COMM_NULL;
    for (int i = 0; i < count; i++) {
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
        struct mmpi_request *r = m.reqs[i];
        MPI_Comm comm = r ? r->comm : MPI_COMM_NULL; /* the finish may free r */
        int e = r ? mmpi_completion_finish(self, &handles[i], r, st, true) : MPI_SUCCESS;
        if (!r)
            mmpi_status_set_empty(st);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = e;
        if (e != MPI_SUCCESS && first_err == MPI_SUCCESS) {
            first_err = e;
            err_comm = comm;
        }
    }
    free(m.reqs);
    if (first_err == MPI_SUCCESS)
        return MPI_SUCCESS;
    return raise_multiple(self, err_comm, first_err, call);
}

MMPI_PROFILED(Waitall);
int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses)
{
    return waitall_or_testall(array_of_requests, count, array_of_statuses, NULL,
                              MMPI_CALL_Waitall);
}

MMPI_PROFILED(Testall);
int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                 MPI_Status *array_of_statuses)
{
    return waitall_or_testall(array_of_requests, count, array_of_statuses, flag,
                              MMPI_CALL_Testall);
}

static int waitany_or_testany(int count, MPI_Request *handles, int *index, int *flag,
                              MPI_Status *status, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct many m = {count, NULL};
    int err = lookup_all(self, count, handles, &m.reqs);

    if (err == MPI_SUCCESS && (!index || !status || (call == MMPI_CALL_Testany && !flag)))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS) {
        free(m.reqs);
        return mmpi_err_raise_comm(self, NULL, err, call);
    }
    if (call == MMPI_CALL_Waitany)
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
        MPI_Comm comm = r->comm;
        *index = i;
        if (flag)
            *flag = 1;
        err = mmpi_completion_finish(self, &handles[i], r, status, false);
        free(m.reqs);
        if (err != MPI_SUCCESS)
            err = mmpi_err_raise_request_owner(self, comm, err, call);
        return err;
    }
    free(m.reqs);
    if (!any_active) { /* nothing to wait for: flag true, index undefined, empty status */
        if (flag)
            *flag = 1;
        mmpi_status_set_empty(status);
    } else {
        yield_after_miss();
    }
    return MPI_SUCCESS;
}

MMPI_PROFILED(Waitany);
int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    return waitany_or_testany(count, array_of_requests, index, NULL, status, MMPI_CALL_Waitany);
}

MMPI_PROFILED(Testany);
int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                 MPI_Status *status)
{
    return waitany_or_testany(count, array_of_requests, index, flag, status, MMPI_CALL_Testany);
}

static int waitsome_or_testsome(int incount, MPI_Request *handles, int *outcount, int *indices,
                                MPI_Status *statuses, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct many m = {incount, NULL};
    int err = lookup_all(self, incount, handles, &m.reqs);

    if (err == MPI_SUCCESS && (!outcount || (incount > 0 && !indices) || !statuses))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS) {
        free(m.reqs);
        return mmpi_err_raise_comm(self, NULL, err, call);
    }
    bool any_active = false;
    for (int i = 0; i < incount; i++)
        any_active |= m.reqs[i] && active_part(m.reqs[i]);
    if (!any_active) {
        free(m.reqs);
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    if (call == MMPI_CALL_Waitsome)
        mmpi_wait_until_described(self, any_ready, &m, describe_many);
    int first_err = MPI_SUCCESS;
    MPI_Comm err_comm = MPI_COMM_NULL;
    *outcount = finish_ready(self, &m, handles, indices, statuses, &first_err, &err_comm);
    free(m.reqs);
    if (*outcount == 0)
        yield_after_miss();
    if (first_err == MPI_SUCCESS)
        return MPI_SUCCESS;
    return raise_multiple(self, err_comm, first_err, call);
}

MMPI_PROFILED(Waitsome);
int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status *array_of_statuses)
{
    return waitsome_or_testsome(incount, array_of_requests, outcount, array_of_indices,
                                array_of_statuses, MMPI_CALL_Waitsome);
}

MMPI_PROFILED(Testsome);
int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status *array_of_statuses)
{
    return waitsome_or_testsome(incount, array_of_requests, outcount, array_of_indices,
                                array_of_statuses, MMPI_CALL_Testsome);
}
