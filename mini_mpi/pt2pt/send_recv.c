/*
 * pt2pt/send_recv.c: the implementation of the MPI calls that send and receive (MPI-4.1
 * §3.2-3.4, §3.7, §3.10): a blocking send in every mode, a nonblocking one, a blocking and a
 * nonblocking receive, Sendrecv and Sendrecv_replace (mmpi_pt2pt_send, ..._isend, ..._recv,
 * ..._irecv, ..._sendrecv, ..._sendrecv_replace). Their bindings, which check the arguments and
 * raise errors, are send_recv_api.c; matching is match.c, channels chan.c, starting a request
 * start.c. Each takes checked arguments and returns an error class for its binding to raise.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "datatype/datatype.h"
#include "pt2pt/chan.h"
#include "pt2pt/copy.h"
#include "pt2pt/match.h"
#include "pt2pt/pt2pt.h"

/* The blocking send and receive are on the hot path: always inlined into their bindings at link
 * time (LTO), so that splitting binding from implementation costs no call; without LTO
 * (SAN= builds) the bindings call them. */
__attribute__((always_inline)) inline int mmpi_pt2pt_send(struct mmpi_rank *self,
                                                          struct mmpi_comm *c, const void *buf,
                                                          MPI_Count count, struct mmpi_datatype *dt,
                                                          int dest, int tag,
                                                          enum mmpi_send_mode mode)
{
    /* A small message goes straight into its channel when it can; otherwise the request lives
     * in this frame (no allocation, no references). */
    if (mmpi_pt2pt_send_direct(self, c, buf, count, dt, dest, tag, mode))
        return MPI_SUCCESS;
    struct mmpi_request sreq;
    mmpi_request_init_blocking(&sreq, self, MMPI_REQ_SEND);
    mmpi_pt2pt_post_send(self, c, MMPI_CTX_USER, buf, count, dt, dest, tag, mode, &sreq);
    mmpi_request_wait(self, &sreq);
    return sreq.error;
}

int mmpi_pt2pt_isend(struct mmpi_rank *self, struct mmpi_comm *c, const void *buf, MPI_Count count,
                     struct mmpi_datatype *dt, int dest, int tag, enum mmpi_send_mode mode,
                     bool revoked, MPI_Request *request)
{
    /* Errors of the send itself are reported at its completion (MPI-4.1 §3.7.3). */
    return mmpi_request_publish(
        self,
        revoked ? mmpi_pt2pt_revoked_request(self, c, MMPI_REQ_SEND)
                : mmpi_pt2pt_start_send(self, c, MMPI_CTX_USER, buf, count, dt, dest, tag, mode),
        request);
}

__attribute__((always_inline)) inline int mmpi_pt2pt_recv(struct mmpi_rank *self,
                                                          struct mmpi_comm *c, void *buf,
                                                          MPI_Count count, struct mmpi_datatype *dt,
                                                          int source, int tag, MPI_Status *status)
{
    if (mmpi_chan_recv_ready(self, c, buf, count, dt, source, tag, status))
        return MPI_SUCCESS; /* the message was waiting in its channel */
    struct mmpi_request req;
    mmpi_request_init_blocking(&req, self, MMPI_REQ_RECV);
    req.blocking = true;
    req.direct = true; /* waits for nothing else: may wait on the source's channel (chan.h) */
    mmpi_pt2pt_post_recv(self, c, MMPI_CTX_USER, buf, count, dt, source, tag, &req);
    mmpi_chan_wait(self, &req);
    mmpi_pvar_request_done(&req);
    mmpi_status_copy_out(status, &req.status, false);
    return req.error;
}

int mmpi_pt2pt_irecv(struct mmpi_rank *self, struct mmpi_comm *c, void *buf, MPI_Count count,
                     struct mmpi_datatype *dt, int source, int tag, bool revoked,
                     MPI_Request *request)
{
    struct mmpi_request *req =
        revoked /* reported at completion */
            ? mmpi_pt2pt_revoked_request(self, c, MMPI_REQ_RECV)
            : mmpi_pt2pt_start_recv(self, c, MMPI_CTX_USER, buf, count, dt, source, tag);
    if (mmpi_request_handle_new(self, req) == MPI_REQUEST_NULL) {
        if (!mmpi_match_cancel(req)) /* nobody may write into buf after we return */
            mmpi_request_wait(self, req);
        mmpi_request_release(req);
        return MPI_ERR_NO_MEM;
    }
    *request = req->handle;
    return MPI_SUCCESS;
}

/* Sends and receives at once: the receive is posted first, so that two ranks exchanging with
 * each other by Sendrecv never deadlock, whatever the message size. An eager send never waits
 * for its receiver, so where channels are used (chan.h) it goes first, and the receive is then
 * a plain blocking one, which may wait on the source's channel: a ring of small exchanges. */
int mmpi_pt2pt_sendrecv(struct mmpi_rank *self, struct mmpi_comm *c, const void *sendbuf,
                        MPI_Count sendcount, struct mmpi_datatype *sdt, int dest, int sendtag,
                        void *recvbuf, MPI_Count recvcount, struct mmpi_datatype *rdt,
                        int source, int recvtag, MPI_Status *status)
{
    struct mmpi_request rreq, sreq;
    /* Only where channels exist: elsewhere, posting first lets the send find the receive
     * posted (one copy instead of an envelope). */
    bool eager = mmpi_typed_bytes(sdt, (size_t)sendcount) <= MMPI_EAGER_MAX &&
                 mmpi_chan_usable(self, c, MMPI_CTX_USER);
    mmpi_request_init_blocking(&rreq, self, MMPI_REQ_RECV);
    rreq.blocking = true;
    mmpi_request_init_blocking(&sreq, self, MMPI_REQ_SEND);
    if (eager) {
        if (!mmpi_pt2pt_send_direct(self, c, sendbuf, sendcount, sdt, dest, sendtag,
                                    MMPI_SEND_STANDARD))
            mmpi_pt2pt_post_send(self, c, MMPI_CTX_USER, sendbuf, sendcount, sdt, dest,
                                 sendtag, MMPI_SEND_STANDARD, &sreq);
        else
            mmpi_request_complete_by_waiter(&sreq, MPI_SUCCESS);
        rreq.direct = true;
    }
    mmpi_pt2pt_post_recv(self, c, MMPI_CTX_USER, recvbuf, recvcount, rdt, source, recvtag, &rreq);
    if (!eager)
        mmpi_pt2pt_post_send(self, c, MMPI_CTX_USER, sendbuf, sendcount, sdt, dest, sendtag,
                             MMPI_SEND_STANDARD, &sreq);
    mmpi_request_wait(self, &sreq);
    mmpi_chan_wait(self, &rreq);
    mmpi_pvar_request_done(&rreq);
    mmpi_status_copy_out(status, &rreq.status, false);
    return sreq.error != MPI_SUCCESS ? sreq.error : rreq.error;
}

int mmpi_pt2pt_sendrecv_replace(struct mmpi_rank *self, struct mmpi_comm *c, void *buf,
                                MPI_Count count, struct mmpi_datatype *dt,
                                struct mmpi_datatype *bytes_dt, int dest, int sendtag, int source,
                                int recvtag, MPI_Status *status)
{
    /* Send a packed copy, receive in place. */
    size_t bytes = mmpi_typed_bytes(dt, (size_t)count);
    void *copy = malloc(bytes ? bytes : 1);
    if (!copy)
        return MPI_ERR_NO_MEM;
    mmpi_typed_pack(buf, (size_t)count, dt, copy);
    int err = mmpi_pt2pt_sendrecv(self, c, copy, (MPI_Count)bytes, bytes_dt, dest, sendtag, buf,
                                  count, dt, source, recvtag, status);
    free(copy);
    return err;
}
