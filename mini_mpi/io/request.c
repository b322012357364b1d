/*
 * io/request.c: every data access of a file, blocking or not, as one operation: resolve the
 * position (explicit offset, individual pointer, shared pointer), meet the other members when
 * the access is collective, then transfer (access.c). Nonblocking and split forms are
 * requests of kind MMPI_REQ_OTHER whose poll runs those steps, so MPI_Wait/Test and friends
 * complete them like any other request; blocking independent access transfers at once.
 *
 * File pointers move when the operation starts (§14.4.4: "updated by the amount of data
 * requested"), so several nonblocking accesses in a row take consecutive ranges. A blocking
 * read that ends short at end of file leaves the pointer after what it read, as ROMIO does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/board.h"
#include "datatype/datatype.h"
#include "io/io.h"
#include "pt2pt/request.h"

struct file_req {
    struct mmpi_rank *self;     /* the owning rank */
    struct mmpi_file *f;
    struct mmpi_file_op op;
    MPI_Offset pos;             /* resolved position, etype units */
    struct mmpi_file_view view; /* the view when the access started (own references) */
    struct mmpi_request *meet;  /* collective: the members' barrier until it completed */
    int early_err;              /* collective on a revoked file: fails without meeting */
};

/* Resolves where the access starts (*pos) and moves the pointer it uses. The bindings
 * checked explicit offsets and the individual pointer (access_api.c); the shared pointer is
 * checked as it is claimed: MPI_ERR_ARG when the access does not fit there. */
static int claim_position(struct mmpi_file *f, const struct mmpi_file_op *op, MPI_Offset *pos)
{
    MPI_Offset n = mmpi_file_view_etypes(&f->view, op->dt, op->count * op->dt->size);
    switch (op->fp) {
    case MMPI_FP_EXPLICIT:
        *pos = op->offset;
        return MPI_SUCCESS;
    case MMPI_FP_INDIVIDUAL:
        *pos = f->fp;
        f->fp += n;
        return MPI_SUCCESS;
    default:
        return mmpi_file_shared_claim(f, n, pos);
    }
}

static void set_status(MPI_Status *st, size_t bytes)
{
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->mmpi_cancelled = 0;
    st->mmpi_count = (long long)bytes;
}

static bool file_poll(struct mmpi_request *req)
{
    struct file_req *s = req->state;
    if (mmpi_request_is_done(req))
        return true;
    if (s->early_err) {
        set_status(&req->status, 0);
        mmpi_request_complete(req, s->early_err);
        return true;
    }
    if (s->meet) {
        if (!mmpi_request_poll(s->meet))
            return false;
        int err = s->meet->error;
        mmpi_request_release(s->meet);
        s->meet = NULL;
        if (err != MPI_SUCCESS) {
            mmpi_file_pointer_failed(s->self, s->f, s->op.fp, err);
            set_status(&req->status, 0);
            mmpi_request_complete(req, err);
            return true;
        }
    }
    size_t bytes;
    int err = mmpi_file_transfer(s->f, &s->view, s->op.write, s->pos, s->op.buf, s->op.count,
                                 s->op.dt, &bytes);
    set_status(&req->status, bytes);
    mmpi_request_complete(req, err);
    return true;
}

static void file_req_free(struct mmpi_request *req)
{
    struct file_req *s = req->state;
    if (s->meet) {
        /* Freed before its meeting ended: only a failed rank's request, at world end. */
        if (!mmpi_request_is_done(s->meet))
            mmpi_request_complete(s->meet, MPI_ERR_PROC_FAILED);
        mmpi_request_release(s->meet);
    }
    mmpi_file_view_release(&s->view);
    free(s);
}

int mmpi_file_start(struct mmpi_rank *self, struct mmpi_file *f, const struct mmpi_file_op *op,
                    struct mmpi_request **out)
{
    MPI_Offset pos;
    int err = claim_position(f, op, &pos);
    if (err != MPI_SUCCESS)
        return err;
    struct file_req *s = mmpi_xcalloc(1, sizeof(*s));
    s->self = self;
    s->f = f;
    s->op = *op;
    s->pos = pos;
    mmpi_file_view_copy(&s->view, &f->view);
    if (op->collective && mmpi_file_check_revoked(f))
        s->early_err = MPI_ERR_REVOKED; /* see meeting.c */
    else if (op->collective)
        s->meet = mmpi_file_meet_start(self, f);
    struct mmpi_request *req = mmpi_request_new(self, MMPI_REQ_OTHER);
    mmpi_datatype_retain(op->dt);
    req->dt = op->dt;
    req->collective = op->collective;
    req->comm = f->handle;
    req->state = s;
    req->poll = file_poll;
    req->free_state = file_req_free;
    *out = req;
    return MPI_SUCCESS;
}

/* What a rank blocked in a collective access waits at, for the hang report. */
struct access_wait {
    struct mmpi_file *f;
    MPI_Offset pos;
};

/* The hang report's line for a rank waiting in a collective access. */
static void access_describe(const void *arg, char *buf, size_t len)
{
    const struct access_wait *a = arg;
    snprintf(buf, len,
             "collective access to file %s at position %lld (individual pointer %lld, shared "
             "pointer %lld): waiting for the other members",
             a->f->core->path, (long long)a->pos, (long long)a->f->fp,
             (long long)__atomic_load_n(&a->f->core->shared_fp, __ATOMIC_RELAXED));
}

/* The members' meeting of a blocking collective access: MPI_SUCCESS, MPI_ERR_PROC_FAILED or
 * MPI_ERR_REVOKED (a revoked file meets nobody, meeting.c). May block. */
static int meet_blocking(struct mmpi_rank *self, struct mmpi_file *f, MPI_Offset pos)
{
    struct access_wait a = {f, pos};
    return mmpi_file_meet(self, f->comm, access_describe, &a);
}

static void status_out(MPI_Status *out, size_t bytes)
{
    if (out == MPI_STATUS_IGNORE)
        return;
    set_status(out, bytes);
}

int mmpi_file_access(struct mmpi_rank *self, struct mmpi_file *f, const struct mmpi_file_op *op,
                     MPI_Status *status)
{
    size_t bytes = 0;
    int err;

    MPI_Offset pos;
    if ((err = claim_position(f, op, &pos)) != MPI_SUCCESS) {
        status_out(status, 0);
        return err;
    }
    if (!op->collective) {
        err = mmpi_file_transfer(f, &f->view, op->write, pos, op->buf, op->count, op->dt, &bytes);
        if (op->fp == MMPI_FP_INDIVIDUAL && !op->write)
            f->fp = pos + mmpi_file_view_etypes(&f->view, op->dt, bytes);
        status_out(status, bytes);
        return err;
    }
    uint64_t seq = f->comm->coll_seq; /* the meeting's number, the same at every member */
    mmpi_file_agg_deposit(f, seq, op, pos);
    err = meet_blocking(self, f, pos);
    if (err == MPI_SUCCESS)
        err = mmpi_file_agg_access(self, f, seq, op, pos, &bytes);
    else
        mmpi_file_agg_abandon(f, seq);
    if (op->fp == MMPI_FP_INDIVIDUAL && !op->write)
        f->fp = pos + mmpi_file_view_etypes(&f->view, op->dt, bytes);
    mmpi_file_pointer_failed(self, f, op->fp, err);
    status_out(status, bytes);
    return err;
}
