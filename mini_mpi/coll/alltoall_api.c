/*
 * coll/alltoall_api.c: MPI entry points of MPI-4.1 §6.8, §6.12.6 and §6.13: MPI_Alltoall,
 * MPI_Alltoallv, MPI_Alltoallw and their nonblocking and persistent (MPI_*_init) forms, each
 * also as its large-count form (_c, §5.2: the mmpi_api_ bodies behind the generated bindings
 * take MPI_Count counts and array views, api/poly.h). Bindings only: one common body checks the arguments, fills the member's part (coll.h) and
 * calls mmpi_alltoall (alltoall.c). With MPI_IN_PLACE the send arguments are ignored (§6.8).
 */
#include <stdlib.h>
#include <string.h>

#include "coll/check.h"
#include "coll/coll.h"
#include "datatype/datatype.h"
#include "generated/api_impl.h"
#include "mmpi.h"

enum form { REGULAR, V, W };

/* The three forms: counts/displs arrays are MMPI_COLL_NO_ARRAY in the regular form; types arrays only in the
 * w form (then displacements are in bytes, §6.8). */
static int alltoall(struct mmpi_rank *self, const void *sendbuf, MPI_Count sendcount,
                    struct mmpi_poly_array sendcounts, struct mmpi_poly_array sdispls,
                    MPI_Datatype sendtype, const MPI_Datatype *sendtypes, void *recvbuf,
                    MPI_Count recvcount, struct mmpi_poly_array recvcounts,
                    struct mmpi_poly_array rdispls, MPI_Datatype recvtype,
                    const MPI_Datatype *recvtypes, MPI_Comm comm, enum form form,
                    struct mmpi_coll_how how, enum mmpi_call call)
{
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_coll x;
    int err, n;

    memset(&x, 0, sizeof(x));
    if ((err = mmpi_coll_check_comm(c)) || (err = mmpi_coll_check_how(self, &how)))
        goto fn_fail;
    n = mmpi_comm_remote_size(c); /* pieces: one per member of the remote group (§6.2.2) */
    x.in_place = !c->core->remote && sendbuf == MPI_IN_PLACE; /* intracommunicators only */
    if (form == W) {
        /* Resolved types, send then receive; released by the engine (nonblocking) and freed. */
        x.ndts = 2 * n;
        x.owned_dts = mmpi_xcalloc(2 * (size_t)n, sizeof(*x.owned_dts));
        if (!x.in_place && (err = mmpi_coll_check_w(self, sendbuf, sendcounts, sdispls,
                                                    sendtypes, n, x.owned_dts)))
            goto fn_fail;
        if ((err = mmpi_coll_check_w(self, recvbuf, recvcounts, rdispls, recvtypes, n,
                                     x.owned_dts + n)))
            goto fn_fail;
    } else if (form == V) {
        if (!x.in_place && (err = mmpi_coll_check_vector(self, sendbuf, sendcounts, sdispls, n,
                                                         sendtype, &x.send.dt)))
            goto fn_fail;
        if ((err = mmpi_coll_check_vector(self, recvbuf, recvcounts, rdispls, n, recvtype,
                                          &x.recv.dt)))
            goto fn_fail;
    } else {
        if (!x.in_place &&
            (err = mmpi_coll_check_buffer(self, sendbuf, sendcount, sendtype, &x.send.dt)))
            goto fn_fail;
        if ((err = mmpi_coll_check_buffer(self, recvbuf, recvcount, recvtype, &x.recv.dt)))
            goto fn_fail;
    }
    /* aliased buffers (MPI-4.1 §2.3) */
    MMPI_FAIL_IF(!x.in_place && sendbuf == recvbuf && sendbuf, MPI_ERR_BUFFER);
    x.send.buf = (char *)sendbuf;
    x.send.count = (size_t)sendcount;
    x.send.counts = form == REGULAR ? MMPI_COLL_NO_ARRAY : sendcounts;
    x.send.displs = form == REGULAR ? MMPI_COLL_NO_ARRAY : sdispls;
    x.recv.buf = recvbuf;
    x.recv.count = (size_t)recvcount;
    x.recv.counts = form == REGULAR ? MMPI_COLL_NO_ARRAY : recvcounts;
    x.recv.displs = form == REGULAR ? MMPI_COLL_NO_ARRAY : rdispls;
    if (form == W) {
        x.send.byte_displs = x.recv.byte_displs = true;
        x.send.dts = x.owned_dts;
        x.recv.dts = x.owned_dts + n;
    }
    x.persistent = how.persistent;
    if ((err = mmpi_alltoall(self, c, &x, how.request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    free(x.owned_dts);
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Alltoall(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                      MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall(self, sendbuf, sendcount, MMPI_COLL_NO_ARRAY, MMPI_COLL_NO_ARRAY, sendtype,
                    NULL, recvbuf, recvcount, MMPI_COLL_NO_ARRAY, MMPI_COLL_NO_ARRAY, recvtype,
                    NULL, comm, REGULAR, MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Ialltoall(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                       MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_Request *request)
{
    return alltoall(self, sendbuf, sendcount, MMPI_COLL_NO_ARRAY, MMPI_COLL_NO_ARRAY, sendtype,
                    NULL, recvbuf, recvcount, MMPI_COLL_NO_ARRAY, MMPI_COLL_NO_ARRAY, recvtype,
                    NULL, comm, REGULAR, MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Alltoall_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                           MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request)
{
    return alltoall(self, sendbuf, sendcount, MMPI_COLL_NO_ARRAY, MMPI_COLL_NO_ARRAY, sendtype,
                    NULL, recvbuf, recvcount, MMPI_COLL_NO_ARRAY, MMPI_COLL_NO_ARRAY, recvtype,
                    NULL, comm, REGULAR, MMPI_COLL_PERSISTENT(info, request), call);
}

int mmpi_api_Alltoallv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                       struct mmpi_poly_array sendcounts, struct mmpi_poly_array sdispls,
                       MPI_Datatype sendtype, void *recvbuf, struct mmpi_poly_array recvcounts,
                       struct mmpi_poly_array rdispls, MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall(self, sendbuf, 0, sendcounts, sdispls, sendtype, NULL, recvbuf, 0, recvcounts,
                    rdispls, recvtype, NULL, comm, V, MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Ialltoallv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                        struct mmpi_poly_array sendcounts, struct mmpi_poly_array sdispls,
                        MPI_Datatype sendtype, void *recvbuf, struct mmpi_poly_array recvcounts,
                        struct mmpi_poly_array rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Request *request)
{
    return alltoall(self, sendbuf, 0, sendcounts, sdispls, sendtype, NULL, recvbuf, 0, recvcounts,
                    rdispls, recvtype, NULL, comm, V, MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Alltoallv_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                            struct mmpi_poly_array sendcounts, struct mmpi_poly_array sdispls,
                            MPI_Datatype sendtype, void *recvbuf, struct mmpi_poly_array recvcounts,
                            struct mmpi_poly_array rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Info info, MPI_Request *request)
{
    return alltoall(self, sendbuf, 0, sendcounts, sdispls, sendtype, NULL, recvbuf, 0, recvcounts,
                    rdispls, recvtype, NULL, comm, V, MMPI_COLL_PERSISTENT(info, request), call);
}

int mmpi_api_Alltoallw(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                       struct mmpi_poly_array sendcounts, struct mmpi_poly_array sdispls,
                       const MPI_Datatype sendtypes[], void *recvbuf,
                       struct mmpi_poly_array recvcounts, struct mmpi_poly_array rdispls,
                       const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoall(self, sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes, recvbuf, 0,
                    recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, comm, W, MMPI_COLL_BLOCKING,
                    call);
}

int mmpi_api_Ialltoallw(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                        struct mmpi_poly_array sendcounts, struct mmpi_poly_array sdispls,
                        const MPI_Datatype sendtypes[], void *recvbuf,
                        struct mmpi_poly_array recvcounts, struct mmpi_poly_array rdispls,
                        const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    return alltoall(self, sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes, recvbuf, 0,
                    recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, comm, W,
                    MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Alltoallw_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                            struct mmpi_poly_array sendcounts, struct mmpi_poly_array sdispls,
                            const MPI_Datatype sendtypes[], void *recvbuf,
                            struct mmpi_poly_array recvcounts, struct mmpi_poly_array rdispls,
                            const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                            MPI_Request *request)
{
    return alltoall(self, sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes, recvbuf, 0,
                    recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, comm, W,
                    MMPI_COLL_PERSISTENT(info, request), call);
}
