/*
 * pt2pt/send_recv_api.c: the MPI entry points that send and receive: blocking and nonblocking,
 * every send mode, Sendrecv and Sendrecv_replace (MPI-4.1 §3.2-3.4, §3.7, §3.10). Bindings
 * only: mmpi_pt2pt_check_args (pt2pt.h, the common case inline), then one call into
 * send_recv.c, errors raised on the communicator. This is the hot path: MPI_Send tries a small
 * message straight into its channel (chan.h) before anything else, and everything here inlines
 * across files (the library is built with LTO).
 */
#include <stdbool.h>

#include "datatype/datatype.h"
#include "pt2pt/copy.h"
#include "pt2pt/pt2pt.h"
#include "generated/api_impl.h"

/* Common body of the eight send calls, after mmpi_enter. request == NULL: blocking. */
static int do_send(struct mmpi_rank *self, const void *buf, MPI_Count count, MPI_Datatype datatype,
                   int dest, int tag, MPI_Comm comm, MPI_Request *request, enum mmpi_send_mode mode,
                   enum mmpi_call call)
{
    struct mmpi_comm *c;
    struct mmpi_datatype *dt = NULL;
    int err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, dest, tag, false, &c, &dt);
    /* A nonblocking send on a revoked communicator reports it at completion, as Open MPI does. */
    bool revoked = err == MPI_ERR_REVOKED && request;

    if (revoked)
        err = MPI_SUCCESS;
    else if (err == MPI_SUCCESS && mode == MMPI_SEND_BUFFERED && dest != MPI_PROC_NULL)
        err = mmpi_bsend_reserve(self, c, dest, mmpi_typed_bytes(dt, (size_t)count));
    if (err != MPI_SUCCESS)
        goto fn_fail;
    err = request ? mmpi_pt2pt_isend(self, c, buf, count, dt, dest, tag, mode, revoked, request)
                  : mmpi_pt2pt_send(self, c, buf, count, dt, dest, tag, mode);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

#define SEND_ENTRY(Name, mode)                                                                    \
    int mmpi_api_##Name(struct mmpi_rank *self, enum mmpi_call call, const void *buf,             \
                        MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) \
    {                                                                                             \
        return do_send(self, buf, count, datatype, dest, tag, comm, NULL, mode, call);            \
    }
#define ISEND_ENTRY(Name, mode)                                                                   \
    int mmpi_api_##Name(struct mmpi_rank *self, enum mmpi_call call, const void *buf,             \
                        MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, \
                        MPI_Request *request)                                                     \
    {                                                                                             \
        if (!request)                                                                             \
            return mmpi_err_raise_comm(self, mmpi_comm_get(self, comm), MPI_ERR_ARG, call);       \
        return do_send(self, buf, count, datatype, dest, tag, comm, request, mode, call);         \
    }

/* MPI_Send: the common case inline, a small message straight into its channel (chan.h); the
 * rest, errors included, by do_send. */
int mmpi_api_Send(struct mmpi_rank *self, enum mmpi_call call, const void *buf, MPI_Count count,
                  MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    struct mmpi_comm *c;
    struct mmpi_datatype *dt;
    if (mmpi_pt2pt_check_args(self, comm, buf, count, datatype, dest, tag, false, &c, &dt) ==
            MPI_SUCCESS &&
        mmpi_pt2pt_send_direct(self, c, buf, count, dt, dest, tag, MMPI_SEND_STANDARD))
        return MPI_SUCCESS;
    return do_send(self, buf, count, datatype, dest, tag, comm, NULL, MMPI_SEND_STANDARD, call);
}

SEND_ENTRY(Ssend, MMPI_SEND_SYNC)
SEND_ENTRY(Rsend, MMPI_SEND_READY)
SEND_ENTRY(Bsend, MMPI_SEND_BUFFERED)
ISEND_ENTRY(Isend, MMPI_SEND_STANDARD)
ISEND_ENTRY(Issend, MMPI_SEND_SYNC)
ISEND_ENTRY(Irsend, MMPI_SEND_READY)
ISEND_ENTRY(Ibsend, MMPI_SEND_BUFFERED)

int mmpi_api_Recv(struct mmpi_rank *self, enum mmpi_call call, void *buf, MPI_Count count,
                  MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    struct mmpi_comm *c;
    struct mmpi_datatype *dt;
    int err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, source, tag, true, &c, &dt);

    if (err == MPI_SUCCESS && !status)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = mmpi_pt2pt_recv(self, c, buf, count, dt, source, tag, status)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Irecv(struct mmpi_rank *self, enum mmpi_call call, void *buf, MPI_Count count,
                   MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    struct mmpi_comm *c;
    struct mmpi_datatype *dt = NULL;
    int err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, source, tag, true, &c, &dt);
    bool revoked;

    if ((err == MPI_SUCCESS || err == MPI_ERR_REVOKED) && !request)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS && err != MPI_ERR_REVOKED)
        goto fn_fail;
    revoked = err == MPI_ERR_REVOKED; /* reported at completion */
    if ((err = mmpi_pt2pt_irecv(self, c, buf, count, dt, source, tag, revoked, request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Sendrecv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                      MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                      int recvtag, MPI_Comm comm, MPI_Status *status)
{
    struct mmpi_comm *c;
    struct mmpi_datatype *sdt, *rdt;
    int err = MPI_SUCCESS;

    if ((err = mmpi_pt2pt_check_args(self, comm, sendbuf, sendcount, sendtype, dest, sendtag,
                                     false, &c, &sdt)))
        goto fn_fail;
    if ((err = mmpi_pt2pt_check_args(self, comm, recvbuf, recvcount, recvtype, source, recvtag,
                                     true, &c, &rdt)))
        goto fn_fail;
    MMPI_FAIL_IF(!status, MPI_ERR_ARG);
    if ((err = mmpi_pt2pt_sendrecv(self, c, sendbuf, sendcount, sdt, dest, sendtag, recvbuf,
                                   recvcount, rdt, source, recvtag, status)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Sendrecv_replace(struct mmpi_rank *self, enum mmpi_call call, void *buf,
                              MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                              int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    struct mmpi_comm *c;
    struct mmpi_datatype *dt, *bytes_dt;
    int err = MPI_SUCCESS;

    if ((err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, dest, sendtag, false, &c,
                                     &dt)))
        goto fn_fail;
    if ((err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, source, recvtag, true,
                                     &c, &dt)))
        goto fn_fail;
    MMPI_FAIL_IF(!status, MPI_ERR_ARG);
    if ((err = mmpi_datatype_check(self, MPI_BYTE, &bytes_dt)))
        goto fn_fail;
    if ((err = mmpi_pt2pt_sendrecv_replace(self, c, buf, count, dt, bytes_dt, dest, sendtag,
                                           source, recvtag, status)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}
