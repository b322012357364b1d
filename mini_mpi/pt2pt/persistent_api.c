/*
 * pt2pt/persistent_api.c: the MPI entry points of persistent point-to-point requests (MPI-4.1
 * §3.9): MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init, MPI_Bsend_init, MPI_Recv_init,
 * MPI_Start and MPI_Startall. Bindings only: argument checks and request handle lookups, then
 * one call into persistent.c. Errors of MPI_Start/MPI_Startall are raised on the communicator
 * of the request concerned (mmpi_request_raise).
 */
#include "generated/api_impl.h"
#include "pt2pt/completion.h"
#include "pt2pt/pt2pt.h"

static int init_request(struct mmpi_rank *self, const void *buf, MPI_Count count,
                        MPI_Datatype datatype, int peer, int tag, MPI_Comm comm,
                        MPI_Request *request, int kind, enum mmpi_send_mode mode,
                        enum mmpi_call call)
{
    struct mmpi_comm *c;
    struct mmpi_datatype *dt;
    int err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, peer, tag,
                                    kind == MMPI_REQ_RECV, &c, &dt);
    if (err == MPI_SUCCESS && !request)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = mmpi_pt2pt_persistent_init(self, c, comm, buf, count, dt, peer, tag, kind, mode,
                                          request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

#define SEND_INIT(Name, mode)                                                                     \
    int mmpi_api_##Name(struct mmpi_rank *self, enum mmpi_call call, const void *buf,             \
                        MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, \
                        MPI_Request *request)                                                     \
    {                                                                                             \
        return init_request(self, buf, count, datatype, dest, tag, comm, request, MMPI_REQ_SEND,  \
                            mode, call);                                                          \
    }
SEND_INIT(Send_init, MMPI_SEND_STANDARD)
SEND_INIT(Ssend_init, MMPI_SEND_SYNC)
SEND_INIT(Rsend_init, MMPI_SEND_READY)
SEND_INIT(Bsend_init, MMPI_SEND_BUFFERED)

int mmpi_api_Recv_init(struct mmpi_rank *self, enum mmpi_call call, void *buf, MPI_Count count,
                       MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                       MPI_Request *request)
{
    return init_request(self, buf, count, datatype, source, tag, comm, request, MMPI_REQ_RECV,
                        MMPI_SEND_STANDARD, call);
}

MMPI_PROFILED(Start);
int PMPI_Start(MPI_Request *request)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Start);
    struct mmpi_request *req = NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!request, MPI_ERR_ARG);
    if ((err = mmpi_completion_lookup(self, *request, &req)))
        goto fn_fail;
    MMPI_FAIL_IF(!req, MPI_ERR_REQUEST);
    if ((err = mmpi_pt2pt_start(self, req)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_request_raise(self, req, err, MMPI_CALL_Start);
    goto fn_exit;
}

MMPI_PROFILED(Startall);
int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Startall);
    struct mmpi_request *req = NULL; /* the request an error concerns */
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(count < 0, MPI_ERR_COUNT);
    MMPI_FAIL_IF(count > 0 && !array_of_requests, MPI_ERR_ARG);
    /* Validate all before starting any, so an error leaves no request half-started. */
    for (int i = 0; i < count; i++) {
        if ((err = mmpi_completion_lookup(self, array_of_requests[i], &req)))
            goto fn_fail;
        MMPI_FAIL_IF(!req || !req->persistent || req->inner, MPI_ERR_REQUEST);
    }
    if ((err = mmpi_pt2pt_startall(self, count, array_of_requests, &req)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_request_raise(self, req, err, MMPI_CALL_Startall);
    goto fn_exit;
}
