/*
 * topo/neighbor_api.c: MPI entry points of the neighbourhood collectives (MPI-4.1 §8.6,
 * §8.7, §8.8): MPI_Neighbor_allgather, _allgatherv, _alltoall, _alltoallv, _alltoallw, their
 * nonblocking MPI_Ineighbor_ forms and their persistent _init forms (coll/persistent.c),
 * each also in the large-count form (_c, §5.2: the mmpi_api_ bodies behind the generated
 * bindings take MPI_Count counts and array views, api/poly.h). Bindings only: one common body checks the arguments, fills the member's part
 * (coll/coll.h) and calls mmpi_neighbor_run (neighbor.c).
 * Send arrays have one entry per outgoing neighbour, receive arrays one per incoming one; a
 * member without neighbours on a side may pass NULL arrays there. MPI_IN_PLACE is not
 * allowed (§8.6): MPI_ERR_BUFFER. A communicator without a topology, or with an inconsistent
 * graph (an edge one end does not list; every member sees the same graph), gives
 * MPI_ERR_TOPOLOGY.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/check.h"
#include "coll/coll.h"
#include "datatype/datatype.h"
#include "generated/api_impl.h"
#include "topo/topo.h"

enum form { GATHER, GATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW };

/* Stands for the arrays of a side without neighbours, which may be NULL (never read). */
static const MPI_Aint no_array[1];
static const MPI_Datatype no_types[1] = {MPI_DATATYPE_NULL};

/* One side's buffer: (buf, count, type) per block, counts/displs (v), or counts, byte
 * displacements (MPI_Aint in both bindings) and types (w), for n pieces. */
struct side {
    const void *buf;
    MPI_Count count;
    struct mmpi_poly_array counts, displs;
    MPI_Datatype type;
    const MPI_Datatype *types;
};

enum layout { BLOCKS, VECTOR, TYPED };

/* Checks one side of n pieces and fills v (dts: where the typed layout resolves its types). */
static int check_side(struct mmpi_rank *self, struct side *s, enum layout layout, int n,
                      struct mmpi_coll_vec *v, const struct mmpi_datatype **dts)
{
    v->buf = (char *)s->buf;
    if (layout == BLOCKS) {
        v->count = (size_t)s->count;
        if (s->count < 0)
            return MPI_ERR_COUNT;
        return mmpi_coll_check_buffer(self, s->buf, n > 0 ? s->count : 0, s->type, &v->dt);
    }
    if (n == 0) {
        s->counts = mmpi_poly_null(s->counts) ? mmpi_poly_wide(no_array) : s->counts;
        s->displs = mmpi_poly_null(s->displs) ? mmpi_poly_wide(no_array) : s->displs;
        s->types = s->types ? s->types : no_types;
    }
    v->counts = s->counts;
    v->displs = s->displs;
    if (layout == VECTOR)
        return mmpi_coll_check_vector(self, s->buf, s->counts, s->displs, n, s->type, &v->dt);
    v->byte_displs = true;
    v->dts = dts;
    return mmpi_coll_check_w(self, s->buf, s->counts, s->displs, s->types, n, dts);
}

static const enum layout send_layout[] = {BLOCKS, BLOCKS, BLOCKS, VECTOR, TYPED};
static const enum layout recv_layout[] = {BLOCKS, VECTOR, BLOCKS, VECTOR, TYPED};

static int neighbor(struct mmpi_rank *self, struct side snd, struct side rcv, MPI_Comm comm,
                    enum form form, struct mmpi_coll_how how, enum mmpi_call call)
{
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    const struct mmpi_topo *t;
    struct mmpi_coll x;
    int err, in = 0, out = 0;

    memset(&x, 0, sizeof(x));
    if ((err = mmpi_coll_check_comm(c)) || (err = mmpi_topo_check(c, 0, &t)) ||
        (err = mmpi_coll_check_how(self, &how)))
        goto fn_fail;
    MMPI_FAIL_IF(!t->consistent, MPI_ERR_TOPOLOGY);
    in = mmpi_topo_indegree(t, c->rank);
    out = mmpi_topo_outdegree(t, c->rank);
    if (form == ALLTOALLW && in + out > 0) {
        /* Resolved types, send then receive; released by the engine (nonblocking). */
        x.ndts = in + out;
        x.owned_dts = mmpi_xcalloc((size_t)(in + out) + 1, sizeof(*x.owned_dts));
    }
    if ((err = check_side(self, &snd, send_layout[form], out, &x.send, x.owned_dts)) ||
        (err = check_side(self, &rcv, recv_layout[form], in, &x.recv,
                          x.owned_dts ? x.owned_dts + out : NULL)))
        goto fn_fail;
    /* aliased buffers (MPI-4.1 §2.3) */
    MMPI_FAIL_IF(snd.buf == rcv.buf && snd.buf && in > 0 && out > 0, MPI_ERR_BUFFER);
    x.persistent = how.persistent;
    if ((err = mmpi_neighbor_run(self, c, &x, form <= GATHERV, how.request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    free(x.owned_dts);
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

/* The side of a (buf, count, type) argument triple. */
#define BLOCK(b, n, t) ((struct side){.buf = (b), .count = (n), .type = (t)})
#define VEC(b, n, d, t) ((struct side){.buf = (b), .counts = (n), .displs = (d), .type = (t)})
#define TYPED_SIDE(b, n, d, t) \
    ((struct side){.buf = (b), .counts = (n), .displs = mmpi_poly_wide(d), .types = (t)})

int mmpi_api_Neighbor_allgather(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                                MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor(self, BLOCK(sendbuf, sendcount, sendtype), BLOCK(recvbuf, recvcount, recvtype),
                    comm, GATHER, MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Ineighbor_allgather(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                                 MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Request *request)
{
    return neighbor(self, BLOCK(sendbuf, sendcount, sendtype), BLOCK(recvbuf, recvcount, recvtype),
                    comm, GATHER, MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Neighbor_allgather_init(struct mmpi_rank *self, enum mmpi_call call,
                                     const void *sendbuf, MPI_Count sendcount,
                                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request)
{
    return neighbor(self, BLOCK(sendbuf, sendcount, sendtype), BLOCK(recvbuf, recvcount, recvtype),
                    comm, GATHER, MMPI_COLL_PERSISTENT(info, request), call);
}

int mmpi_api_Neighbor_allgatherv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                                 MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 struct mmpi_poly_array recvcounts, struct mmpi_poly_array displs,
                                 MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor(self, BLOCK(sendbuf, sendcount, sendtype),
                    VEC(recvbuf, recvcounts, displs, recvtype), comm, GATHERV, MMPI_COLL_BLOCKING,
                    call);
}

int mmpi_api_Ineighbor_allgatherv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                                  MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  struct mmpi_poly_array recvcounts, struct mmpi_poly_array displs,
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return neighbor(self, BLOCK(sendbuf, sendcount, sendtype),
                    VEC(recvbuf, recvcounts, displs, recvtype), comm, GATHERV,
                    MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Neighbor_allgatherv_init(struct mmpi_rank *self, enum mmpi_call call,
                                      const void *sendbuf, MPI_Count sendcount,
                                      MPI_Datatype sendtype, void *recvbuf,
                                      struct mmpi_poly_array recvcounts,
                                      struct mmpi_poly_array displs, MPI_Datatype recvtype,
                                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return neighbor(self, BLOCK(sendbuf, sendcount, sendtype),
                    VEC(recvbuf, recvcounts, displs, recvtype), comm, GATHERV,
                    MMPI_COLL_PERSISTENT(info, request), call);
}

int mmpi_api_Neighbor_alltoall(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                               MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor(self, BLOCK(sendbuf, sendcount, sendtype), BLOCK(recvbuf, recvcount, recvtype),
                    comm, ALLTOALL, MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Ineighbor_alltoall(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                                MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request)
{
    return neighbor(self, BLOCK(sendbuf, sendcount, sendtype), BLOCK(recvbuf, recvcount, recvtype),
                    comm, ALLTOALL, MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Neighbor_alltoall_init(struct mmpi_rank *self, enum mmpi_call call,
                                    const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return neighbor(self, BLOCK(sendbuf, sendcount, sendtype), BLOCK(recvbuf, recvcount, recvtype),
                    comm, ALLTOALL, MMPI_COLL_PERSISTENT(info, request), call);
}

int mmpi_api_Neighbor_alltoallv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                                struct mmpi_poly_array sendcounts, struct mmpi_poly_array sdispls,
                                MPI_Datatype sendtype, void *recvbuf,
                                struct mmpi_poly_array recvcounts, struct mmpi_poly_array rdispls,
                                MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor(self, VEC(sendbuf, sendcounts, sdispls, sendtype),
                    VEC(recvbuf, recvcounts, rdispls, recvtype), comm, ALLTOALLV,
                    MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Ineighbor_alltoallv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                                 struct mmpi_poly_array sendcounts, struct mmpi_poly_array sdispls,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 struct mmpi_poly_array recvcounts, struct mmpi_poly_array rdispls,
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return neighbor(self, VEC(sendbuf, sendcounts, sdispls, sendtype),
                    VEC(recvbuf, recvcounts, rdispls, recvtype), comm, ALLTOALLV,
                    MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Neighbor_alltoallv_init(struct mmpi_rank *self, enum mmpi_call call,
                                     const void *sendbuf, struct mmpi_poly_array sendcounts,
                                     struct mmpi_poly_array sdispls, MPI_Datatype sendtype,
                                     void *recvbuf, struct mmpi_poly_array recvcounts,
                                     struct mmpi_poly_array rdispls, MPI_Datatype recvtype,
                                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return neighbor(self, VEC(sendbuf, sendcounts, sdispls, sendtype),
                    VEC(recvbuf, recvcounts, rdispls, recvtype), comm, ALLTOALLV,
                    MMPI_COLL_PERSISTENT(info, request), call);
}

int mmpi_api_Neighbor_alltoallw(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                                struct mmpi_poly_array sendcounts, const MPI_Aint sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf,
                                struct mmpi_poly_array recvcounts, const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return neighbor(self, TYPED_SIDE(sendbuf, sendcounts, sdispls, sendtypes),
                    TYPED_SIDE(recvbuf, recvcounts, rdispls, recvtypes), comm, ALLTOALLW,
                    MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Ineighbor_alltoallw(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                                 struct mmpi_poly_array sendcounts, const MPI_Aint sdispls[],
                                 const MPI_Datatype sendtypes[], void *recvbuf,
                                 struct mmpi_poly_array recvcounts, const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm,
                                 MPI_Request *request)
{
    return neighbor(self, TYPED_SIDE(sendbuf, sendcounts, sdispls, sendtypes),
                    TYPED_SIDE(recvbuf, recvcounts, rdispls, recvtypes), comm, ALLTOALLW,
                    MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Neighbor_alltoallw_init(struct mmpi_rank *self, enum mmpi_call call,
                                     const void *sendbuf, struct mmpi_poly_array sendcounts,
                                     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                     void *recvbuf, struct mmpi_poly_array recvcounts,
                                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return neighbor(self, TYPED_SIDE(sendbuf, sendcounts, sdispls, sendtypes),
                    TYPED_SIDE(recvbuf, recvcounts, rdispls, recvtypes), comm, ALLTOALLW,
                    MMPI_COLL_PERSISTENT(info, request), call);
}
