/*
 * persistent.c: persistent point-to-point requests (MPI-4.1 §3.9): *_init record the arguments
 * in a request the user keeps; each MPI_Start starts one activation (an engine request held in
 * `inner`), which MPI_Wait/Test complete while the user's request stays allocated.
 */
#include "coll/persistent.h"
#include "datatype/datatype.h"
#include "pt2pt/completion.h"
#include "pt2pt/copy.h"
#include "pt2pt/pt2pt.h"

static void persistent_free_state(struct mmpi_request *req)
{
    if (req->inner)
        mmpi_request_release(req->inner);
}

static int init_request(const void *buf, int count, MPI_Datatype datatype, int peer, int tag,
                        MPI_Comm comm, MPI_Request *request, int kind, enum mmpi_send_mode mode,
                        enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c;
    struct mmpi_datatype *dt;
    int err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, peer, tag,
                                    kind == MMPI_REQ_RECV, &c, &dt);
    if (err == MPI_SUCCESS && !request)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return mmpi_err_raise_comm(self, c, err, call);
    struct mmpi_request *req = mmpi_request_new(self, kind);
    req->refs = 1; /* only the user's: no engine work until MPI_Start */
    req->persistent = true;
    req->comm = comm;
    req->core = c->core;
    mmpi_comm_core_retain(c->core);
    req->buf = (void *)buf;
    req->count = (size_t)count;
    req->dt = dt;
    mmpi_datatype_retain(dt);
    req->peer = peer;
    req->tag = tag;
    req->mode = mode;
    req->free_state = persistent_free_state;
    err = mmpi_request_publish(self, req, request);
    return err ? mmpi_err_raise_comm(self, c, err, call) : MPI_SUCCESS;
}

#define SEND_INIT(Name, mode)                                                                \
    MMPI_PROFILED(Name);                                                                      \
    int PMPI_##Name(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,    \
                    MPI_Comm comm, MPI_Request *request)                                     \
    {                                                                                        \
        return init_request(buf, count, datatype, dest, tag, comm, request, MMPI_REQ_SEND,   \
                            mode, MMPI_CALL_##Name);                                         \
    }
SEND_INIT(Send_init, MMPI_SEND_STANDARD)
SEND_INIT(Ssend_init, MMPI_SEND_SYNC)
SEND_INIT(Rsend_init, MMPI_SEND_READY)
SEND_INIT(Bsend_init, MMPI_SEND_BUFFERED)

MMPI_PROFILED(Recv_init);
int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return init_request(buf, count, datatype, source, tag, comm, request, MMPI_REQ_RECV,
                        MMPI_SEND_STANDARD, MMPI_CALL_Recv_init);
}

/* Starts one activation; the communicator may have been freed meanwhile (the core lives on). */
static int start_one(struct mmpi_rank *self, struct mmpi_request *req)
{
    if (!req->persistent || req->inner)
        return MPI_ERR_REQUEST; /* not persistent, or already active */
    struct mmpi_comm *c = mmpi_comm_get(self, req->comm);
    if (!c || c->core != req->core)
        return MPI_ERR_COMM;
    if (mmpi_coll_persistent_is(req))
        return mmpi_coll_persistent_start(self, c, req);
    if (req->kind == MMPI_REQ_SEND) {
        if (req->mode == MMPI_SEND_BUFFERED && req->peer != MPI_PROC_NULL) {
            int err = mmpi_bsend_reserve(self, mmpi_typed_bytes(req->dt, req->count));
            if (err != MPI_SUCCESS)
                return err;
        }
        req->inner = mmpi_pt2pt_start_send(self, c, MMPI_CTX_USER, req->buf, (int)req->count,
                                           req->dt, req->peer, req->tag, req->mode);
    } else {
        req->inner = mmpi_pt2pt_start_recv(self, c, MMPI_CTX_USER, req->buf, (int)req->count,
                                           req->dt, req->peer, req->tag);
    }
    return MPI_SUCCESS;
}

MMPI_PROFILED(Start);
int PMPI_Start(MPI_Request *request)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Start);
    struct mmpi_request *req = NULL;
    int err = request ? mmpi_completion_lookup(self, *request, &req) : MPI_ERR_ARG;
    if (err == MPI_SUCCESS && !req)
        err = MPI_ERR_REQUEST;
    if (err == MPI_SUCCESS)
        err = start_one(self, req);
    if (err != MPI_SUCCESS)
        return mmpi_request_raise(self, req, err, MMPI_CALL_Start);
    return MPI_SUCCESS;
}

MMPI_PROFILED(Startall);
int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Startall);
    int err = count < 0 ? MPI_ERR_COUNT : (count > 0 && !array_of_requests) ? MPI_ERR_ARG
                                                                             : MPI_SUCCESS;
    struct mmpi_request *req = NULL;
    /* Validate all before starting any, so an error leaves no request half-started. */
    for (int i = 0; err == MPI_SUCCESS && i < count; i++) {
        err = mmpi_completion_lookup(self, array_of_requests[i], &req);
        if (err == MPI_SUCCESS && (!req || !req->persistent || req->inner))
            err = MPI_ERR_REQUEST;
    }
    for (int i = 0; err == MPI_SUCCESS && i < count; i++) {
        mmpi_completion_lookup(self, array_of_requests[i], &req);
        err = start_one(self, req);
    }
    if (err != MPI_SUCCESS)
        return mmpi_request_raise(self, req, err, MMPI_CALL_Startall);
    return MPI_SUCCESS;
}
