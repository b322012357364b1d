/*
 * coll/move_api.c: MPI entry points of the data-movement collectives of MPI-4.1 chapter 6, in
 * the chapter's order: MPI_Bcast, MPI_Gather(v), MPI_Scatter(v), MPI_Allgather(v), each with
 * its nonblocking (§6.12) and persistent (§6.13, MPI_*_init; coll/persistent.c) forms, and
 * the large-count form (_c, §5.2) of each: the generated bindings (api/README.md) call the
 * mmpi_api_ bodies here with MPI_Count counts and array views (api/poly.h). Bindings only:
 * one common body per collective checks the arguments significant at the calling member,
 * fills its part (coll.h) and calls the implementation (bcast.c, gather.c, scatter.c).
 * All-to-all is alltoall_api.c, reductions reduce_api.c.
 */
#include <string.h>

#include "coll/check.h"
#include "coll/coll.h"
#include "datatype/datatype.h"
#include "generated/api_impl.h"
#include "mmpi.h"

/* ---- MPI_Bcast (§6.4) ------------------------------------------------------------------- */

static int bcast(struct mmpi_rank *self, void *buffer, MPI_Count count, MPI_Datatype datatype,
                 int root, MPI_Comm comm, struct mmpi_coll_how how, enum mmpi_call call)
{
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_coll x;
    int err;

    memset(&x, 0, sizeof(x));
    if ((err = mmpi_coll_check_comm(c)) || (err = mmpi_coll_check_root(c, root)) ||
        (err = mmpi_coll_check_data(self, count, datatype, &x.recv.dt)) ||
        /* the buffer is not significant at an intercommunicator's MPI_PROC_NULL members */
        (root != MPI_PROC_NULL &&
         (err = mmpi_coll_check_buffer(self, buffer, count, datatype, &x.recv.dt))) ||
        (err = mmpi_coll_check_how(self, &how)))
        goto fn_fail;
    x.recv.buf = buffer;
    x.recv.count = (size_t)count;
    x.root = root;
    x.persistent = how.persistent;
    if ((err = mmpi_bcast(self, c, &x, how.request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Bcast(struct mmpi_rank *self, enum mmpi_call call, void *buffer, MPI_Count count,
                   MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast(self, buffer, count, datatype, root, comm, MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Ibcast(struct mmpi_rank *self, enum mmpi_call call, void *buffer, MPI_Count count,
                    MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    return bcast(self, buffer, count, datatype, root, comm, MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Bcast_init(struct mmpi_rank *self, enum mmpi_call call, void *buffer, MPI_Count count,
                        MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    return bcast(self, buffer, count, datatype, root, comm, MMPI_COLL_PERSISTENT(info, request),
                 call);
}

/* ---- MPI_Gather, MPI_Gatherv (§6.5) ----------------------------------------------------- */

/* v: the v form (recvcounts, displs), else the regular form (recvcount each). */
static int gather(struct mmpi_rank *self, const void *sendbuf, MPI_Count sendcount,
                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, bool v,
                  struct mmpi_poly_array recvcounts, struct mmpi_poly_array displs,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, struct mmpi_coll_how how,
                  enum mmpi_call call)
{
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_coll x;
    int err;

    memset(&x, 0, sizeof(x));
    if ((err = mmpi_coll_check_comm(c)) || (err = mmpi_coll_check_root(c, root)) ||
        (err = mmpi_coll_check_how(self, &how)))
        goto fn_fail;
    /* MPI_IN_PLACE only at an intracommunicator's root, where the send arguments are then
     * ignored; an intercommunicator's root sends nothing (§6.2.2). */
    x.in_place = !c->core->remote && c->rank == root && sendbuf == MPI_IN_PLACE;
    if (!x.in_place && mmpi_coll_is_leaf(c, root) &&
        (err = mmpi_coll_check_buffer(self, sendbuf, sendcount, sendtype, &x.send.dt)))
        goto fn_fail;
    if (mmpi_coll_is_root(c, root)) {
        if (v)
            err = mmpi_coll_check_vector(self, recvbuf, recvcounts, displs,
                                         mmpi_comm_remote_size(c), recvtype, &x.recv.dt);
        else
            err = mmpi_coll_check_buffer(self, recvbuf, recvcount, recvtype, &x.recv.dt);
        if (err)
            goto fn_fail;
        if (!x.in_place && !c->core->remote &&
            (err = mmpi_coll_check_alias(sendbuf, sendcount, recvbuf, recvcount,
                                         v ? displs : MMPI_COLL_NO_ARRAY, c->rank, x.recv.dt)))
            goto fn_fail;
    }
    x.send.buf = (char *)sendbuf;
    x.send.count = (size_t)sendcount;
    x.recv.buf = recvbuf;
    x.recv.count = (size_t)recvcount;
    x.recv.counts = v ? recvcounts : MMPI_COLL_NO_ARRAY;
    x.recv.displs = v ? displs : MMPI_COLL_NO_ARRAY;
    x.root = root;
    x.persistent = how.persistent;
    if ((err = mmpi_gather(self, c, &x, how.request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Gather(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                    MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, false, MMPI_COLL_NO_ARRAY,
                  MMPI_COLL_NO_ARRAY, recvtype, root, comm, MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Igather(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                     MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gather(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, false, MMPI_COLL_NO_ARRAY,
                  MMPI_COLL_NO_ARRAY, recvtype, root, comm, MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Gather_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                         MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    return gather(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, false, MMPI_COLL_NO_ARRAY,
                  MMPI_COLL_NO_ARRAY, recvtype, root, comm, MMPI_COLL_PERSISTENT(info, request),
                  call);
}

int mmpi_api_Gatherv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                     MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     struct mmpi_poly_array recvcounts, struct mmpi_poly_array displs,
                     MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather(self, sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts, displs,
                  recvtype, root, comm, MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Igatherv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                      MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      struct mmpi_poly_array recvcounts, struct mmpi_poly_array displs,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gather(self, sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts, displs,
                  recvtype, root, comm, MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Gatherv_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                          MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          struct mmpi_poly_array recvcounts, struct mmpi_poly_array displs,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    return gather(self, sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts, displs,
                  recvtype, root, comm, MMPI_COLL_PERSISTENT(info, request), call);
}

/* ---- MPI_Scatter, MPI_Scatterv (§6.6) --------------------------------------------------- */

/* v: the v form (sendcounts, displs), else the regular form (sendcount each). */
static int scatter(struct mmpi_rank *self, const void *sendbuf, MPI_Count sendcount, bool v,
                   struct mmpi_poly_array sendcounts, struct mmpi_poly_array displs,
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, struct mmpi_coll_how how, enum mmpi_call call)
{
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_coll x;
    int err;

    memset(&x, 0, sizeof(x));
    if ((err = mmpi_coll_check_comm(c)) || (err = mmpi_coll_check_root(c, root)) ||
        (err = mmpi_coll_check_how(self, &how)))
        goto fn_fail;
    /* MPI_IN_PLACE only at an intracommunicator's root, where the receive arguments are
     * then ignored; an intercommunicator's root receives nothing (§6.2.2). */
    x.in_place = !c->core->remote && c->rank == root && recvbuf == MPI_IN_PLACE;
    if (!x.in_place && mmpi_coll_is_leaf(c, root) &&
        (err = mmpi_coll_check_buffer(self, recvbuf, recvcount, recvtype, &x.recv.dt)))
        goto fn_fail;
    if (mmpi_coll_is_root(c, root)) {
        if (v)
            err = mmpi_coll_check_vector(self, sendbuf, sendcounts, displs,
                                         mmpi_comm_remote_size(c), sendtype, &x.send.dt);
        else
            err = mmpi_coll_check_buffer(self, sendbuf, sendcount, sendtype, &x.send.dt);
        if (err)
            goto fn_fail;
        if (!x.in_place && !c->core->remote &&
            (err = mmpi_coll_check_alias(recvbuf, recvcount, sendbuf, sendcount,
                                         v ? displs : MMPI_COLL_NO_ARRAY, c->rank, x.send.dt)))
            goto fn_fail;
    }
    x.send.buf = (char *)sendbuf;
    x.send.count = (size_t)sendcount;
    x.send.counts = v ? sendcounts : MMPI_COLL_NO_ARRAY;
    x.send.displs = v ? displs : MMPI_COLL_NO_ARRAY;
    x.recv.buf = recvbuf;
    x.recv.count = (size_t)recvcount;
    x.root = root;
    x.persistent = how.persistent;
    if ((err = mmpi_scatter(self, c, &x, how.request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Scatter(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                     MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatter(self, sendbuf, sendcount, false, MMPI_COLL_NO_ARRAY, MMPI_COLL_NO_ARRAY,
                   sendtype, recvbuf, recvcount, recvtype, root, comm, MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Iscatter(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                      MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Request *request)
{
    return scatter(self, sendbuf, sendcount, false, MMPI_COLL_NO_ARRAY, MMPI_COLL_NO_ARRAY,
                   sendtype, recvbuf, recvcount, recvtype, root, comm,
                   MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Scatter_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                          MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    return scatter(self, sendbuf, sendcount, false, MMPI_COLL_NO_ARRAY, MMPI_COLL_NO_ARRAY,
                   sendtype, recvbuf, recvcount, recvtype, root, comm,
                   MMPI_COLL_PERSISTENT(info, request), call);
}

int mmpi_api_Scatterv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                      struct mmpi_poly_array sendcounts, struct mmpi_poly_array displs,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatter(self, sendbuf, 0, true, sendcounts, displs, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Iscatterv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                       struct mmpi_poly_array sendcounts, struct mmpi_poly_array displs,
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return scatter(self, sendbuf, 0, true, sendcounts, displs, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Scatterv_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                           struct mmpi_poly_array sendcounts, struct mmpi_poly_array displs,
                           MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request)
{
    return scatter(self, sendbuf, 0, true, sendcounts, displs, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, MMPI_COLL_PERSISTENT(info, request), call);
}

/* ---- MPI_Allgather, MPI_Allgatherv (§6.7) ----------------------------------------------- */

/* v: the v form (recvcounts, displs), else the regular form (recvcount each). */
static int allgather(struct mmpi_rank *self, const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, bool v,
                     struct mmpi_poly_array recvcounts, struct mmpi_poly_array displs,
                     MPI_Datatype recvtype, MPI_Comm comm, struct mmpi_coll_how how,
                     enum mmpi_call call)
{
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_coll x;
    int err;

    memset(&x, 0, sizeof(x));
    if ((err = mmpi_coll_check_comm(c)) || (err = mmpi_coll_check_how(self, &how)))
        goto fn_fail;
    x.in_place = !c->core->remote && sendbuf == MPI_IN_PLACE; /* intracommunicators only */
    if (!x.in_place &&
        (err = mmpi_coll_check_buffer(self, sendbuf, sendcount, sendtype, &x.send.dt)))
        goto fn_fail;
    if (v)
        err = mmpi_coll_check_vector(self, recvbuf, recvcounts, displs,
                                     mmpi_comm_remote_size(c), recvtype, &x.recv.dt);
    else
        err = mmpi_coll_check_buffer(self, recvbuf, recvcount, recvtype, &x.recv.dt);
    if (err)
        goto fn_fail;
    /* An intercommunicator's receive buffer holds the other group's blocks only. */
    if (!x.in_place && (err = mmpi_coll_check_alias(sendbuf, sendcount, recvbuf, recvcount,
                                                    v ? displs : MMPI_COLL_NO_ARRAY,
                                                    c->core->remote ? -1 : c->rank, x.recv.dt)))
        goto fn_fail;
    x.send.buf = (char *)sendbuf;
    x.send.count = (size_t)sendcount;
    x.recv.buf = recvbuf;
    x.recv.count = (size_t)recvcount;
    x.recv.counts = v ? recvcounts : MMPI_COLL_NO_ARRAY;
    x.recv.displs = v ? displs : MMPI_COLL_NO_ARRAY;
    x.persistent = how.persistent;
    if ((err = mmpi_allgather(self, c, &x, how.request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Allgather(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                       MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, false,
                     MMPI_COLL_NO_ARRAY, MMPI_COLL_NO_ARRAY, recvtype, comm, MMPI_COLL_BLOCKING,
                     call);
}

int mmpi_api_Iallgather(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                        MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Request *request)
{
    return allgather(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, false,
                     MMPI_COLL_NO_ARRAY, MMPI_COLL_NO_ARRAY, recvtype, comm,
                     MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Allgather_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                            MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Info info, MPI_Request *request)
{
    return allgather(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, false,
                     MMPI_COLL_NO_ARRAY, MMPI_COLL_NO_ARRAY, recvtype, comm,
                     MMPI_COLL_PERSISTENT(info, request), call);
}

int mmpi_api_Allgatherv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                        MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        struct mmpi_poly_array recvcounts, struct mmpi_poly_array displs,
                        MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather(self, sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts, displs,
                     recvtype, comm, MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Iallgatherv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                         MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         struct mmpi_poly_array recvcounts, struct mmpi_poly_array displs,
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return allgather(self, sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts, displs,
                     recvtype, comm, MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Allgatherv_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                             MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             struct mmpi_poly_array recvcounts, struct mmpi_poly_array displs,
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    return allgather(self, sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts, displs,
                     recvtype, comm, MMPI_COLL_PERSISTENT(info, request), call);
}
