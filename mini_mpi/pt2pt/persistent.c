/*
 * pt2pt/persistent.c: persistent point-to-point requests (MPI-4.1 §3.9), the implementation of
 * MPI_Send_init and its kin, MPI_Recv_init, MPI_Start and MPI_Startall
 * (mmpi_pt2pt_persistent_init, mmpi_pt2pt_start, mmpi_pt2pt_startall; the bindings are
 * persistent_api.c). *_init record the arguments
 * in a request the user keeps; each MPI_Start starts one activation (an engine request held in
 * `inner`), which MPI_Wait/Test complete while the user's request stays allocated.
 */
#include "coll/persistent.h"
#include "datatype/datatype.h"
#include "part/part.h"
#include "pt2pt/completion.h"
#include "pt2pt/copy.h"
#include "pt2pt/pt2pt.h"

static void persistent_free_state(struct mmpi_request *req)
{
    if (req->inner)
        mmpi_request_release(req->inner);
}

int mmpi_pt2pt_persistent_init(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm comm,
                               const void *buf, MPI_Count count, struct mmpi_datatype *dt, int peer,
                               int tag, int kind, enum mmpi_send_mode mode, MPI_Request *request)
{
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
    return mmpi_request_publish(self, req, request);
}

/* Starts one activation; the communicator may have been freed meanwhile (the core lives on). */
int mmpi_pt2pt_start(struct mmpi_rank *self, struct mmpi_request *req)
{
    if (!req->persistent || req->inner)
        return MPI_ERR_REQUEST; /* not persistent, or already active */
    struct mmpi_comm *c = mmpi_comm_get(self, req->comm);
    if (!c || c->core != req->core)
        return MPI_ERR_COMM;
    if (mmpi_coll_persistent_is(req))
        return mmpi_coll_persistent_start(self, c, req);
    if (mmpi_part_is(req))
        return mmpi_part_start(self, c, req);
    if (req->kind == MMPI_REQ_SEND) {
        if (req->mode == MMPI_SEND_BUFFERED && req->peer != MPI_PROC_NULL) {
            int err = mmpi_bsend_reserve(self, c, req->peer, mmpi_typed_bytes(req->dt, req->count));
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

int mmpi_pt2pt_startall(struct mmpi_rank *self, int count, MPI_Request array_of_requests[],
                        struct mmpi_request **req)
{
    int err = MPI_SUCCESS;
    for (int i = 0; err == MPI_SUCCESS && i < count; i++) {
        mmpi_completion_lookup(self, array_of_requests[i], req);
        err = mmpi_pt2pt_start(self, *req);
    }
    return err;
}
