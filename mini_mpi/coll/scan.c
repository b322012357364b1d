/*
 * coll/scan.c: MPI_Scan and MPI_Exscan with their nonblocking forms (MPI-4.1 §6.11, §6.12.11,
 * §6.12.12) on the collective engine. Member r receives a0 op ... op ar (Scan) or
 * a0 op ... op ar-1 (Exscan; member 0's receive buffer is left untouched, §6.11.2).
 *
 * Algorithm: SNAPSHOT for small data and nonblocking calls: the last arriver computes every
 * prefix once, p0 = a0 and pi = pi-1 op ai (the standard's order), into n result slots; each
 * member unpacks its slot. Otherwise DIRECT: each member folds the inputs it needs into private
 * memory, departs, waits (its own input may be its receive buffer, read by higher ranks), and
 * writes its result in the finish step.
 * Cost: snapshot one synchronization and n*count element operations by one thread; direct two
 * synchronizations and r*count operations at member r.
 * On process failure: as Reduce (reduce.c).
 */
#include <stdlib.h>

#include "coll/coll.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "op/op.h"
#include "pt2pt/copy.h"

/* Every prefix, packed into consecutive slots. */
static void prefixes(const struct mmpi_coll *me, const struct mmpi_board_instance *inst,
                     unsigned char *slots, size_t bytes)
{
    const struct mmpi_datatype *dt = me->send.dt;
    size_t count = me->send.count;
    if (mmpi_op_packed_ok(me->op, dt)) {
        for (int i = 0; i < me->size; i++) {
            const struct mmpi_coll *d = mmpi_coll_deposit(inst, i);
            unsigned char *slot = slots + (size_t)i * bytes;
            mmpi_typed_pack(d->in, count, d->send.dt, slot);
            if (i > 0)
                mmpi_op_apply_packed(me->op, slot - bytes, NULL, slot, count, dt, me->dth);
        }
        return;
    }
    /* A user function on a non-contiguous type: prefixes laid out as that type. */
    void *mem_prev, *mem_cur;
    char *prev = mmpi_op_typed_scratch(dt, count, &mem_prev);
    char *cur = mmpi_op_typed_scratch(dt, count, &mem_cur);
    for (int i = 0; i < me->size; i++) {
        const struct mmpi_coll *d = mmpi_coll_deposit(inst, i);
        mmpi_datatype_copy(d->in, count, d->send.dt, cur, count, dt);
        if (i > 0)
            mmpi_op_apply(me->op, prev, cur, count, dt, me->dth);
        mmpi_typed_pack(cur, count, dt, slots + (size_t)i * bytes);
        char *t = prev;
        prev = cur;
        cur = t;
    }
    free(mem_prev);
    free(mem_cur);
}

static void scan_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    size_t bytes = mmpi_typed_bytes(me->send.dt, me->send.count);
    struct mmpi_coll_result *res;
    if (mmpi_coll_reduce_snapshot(me, bytes, (size_t)me->size) &&
        (res = mmpi_coll_result_new(MMPI_COLL_SNAPSHOT, 0, bytes * (size_t)me->size))) {
        prefixes(me, inst, res->data, bytes);
        inst->result = res;
    }
}

/* Member x's result is the prefix ending at member `last` (none when last < 0). */
static int read_prefix(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                       const struct mmpi_coll_result *res, int last)
{
    size_t count = x->send.count, bytes = mmpi_typed_bytes(x->send.dt, count), copied;
    if (!res)
        x->wait = true; /* higher ranks read our input */
    if (last < 0)
        return MPI_SUCCESS;
    if (res)
        return mmpi_typed_unpack(res->data + (size_t)last * bytes, bytes, x->recv.buf,
                                 x->recv.count, x->recv.dt, &copied);
    x->tmp = malloc(bytes ? bytes : 1);
    if (!x->tmp)
        return MPI_ERR_NO_MEM;
    mmpi_coll_reduce_range(x, inst, 0, last + 1, 0, count, x->tmp);
    return MPI_SUCCESS;
}

static int scan_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                     const struct mmpi_coll_result *res)
{
    return read_prefix(x, inst, res, x->rank);
}

static int exscan_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                       const struct mmpi_coll_result *res)
{
    return read_prefix(x, inst, res, x->rank - 1);
}

static int prefix_finish(struct mmpi_coll *x, const struct mmpi_coll_result *res)
{
    size_t copied;
    if (!x->tmp)
        return MPI_SUCCESS;
    return mmpi_typed_unpack(x->tmp, mmpi_typed_bytes(x->send.dt, x->send.count), x->recv.buf,
                             x->recv.count, x->recv.dt, &copied);
}

static const struct mmpi_coll_algo scan_algo = {scan_combine, scan_read, prefix_finish,
                                                MMPI_COLLOP_SCAN};
static const struct mmpi_coll_algo exscan_algo = {scan_combine, exscan_read, prefix_finish,
                                                  MMPI_COLLOP_EXSCAN};

int mmpi_scan(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
              MPI_Request *request)
{
    x->algo = &scan_algo;
    return mmpi_coll_run(self, c, x, request);
}

int mmpi_exscan(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                MPI_Request *request)
{
    x->algo = &exscan_algo;
    return mmpi_coll_run(self, c, x, request);
}
