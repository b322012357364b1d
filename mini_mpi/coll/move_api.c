/*
 * coll/move_api.c: MPI entry points of the data-movement collectives of MPI-4.1 chapter 6, in
 * the chapter's order: MPI_Bcast, MPI_Gather(v), MPI_Scatter(v), MPI_Allgather(v), each with
 * its nonblocking (§6.12) and persistent (§6.13, MPI_*_init; coll/persistent.c) forms.
 * Bindings only: one common body per collective checks the arguments significant at the
 * calling member, fills its part (coll.h) and calls the implementation (bcast.c, gather.c,
 * scatter.c). All-to-all is alltoall_api.c, reductions
 * reduce_api.c.
 */
#include <string.h>

#include "coll/check.h"
#include "coll/coll.h"
#include "datatype/datatype.h"
#include "mmpi.h"

/* ---- MPI_Bcast (§6.4) ------------------------------------------------------------------- */

static int bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 struct mmpi_coll_how how, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
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

MMPI_PROFILED(Bcast);
int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast(buffer, count, datatype, root, comm, MMPI_COLL_BLOCKING, MMPI_CALL_Bcast);
}

MMPI_PROFILED(Ibcast);
int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    return bcast(buffer, count, datatype, root, comm, MMPI_COLL_NONBLOCKING(request),
                 MMPI_CALL_Ibcast);
}

MMPI_PROFILED(Bcast_init);
int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    return bcast(buffer, count, datatype, root, comm, MMPI_COLL_PERSISTENT(info, request),
                 MMPI_CALL_Bcast_init);
}

/* ---- MPI_Gather, MPI_Gatherv (§6.5) ----------------------------------------------------- */

/* recvcounts == NULL: the regular form (recvcount each). */
static int gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, const int *recvcounts, const int *displs,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, struct mmpi_coll_how how,
                  enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_coll x;
    bool v = call == MMPI_CALL_Gatherv || call == MMPI_CALL_Igatherv ||
             call == MMPI_CALL_Gatherv_init;
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
                                         v ? displs : NULL, c->rank, x.recv.dt)))
            goto fn_fail;
    }
    x.send.buf = (char *)sendbuf;
    x.send.count = (size_t)sendcount;
    x.recv.buf = recvbuf;
    x.recv.count = (size_t)recvcount;
    x.recv.counts = v ? recvcounts : NULL;
    x.recv.displs = v ? displs : NULL;
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

MMPI_PROFILED(Gather);
int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root,
                  comm, MMPI_COLL_BLOCKING, MMPI_CALL_Gather);
}

MMPI_PROFILED(Igather);
int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root,
                  comm, MMPI_COLL_NONBLOCKING(request), MMPI_CALL_Igather);
}

MMPI_PROFILED(Gather_init);
int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root,
                  comm, MMPI_COLL_PERSISTENT(info, request), MMPI_CALL_Gather_init);
}

MMPI_PROFILED(Gatherv);
int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
    return gather(sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, root,
                  comm, MMPI_COLL_BLOCKING, MMPI_CALL_Gatherv);
}

MMPI_PROFILED(Igatherv);
int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    return gather(sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, root,
                  comm, MMPI_COLL_NONBLOCKING(request), MMPI_CALL_Igatherv);
}

MMPI_PROFILED(Gatherv_init);
int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return gather(sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, root,
                  comm, MMPI_COLL_PERSISTENT(info, request), MMPI_CALL_Gatherv_init);
}

/* ---- MPI_Scatter, MPI_Scatterv (§6.6) --------------------------------------------------- */

/* sendcounts == NULL: the regular form (sendcount each). */
static int scatter(const void *sendbuf, int sendcount, const int *sendcounts, const int *displs,
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, struct mmpi_coll_how how, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_coll x;
    bool v = call == MMPI_CALL_Scatterv || call == MMPI_CALL_Iscatterv ||
             call == MMPI_CALL_Scatterv_init;
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
                                         v ? displs : NULL, c->rank, x.send.dt)))
            goto fn_fail;
    }
    x.send.buf = (char *)sendbuf;
    x.send.count = (size_t)sendcount;
    x.send.counts = v ? sendcounts : NULL;
    x.send.displs = v ? displs : NULL;
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

MMPI_PROFILED(Scatter);
int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatter(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root,
                   comm, MMPI_COLL_BLOCKING, MMPI_CALL_Scatter);
}

MMPI_PROFILED(Iscatter);
int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    return scatter(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root,
                   comm, MMPI_COLL_NONBLOCKING(request), MMPI_CALL_Iscatter);
}

MMPI_PROFILED(Scatter_init);
int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    return scatter(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root,
                   comm, MMPI_COLL_PERSISTENT(info, request), MMPI_CALL_Scatter_init);
}

MMPI_PROFILED(Scatterv);
int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    return scatter(sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                   comm, MMPI_COLL_BLOCKING, MMPI_CALL_Scatterv);
}

MMPI_PROFILED(Iscatterv);
int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
    return scatter(sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                   comm, MMPI_COLL_NONBLOCKING(request), MMPI_CALL_Iscatterv);
}

MMPI_PROFILED(Scatterv_init);
int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    return scatter(sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                   comm, MMPI_COLL_PERSISTENT(info, request), MMPI_CALL_Scatterv_init);
}

/* ---- MPI_Allgather, MPI_Allgatherv (§6.7) ----------------------------------------------- */

/* recvcounts == NULL: the regular form (recvcount each). */
static int allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, const int *recvcounts, const int *displs,
                     MPI_Datatype recvtype, MPI_Comm comm, struct mmpi_coll_how how,
                     enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_coll x;
    bool v = call == MMPI_CALL_Allgatherv || call == MMPI_CALL_Iallgatherv ||
             call == MMPI_CALL_Allgatherv_init;
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
    if (!x.in_place &&
        (err = mmpi_coll_check_alias(sendbuf, sendcount, recvbuf, recvcount, v ? displs : NULL,
                                     c->core->remote ? -1 : c->rank, x.recv.dt)))
        goto fn_fail;
    x.send.buf = (char *)sendbuf;
    x.send.count = (size_t)sendcount;
    x.recv.buf = recvbuf;
    x.recv.count = (size_t)recvcount;
    x.recv.counts = v ? recvcounts : NULL;
    x.recv.displs = v ? displs : NULL;
    x.persistent = how.persistent;
    if ((err = mmpi_allgather(self, c, &x, how.request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Allgather);
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm,
                     MMPI_COLL_BLOCKING, MMPI_CALL_Allgather);
}

MMPI_PROFILED(Iallgather);
int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm,
                     MMPI_COLL_NONBLOCKING(request), MMPI_CALL_Iallgather);
}

MMPI_PROFILED(Allgather_init);
int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm,
                     MMPI_COLL_PERSISTENT(info, request), MMPI_CALL_Allgather_init);
}

MMPI_PROFILED(Allgatherv);
int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm,
                     MMPI_COLL_BLOCKING, MMPI_CALL_Allgatherv);
}

MMPI_PROFILED(Iallgatherv);
int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm,
                     MMPI_COLL_NONBLOCKING(request), MMPI_CALL_Iallgatherv);
}

MMPI_PROFILED(Allgatherv_init);
int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm,
                     MMPI_COLL_PERSISTENT(info, request), MMPI_CALL_Allgatherv_init);
}
