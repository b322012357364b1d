/*
 * pt2pt/completion_api.c: the MPI entry points that complete requests (MPI-4.1 §3.7.3, §3.7.5):
 * MPI_Wait, MPI_Test, MPI_Waitall, MPI_Testall, MPI_Waitany, MPI_Testany, MPI_Waitsome and
 * MPI_Testsome. Bindings only: argument checks and handle lookups, the MPI_REQUEST_NULL early
 * return, then one call into completion.c. Bad arguments are raised on no object (a request
 * has no handler); a failed request's error on the object that started it (its communicator,
 * window or file: mmpi_err_raise_request_owner). MPI_Wait and MPI_Test are on the hot path:
 * the library is built with LTO, so completion.c's helpers inline here.
 */
#include <stdlib.h>

#include "pt2pt/completion.h"
#include "pt2pt/pt2pt.h"

MMPI_PROFILED(Wait);
int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Wait);
    struct mmpi_request *req = NULL;
    MPI_Comm owner = MPI_COMM_NULL; /* set once a request's own error is to be raised */
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!request, MPI_ERR_ARG);
    if ((err = mmpi_completion_lookup(self, *request, &req)))
        goto fn_fail;
    MMPI_FAIL_IF(!status, MPI_ERR_ARG);
    if (!req) { /* MPI-4.1 §3.7.3: a null handle completes at once, with an empty status */
        mmpi_status_set_empty(status);
        goto fn_exit;
    }
    if ((err = mmpi_completion_wait(self, request, req, status, &owner)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_request_owner(self, owner, err, MMPI_CALL_Wait);
    goto fn_exit;
}

MMPI_PROFILED(Test);
int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Test);
    struct mmpi_request *req = NULL;
    MPI_Comm owner = MPI_COMM_NULL; /* set once a request's own error is to be raised */
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!request, MPI_ERR_ARG);
    if ((err = mmpi_completion_lookup(self, *request, &req)))
        goto fn_fail;
    MMPI_FAIL_IF(!status || !flag, MPI_ERR_ARG);
    if (!req) { /* MPI-4.1 §3.7.3: a null handle is complete, with an empty status */
        *flag = 1;
        mmpi_status_set_empty(status);
        goto fn_exit;
    }
    if ((err = mmpi_completion_test(self, request, req, flag, status, &owner)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_request_owner(self, owner, err, MMPI_CALL_Test);
    goto fn_exit;
}

/* ---- Multiple completion ------------------------------------------------------------------ */

/* The error path of the multiple-completion calls. A bad argument (failed.first_err is
 * MPI_SUCCESS) is raised on no object. When requests failed, the call returns
 * MPI_ERR_IN_STATUS, with statuses or with MPI_STATUSES_IGNORE (§3.7.5; Open MPI and MPICH
 * both do, checked on Debian's Open MPI 4.1 and MPICH 4.0); the statuses hold each request's
 * error. What the error handler is given follows the MPI whose conventions the job follows
 * (README, "Ranks, deaths and exit status"): Open MPI's (the default, mpiexec --with-ft ulfm)
 * passes the first failed request's own code, so a ULFM handler sees MPI_ERR_PROC_FAILED and
 * can recover; MPICH's (-disable-auto-cleanup) passes MPI_ERR_IN_STATUS. The handler is the
 * failed request's object's (a file request: the file's). */
int mmpi_completion_raise_many(struct mmpi_rank *self, int err,
                               const struct mmpi_completion_failure *f, enum mmpi_call call)
{
    if (f->first_err == MPI_SUCCESS)
        return mmpi_err_raise_request_owner(self, f->owner, err, call);
    int code = self->world->config.exit_convention == MMPI_EXIT_MPICH ? MPI_ERR_IN_STATUS
                                                                       : f->first_err;
    mmpi_err_raise_request_owner(self, f->owner, code, call);
    return MPI_ERR_IN_STATUS;
}

/* MPI_Waitall and MPI_Testall (flag not NULL): what they check is the same. */
static int waitall_or_testall(MPI_Request *handles, int count, MPI_Status *statuses, int *flag,
                              enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_request **reqs = NULL;
    struct mmpi_completion_failure failed = {MPI_SUCCESS, MPI_COMM_NULL};
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(count < 0, MPI_ERR_COUNT);
    MMPI_FAIL_IF(count > 0 && !handles, MPI_ERR_ARG);
    if ((err = mmpi_completion_lookup_all(self, count, handles, &reqs)))
        goto fn_fail;
    /* With no requests the arrays are never read: NULL is fine (as in MPICH). */
    MMPI_FAIL_IF((call == MMPI_CALL_Testall && !flag) || (count > 0 && !statuses), MPI_ERR_ARG);
    if ((err = mmpi_completion_all(self, count, reqs, handles, statuses,
                                   call == MMPI_CALL_Testall ? flag : NULL, &failed)))
        goto fn_fail;
fn_exit:
    free(reqs);
    return err;
fn_fail:
    err = mmpi_completion_raise_many(self, err, &failed, call);
    goto fn_exit;
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

/* MPI_Waitany and MPI_Testany (flag not NULL). One request completes: its error is raised as
 * a single-completion call's. */
static int waitany_or_testany(int count, MPI_Request *handles, int *index, int *flag,
                              MPI_Status *status, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_request **reqs = NULL;
    MPI_Comm owner = MPI_COMM_NULL; /* set once a request's own error is to be raised */
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(count < 0, MPI_ERR_COUNT);
    MMPI_FAIL_IF(count > 0 && !handles, MPI_ERR_ARG);
    if ((err = mmpi_completion_lookup_all(self, count, handles, &reqs)))
        goto fn_fail;
    MMPI_FAIL_IF(!index || !status || (call == MMPI_CALL_Testany && !flag), MPI_ERR_ARG);
    if ((err = mmpi_completion_any(self, count, reqs, handles, index,
                                   call == MMPI_CALL_Testany ? flag : NULL, status, &owner)))
        goto fn_fail;
fn_exit:
    free(reqs);
    return err;
fn_fail:
    err = mmpi_err_raise_request_owner(self, owner, err, call);
    goto fn_exit;
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

/* MPI_Waitsome and MPI_Testsome: what they check is the same. */
static int waitsome_or_testsome(int incount, MPI_Request *handles, int *outcount, int *indices,
                                MPI_Status *statuses, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_request **reqs = NULL;
    struct mmpi_completion_failure failed = {MPI_SUCCESS, MPI_COMM_NULL};
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(incount < 0, MPI_ERR_COUNT);
    MMPI_FAIL_IF(incount > 0 && !handles, MPI_ERR_ARG);
    if ((err = mmpi_completion_lookup_all(self, incount, handles, &reqs)))
        goto fn_fail;
    MMPI_FAIL_IF(!outcount || (incount > 0 && (!indices || !statuses)), MPI_ERR_ARG);
    if ((err = mmpi_completion_some(self, incount, reqs, handles, call == MMPI_CALL_Waitsome,
                                    outcount, indices, statuses, &failed)))
        goto fn_fail;
fn_exit:
    free(reqs);
    return err;
fn_fail:
    err = mmpi_completion_raise_many(self, err, &failed, call);
    goto fn_exit;
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
