/*
 * coll/inter_move.c: the data-movement collectives on intercommunicators (MPI-4.1 §6.2.2,
 * §6.4-6.8): Bcast, Gather(v), Scatter(v), Allgather(v), Alltoall(v,w), blocking and
 * nonblocking (the engine runs both). Data always crosses between the groups: a rooted
 * collective moves data between the root (MPI_ROOT) and every member of the other group;
 * the root's own group passes MPI_PROC_NULL and takes no part in the data; the all- forms
 * give each group the other group's contributions.
 *
 * Algorithm: DIRECT on the bridge board: after arrival each receiver copies what it needs
 * straight from the other group's deposits (one copy, by the reader), then everybody departs
 * and waits for the departures (its buffers may be being read).
 * Cost: two synchronizations over both groups, one copy of each piece.
 * On process failure: as the intracommunicator forms (engine.c): a member of either group
 * that failed without arriving makes everyone report MPI_ERR_PROC_FAILED; revocation of the
 * intercommunicator (which marks the bridge) gives MPI_ERR_REVOKED.
 */
#include "coll/inter.h"
#include "comm/intercomm.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "pt2pt/copy.h"

struct mmpi_inter_view mmpi_inter_view_of(const struct mmpi_coll *x)
{
    int n0 = mmpi_intercomm_side(x->core, 0)->size;
    if (x->rank < n0)
        return (struct mmpi_inter_view){x->rank, n0, x->size - n0};
    return (struct mmpi_inter_view){x->rank - n0, 0, n0};
}

/* The root's part, seen from a member of the other group; NULL when the member named as
 * root did not pass MPI_ROOT (inconsistent roots: MPI_ERR_ROOT). */
static const struct mmpi_coll *root_part(const struct mmpi_coll *x,
                                         const struct mmpi_board_instance *inst)
{
    struct mmpi_inter_view v = mmpi_inter_view_of(x);
    const struct mmpi_coll *r = mmpi_coll_deposit(inst, v.rbase + x->root);
    return r->root == MPI_ROOT ? r : NULL;
}

static int keep_first(int err, int e)
{
    return err == MPI_SUCCESS ? e : err;
}

/* Piece i of dst <- (buf, count, dt). */
static int copy_into_piece(const struct mmpi_coll_vec *dst, int i, const void *buf, size_t count,
                           const struct mmpi_datatype *dt)
{
    char *rb;
    size_t rc, copied;
    const struct mmpi_datatype *rdt;
    mmpi_coll_piece(dst, i, &rb, &rc, &rdt);
    return mmpi_typed_copy(buf, count, dt, rb, rc, rdt, &copied);
}

static int bcast_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                      const struct mmpi_coll_result *res)
{
    size_t copied;
    (void)res;
    x->wait = true;
    if (x->root < 0)
        return MPI_SUCCESS; /* MPI_ROOT: others read us; MPI_PROC_NULL: not involved */
    const struct mmpi_coll *r = root_part(x, inst);
    if (!r)
        return MPI_ERR_ROOT;
    return mmpi_typed_copy(r->recv.buf, r->recv.count, r->recv.dt, x->recv.buf, x->recv.count,
                           x->recv.dt, &copied);
}

/* Every piece of x's receive buffer from the remote group's send blocks. */
static int gather_from_remote(struct mmpi_coll *x, const struct mmpi_board_instance *inst)
{
    struct mmpi_inter_view v = mmpi_inter_view_of(x);
    int err = MPI_SUCCESS;
    for (int i = 0; i < v.rsize; i++) {
        const struct mmpi_coll *d = mmpi_coll_deposit(inst, v.rbase + i);
        err = keep_first(err, copy_into_piece(&x->recv, i, d->send.buf, d->send.count, d->send.dt));
    }
    return err;
}

static int gather_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                       const struct mmpi_coll_result *res)
{
    (void)res;
    x->wait = true;
    return x->root == MPI_ROOT ? gather_from_remote(x, inst) : MPI_SUCCESS;
}

static int allgather_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                          const struct mmpi_coll_result *res)
{
    (void)res;
    x->wait = true;
    return gather_from_remote(x, inst);
}

static int scatter_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                        const struct mmpi_coll_result *res)
{
    char *sb;
    size_t sc, copied;
    const struct mmpi_datatype *sdt;
    (void)res;
    x->wait = true;
    if (x->root < 0)
        return MPI_SUCCESS;
    const struct mmpi_coll *r = root_part(x, inst);
    if (!r)
        return MPI_ERR_ROOT;
    mmpi_coll_piece(&r->send, mmpi_inter_view_of(x).me, &sb, &sc, &sdt);
    return mmpi_typed_copy(sb, sc, sdt, x->recv.buf, x->recv.count, x->recv.dt, &copied);
}

/* Piece j of the receive buffer <- piece `me` of remote member j's send buffer (§6.8). */
static int alltoall_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                         const struct mmpi_coll_result *res)
{
    struct mmpi_inter_view v = mmpi_inter_view_of(x);
    int err = MPI_SUCCESS;
    (void)res;
    x->wait = true;
    for (int j = 0; j < v.rsize; j++) {
        const struct mmpi_coll *d = mmpi_coll_deposit(inst, v.rbase + j);
        char *sb;
        size_t sc;
        const struct mmpi_datatype *sdt;
        mmpi_coll_piece(&d->send, v.me, &sb, &sc, &sdt);
        err = keep_first(err, copy_into_piece(&x->recv, j, sb, sc, sdt));
    }
    return err;
}

const struct mmpi_coll_algo mmpi_inter_bcast_algo = {NULL, bcast_read, NULL};
const struct mmpi_coll_algo mmpi_inter_gather_algo = {NULL, gather_read, NULL};
const struct mmpi_coll_algo mmpi_inter_scatter_algo = {NULL, scatter_read, NULL};
const struct mmpi_coll_algo mmpi_inter_allgather_algo = {NULL, allgather_read, NULL};
const struct mmpi_coll_algo mmpi_inter_alltoall_algo = {NULL, alltoall_read, NULL};
