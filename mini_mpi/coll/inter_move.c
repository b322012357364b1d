/*
 * coll/inter_move.c: the data-movement collectives on intercommunicators (MPI-4.1 §6.2.2,
 * §6.4-6.8): Bcast, Gather(v), Scatter(v), Allgather(v), Alltoall(v,w), blocking and
 * nonblocking (the engine runs both). Data always crosses between the groups: a rooted
 * collective moves data between the root (MPI_ROOT) and every member of the other group;
 * the root's own group passes MPI_PROC_NULL and takes no part in the data; the all- forms
 * give each group the other group's contributions.
 *
 * Algorithm (on the bridge board, deposits in bridge order): SNAPSHOT while the data fits the
 * snapshot size (coll.h; nonblocking calls nearly always): the last arriver packs every
 * contribution that will be read into the result, as pieces (member, piece number); readers
 * unpack theirs and leave, so a nonblocking form never waits for another member to poll.
 * Beyond: DIRECT, each receiver copies straight from the other group's deposits, then
 * everybody departs and waits for the departures.
 * Cost: snapshot one synchronization over both groups and two copies of each piece; direct
 * two synchronizations and one copy.
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

static int keep_first(int err, int e)
{
    return err == MPI_SUCCESS ? e : err;
}

/* ---- Snapshot: pieces of members [lo, hi), `per` pieces each, packed in that order -------- */

/* Piece j of member d's contribution (count 0 when it has no such piece). */
typedef void piece_fn(const struct mmpi_coll *d, int j, char **buf, size_t *count,
                      const struct mmpi_datatype **dt);

static void send_block(const struct mmpi_coll *d, int j, char **buf, size_t *count,
                       const struct mmpi_datatype **dt)
{
    (void)j;
    *buf = d->send.buf;
    *count = d->send.count;
    *dt = d->send.dt;
}

static void bcast_block(const struct mmpi_coll *d, int j, char **buf, size_t *count,
                        const struct mmpi_datatype **dt)
{
    (void)j;
    *buf = d->recv.buf;
    *count = d->recv.count;
    *dt = d->recv.dt;
}

/* Piece j of the send vector, one per member of the other group. */
static void send_piece(const struct mmpi_coll *d, int j, char **buf, size_t *count,
                       const struct mmpi_datatype **dt)
{
    if (j >= mmpi_inter_view_of(d).rsize) {
        *buf = NULL;
        *count = 0;
        *dt = NULL;
        return;
    }
    mmpi_coll_piece(&d->send, j, buf, count, dt);
}

static void snapshot(const struct mmpi_coll *me, struct mmpi_board_instance *inst, int lo, int hi,
                     int per, piece_fn *piece)
{
    size_t n = (size_t)(hi - lo) * (size_t)per, total = 0, pos = 0;
    char *buf;
    size_t count;
    const struct mmpi_datatype *dt;
    for (int i = lo; i < hi; i++)
        for (int j = 0; j < per; j++) {
            piece(mmpi_coll_deposit(inst, i), j, &buf, &count, &dt);
            total += count ? mmpi_typed_bytes(dt, count) : 0;
        }
    if (total + (n + 1) * sizeof(size_t) > mmpi_coll_snapshot_max(me))
        return; /* DIRECT */
    struct mmpi_coll_result *res = mmpi_coll_result_new(MMPI_COLL_SNAPSHOT, n + 1, total);
    if (!res)
        return;
    for (int i = lo; i < hi; i++)
        for (int j = 0; j < per; j++) {
            piece(mmpi_coll_deposit(inst, i), j, &buf, &count, &dt);
            res->off[(size_t)(i - lo) * (size_t)per + (size_t)j] = pos;
            if (count) {
                mmpi_typed_pack(buf, count, dt, res->data + pos);
                pos += mmpi_typed_bytes(dt, count);
            }
        }
    res->off[n] = pos;
    inst->result = res;
}

/* Piece k of a snapshot into (buf, count, dt). */
static int unpack(const struct mmpi_coll_result *res, size_t k, void *buf, size_t count,
                  const struct mmpi_datatype *dt)
{
    size_t copied;
    return mmpi_typed_unpack(res->data + res->off[k], res->off[k + 1] - res->off[k], buf, count,
                             dt, &copied);
}

/* Piece i of x's receive vector <- snapshot piece k, or (buf, count, dt) in direct mode.
 * In snapshot mode readers never touch a deposit: its owner may have left already. */
static int into_piece(struct mmpi_coll *x, int i, const struct mmpi_coll_result *res, size_t k,
                      const void *buf, size_t count, const struct mmpi_datatype *dt)
{
    char *rb;
    size_t rc, copied;
    const struct mmpi_datatype *rdt;
    mmpi_coll_piece(&x->recv, i, &rb, &rc, &rdt);
    if (res)
        return unpack(res, k, rb, rc, rdt);
    return mmpi_typed_copy(buf, count, dt, rb, rc, rdt, &copied);
}

/* The bridge rank of the member that passed MPI_ROOT, or -1 (inconsistent roots). */
static int find_root(const struct mmpi_coll *me, const struct mmpi_board_instance *inst)
{
    for (int i = 0; i < me->size; i++)
        if (mmpi_coll_deposit(inst, i)->root == MPI_ROOT)
            return i;
    return -1;
}

/* The root's bridge rank seen from a member of the other group; -1 when the member named as
 * root did not pass MPI_ROOT (MPI_ERR_ROOT; checked in direct mode only). */
static int root_of(const struct mmpi_coll *x, const struct mmpi_board_instance *inst)
{
    int r = mmpi_inter_view_of(x).rbase + x->root;
    return mmpi_coll_deposit(inst, r)->root == MPI_ROOT ? r : -1;
}

/* The other group's bridge ranks, seen from the root r. */
static void leaves_of(const struct mmpi_coll *me, int r, int *lo, int *hi)
{
    int n0 = mmpi_intercomm_side(me->core, 0)->size;
    *lo = r < n0 ? n0 : 0;
    *hi = r < n0 ? me->size : n0;
}

/* ---- Bcast --------------------------------------------------------------------------------- */

static void bcast_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    int r = find_root(me, inst);
    if (r >= 0)
        snapshot(me, inst, r, r + 1, 1, bcast_block);
}

static int bcast_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                      const struct mmpi_coll_result *res)
{
    size_t copied;
    x->wait = true;
    if (x->root < 0)
        return MPI_SUCCESS; /* MPI_ROOT: others read us; MPI_PROC_NULL: not involved */
    if (res)
        return unpack(res, 0, x->recv.buf, x->recv.count, x->recv.dt);
    int r = root_of(x, inst);
    if (r < 0)
        return MPI_ERR_ROOT;
    const struct mmpi_coll *d = mmpi_coll_deposit(inst, r);
    return mmpi_typed_copy(d->recv.buf, d->recv.count, d->recv.dt, x->recv.buf, x->recv.count,
                           x->recv.dt, &copied);
}

/* ---- Gather, Allgather --------------------------------------------------------------------- */

static void gather_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    int r = find_root(me, inst), lo, hi;
    if (r < 0)
        return;
    leaves_of(me, r, &lo, &hi);
    snapshot(me, inst, lo, hi, 1, send_block);
}

/* Every piece of x's receive buffer from the remote group's send blocks; `first` is the
 * snapshot index of remote member 0. */
static int gather_from_remote(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                              const struct mmpi_coll_result *res, int first)
{
    struct mmpi_inter_view v = mmpi_inter_view_of(x);
    int err = MPI_SUCCESS;
    for (int i = 0; i < v.rsize; i++) {
        const struct mmpi_coll *d = res ? NULL : mmpi_coll_deposit(inst, v.rbase + i);
        err = keep_first(err, into_piece(x, i, res, (size_t)(first + i), d ? d->send.buf : NULL,
                                         d ? d->send.count : 0, d ? d->send.dt : NULL));
    }
    return err;
}

static int gather_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                       const struct mmpi_coll_result *res)
{
    x->wait = true;
    return x->root == MPI_ROOT ? gather_from_remote(x, inst, res, 0) : MPI_SUCCESS;
}

static void allgather_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    snapshot(me, inst, 0, me->size, 1, send_block);
}

static int allgather_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                          const struct mmpi_coll_result *res)
{
    x->wait = true;
    return gather_from_remote(x, inst, res, mmpi_inter_view_of(x).rbase);
}

/* ---- Scatter ------------------------------------------------------------------------------- */

static void scatter_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    int r = find_root(me, inst);
    if (r >= 0)
        snapshot(me, inst, r, r + 1, mmpi_inter_view_of(mmpi_coll_deposit(inst, r)).rsize,
                 send_piece);
}

static int scatter_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                        const struct mmpi_coll_result *res)
{
    char *sb;
    size_t sc, copied;
    const struct mmpi_datatype *sdt;
    int me = mmpi_inter_view_of(x).me;
    x->wait = true;
    if (x->root < 0)
        return MPI_SUCCESS;
    if (res)
        return unpack(res, (size_t)me, x->recv.buf, x->recv.count, x->recv.dt);
    int r = root_of(x, inst);
    if (r < 0)
        return MPI_ERR_ROOT;
    mmpi_coll_piece(&mmpi_coll_deposit(inst, r)->send, me, &sb, &sc, &sdt);
    return mmpi_typed_copy(sb, sc, sdt, x->recv.buf, x->recv.count, x->recv.dt, &copied);
}

/* ---- Alltoall: piece j of the receive buffer <- piece `me` of remote member j's send buffer
 * (§6.8). The snapshot holds `per` = the larger group's size pieces per member. ------------- */

static int alltoall_per(const struct mmpi_coll *x)
{
    int n0 = mmpi_intercomm_side(x->core, 0)->size, n1 = x->size - n0;
    return n0 > n1 ? n0 : n1;
}

static void alltoall_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    snapshot(me, inst, 0, me->size, alltoall_per(me), send_piece);
}

static int alltoall_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                         const struct mmpi_coll_result *res)
{
    struct mmpi_inter_view v = mmpi_inter_view_of(x);
    size_t per = (size_t)alltoall_per(x);
    int err = MPI_SUCCESS;
    x->wait = true;
    for (int j = 0; j < v.rsize; j++) {
        char *sb = NULL;
        size_t sc = 0;
        const struct mmpi_datatype *sdt = NULL;
        if (!res)
            mmpi_coll_piece(&mmpi_coll_deposit(inst, v.rbase + j)->send, v.me, &sb, &sc, &sdt);
        err = keep_first(err, into_piece(x, j, res, (size_t)(v.rbase + j) * per + (size_t)v.me,
                                         sb, sc, sdt));
    }
    return err;
}

const struct mmpi_coll_algo mmpi_inter_bcast_algo = {bcast_combine, bcast_read, NULL,
                                                     MMPI_COLLOP_BCAST};
const struct mmpi_coll_algo mmpi_inter_gather_algo = {gather_combine, gather_read, NULL,
                                                      MMPI_COLLOP_GATHER};
const struct mmpi_coll_algo mmpi_inter_scatter_algo = {scatter_combine, scatter_read, NULL,
                                                       MMPI_COLLOP_SCATTER};
const struct mmpi_coll_algo mmpi_inter_allgather_algo = {allgather_combine, allgather_read, NULL,
                                                         MMPI_COLLOP_ALLGATHER};
const struct mmpi_coll_algo mmpi_inter_alltoall_algo = {alltoall_combine, alltoall_read, NULL,
                                                        MMPI_COLLOP_ALLTOALL};
