/*
 * coll/reduce_scatter.c: MPI_Reduce_scatter_block and MPI_Reduce_scatter with their
 * nonblocking forms (MPI-4.1 §6.10, §6.12.9, §6.12.10) on the collective engine. Each member's
 * input is x->in, send.count (the sum of all blocks) elements of send.dt; member r receives
 * block r (recv.count elements; recv.counts holds every block's size in the v form).
 *
 * Algorithm: SNAPSHOT for small data and nonblocking calls (the last arriver folds everything;
 * members unpack their block). Otherwise DIRECT: each member folds its own block of every input
 * into private memory, departs, waits (with MPI_IN_PLACE its buffer is still someone's input),
 * and writes its block in the finish step.
 * Cost: snapshot one synchronization and n*count element operations by one thread; direct two
 * synchronizations and n*block per member.
 * On process failure: as Reduce (reduce.c).
 */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/inter.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "pt2pt/copy.h"

static void reduce_scatter_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    size_t count = me->send.count, bytes = mmpi_typed_bytes(me->send.dt, count);
    struct mmpi_coll_result *res;
    if (mmpi_coll_reduce_snapshot(me, bytes, 1) &&
        (res = mmpi_coll_result_new(MMPI_COLL_SNAPSHOT, 0, bytes))) {
        mmpi_coll_reduce_range(me, inst, 0, me->size, 0, count, res->data);
        inst->result = res;
    }
}

/* First element of x's block in the full vector. */
static size_t block_start(const struct mmpi_coll *x)
{
    if (mmpi_poly_null(x->recv.counts))
        return (size_t)x->rank * x->recv.count;
    size_t first = 0;
    for (int k = 0; k < x->rank; k++)
        first += (size_t)mmpi_poly_at(x->recv.counts, (size_t)k);
    return first;
}

static int reduce_scatter_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                               const struct mmpi_coll_result *res)
{
    size_t first = block_start(x), count = x->recv.count, copied;
    size_t esize = x->send.dt->size;
    if (res)
        return mmpi_typed_unpack(res->data + first * esize, count * esize, x->recv.buf, count,
                                 x->recv.dt, &copied);
    x->wait = true;
    x->tmp = malloc(count > 0 && esize > 0 ? count * esize : 1);
    if (!x->tmp)
        return MPI_ERR_NO_MEM;
    mmpi_coll_reduce_range(x, inst, 0, x->size, first, count, x->tmp);
    return MPI_SUCCESS;
}

static int reduce_scatter_finish(struct mmpi_coll *x, const struct mmpi_coll_result *res)
{
    size_t copied;
    return mmpi_typed_unpack(x->tmp, x->recv.count * x->send.dt->size, x->recv.buf,
                             x->recv.count, x->recv.dt, &copied);
}

static const struct mmpi_coll_algo reduce_scatter_algo = {
    reduce_scatter_combine, reduce_scatter_read, reduce_scatter_finish, MMPI_COLLOP_REDUCE_SCATTER};

int mmpi_reduce_scatter(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                        MPI_Request *request)
{
    x->algo = c->core->remote ? &mmpi_inter_reduce_scatter_algo : &reduce_scatter_algo;
    return mmpi_coll_run(self, c, x, request);
}
