/*
 * completion.h: completing requests, the implementation behind MPI_Wait, MPI_Test and their
 * any/all/some forms (completion.c; the entry points are completion_api.c), and what the other
 * calls that complete or inspect requests share with them (MPI_Request_get_status, MPI_Cancel,
 * MPI_Start, ...).
 *
 * Every function here is called only by the owning rank of the requests it is given, with no
 * internal lock held, and raises nothing: it returns an error class, and the entry point raises
 * it on the object that started the request (mmpi_err_raise_request_owner).
 */
#ifndef MMPI_PT2PT_COMPLETION_H
#define MMPI_PT2PT_COMPLETION_H

#include <stdbool.h>

#include "calls.h"
#include "pt2pt/request.h"

/* Resolves a user handle; *req = NULL for MPI_REQUEST_NULL. MPI_SUCCESS or MPI_ERR_REQUEST. */
int mmpi_completion_lookup(struct mmpi_rank *self, MPI_Request handle, struct mmpi_request **req);
/* True when a wait on req would return now (complete, or inactive persistent). */
bool mmpi_completion_ready(struct mmpi_request *req);
/* Hands a ready request back to the user: status out, persistent ones deactivated, others freed
 * and *handle set to MPI_REQUEST_NULL. Returns the operation's error (not raised). */
int mmpi_completion_finish(struct mmpi_rank *self, MPI_Request *handle, struct mmpi_request *req,
                           MPI_Status *status, bool with_error);

/* ---- The completion calls, once their arguments are checked ---- */

/* MPI_Wait on req (not NULL), the request behind *handle: waits until it is ready, then
 * finishes it (mmpi_completion_finish). Returns the operation's error, *owner the request's
 * comm field (a communicator, window or file handle), on which that error is raised. May
 * block. */
int mmpi_completion_wait(struct mmpi_rank *self, MPI_Request *handle, struct mmpi_request *req,
                         MPI_Status *status, MPI_Comm *owner);
/* MPI_Test on req (not NULL): *flag = 0 when it is not ready (after letting other rank-threads
 * run: MPI_Test in a loop must not hold a shared core), else *flag = 1 and as
 * mmpi_completion_wait. Never blocks. */
int mmpi_completion_test(struct mmpi_rank *self, MPI_Request *handle, struct mmpi_request *req,
                         int *flag, MPI_Status *status, MPI_Comm *owner);

/* The request of each of count handles, in a new array of count + 1 (the caller frees it;
 * MPI_REQUEST_NULL gives NULL). count >= 0, handles not NULL when count > 0. Returns
 * MPI_SUCCESS (*reqs set), MPI_ERR_REQUEST (an invalid handle) or MPI_ERR_NO_MEM (*reqs
 * untouched). */
int mmpi_completion_lookup_all(struct mmpi_rank *self, int count, MPI_Request *handles,
                               struct mmpi_request ***reqs);

/* The request that made a multiple-completion call fail (MPI-4.1 §3.7.5): the first failed
 * request's error (MPI_SUCCESS: none failed) and its comm field, on which it is raised. */
struct mmpi_completion_failure {
    int first_err;
    MPI_Comm owner;
};

/* MPI_Waitall (flag NULL: may block) and MPI_Testall (*flag: whether all were ready; none is
 * finished when not) over the count requests reqs of handles (mmpi_completion_lookup_all).
 * Fills every status's MPI_ERROR (statuses may be MPI_STATUSES_IGNORE). Returns MPI_SUCCESS,
 * or MPI_ERR_IN_STATUS with *failed set. */
int mmpi_completion_all(struct mmpi_rank *self, int count, struct mmpi_request **reqs,
                        MPI_Request *handles, MPI_Status *statuses, int *flag,
                        struct mmpi_completion_failure *failed);
/* MPI_Waitany (flag NULL: may block) and MPI_Testany: finishes one ready active request,
 * *index its position (MPI_UNDEFINED if none); with no active request *flag = 1 and an empty
 * status. Returns that request's error, *owner its comm field. */
int mmpi_completion_any(struct mmpi_rank *self, int count, struct mmpi_request **reqs,
                        MPI_Request *handles, int *index, int *flag, MPI_Status *status,
                        MPI_Comm *owner);
/* MPI_Waitsome (wait: may block) and MPI_Testsome: finishes every ready active request, their
 * positions in indices, their statuses in statuses; *outcount = MPI_UNDEFINED when none is
 * active (MPI-4.1 §3.7.5). Returns as mmpi_completion_all. */
int mmpi_completion_some(struct mmpi_rank *self, int count, struct mmpi_request **reqs,
                         MPI_Request *handles, bool wait, int *outcount, int *indices,
                         MPI_Status *statuses, struct mmpi_completion_failure *failed);

/* The error path of a multiple-completion call (completion_api.c, which says what the handler
 * is given): err is raised on no object when no request failed (f->first_err MPI_SUCCESS),
 * else the first failed request's error on its object; returns what the call returns. */
int mmpi_completion_raise_many(struct mmpi_rank *self, int err,
                               const struct mmpi_completion_failure *f, enum mmpi_call call);

#endif
