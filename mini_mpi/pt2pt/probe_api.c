/*
 * pt2pt/probe_api.c: the MPI entry points of probes and matched probes (MPI-4.1 §3.8):
 * MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe, MPI_Mrecv and MPI_Imrecv. Bindings only:
 * argument checks, the MPI_PROC_NULL early returns (§3.11), then one call into probe.c, errors
 * raised on the communicator (on no object for MPI_Mrecv/MPI_Imrecv, which take none, except a
 * matched receive's own error: on the communicator it was probed on).
 */
#include "datatype/datatype.h"
#include "pt2pt/pt2pt.h"
#include "generated/api_impl.h"

static int check_probe_args(struct mmpi_rank *self, int source, int tag, MPI_Comm comm,
                            struct mmpi_comm **c)
{
    *c = comm == MPI_COMM_WORLD ? mmpi_restart_world_route(self, source) /* restart.h */
                                : mmpi_comm_get(self, comm);
    if (!*c)
        return MPI_ERR_COMM;
    int n = mmpi_comm_remote_size(*c);
    if (!(source == MPI_PROC_NULL || source == MPI_ANY_SOURCE || (source >= 0 && source < n)))
        return MPI_ERR_RANK;
    if (!(tag == MPI_ANY_TAG || (tag >= 0 && tag <= MMPI_TAG_UB)))
        return MPI_ERR_TAG;
    if (mmpi_fault_revoked(&(*c)->core->fault))
        return MPI_ERR_REVOKED;
    return MPI_SUCCESS;
}

/* A probe of MPI_PROC_NULL (§3.11): an empty status from MPI_PROC_NULL with MPI_ANY_TAG. */
static void status_proc_null(MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_TAG = MPI_ANY_TAG;
    status->mmpi_count = 0;
    status->mmpi_cancelled = 0;
}

MMPI_PROFILED(Probe);
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Probe);
    struct mmpi_comm *c;
    int err = MPI_SUCCESS;

    if ((err = check_probe_args(self, source, tag, comm, &c)))
        goto fn_fail;
    MMPI_FAIL_IF(!status, MPI_ERR_ARG);
    if (source == MPI_PROC_NULL) { /* §3.11 */
        status_proc_null(status);
        goto fn_exit;
    }
    if ((err = mmpi_pt2pt_probe(self, c, source, tag, status)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Probe);
    goto fn_exit;
}

MMPI_PROFILED(Iprobe);
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Iprobe);
    struct mmpi_comm *c;
    int err = MPI_SUCCESS;

    if ((err = check_probe_args(self, source, tag, comm, &c)))
        goto fn_fail;
    MMPI_FAIL_IF(!status || !flag, MPI_ERR_ARG);
    if (source == MPI_PROC_NULL) { /* §3.11 */
        *flag = 1;
        status_proc_null(status);
        goto fn_exit;
    }
    mmpi_pt2pt_iprobe(self, c, source, tag, flag, status);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Iprobe);
    goto fn_exit;
}

/* MPI_Mprobe (flag NULL) and MPI_Improbe. */
static int mprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                  MPI_Status *status, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c;
    int err = check_probe_args(self, source, tag, comm, &c);
    if (err == MPI_SUCCESS && (!status || !message || (call == MMPI_CALL_Improbe && !flag)))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        goto fn_fail;
    if (source == MPI_PROC_NULL) {
        if (flag)
            *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        status_proc_null(status);
        goto fn_exit;
    }
    err = call == MMPI_CALL_Mprobe
              ? mmpi_pt2pt_mprobe(self, c, source, tag, message, status)
              : mmpi_pt2pt_improbe(self, c, source, tag, flag, message, status);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Mprobe);
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    return mprobe(source, tag, comm, NULL, message, status, MMPI_CALL_Mprobe);
}

MMPI_PROFILED(Improbe);
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    return mprobe(source, tag, comm, flag, message, status, MMPI_CALL_Improbe);
}

/* The checks of MPI_Mrecv and MPI_Imrecv, in order: count, datatype, message, buffer. */
static int check_mrecv_args(struct mmpi_rank *self, void *buf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Message *message, struct mmpi_datatype **dt)
{
    int err = count < 0 ? MPI_ERR_COUNT : mmpi_datatype_check(self, datatype, dt);
    if (err == MPI_SUCCESS && !message)
        err = MPI_ERR_ARG;
    if (err == MPI_SUCCESS && mmpi_buffer_missing(buf, (size_t)count, *dt))
        err = MPI_ERR_BUFFER;
    return err;
}

int mmpi_api_Mrecv(struct mmpi_rank *self, enum mmpi_call call, void *buf, MPI_Count count,
                   MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
{
    struct mmpi_datatype *dt;
    struct mmpi_request *req = NULL; /* set by mmpi_pt2pt_mrecv_start on success */
    int err = MPI_SUCCESS;

    if ((err = check_mrecv_args(self, buf, count, datatype, message, &dt)))
        goto fn_fail;
    if ((err = mmpi_pt2pt_mrecv_start(self, buf, count, dt, message, &req)))
        goto fn_fail;
    /* The request is complete: its status and error are the receive's. */
    mmpi_pvar_request_done(req);
    mmpi_status_copy_out(status, &req->status, false);
    if ((err = req->error))
        goto fn_fail;
fn_exit:
    if (req)
        mmpi_request_release(req);
    return err;
fn_fail:
    /* No request yet: on no object; else on the communicator it was probed on. */
    err = mmpi_request_raise(self, req, err, call);
    goto fn_exit;
}

int mmpi_api_Imrecv(struct mmpi_rank *self, enum mmpi_call call, void *buf, MPI_Count count,
                    MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
{
    struct mmpi_datatype *dt;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!request, MPI_ERR_ARG);
    if ((err = check_mrecv_args(self, buf, count, datatype, message, &dt)))
        goto fn_fail;
    if ((err = mmpi_pt2pt_imrecv(self, buf, count, dt, message, request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}
