/*
 * session.c: session objects and what opening and closing one does to the calling rank
 * (session.h). Opening makes the rank's attribute state if MPI_Init has not (session
 * communicators carry attributes like any other), counts the session in the rank, and starts
 * the fault injector's clock on the rank's first entry into MPI. Closing is local and waits for
 * nobody: MPI-4.1 §11.3.1 lets MPI_Session_finalize synchronize with the other members of the
 * session's communicators, but a wait there could hang on a failed process, and nothing here
 * needs it (a communicator's memory stays until its last member lets go of it). Also the
 * session's table of operations (runtime/kind.h): its error handler.
 */
#include <stdlib.h>

#include "attr/attr.h"
#include "inject/inject.h"
#include "pt2pt/bsend.h"
#include "runtime/kind.h"
#include "session/session.h"

struct mmpi_session *mmpi_session_get(struct mmpi_rank *self, MPI_Session handle)
{
    return mmpi_handle_lookup(self, MMPI_HANDLE_KIND_SESSION, handle);
}

int mmpi_session_enter(enum mmpi_call call, MPI_Session handle, struct mmpi_rank **self,
                       struct mmpi_session **s)
{
    *self = mmpi_enter_anytime(call);
    *s = *self ? mmpi_session_get(*self, handle) : NULL;
    return !*self ? MPI_ERR_OTHER : !*s ? MPI_ERR_SESSION : MPI_SUCCESS;
}

int mmpi_session_open(struct mmpi_rank *self, struct mmpi_errhandler *eh, int thread_level,
                      MPI_Session *out)
{
    struct mmpi_session *s = mmpi_xcalloc(1, sizeof(*s));
    s->errhandler = eh;
    s->thread_level = thread_level;
    s->handle = mmpi_handle_new(self, MMPI_HANDLE_KIND_SESSION, s);
    if (s->handle == MPI_SESSION_NULL) {
        free(s);
        return MPI_ERR_NO_MEM;
    }
    mmpi_errhandler_retain(eh);
    mmpi_attr_rank_init(self);
    __atomic_add_fetch(&self->sessions, 1, __ATOMIC_ACQ_REL);
    /* The first entry into MPI of a rank without MPI_Init: `kill R at T ms` counts from here
     * (MPI_Init, if it comes later, restarts the clock as for any rank). */
    if (!__atomic_exchange_n(&self->session_used, true, __ATOMIC_ACQ_REL) &&
        mmpi_rank_phase(self) == MMPI_PHASE_STARTED)
        mmpi_inject_init_done(self);
    *out = s->handle;
    return MPI_SUCCESS;
}

void mmpi_session_close(struct mmpi_rank *self, struct mmpi_session *s)
{
    mmpi_handle_remove(self, MMPI_HANDLE_KIND_SESSION, s->handle);
    /* An attached buffer goes with the session; messages it still bounds stay delivered. */
    pthread_mutex_lock(&self->bsend_lock);
    mmpi_bsend_buffer_free(s->bsend);
    pthread_mutex_unlock(&self->bsend_lock);
    mmpi_errhandler_release(s->errhandler);
    free(s);
    __atomic_sub_fetch(&self->sessions, 1, __ATOMIC_ACQ_REL);
}

/* The session's own handler, which MPI_Session_init gave it (there is no default to inherit);
 * with no valid session, the rule for errors with no object (errhan.h). */
static struct mmpi_errhandler *session_errhandler(struct mmpi_rank *self, const void *obj,
                                                  int *handle)
{
    const struct mmpi_session *s = obj;
    if (!s)
        return mmpi_errhandler_default(self, handle);
    *handle = s->handle;
    return s->errhandler;
}

static const struct mmpi_kind_ops session_kind_ops = {.errhandler = session_errhandler};
MMPI_KIND_REGISTER(MMPI_HANDLE_KIND_SESSION, session_kind_ops)
