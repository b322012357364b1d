/*
 * coll/inter_reduce.c: the reductions on intercommunicators (MPI-4.1 §6.2.2, §6.9, §6.10):
 * Reduce (the root, MPI_ROOT, gets the reduction of the other group's inputs), Allreduce
 * (each group gets the reduction of the other group's inputs), Reduce_scatter(_block) (the
 * reduction of the other group's inputs is scattered over this group by this group's
 * counts), blocking and nonblocking.
 *
 * Algorithm (on the bridge board; a group's inputs are contiguous bridge ranks, folded in
 * rank order by mmpi_coll_reduce_range):
 *  - SNAPSHOT for small data and nonblocking calls (coll.h limits): the last arriver folds
 *    each group's inputs that someone receives into the result (block s: side s's fold) with
 *    its own op and datatype; receivers unpack their part of the other side's block.
 *  - DIRECT otherwise: each receiver folds the remote group's inputs into private memory
 *    with its own op and datatype; everybody departs and waits for the departures.
 * Cost: snapshot one synchronization, (n0 + n1) * count operations by one thread; direct two
 * synchronizations, remote size * count per receiver.
 * On process failure: as inter_move.c.
 */
#include <stdlib.h>

#include "coll/inter.h"
#include "comm/intercomm.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "pt2pt/copy.h"

/* How many elements side s's fold needs (what the other side receives in all), or 0 when
 * nobody receives it: Reduce folds only the side that is not the root's. */
typedef size_t fold_len_fn(const struct mmpi_coll *me, const struct mmpi_board_instance *inst,
                           int s);

static size_t whole(const struct mmpi_coll *me, const struct mmpi_board_instance *inst, int s)
{
    (void)inst;
    (void)s;
    return me->send.count;
}

static size_t leaf_side(const struct mmpi_coll *me, const struct mmpi_board_instance *inst, int s)
{
    int n0 = mmpi_intercomm_side(me->core, 0)->size;
    for (int i = 0; i < me->size; i++)
        if (mmpi_coll_deposit(inst, i)->root == MPI_ROOT)
            return (i >= n0) != s ? me->send.count : 0; /* the root's side is not folded */
    return 0;
}

/* Reduce_scatter: the receiving side's total (its members' input length). */
static size_t receivers_total(const struct mmpi_coll *me, const struct mmpi_board_instance *inst,
                              int s)
{
    int n0 = mmpi_intercomm_side(me->core, 0)->size;
    return mmpi_coll_deposit(inst, s ? 0 : n0)->send.count;
}

/* Folds side 0 and side 1 into result blocks 0 and 1 (off[0..2]) when small enough. */
static void fold_sides(const struct mmpi_coll *me, struct mmpi_board_instance *inst,
                       fold_len_fn *len)
{
    int n0 = mmpi_intercomm_side(me->core, 0)->size, lo[2] = {0, n0}, hi[2] = {n0, me->size};
    size_t count[2] = {len(me, inst, 0), len(me, inst, 1)}, elem = me->send.dt->size;
    for (int s = 0; s < 2; s++)
        for (int i = lo[s]; count[s] && i < hi[s]; i++)
            if (mmpi_coll_deposit(inst, i)->send.count < count[s])
                return; /* too short an input: direct mode reports it */
    size_t bytes = (count[0] + count[1]) * elem;
    struct mmpi_coll_result *res;
    if (!mmpi_coll_reduce_snapshot(me, bytes, 1) ||
        !(res = mmpi_coll_result_new(MMPI_COLL_SNAPSHOT, 3, bytes)))
        return;
    res->off[0] = 0;
    res->off[1] = count[0] * elem;
    res->off[2] = bytes;
    for (int s = 0; s < 2; s++)
        mmpi_coll_reduce_range(me, inst, lo[s], hi[s], 0, count[s], res->data + res->off[s]);
    inst->result = res;
}

static void reduce_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    fold_sides(me, inst, leaf_side);
}

static void allreduce_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    fold_sides(me, inst, whole);
}

static void reduce_scatter_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    fold_sides(me, inst, receivers_total);
}

/* recv <- elements [first, first + count) of the fold of the remote group's inputs. */
static int fold_remote(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                       const struct mmpi_coll_result *res, size_t first, size_t count)
{
    struct mmpi_inter_view v = mmpi_inter_view_of(x);
    size_t copied, elem = x->send.dt->size, bytes = count * elem;
    if (res) {
        int s = v.rbase == 0 ? 0 : 1;
        size_t block = res->off[s];
        if (block + (first + count) * elem > res->off[s + 1])
            return MPI_ERR_COUNT; /* the other group folded fewer elements */
        return mmpi_typed_unpack(res->data + block + first * elem, bytes, x->recv.buf,
                                 x->recv.count, x->recv.dt, &copied);
    }
    for (int i = 0; i < v.rsize; i++)
        if (mmpi_coll_deposit(inst, v.rbase + i)->send.count < first + count)
            return MPI_ERR_COUNT; /* the other group supplied fewer elements */
    void *out = malloc(bytes ? bytes : 1);
    if (!out)
        return MPI_ERR_NO_MEM;
    mmpi_coll_reduce_range(x, inst, v.rbase, v.rbase + v.rsize, first, count, out);
    int err = mmpi_typed_unpack(out, bytes, x->recv.buf, x->recv.count, x->recv.dt, &copied);
    free(out);
    return err;
}

static int reduce_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                       const struct mmpi_coll_result *res)
{
    x->wait = true;
    return x->root == MPI_ROOT ? fold_remote(x, inst, res, 0, x->recv.count) : MPI_SUCCESS;
}

static int allreduce_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                          const struct mmpi_coll_result *res)
{
    x->wait = true;
    return fold_remote(x, inst, res, 0, x->recv.count);
}

/* This member's block starts after the blocks of the lower ranks of its own group. */
static int reduce_scatter_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                               const struct mmpi_coll_result *res)
{
    struct mmpi_inter_view v = mmpi_inter_view_of(x);
    size_t first = 0;
    x->wait = true;
    for (int i = 0; i < v.me; i++)
        first += mmpi_poly_null(x->recv.counts) ? x->recv.count
                                                : (size_t)mmpi_poly_at(x->recv.counts, (size_t)i);
    return fold_remote(x, inst, res, first, x->recv.count);
}

const struct mmpi_coll_algo mmpi_inter_reduce_algo = {reduce_combine, reduce_read, NULL,
                                                      MMPI_COLLOP_REDUCE};
const struct mmpi_coll_algo mmpi_inter_allreduce_algo = {allreduce_combine, allreduce_read, NULL,
                                                         MMPI_COLLOP_ALLREDUCE};
const struct mmpi_coll_algo mmpi_inter_reduce_scatter_algo = {
    reduce_scatter_combine, reduce_scatter_read, NULL, MMPI_COLLOP_REDUCE_SCATTER};
