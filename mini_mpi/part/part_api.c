/*
 * part/part_api.c: the MPI entry points of partitioned communication (MPI-4.1 chapter 4):
 * MPI_Psend_init, MPI_Precv_init, MPI_Pready, MPI_Pready_range, MPI_Pready_list, MPI_Parrived.
 * Bindings only: argument checks, then one call into part.c. MPI_Start, MPI_Wait and the other
 * calls on requests are point-to-point's (part.h). Errors of the calls on a request are raised
 * on the request's communicator (mmpi_request_raise), as MPI_Start's; MPI_ERR_REQUEST for a
 * handle that names no request goes to MPI_COMM_SELF's handler.
 */
#include <stdint.h>

#include "comm/info.h"
#include "generated/api_impl.h"
#include "part/part.h"
#include "pt2pt/pt2pt.h"

/* MPI_Psend_init and MPI_Precv_init: point-to-point's checks in MPICH's order, except that
 * wildcards are refused (§4.2.2: MPI_ANY_SOURCE and MPI_ANY_TAG are not allowed), then the
 * partitions, the info and the request. */
static int init_request(struct mmpi_rank *self, enum mmpi_call call, bool send, const void *buf,
                        int partitions, MPI_Count count, MPI_Datatype datatype, int peer, int tag,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct mmpi_comm *c = NULL;
    struct mmpi_datatype *dt;
    struct mmpi_info *in;
    int err = mmpi_pt2pt_check_args(self, comm, buf, count, datatype, peer, tag, false, &c, &dt);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    MMPI_FAIL_IF(partitions <= 0, MPI_ERR_ARG); /* §4.2.2: erroneous */
    /* the whole buffer's size does not fit in memory */
    MMPI_FAIL_IF(count > 0 &&
                     (uint64_t)partitions > SIZE_MAX / (uint64_t)count / (dt->size ? dt->size : 1),
                 MPI_ERR_COUNT);
    if ((err = mmpi_info_arg(self, info, &in)))
        goto fn_fail;
    MMPI_FAIL_IF(!request, MPI_ERR_ARG);
    if ((err = mmpi_part_init(self, c, comm, send, (void *)buf, partitions, count, dt, peer, tag,
                              request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Psend_init(struct mmpi_rank *self, enum mmpi_call call, const void *buf,
                        int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return init_request(self, call, true, buf, partitions, count, datatype, dest, tag, comm, info,
                        request);
}

int mmpi_api_Precv_init(struct mmpi_rank *self, enum mmpi_call call, void *buf, int partitions,
                        MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    return init_request(self, call, false, buf, partitions, count, datatype, source, tag, comm,
                        info, request);
}

/* The three forms of MPI_Pready: the request must be an active partitioned send (§4.2.3: it is
 * erroneous otherwise), every partition in range, checked before any is marked. */
static int ready(enum mmpi_call call, MPI_Request request, const int *parts, int n, int low,
                 int high)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_request *req;
    int err = mmpi_part_lookup(self, request, true, &req);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    MMPI_FAIL_IF(!req->inner, MPI_ERR_REQUEST); /* inactive */
    int nparts = mmpi_part_partitions(req);
    if (parts) {
        for (int i = 0; i < n && err == MPI_SUCCESS; i++)
            if (parts[i] < 0 || parts[i] >= nparts)
                err = MPI_ERR_ARG;
    } else if (low < 0 || high >= nparts || low > high) {
        err = MPI_ERR_ARG;
    }
    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = mmpi_part_ready(req, parts, n, low, high)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_request_raise(self, req, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Pready);
int PMPI_Pready(int partition, MPI_Request request)
{
    return ready(MMPI_CALL_Pready, request, NULL, 0, partition, partition);
}

MMPI_PROFILED(Pready_range);
int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    return ready(MMPI_CALL_Pready_range, request, NULL, 0, partition_low, partition_high);
}

MMPI_PROFILED(Pready_list);
int PMPI_Pready_list(int length, int array_of_partitions[], MPI_Request request)
{
    if (length < 0 || (length > 0 && !array_of_partitions)) {
        struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Pready_list);
        struct mmpi_request *req = NULL;
        mmpi_part_lookup(self, request, true, &req);
        return mmpi_request_raise(self, req, MPI_ERR_ARG, MMPI_CALL_Pready_list);
    }
    static const int none[1];
    return ready(MMPI_CALL_Pready_list, request, length ? array_of_partitions : none, length, 0, 0);
}

MMPI_PROFILED(Parrived);
int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Parrived);
    struct mmpi_request *req = NULL;
    int err = MPI_SUCCESS;
    MMPI_FAIL_IF(!flag, MPI_ERR_ARG);
    if (request == MPI_REQUEST_NULL) { /* §4.2.4: like an inactive request */
        *flag = 1;
        goto fn_exit;
    }
    if ((err = mmpi_part_lookup(self, request, false, &req)))
        goto fn_fail;
    MMPI_FAIL_IF(partition < 0 || partition >= mmpi_part_partitions(req), MPI_ERR_ARG);
    if ((err = mmpi_part_arrived(self, req, partition, flag)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_request_raise(self, req, err, MMPI_CALL_Parrived);
    goto fn_exit;
}
