/*
 * coll/reduce.c: MPI_Reduce and MPI_Allreduce with their nonblocking forms (MPI-4.1 §6.9.1,
 * §6.9.6, §6.12.7, §6.12.8) on the collective engine. Each member's input is x->in (its send
 * buffer, or its receive buffer with MPI_IN_PLACE), send.count elements of send.dt; the result
 * goes to the receive block of the root (Reduce) or of everyone (Allreduce).
 *
 * Algorithm:
 *  - SNAPSHOT for small data (coll.h limits) and for nonblocking calls, with a predefined op
 *    (a user op never runs in the combine step, which holds the board's lock): the last
 *    arriver folds all inputs, in rank order, into the result (packed); members unpack it. At 8 bytes and
 *    many ranks this is O(n) work once instead of O(n) per member.
 *  - SHARED for large data when every member can reduce into packed memory (predefined op, or
 *    contiguous types): the combine only allocates the result; member r folds elements
 *    [count*r/n, count*(r+1)/n) of all inputs into it, departs, waits, and copies out.
 *  - DIRECT otherwise (a user op on non-contiguous types, or no memory for a shared result):
 *    each member that needs the result folds everything into private memory.
 * Cost: snapshot one synchronization, n*count element operations by one thread; shared two
 * synchronizations, count element operations per member; direct two synchronizations, n*count
 * per receiving member.
 * On process failure: a member that never arrived makes everyone report
 * MPI_ERR_PROC_FAILED; in shared mode, one that died before finishing its slice as well
 * (engine.c).
 */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/fast.h"
#include "coll/inter.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "pt2pt/copy.h"

static void reduce_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    size_t count = me->send.count, bytes = mmpi_typed_bytes(me->send.dt, count);
    struct mmpi_coll_result *res;
    if (mmpi_coll_reduce_snapshot(me, bytes, 1) &&
        (res = mmpi_coll_result_new(MMPI_COLL_SNAPSHOT, 0, bytes))) {
        mmpi_coll_reduce_range(me, inst, 0, me->size, 0, count, res->data);
        inst->result = res;
        return;
    }
    if (mmpi_coll_all_packed_ok(me, inst))
        inst->result = mmpi_coll_result_new(MMPI_COLL_SHARED, 0, bytes);
}

/* wants: this member receives the result. */
static int read_common(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                       const struct mmpi_coll_result *res, bool wants)
{
    size_t count = x->send.count, copied;
    if (res && res->mode == MMPI_COLL_SNAPSHOT)
        return wants ? mmpi_typed_unpack(res->data, res->bytes, x->recv.buf, x->recv.count,
                                         x->recv.dt, &copied)
                     : MPI_SUCCESS;
    x->wait = true; /* others read our input */
    if (res) {
        size_t n = (size_t)x->size, r = (size_t)x->rank;
        size_t lo = count * r / n, hi = count * (r + 1) / n;
        if (hi > lo)
            mmpi_coll_reduce_range(x, inst, 0, x->size, lo, hi - lo,
                                   res->data + lo * x->send.dt->size);
        return MPI_SUCCESS;
    }
    if (!wants)
        return MPI_SUCCESS;
    size_t bytes = mmpi_typed_bytes(x->send.dt, count);
    x->tmp = malloc(bytes ? bytes : 1);
    if (!x->tmp)
        return MPI_ERR_NO_MEM;
    mmpi_coll_reduce_range(x, inst, 0, x->size, 0, count, x->tmp);
    return MPI_SUCCESS;
}

/* After every slice (shared) or the private fold (direct) is done. */
static int finish_common(struct mmpi_coll *x, const struct mmpi_coll_result *res, bool wants)
{
    size_t copied;
    if (!wants)
        return MPI_SUCCESS;
    const void *src = res ? (const void *)res->data : x->tmp;
    return mmpi_typed_unpack(src, mmpi_typed_bytes(x->send.dt, x->send.count), x->recv.buf,
                             x->recv.count, x->recv.dt, &copied);
}

static int reduce_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                       const struct mmpi_coll_result *res)
{
    return read_common(x, inst, res, x->rank == x->root);
}

static int reduce_finish(struct mmpi_coll *x, const struct mmpi_coll_result *res)
{
    return finish_common(x, res, x->rank == x->root);
}

static int allreduce_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                          const struct mmpi_coll_result *res)
{
    return read_common(x, inst, res, true);
}

static int allreduce_finish(struct mmpi_coll *x, const struct mmpi_coll_result *res)
{
    return finish_common(x, res, true);
}

static const struct mmpi_coll_algo reduce_algo = {reduce_combine, reduce_read, reduce_finish,
                                                  MMPI_COLLOP_REDUCE};
static const struct mmpi_coll_algo allreduce_algo = {reduce_combine, allreduce_read,
                                                     allreduce_finish, MMPI_COLLOP_ALLREDUCE};

int mmpi_reduce(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                MPI_Request *request)
{
    x->algo = c->core->remote ? &mmpi_inter_reduce_algo : &reduce_algo;
    return mmpi_coll_run(self, c, x, request);
}

int mmpi_allreduce(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                   MPI_Request *request)
{
    if (!request && !x->persistent && mmpi_coll_fast_allreduce_ok(c, x))
        return mmpi_coll_fast_allreduce(self, c, x); /* small communicators (fast.h) */
    x->algo = c->core->remote ? &mmpi_inter_allreduce_algo : &allreduce_algo;
    return mmpi_coll_run(self, c, x, request);
}
