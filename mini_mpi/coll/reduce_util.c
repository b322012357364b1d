/*
 * coll/reduce_util.c: the reduction step shared by Reduce, Allreduce, Reduce_scatter, Scan and
 * Exscan (coll.h): folding members' inputs, in rank order, into packed output, and the choice
 * between snapshot and the larger-data modes.
 *
 * Order (MPI-4.1 §6.9.1): the result must be a0 op a1 op ... op an-1 for non-commutative ops;
 * apply computes inout = in op inout, so the fold starts from the highest rank and applies
 * lower ranks on the left. Every member uses its own op object and datatype (user functions
 * and handles belong to the calling rank); others' inputs are read through their own types.
 */
#include <stdint.h>
#include <stdlib.h>

#include "coll/coll.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "op/op.h"
#include "pt2pt/copy.h"

/* Element `first` of member d's input. */
static const char *elem(const struct mmpi_coll *d, size_t first)
{
    return (const char *)d->in + (MPI_Aint)first * d->send.dt->extent;
}

void mmpi_coll_reduce_range(const struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                            int lo, int hi, size_t first, size_t count, void *out)
{
    const struct mmpi_datatype *dt = x->send.dt;
    const struct mmpi_coll *d = mmpi_coll_deposit(inst, hi - 1);
    if (count == 0)
        return;
    if (mmpi_op_packed_ok(x->op, dt)) {
        void *tmp = NULL;
        if (d->send.dt->size == dt->size)
            mmpi_typed_pack(elem(d, first), count, d->send.dt, out);
        else
            mmpi_datatype_pack(d->send.dt, d->in, d->send.count, first * dt->size, out,
                               count * dt->size);
        for (int i = hi - 2; i >= lo; i--) {
            d = mmpi_coll_deposit(inst, i);
            if (d->send.dt->size == dt->size) {
                mmpi_op_apply_packed(x->op, elem(d, first), d->send.dt, out, count, dt, x->dth);
                continue;
            }
            /* Same signature built from other elements (2 x MPI_INT here, one contiguous
             * pair there): element indices differ, packed bytes do not. */
            if (!tmp)
                tmp = mmpi_xmalloc(count * dt->size);
            mmpi_datatype_pack(d->send.dt, d->in, d->send.count, first * dt->size, tmp,
                               count * dt->size);
            mmpi_op_apply_packed(x->op, tmp, NULL, out, count, dt, x->dth);
        }
        free(tmp);
        return;
    }
    /* A user function on a non-contiguous type needs the data laid out as that type. */
    void *mem;
    char *acc = mmpi_op_typed_scratch(dt, count, &mem);
    mmpi_datatype_copy(elem(d, first), count, d->send.dt, acc, count, dt);
    for (int i = hi - 2; i >= lo; i--) {
        d = mmpi_coll_deposit(inst, i);
        mmpi_op_apply_from(x->op, elem(d, first), d->send.dt, acc, count, dt, x->dth);
    }
    mmpi_typed_pack(acc, count, dt, out);
    free(mem);
}

bool mmpi_coll_all_packed_ok(const struct mmpi_coll *me, const struct mmpi_board_instance *inst)
{
    for (int i = 0; i < me->size; i++) {
        const struct mmpi_coll *d = mmpi_coll_deposit(inst, i);
        /* SHARED mode slices by elements of each member's own type: the slices agree only
         * when the elements have one size everywhere. */
        if (!mmpi_op_packed_ok(d->op, d->send.dt) || d->send.dt->size != me->send.dt->size)
            return false;
    }
    return true;
}

bool mmpi_coll_reduce_snapshot(const struct mmpi_coll *me, size_t bytes, size_t slots)
{
    size_t data = bytes * slots;
    /* A snapshot is folded by the combine step, under the board's lock (board.c): a user
     * function must not run there, since it may call MPI, abort, or be where an injected
     * death lands, and every other member would then wait on the lock for good. Members
     * fold user operations themselves, outside any lock (shared or direct mode). */
    if (me->op->index == MMPI_OPI_USER)
        return false;
    if (mmpi_coll_snapshot_override() != SIZE_MAX)
        return data <= mmpi_coll_snapshot_override();
    if (me->nonblocking)
        return data <= MMPI_COLL_NB_SNAPSHOT_MAX;
    return data <= MMPI_COLL_SNAPSHOT_MAX && bytes * (size_t)me->size <= MMPI_COLL_REDUCE_WORK_MAX;
}
