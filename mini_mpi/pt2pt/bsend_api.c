/*
 * pt2pt/bsend_api.c: the MPI entry points of the buffered-send buffers (MPI-4.1 §3.6.1): the
 * process's (MPI_Buffer_attach, _detach, _flush, _iflush, with the _c forms of attach and
 * detach) and a communicator's (MPI_Comm_attach_buffer, _detach_buffer, _flush_buffer,
 * _iflush_buffer). Bindings only: argument checks, then bsend.c, which owns the buffers and
 * what they bound. The process's calls name no object: their errors go to MPI_COMM_SELF's
 * handler (errhan/errhan.h); a communicator's to its own. Both forms of a call that returns a
 * size are written here (api/README.md); the int form of detach refuses a size it cannot hold
 * (MPI_ERR_VALUE_TOO_LARGE) before detaching anything.
 */
#include <limits.h>

#include "pt2pt/bsend.h"
#include "pt2pt/pt2pt.h"

/* The slot of comm's buffer (*c set when comm is valid), or of the process's (comm NULL). */
static int slot_of(struct mmpi_rank *self, const MPI_Comm *comm, struct mmpi_comm **c,
                   struct mmpi_bsend_buffer ***slot)
{
    *c = comm ? mmpi_comm_get(self, *comm) : NULL;
    if (comm && !*c)
        return MPI_ERR_COMM;
    *slot = *c ? &(*c)->bsend : &self->bsend;
    return MPI_SUCCESS;
}

static int attach(const MPI_Comm *comm, void *buffer, MPI_Count size, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = NULL;
    struct mmpi_bsend_buffer **slot;
    int err = slot_of(self, comm, &c, &slot);

    if (err != MPI_SUCCESS)
        goto fn_fail;
    if (buffer != MPI_BUFFER_AUTOMATIC && size < 0) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    if (!buffer && size > 0) {
        err = MPI_ERR_BUFFER;
        goto fn_fail;
    }
    if ((err = mmpi_bsend_attach(self, slot, buffer, size)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

/* Detach, the size into *size_c (the _c form) or *size_i (the int form, which refuses a size
 * it cannot hold). */
static int detach(const MPI_Comm *comm, void *buffer_addr, MPI_Count *size_c, int *size_i,
                  enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = NULL;
    struct mmpi_bsend_buffer **slot;
    MPI_Count n = 0;
    int err = slot_of(self, comm, &c, &slot);

    if (err != MPI_SUCCESS)
        goto fn_fail;
    if (!buffer_addr || (!size_c && !size_i)) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    pthread_mutex_lock(&self->bsend_lock);
    bool too_large = size_i && *slot && (*slot)->size > INT_MAX;
    pthread_mutex_unlock(&self->bsend_lock);
    if (too_large) {
        err = MPI_ERR_VALUE_TOO_LARGE; /* MPI-4.1 §5.2.1: the _c form can say it */
        goto fn_fail;
    }
    /* Detached even when a message was lost, which the error then reports. */
    err = mmpi_bsend_detach(self, slot, buffer_addr, &n);
    if (size_c)
        *size_c = n;
    else
        *size_i = (int)n;
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

static int flush(const MPI_Comm *comm, MPI_Request *request, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = NULL;
    struct mmpi_bsend_buffer **slot;
    bool nonblocking = call == MMPI_CALL_Buffer_iflush || call == MMPI_CALL_Comm_iflush_buffer;
    int err = slot_of(self, comm, &c, &slot);

    if (err != MPI_SUCCESS)
        goto fn_fail;
    if (nonblocking && !request) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    err = nonblocking ? mmpi_bsend_iflush(self, slot, c ? c->handle : MPI_COMM_NULL, request)
                      : mmpi_bsend_flush(self, slot);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Buffer_attach);
int PMPI_Buffer_attach(void *buffer, int size)
{
    return attach(NULL, buffer, size, MMPI_CALL_Buffer_attach);
}

MMPI_PROFILED(Buffer_attach_c);
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    return attach(NULL, buffer, size, MMPI_CALL_Buffer_attach_c);
}

MMPI_PROFILED(Buffer_detach);
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    return detach(NULL, buffer_addr, NULL, size, MMPI_CALL_Buffer_detach);
}

MMPI_PROFILED(Buffer_detach_c);
int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    return detach(NULL, buffer_addr, size, NULL, MMPI_CALL_Buffer_detach_c);
}

MMPI_PROFILED(Buffer_flush);
int PMPI_Buffer_flush(void)
{
    return flush(NULL, NULL, MMPI_CALL_Buffer_flush);
}

MMPI_PROFILED(Buffer_iflush);
int PMPI_Buffer_iflush(MPI_Request *request)
{
    return flush(NULL, request, MMPI_CALL_Buffer_iflush);
}

MMPI_PROFILED(Comm_attach_buffer);
int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    return attach(&comm, buffer, size, MMPI_CALL_Comm_attach_buffer);
}

MMPI_PROFILED(Comm_attach_buffer_c);
int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    return attach(&comm, buffer, size, MMPI_CALL_Comm_attach_buffer_c);
}

MMPI_PROFILED(Comm_detach_buffer);
int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    return detach(&comm, buffer_addr, NULL, size, MMPI_CALL_Comm_detach_buffer);
}

MMPI_PROFILED(Comm_detach_buffer_c);
int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    return detach(&comm, buffer_addr, size, NULL, MMPI_CALL_Comm_detach_buffer_c);
}

MMPI_PROFILED(Comm_flush_buffer);
int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    return flush(&comm, NULL, MMPI_CALL_Comm_flush_buffer);
}

MMPI_PROFILED(Comm_iflush_buffer);
int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    return flush(&comm, request, MMPI_CALL_Comm_iflush_buffer);
}
