/*
 * coll/gather.c: MPI_Gather(v) and MPI_Allgather(v) with their nonblocking forms (MPI-4.1
 * §6.5, §6.7, §6.12.3, §6.12.5) on the collective engine. Each member's contribution is its
 * send block (with MPI_IN_PLACE, its own piece of the receive buffer); the receive buffer is a
 * vector of pieces (regular or v form).
 *
 * Algorithm: SNAPSHOT when all contributions together fit the snapshot size: the last arriver
 * packs them, in rank order, into the result; receivers unpack their pieces. Beyond: DIRECT,
 * each receiver (the root, or everyone for Allgather) copies every piece from its sender's
 * buffer; senders wait for the departures.
 * Cost: one synchronization and 2 copies of the data per receiver (snapshot); two
 * synchronizations and one copy (direct).
 * On process failure: a sender that died after arriving is still read; one that never arrived
 * makes everyone report MPI_ERR_PROC_FAILED (engine.c).
 */
#include "coll/coll.h"
#include "coll/inter.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "pt2pt/copy.h"

static size_t block_bytes(const struct mmpi_coll *d)
{
    return mmpi_typed_bytes(d->send.dt, d->send.count);
}

static void gather_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    size_t n = (size_t)me->size, total = 0;
    for (size_t i = 0; i < n; i++)
        total += block_bytes(mmpi_coll_deposit(inst, (int)i));
    if (total + (n + 1) * sizeof(size_t) > mmpi_coll_snapshot_max(me))
        return;
    struct mmpi_coll_result *res = mmpi_coll_result_new(MMPI_COLL_SNAPSHOT, n + 1, total);
    if (!res)
        return;
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        const struct mmpi_coll *d = mmpi_coll_deposit(inst, (int)i);
        res->off[i] = pos;
        mmpi_typed_pack(d->send.buf, d->send.count, d->send.dt, res->data + pos);
        pos += block_bytes(d);
    }
    res->off[n] = pos;
    inst->result = res;
}

/* Fills every piece of x's receive buffer (its own piece stays when in place). */
static int gather_into(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                       const struct mmpi_coll_result *res)
{
    int err = MPI_SUCCESS;
    for (int i = 0; i < x->size; i++) {
        char *buf;
        size_t count, copied;
        const struct mmpi_datatype *dt;
        int e;
        if (i == x->rank && x->in_place)
            continue;
        mmpi_coll_piece(&x->recv, i, &buf, &count, &dt);
        if (res) {
            e = mmpi_typed_unpack(res->data + res->off[i], res->off[i + 1] - res->off[i], buf,
                                  count, dt, &copied);
        } else {
            const struct mmpi_coll *d = mmpi_coll_deposit(inst, i);
            e = mmpi_typed_copy(d->send.buf, d->send.count, d->send.dt, buf, count, dt, &copied);
        }
        if (err == MPI_SUCCESS)
            err = e;
    }
    return err;
}

static int gather_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                       const struct mmpi_coll_result *res)
{
    if (x->rank != x->root) {
        x->wait = true; /* the root reads our block (direct mode) */
        return MPI_SUCCESS;
    }
    return gather_into(x, inst, res);
}

static int allgather_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                          const struct mmpi_coll_result *res)
{
    x->wait = true;
    return gather_into(x, inst, res);
}

static const struct mmpi_coll_algo gather_algo = {gather_combine, gather_read, NULL,
                                                  MMPI_COLLOP_GATHER};
static const struct mmpi_coll_algo allgather_algo = {gather_combine, allgather_read, NULL,
                                                     MMPI_COLLOP_ALLGATHER};

/* With MPI_IN_PLACE the contribution is the member's own piece of its receive buffer. */
static void own_piece_as_block(struct mmpi_comm *c, struct mmpi_coll *x)
{
    char *buf;
    size_t count;
    const struct mmpi_datatype *dt;
    mmpi_coll_piece(&x->recv, c->rank, &buf, &count, &dt);
    x->send.buf = buf;
    x->send.count = count;
    x->send.dt = dt;
}

int mmpi_gather(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                MPI_Request *request)
{
    x->algo = c->core->remote ? &mmpi_inter_gather_algo : &gather_algo;
    if (x->in_place)
        own_piece_as_block(c, x);
    return mmpi_coll_run(self, c, x, request);
}

int mmpi_allgather(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                   MPI_Request *request)
{
    x->algo = c->core->remote ? &mmpi_inter_allgather_algo : &allgather_algo;
    if (x->in_place)
        own_piece_as_block(c, x);
    return mmpi_coll_run(self, c, x, request);
}
