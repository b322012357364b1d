/*
 * pt2pt/isendrecv.c: the implementation of MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.1
 * §3.10): one request over two engine requests, a receive posted first and then a send, which
 * completes once both have. Its poll (run by the owner's Wait and Test) polls both, so a failed
 * peer or a revocation reaches it as it reaches an Irecv or an Isend; the receive fails like
 * a blocking one (MPI_ERR_PROC_FAILED, also with MPI_ANY_SOURCE), as MPI_Sendrecv's does.
 * The bindings are isendrecv_api.c.
 */
#include <stdlib.h>

#include "pt2pt/copy.h"
#include "pt2pt/pt2pt.h"

struct isendrecv {
    struct mmpi_request *sreq, *rreq; /* engine requests, the caller's reference of each */
    void *copy;                       /* Isendrecv_replace: the packed send data, or NULL */
};

/* Completes once both parts have: the send's error first, else the receive's; the status is
 * the receive's (MPI-4.1 §3.10). */
static bool isendrecv_poll(struct mmpi_request *req)
{
    struct isendrecv *s = req->state;
    if (mmpi_request_is_done(req))
        return true;
    bool sent = mmpi_request_poll(s->sreq);
    bool received = mmpi_request_poll(s->rreq);
    if (!sent || !received)
        return false;
    req->status = s->rreq->status;
    mmpi_request_complete(req, s->sreq->error != MPI_SUCCESS ? s->sreq->error : s->rreq->error);
    return true;
}

/* Runs when the last reference goes: after completion, or at the world's end for a request
 * freed while active (the engine parts keep their own references until they complete). */
static void isendrecv_free(struct mmpi_request *req)
{
    struct isendrecv *s = req->state;
    mmpi_request_release(s->sreq);
    mmpi_request_release(s->rreq);
    free(s->copy);
    free(s);
}

int mmpi_pt2pt_isendrecv(struct mmpi_rank *self, struct mmpi_comm *c, const void *sendbuf,
                         MPI_Count sendcount, struct mmpi_datatype *sdt, int dest, int sendtag,
                         void *recvbuf, MPI_Count recvcount, struct mmpi_datatype *rdt,
                         int source, int recvtag, bool revoked, void *copy, MPI_Request *request)
{
    struct isendrecv *s = mmpi_xcalloc(1, sizeof(*s));
    s->copy = copy;
    if (revoked) { /* reported at completion, as for Isend and Irecv */
        s->rreq = mmpi_pt2pt_revoked_request(self, c, MMPI_REQ_RECV);
        s->sreq = mmpi_pt2pt_revoked_request(self, c, MMPI_REQ_SEND);
    } else {
        /* The receive first: two ranks exchanging by Isendrecv then never wait for each
         * other, whatever the size (mmpi_pt2pt_sendrecv). */
        s->rreq = mmpi_request_new(self, MMPI_REQ_RECV);
        s->rreq->blocking = true; /* MPI_Sendrecv's failure semantics for MPI_ANY_SOURCE */
        mmpi_pt2pt_post_recv(self, c, MMPI_CTX_USER, recvbuf, recvcount, rdt, source, recvtag,
                             s->rreq);
        s->sreq = mmpi_pt2pt_start_send(self, c, MMPI_CTX_USER, sendbuf, sendcount, sdt, dest,
                                        sendtag, MMPI_SEND_STANDARD);
    }
    struct mmpi_request *req = mmpi_request_new(self, MMPI_REQ_OTHER);
    req->comm = c->handle;
    req->state = s;
    req->poll = isendrecv_poll;
    req->free_state = isendrecv_free;
    if (mmpi_request_handle_new(self, req) == MPI_REQUEST_NULL) {
        /* No handle: nobody may touch the buffers after we return. The completion drops the
         * engine's reference, ours goes here. */
        mmpi_request_wait(self, req);
        mmpi_request_release(req);
        return MPI_ERR_NO_MEM;
    }
    *request = req->handle;
    return MPI_SUCCESS;
}

int mmpi_pt2pt_isendrecv_replace(struct mmpi_rank *self, struct mmpi_comm *c, void *buf,
                                 MPI_Count count, struct mmpi_datatype *dt,
                                 struct mmpi_datatype *bytes_dt, int dest, int sendtag,
                                 int source, int recvtag, bool revoked, MPI_Request *request)
{
    /* The packed copy is sent while the receive lands in buf; it lives as long as the
     * request, since a large send is read by its receiver at matching time. */
    size_t bytes = revoked ? 0 : mmpi_typed_bytes(dt, (size_t)count);
    void *copy = malloc(bytes ? bytes : 1);
    if (!copy)
        return MPI_ERR_NO_MEM;
    if (bytes)
        mmpi_typed_pack(buf, (size_t)count, dt, copy);
    return mmpi_pt2pt_isendrecv(self, c, copy, (MPI_Count)bytes, bytes_dt, dest, sendtag, buf,
                                count, dt, source, recvtag, revoked, copy, request);
}
