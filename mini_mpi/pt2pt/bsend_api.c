/*
 * pt2pt/bsend_api.c: the MPI entry points of the buffered-send buffers (MPI-4.1 §3.6.1): the
 * process's (MPI_Buffer_attach, _detach, _flush, _iflush), a communicator's
 * (MPI_Comm_attach_buffer, _detach_buffer, _flush_buffer, _iflush_buffer) and a session's
 * (MPI_Session_attach_buffer, ...), with the _c forms of attach and detach. Bindings only:
 * argument checks, then bsend.c, which owns the buffers and what they bound. The process's
 * calls name no object: their errors go to MPI_COMM_SELF's handler (errhan/errhan.h); a
 * communicator's and a session's to its own. Both forms of a call that returns a size are
 * written here (api/README.md); the int form of detach refuses a size it cannot hold
 * (MPI_ERR_VALUE_TOO_LARGE) before detaching anything.
 */
#include <limits.h>

#include "pt2pt/bsend.h"
#include "pt2pt/pt2pt.h"
#include "session/session.h"

/* Whose buffer a call names: a communicator's, a session's, or (both NULL) the process's. */
struct owner {
    const MPI_Comm *comm;
    const MPI_Session *session;
};
#define PROCESS ((struct owner){NULL, NULL})
#define COMM(h) ((struct owner){&(h), NULL})
#define SESSION(h) ((struct owner){NULL, &(h)})

/* The owner's object (c or s, set when its handle is valid) and the slot of its buffer. */
struct slot {
    struct mmpi_comm *c;
    struct mmpi_session *s;
    struct mmpi_bsend_buffer **buffer;
};

static int slot_of(struct mmpi_rank *self, struct owner o, struct slot *sl)
{
    sl->c = o.comm ? mmpi_comm_get(self, *o.comm) : NULL;
    sl->s = o.session ? mmpi_session_get(self, *o.session) : NULL;
    if (o.comm && !sl->c)
        return MPI_ERR_COMM;
    if (o.session && !sl->s)
        return MPI_ERR_SESSION;
    sl->buffer = sl->c ? &sl->c->bsend : sl->s ? &sl->s->bsend : &self->bsend;
    return MPI_SUCCESS;
}

static int raise_on(struct mmpi_rank *self, const struct slot *sl, int err, enum mmpi_call call)
{
    return sl->s ? mmpi_err_raise_session(self, sl->s, err, call)
                 : mmpi_err_raise_comm(self, sl->c, err, call);
}

static int attach(struct owner o, void *buffer, MPI_Count size, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct slot sl;
    int err = slot_of(self, o, &sl);

    if (err != MPI_SUCCESS)
        goto fn_fail;
    MMPI_FAIL_IF(buffer != MPI_BUFFER_AUTOMATIC && size < 0, MPI_ERR_ARG);
    MMPI_FAIL_IF(!buffer && size > 0, MPI_ERR_BUFFER);
    if ((err = mmpi_bsend_attach(self, sl.buffer, buffer, size)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = raise_on(self, &sl, err, call);
    goto fn_exit;
}

/* Detach, the size into *size_c (the _c form) or *size_i (the int form, which refuses a size
 * it cannot hold). */
static int detach(struct owner o, void *buffer_addr, MPI_Count *size_c, int *size_i,
                  enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct slot sl;
    MPI_Count n = 0;
    int err = slot_of(self, o, &sl);

    if (err != MPI_SUCCESS)
        goto fn_fail;
    MMPI_FAIL_IF(!buffer_addr || (!size_c && !size_i), MPI_ERR_ARG);
    pthread_mutex_lock(&self->bsend_lock);
    bool too_large = size_i && *sl.buffer && (*sl.buffer)->size > INT_MAX;
    pthread_mutex_unlock(&self->bsend_lock);
    MMPI_FAIL_IF(too_large, MPI_ERR_VALUE_TOO_LARGE); /* MPI-4.1 §5.2.1: the _c form can say it */
    /* Detached even when a message was lost, which the error then reports. */
    err = mmpi_bsend_detach(self, sl.buffer, buffer_addr, &n);
    if (size_c)
        *size_c = n;
    else
        *size_i = (int)n;
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = raise_on(self, &sl, err, call);
    goto fn_exit;
}

/* Flush; with a request (the iflush calls) as a request. */
static int flush(struct owner o, bool nonblocking, MPI_Request *request, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct slot sl;
    int err = slot_of(self, o, &sl);

    if (err != MPI_SUCCESS)
        goto fn_fail;
    MMPI_FAIL_IF(nonblocking && !request, MPI_ERR_ARG);
    err = nonblocking
              ? mmpi_bsend_iflush(self, sl.buffer, sl.c ? sl.c->handle : MPI_COMM_NULL, request)
              : mmpi_bsend_flush(self, sl.buffer);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = raise_on(self, &sl, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Buffer_attach);
int PMPI_Buffer_attach(void *buffer, int size)
{
    return attach(PROCESS, buffer, size, MMPI_CALL_Buffer_attach);
}

MMPI_PROFILED(Buffer_attach_c);
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    return attach(PROCESS, buffer, size, MMPI_CALL_Buffer_attach_c);
}

MMPI_PROFILED(Buffer_detach);
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    return detach(PROCESS, buffer_addr, NULL, size, MMPI_CALL_Buffer_detach);
}

MMPI_PROFILED(Buffer_detach_c);
int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    return detach(PROCESS, buffer_addr, size, NULL, MMPI_CALL_Buffer_detach_c);
}

MMPI_PROFILED(Buffer_flush);
int PMPI_Buffer_flush(void)
{
    return flush(PROCESS, false, NULL, MMPI_CALL_Buffer_flush);
}

MMPI_PROFILED(Buffer_iflush);
int PMPI_Buffer_iflush(MPI_Request *request)
{
    return flush(PROCESS, true, request, MMPI_CALL_Buffer_iflush);
}

MMPI_PROFILED(Comm_attach_buffer);
int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    return attach(COMM(comm), buffer, size, MMPI_CALL_Comm_attach_buffer);
}

MMPI_PROFILED(Comm_attach_buffer_c);
int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    return attach(COMM(comm), buffer, size, MMPI_CALL_Comm_attach_buffer_c);
}

MMPI_PROFILED(Comm_detach_buffer);
int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    return detach(COMM(comm), buffer_addr, NULL, size, MMPI_CALL_Comm_detach_buffer);
}

MMPI_PROFILED(Comm_detach_buffer_c);
int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    return detach(COMM(comm), buffer_addr, size, NULL, MMPI_CALL_Comm_detach_buffer_c);
}

MMPI_PROFILED(Comm_flush_buffer);
int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    return flush(COMM(comm), false, NULL, MMPI_CALL_Comm_flush_buffer);
}

MMPI_PROFILED(Comm_iflush_buffer);
int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    return flush(COMM(comm), true, request, MMPI_CALL_Comm_iflush_buffer);
}

MMPI_PROFILED(Session_attach_buffer);
int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    return attach(SESSION(session), buffer, size, MMPI_CALL_Session_attach_buffer);
}

MMPI_PROFILED(Session_attach_buffer_c);
int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
    return attach(SESSION(session), buffer, size, MMPI_CALL_Session_attach_buffer_c);
}

MMPI_PROFILED(Session_detach_buffer);
int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    return detach(SESSION(session), buffer_addr, NULL, size, MMPI_CALL_Session_detach_buffer);
}

MMPI_PROFILED(Session_detach_buffer_c);
int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
    return detach(SESSION(session), buffer_addr, size, NULL, MMPI_CALL_Session_detach_buffer_c);
}

MMPI_PROFILED(Session_flush_buffer);
int PMPI_Session_flush_buffer(MPI_Session session)
{
    return flush(SESSION(session), false, NULL, MMPI_CALL_Session_flush_buffer);
}

MMPI_PROFILED(Session_iflush_buffer);
int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    return flush(SESSION(session), true, request, MMPI_CALL_Session_iflush_buffer);
}
