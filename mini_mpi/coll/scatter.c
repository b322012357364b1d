/*
 * coll/scatter.c: MPI_Scatter(v) and their nonblocking forms (MPI-4.1 §6.6, §6.12.4) on the
 * collective engine. The root's send buffer is a vector of pieces (regular or v form); each
 * member receives its piece into its recv block (with MPI_IN_PLACE, the root keeps its own).
 *
 * Algorithm: SNAPSHOT when the root's pieces fit the snapshot size (the last arriver packs them
 * into the result); else DIRECT, each member copies its piece from the root's buffer and the
 * root waits for the departures.
 * Cost: one synchronization and two copies per member (snapshot); two synchronizations and
 * one copy (direct).
 * On process failure: as Bcast (bcast.c).
 */
#include "coll/coll.h"
#include "coll/inter.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "pt2pt/copy.h"

static void scatter_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    const struct mmpi_coll *root = mmpi_coll_deposit(inst, me->root);
    size_t n = (size_t)me->size, total = 0;
    for (size_t j = 0; j < n; j++)
        total += mmpi_coll_piece_bytes(&root->send, (int)j);
    if (total + (n + 1) * sizeof(size_t) > mmpi_coll_snapshot_max(me))
        return;
    struct mmpi_coll_result *res = mmpi_coll_result_new(MMPI_COLL_SNAPSHOT, n + 1, total);
    if (!res)
        return;
    size_t pos = 0;
    for (size_t j = 0; j < n; j++) {
        char *buf;
        size_t count;
        const struct mmpi_datatype *dt;
        mmpi_coll_piece(&root->send, (int)j, &buf, &count, &dt);
        res->off[j] = pos;
        mmpi_typed_pack(buf, count, dt, res->data + pos);
        pos += mmpi_typed_bytes(dt, count);
    }
    res->off[n] = pos;
    inst->result = res;
}

static int scatter_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                        const struct mmpi_coll_result *res)
{
    size_t copied;
    if (x->rank == x->root)
        x->wait = true; /* the others copy from our buffer (direct mode) */
    if (x->rank == x->root && x->in_place)
        return MPI_SUCCESS;
    if (res)
        return mmpi_typed_unpack(res->data + res->off[x->rank],
                                 res->off[x->rank + 1] - res->off[x->rank], x->recv.buf,
                                 x->recv.count, x->recv.dt, &copied);
    const struct mmpi_coll *root = mmpi_coll_deposit(inst, x->root);
    char *buf;
    size_t count;
    const struct mmpi_datatype *dt;
    mmpi_coll_piece(&root->send, x->rank, &buf, &count, &dt);
    return mmpi_typed_copy(buf, count, dt, x->recv.buf, x->recv.count, x->recv.dt, &copied);
}

static const struct mmpi_coll_algo scatter_algo = {scatter_combine, scatter_read, NULL,
                                                   MMPI_COLLOP_SCATTER};

int mmpi_scatter(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                 MPI_Request *request)
{
    x->algo = c->core->remote ? &mmpi_inter_scatter_algo : &scatter_algo;
    return mmpi_coll_run(self, c, x, request);
}
