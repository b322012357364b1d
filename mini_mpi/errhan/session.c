/*
 * errhan/session.c: raising an error on a session (MPI-4.1 §9.3, §11.3.1): the session's own
 * handler, which MPI_Session_init gave it (there is no default to inherit). An error with no
 * valid session has no object, and follows the rule for those (errhan.h). Which handler that
 * is is session/'s answer (the session's table of operations, runtime/kind.h).
 */
#include "mmpi.h"

int mmpi_err_raise_session(struct mmpi_rank *self, struct mmpi_session *s, int errcode,
                           enum mmpi_call call)
{
    if (!self)
        return errcode; /* a thread of no rank: no handler to call */
    return mmpi_err_raise_kind(self, MMPI_HANDLE_KIND_SESSION, s, errcode, call);
}
