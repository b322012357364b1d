/*
 * start.c: argument validation shared by every send and receive, and starting them on the
 * matching engine (pt2pt.h).
 */
#include "pt2pt/pt2pt.h"

#include "datatype/datatype.h"
#include "pt2pt/chan.h"
#include "pt2pt/copy.h"
#include "pt2pt/match.h"
#include "ulfm/ulfm.h"

const struct mmpi_datatype *mmpi_pt2pt_dt_cache[MMPI_PT2PT_DT_CACHE];

int mmpi_pt2pt_check_args_full(struct mmpi_rank *self, MPI_Comm comm, const void *buf,
                               MPI_Count count, MPI_Datatype datatype, int peer, int tag,
                               bool receive, struct mmpi_comm **c, struct mmpi_datatype **dt)
{
    *c = comm == MPI_COMM_WORLD ? mmpi_restart_world_route(self, peer) /* restart.h */
                                : mmpi_comm_get(self, comm);
    if (!*c)
        return MPI_ERR_COMM;
    if (count < 0)
        return MPI_ERR_COUNT;
    /* No elements need no datatype: MPI_DATATYPE_NULL with count 0 is a message of no bytes,
     * as in MPICH (codes such as ParallelIO pass it for empty pieces; Open MPI refuses it). */
    if (count == 0 && datatype == MPI_DATATYPE_NULL)
        datatype = MPI_BYTE;
    int err = mmpi_datatype_check(self, datatype, dt);
    if (err != MPI_SUCCESS)
        return err;
    mmpi_pt2pt_dt_remember(datatype, *dt);
    int n = mmpi_comm_remote_size(*c);
    if (!(peer == MPI_PROC_NULL || (receive && peer == MPI_ANY_SOURCE) || (peer >= 0 && peer < n)))
        return MPI_ERR_RANK;
    if (!((receive && tag == MPI_ANY_TAG) || (tag >= 0 && tag <= MMPI_TAG_UB)))
        return MPI_ERR_TAG;
    if (mmpi_buffer_missing(buf, (size_t)count, *dt))
        return MPI_ERR_BUFFER;
    /* Every operation on a revoked communicator fails, MPI_PROC_NULL included (§17.3.1). */
    if (mmpi_fault_revoked(&(*c)->core->fault))
        return MPI_ERR_REVOKED;
    return MPI_SUCCESS;
}

/* Fills a fresh request (heap or on_stack) with the operation's arguments. */
static void request_fill(struct mmpi_request *req, struct mmpi_comm *c, int ctx, void *buf,
                         MPI_Count count, struct mmpi_datatype *dt, int peer, int tag)
{
    req->comm = c->handle;
    req->core = c->core;
    req->ctx = ctx;
    req->peer = peer;
    req->peer_world = peer >= 0 ? mmpi_comm_peer_world(c, peer) : -1;
    req->tag = tag;
    req->my_rank = c->rank;
    req->buf = buf;
    req->count = (size_t)count;
    req->dt = dt;
    if (!req->on_stack) {
        mmpi_comm_core_retain(c->core);
        mmpi_datatype_retain(dt);
    }
}

static void complete_proc_null(struct mmpi_request *req)
{
    req->status.MPI_SOURCE = MPI_PROC_NULL;
    req->status.MPI_TAG = MPI_ANY_TAG;
    req->status.mmpi_count = 0;
    req->status.mmpi_cancelled = 0;
    mmpi_request_complete(req, MPI_SUCCESS);
}

void mmpi_pt2pt_post_send(struct mmpi_rank *self, struct mmpi_comm *c, int ctx, const void *buf,
                          MPI_Count count, struct mmpi_datatype *dt, int dest, int tag,
                          enum mmpi_send_mode mode, struct mmpi_request *req)
{
    request_fill(req, c, ctx, (void *)buf, count, dt, dest, tag);
    req->mode = mode;
    if (dest == MPI_PROC_NULL) {
        complete_proc_null(req);
    } else if (mmpi_fault_is_failed(self->world->ranks[req->peer_world])) {
        /* Nothing to a failed peer, not even an eager copy (§17.2.1). */
        mmpi_fault_notice(self, req->peer_world);
        if (mode == MMPI_SEND_BUFFERED)
            mmpi_bsend_settle(mmpi_bsend_take_ticket()); /* nothing queued */
        req->status.MPI_SOURCE = c->rank;
        req->status.MPI_TAG = tag;
        mmpi_request_complete(req, MPI_ERR_PROC_FAILED);
    } else {
        if (ctx == MMPI_CTX_USER)
            mmpi_pvar_sent(mmpi_typed_bytes(dt, (size_t)count));
        mmpi_match_send(self, c, req);
    }
}

void mmpi_pt2pt_post_recv(struct mmpi_rank *self, struct mmpi_comm *c, int ctx, void *buf,
                          MPI_Count count, struct mmpi_datatype *dt, int source, int tag,
                          struct mmpi_request *req)
{
    request_fill(req, c, ctx, buf, count, dt, source, tag);
    if (source == MPI_PROC_NULL)
        complete_proc_null(req);
    else
        mmpi_match_recv(self, c, req);
}

struct mmpi_request *mmpi_pt2pt_start_send(struct mmpi_rank *self, struct mmpi_comm *c, int ctx,
                                           const void *buf, MPI_Count count,
                                           struct mmpi_datatype *dt, int dest, int tag,
                                           enum mmpi_send_mode mode)
{
    struct mmpi_request *req = mmpi_request_new(self, MMPI_REQ_SEND);
    mmpi_pt2pt_post_send(self, c, ctx, buf, count, dt, dest, tag, mode, req);
    return req;
}

/* Nonblocking operations report even revocation at completion (docs/design.md "The fault layer";
 * Open MPI's ob1 hands
 * back a request completed in error): a program may Wait on the request it got from an Isend or
 * Irecv that raced with a revoke, so it must get a valid request, never an error and no handle. */
struct mmpi_request *mmpi_pt2pt_revoked_request(struct mmpi_rank *self, struct mmpi_comm *c,
                                                int kind)
{
    struct mmpi_request *req = mmpi_request_new(self, kind);
    req->comm = c->handle;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    mmpi_request_complete(req, MPI_ERR_REVOKED);
    return req;
}

struct mmpi_request *mmpi_pt2pt_start_recv(struct mmpi_rank *self, struct mmpi_comm *c, int ctx,
                                           void *buf, MPI_Count count, struct mmpi_datatype *dt,
                                           int source, int tag)
{
    struct mmpi_request *req = mmpi_request_new(self, MMPI_REQ_RECV);
    mmpi_pt2pt_post_recv(self, c, ctx, buf, count, dt, source, tag, req);
    return req;
}

int mmpi_request_raise(struct mmpi_rank *self, struct mmpi_request *req, int err,
                       enum mmpi_call call)
{
    struct mmpi_comm *c = req && req->comm != MPI_COMM_NULL ? mmpi_comm_get(self, req->comm)
                                                            : NULL;
    return mmpi_err_raise_comm(self, c, err, call);
}
