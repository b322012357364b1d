/*
 * coll/alltoall.c: MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw and their nonblocking forms
 * (MPI-4.1 §6.8, §6.12.6) on the collective engine. Send and receive buffers are vectors of
 * pieces (regular, v or w form); piece j of member i's send goes to piece i of member j's
 * receive. With MPI_IN_PLACE both are the receive buffer.
 *
 * Algorithm: SNAPSHOT when all the pieces (plus their offset table) fit the snapshot size: the
 * last arriver packs them, sender-major, into the result. Beyond: DIRECT, each member copies
 * its pieces from the senders' buffers and waits for the departures. In place, a member cannot
 * overwrite its buffer while others still read it: it packs what it receives aside and
 * unpacks it in the finish step, after everyone has departed.
 * Cost: one synchronization, 2 copies (snapshot); two synchronizations, one copy (direct; two
 * in place).
 * On process failure: a member that died after arriving is still read; one that never arrived
 * makes everyone report MPI_ERR_PROC_FAILED (engine.c).
 */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/inter.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "pt2pt/copy.h"

static void alltoall_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    size_t n = (size_t)me->size, total = 0;
    for (size_t i = 0; i < n; i++) {
        const struct mmpi_coll *d = mmpi_coll_deposit(inst, (int)i);
        for (size_t j = 0; j < n; j++)
            total += mmpi_coll_piece_bytes(&d->send, (int)j);
    }
    if (total + (n * n + 1) * sizeof(size_t) > mmpi_coll_snapshot_max(me))
        return;
    struct mmpi_coll_result *res = mmpi_coll_result_new(MMPI_COLL_SNAPSHOT, n * n + 1, total);
    if (!res)
        return;
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        const struct mmpi_coll *d = mmpi_coll_deposit(inst, (int)i);
        for (size_t j = 0; j < n; j++) {
            char *buf;
            size_t count;
            const struct mmpi_datatype *dt;
            mmpi_coll_piece(&d->send, (int)j, &buf, &count, &dt);
            res->off[i * n + j] = pos;
            mmpi_typed_pack(buf, count, dt, res->data + pos);
            pos += mmpi_typed_bytes(dt, count);
        }
    }
    res->off[n * n] = pos;
    inst->result = res;
}

/* In place, direct mode: packs every incoming piece into x->tmp (offsets in x->tmp_off). */
static void set_aside(struct mmpi_coll *x, const struct mmpi_board_instance *inst)
{
    size_t n = (size_t)x->size, total = 0;
    x->tmp_off = mmpi_xmalloc((n + 1) * sizeof(size_t));
    for (size_t i = 0; i < n; i++) {
        x->tmp_off[i] = total;
        total += mmpi_coll_piece_bytes(&mmpi_coll_deposit(inst, (int)i)->send, x->rank);
    }
    x->tmp_off[n] = total;
    x->tmp = mmpi_xmalloc(total ? total : 1);
    for (size_t i = 0; i < n; i++) {
        char *buf;
        size_t count;
        const struct mmpi_datatype *dt;
        mmpi_coll_piece(&mmpi_coll_deposit(inst, (int)i)->send, x->rank, &buf, &count, &dt);
        mmpi_typed_pack(buf, count, dt, (char *)x->tmp + x->tmp_off[i]);
    }
}

/* Unpacks piece i (packed bytes at src) into piece i of x's receive buffer. */
static int unpack_piece(struct mmpi_coll *x, int i, const void *src, size_t bytes)
{
    char *buf;
    size_t count, copied;
    const struct mmpi_datatype *dt;
    mmpi_coll_piece(&x->recv, i, &buf, &count, &dt);
    return mmpi_typed_unpack(src, bytes, buf, count, dt, &copied);
}

static int alltoall_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                         const struct mmpi_coll_result *res)
{
    size_t n = (size_t)x->size, me = (size_t)x->rank;
    int err = MPI_SUCCESS, e;
    x->wait = true;
    if (!res && x->in_place) {
        set_aside(x, inst);
        return MPI_SUCCESS;
    }
    for (size_t i = 0; i < n; i++) {
        if (res) {
            size_t k = i * n + me;
            e = unpack_piece(x, (int)i, res->data + res->off[k], res->off[k + 1] - res->off[k]);
        } else {
            char *sbuf, *rbuf;
            size_t scount, rcount, copied;
            const struct mmpi_datatype *sdt, *rdt;
            mmpi_coll_piece(&mmpi_coll_deposit(inst, (int)i)->send, (int)me, &sbuf, &scount,
                            &sdt);
            mmpi_coll_piece(&x->recv, (int)i, &rbuf, &rcount, &rdt);
            e = mmpi_typed_copy(sbuf, scount, sdt, rbuf, rcount, rdt, &copied);
        }
        if (err == MPI_SUCCESS)
            err = e;
    }
    return err;
}

static int alltoall_finish(struct mmpi_coll *x, const struct mmpi_coll_result *res)
{
    int err = MPI_SUCCESS;
    if (!x->tmp)
        return MPI_SUCCESS;
    for (int i = 0; i < x->size; i++) {
        int e = unpack_piece(x, i, (char *)x->tmp + x->tmp_off[i],
                             x->tmp_off[i + 1] - x->tmp_off[i]);
        if (err == MPI_SUCCESS)
            err = e;
    }
    return err;
}

static const struct mmpi_coll_algo alltoall_algo = {alltoall_combine, alltoall_read,
                                                    alltoall_finish, MMPI_COLLOP_ALLTOALL};

int mmpi_alltoall(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                  MPI_Request *request)
{
    x->algo = c->core->remote ? &mmpi_inter_alltoall_algo : &alltoall_algo;
    if (x->in_place)
        x->send = x->recv;
    return mmpi_coll_run(self, c, x, request);
}
