/*
 * send_recv.c: the MPI entry points that send and receive: blocking and nonblocking, every send
 * mode, Sendrecv and Sendrecv_replace (MPI-4.1 §3.2-3.4, §3.7, §3.10).
 */
#include <stdbool.h>
#include <stdlib.h>

#include "datatype/datatype.h"
#include "pt2pt/chan.h"
#include "pt2pt/copy.h"
#include "pt2pt/match.h"
#include "pt2pt/pt2pt.h"

/* A nonblocking send's request gets its handle; errors are reported at its completion
 * (MPI-4.1 §3.7.3). */
static int publish_send(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_request *req,
                        MPI_Request *request, enum mmpi_call call)
{
    int err = mmpi_request_publish(self, req, request);
    return err ? mmpi_err_raise_comm(self, c, err, call) : MPI_SUCCESS;
}

/* Common body of the eight send calls, after mmpi_enter. request == NULL: blocking. */
static int do_send(struct mmpi_rank *self, const void *buf, int count, MPI_Datatype datatype,
                   int dest, int tag, MPI_Comm comm, MPI_Request *request,
                   enum mmpi_send_mode mode, enum mmpi_call call)
{
    struct mmpi_comm *c;
    struct mmpi_datatype *dt;
    int err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, dest, tag, false, &c, &dt);

    if (err == MPI_ERR_REVOKED && request) /* reported at completion, as Open MPI does */
        return publish_send(self, c, mmpi_pt2pt_revoked_request(self, c, MMPI_REQ_SEND), request,
                            call);
    if (err == MPI_SUCCESS && mode == MMPI_SEND_BUFFERED && dest != MPI_PROC_NULL)
        err = mmpi_bsend_reserve(self, mmpi_typed_bytes(dt, (size_t)count));
    if (err != MPI_SUCCESS)
        return mmpi_err_raise_comm(self, c, err, call);
    if (request)
        return publish_send(
            self, c, mmpi_pt2pt_start_send(self, c, MMPI_CTX_USER, buf, count, dt, dest, tag, mode),
            request, call);
    /* Blocking: a small message goes straight into its channel when it can; otherwise the
     * request lives in this frame (no allocation, no references). */
    if (mmpi_pt2pt_send_direct(self, c, buf, count, dt, dest, tag, mode))
        return MPI_SUCCESS;
    struct mmpi_request sreq;
    mmpi_request_init_blocking(&sreq, self, MMPI_REQ_SEND);
    mmpi_pt2pt_post_send(self, c, MMPI_CTX_USER, buf, count, dt, dest, tag, mode, &sreq);
    mmpi_request_wait(self, &sreq);
    return sreq.error == MPI_SUCCESS ? MPI_SUCCESS
                                     : mmpi_err_raise_comm(self, c, sreq.error, call);
}

#define SEND_ENTRY(Name, mode)                                                               \
    MMPI_PROFILED(Name);                                                                      \
    int PMPI_##Name(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,    \
                    MPI_Comm comm)                                                           \
    {                                                                                        \
        return do_send(mmpi_enter(MMPI_CALL_##Name), buf, count, datatype, dest, tag, comm,  \
                       NULL, mode, MMPI_CALL_##Name);                                        \
    }
#define ISEND_ENTRY(Name, mode)                                                              \
    MMPI_PROFILED(Name);                                                                      \
    int PMPI_##Name(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,    \
                    MPI_Comm comm, MPI_Request *request)                                     \
    {                                                                                        \
        struct mmpi_rank *self = mmpi_enter(MMPI_CALL_##Name);                               \
        if (!request)                                                                        \
            return mmpi_err_raise_comm(self, mmpi_comm_get(self, comm), MPI_ERR_ARG,         \
                                       MMPI_CALL_##Name);                                    \
        return do_send(self, buf, count, datatype, dest, tag, comm, request, mode,           \
                       MMPI_CALL_##Name);                                                    \
    }

/* MPI_Send: the common case inline, a small message straight into its channel (chan.h); the
 * rest, errors included, by do_send. */
MMPI_PROFILED(Send);
int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Send);
    struct mmpi_comm *c;
    struct mmpi_datatype *dt;
    if (mmpi_pt2pt_check_args(self, comm, buf, count, datatype, dest, tag, false, &c, &dt) ==
            MPI_SUCCESS &&
        mmpi_pt2pt_send_direct(self, c, buf, count, dt, dest, tag, MMPI_SEND_STANDARD))
        return MPI_SUCCESS;
    return do_send(self, buf, count, datatype, dest, tag, comm, NULL, MMPI_SEND_STANDARD,
                   MMPI_CALL_Send);
}

SEND_ENTRY(Ssend, MMPI_SEND_SYNC)
SEND_ENTRY(Rsend, MMPI_SEND_READY)
SEND_ENTRY(Bsend, MMPI_SEND_BUFFERED)
ISEND_ENTRY(Isend, MMPI_SEND_STANDARD)
ISEND_ENTRY(Issend, MMPI_SEND_SYNC)
ISEND_ENTRY(Irsend, MMPI_SEND_READY)
ISEND_ENTRY(Ibsend, MMPI_SEND_BUFFERED)

MMPI_PROFILED(Recv);
int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Recv);
    struct mmpi_comm *c;
    struct mmpi_datatype *dt;
    int err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, source, tag, true, &c, &dt);

    if (err == MPI_SUCCESS && !status)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return mmpi_err_raise_comm(self, c, err, MMPI_CALL_Recv);
    if (mmpi_chan_recv_ready(self, c, buf, count, dt, source, tag, status))
        return MPI_SUCCESS; /* the message was waiting in its channel */
    struct mmpi_request req;
    mmpi_request_init_blocking(&req, self, MMPI_REQ_RECV);
    req.blocking = true;
    req.direct = true; /* waits for nothing else: may wait on the source's channel (chan.h) */
    mmpi_pt2pt_post_recv(self, c, MMPI_CTX_USER, buf, count, dt, source, tag, &req);
    mmpi_chan_wait(self, &req);
    mmpi_status_copy_out(status, &req.status, false);
    if (req.error != MPI_SUCCESS)
        return mmpi_err_raise_comm(self, c, req.error, MMPI_CALL_Recv);
    return MPI_SUCCESS;
}

MMPI_PROFILED(Irecv);
int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Irecv);
    struct mmpi_comm *c;
    struct mmpi_datatype *dt;
    int err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, source, tag, true, &c, &dt);

    if ((err == MPI_SUCCESS || err == MPI_ERR_REVOKED) && !request)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS && err != MPI_ERR_REVOKED)
        return mmpi_err_raise_comm(self, c, err, MMPI_CALL_Irecv);
    struct mmpi_request *req =
        err == MPI_ERR_REVOKED /* reported at completion */
            ? mmpi_pt2pt_revoked_request(self, c, MMPI_REQ_RECV)
            : mmpi_pt2pt_start_recv(self, c, MMPI_CTX_USER, buf, count, dt, source, tag);
    if (mmpi_request_handle_new(self, req) == MPI_REQUEST_NULL) {
        if (!mmpi_match_cancel(req)) /* nobody may write into buf after we return */
            mmpi_request_wait(self, req);
        mmpi_request_release(req);
        return mmpi_err_raise_comm(self, c, MPI_ERR_NO_MEM, MMPI_CALL_Irecv);
    }
    *request = req->handle;
    return MPI_SUCCESS;
}

/* Sends and receives at once: the receive is posted first, so that two ranks exchanging with
 * each other by Sendrecv never deadlock, whatever the message size. An eager send never waits
 * for its receiver, so where channels are used (chan.h) it goes first, and the receive is then
 * a plain blocking one, which may wait on the source's channel: a ring of small exchanges. */
static int sendrecv(struct mmpi_rank *self, struct mmpi_comm *c, const void *sendbuf,
                    int sendcount, struct mmpi_datatype *sdt, int dest, int sendtag,
                    void *recvbuf, int recvcount, struct mmpi_datatype *rdt, int source,
                    int recvtag, MPI_Status *status)
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
    mmpi_status_copy_out(status, &rreq.status, false);
    return sreq.error != MPI_SUCCESS ? sreq.error : rreq.error;
}

MMPI_PROFILED(Sendrecv);
int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Sendrecv);
    struct mmpi_comm *c;
    struct mmpi_datatype *sdt, *rdt;
    int err = mmpi_pt2pt_check_args(self, comm, sendbuf, sendcount, sendtype, dest, sendtag,
                                    false, &c, &sdt);
    if (err == MPI_SUCCESS)
        err = mmpi_pt2pt_check_args(self, comm, recvbuf, recvcount, recvtype, source, recvtag,
                                    true, &c, &rdt);
    if (err == MPI_SUCCESS && !status)
        err = MPI_ERR_ARG;
    if (err == MPI_SUCCESS)
        err = sendrecv(self, c, sendbuf, sendcount, sdt, dest, sendtag, recvbuf, recvcount, rdt,
                       source, recvtag, status);
    if (err != MPI_SUCCESS)
        err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Sendrecv);
    return err;
}

MMPI_PROFILED(Sendrecv_replace);
int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Sendrecv_replace);
    struct mmpi_comm *c;
    struct mmpi_datatype *dt, *bytes_dt;
    int err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, dest, sendtag, false, &c,
                                    &dt);
    if (err == MPI_SUCCESS)
        err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, source, recvtag, true, &c,
                                    &dt);
    if (err == MPI_SUCCESS && !status)
        err = MPI_ERR_ARG;
    if (err == MPI_SUCCESS)
        err = mmpi_datatype_check(self, MPI_BYTE, &bytes_dt);
    if (err == MPI_SUCCESS) {
        /* Send a packed copy, receive in place. */
        size_t bytes = mmpi_typed_bytes(dt, (size_t)count);
        void *copy = malloc(bytes ? bytes : 1);
        if (!copy) {
            err = MPI_ERR_NO_MEM;
        } else {
            mmpi_typed_pack(buf, (size_t)count, dt, copy);
            err = sendrecv(self, c, copy, (int)bytes, bytes_dt, dest, sendtag, buf, count, dt,
                           source, recvtag, status);
            free(copy);
        }
    }
    if (err != MPI_SUCCESS)
        err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Sendrecv_replace);
    return err;
}
