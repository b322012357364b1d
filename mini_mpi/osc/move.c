/*
 * osc/move.c: data movement (MPI-4.1 §12.3): resolving the target's memory and moving typed
 * data with the datatype cursor (datatype/cursor.c) and the op/ kernels. Every operation is
 * complete, at origin and target, when its call returns (win.h). Accumulates at a target are
 * one atomic instruction (one element) or run under its accumulate mutex, which covers nothing
 * but the combine itself (atomic.c says how the two stay atomic together). An operation whose
 * target failed moves nothing and raises nothing (the epoch's end reports, sync.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/datatype.h"
#include "mpit/mpit.h"
#include "op/op.h"
#include "osc/win.h"

bool mmpi_win_span(const struct mmpi_datatype *dt, size_t count, MPI_Aint *lo, MPI_Aint *hi)
{
    /* (count - 1) * extent steps from the first element to the last, backwards for a negative
     * extent; each product and sum is checked, since a wrapped one would land inside. */
    MPI_Aint step = 0;
    if (count > 1 && (count - 1 > (size_t)INTPTR_MAX /* MPI_Aint is intptr_t */ ||
                      __builtin_mul_overflow((MPI_Aint)(count - 1), dt->extent, &step)))
        return false;
    *lo = dt->true_lb;
    if (__builtin_add_overflow(dt->true_lb, dt->true_extent, hi))
        return false;
    return step < 0 ? !__builtin_add_overflow(*lo, step, lo)
                    : !__builtin_add_overflow(*hi, step, hi);
}

/* Whether the access epoch covers target; waits for its PSCW post when needed. */
static int epoch_covers(struct mmpi_rank *self, struct mmpi_win *w, int target, bool passive)
{
    if (w->lock_all || w->locks[target])
        return MPI_SUCCESS;
    if (passive)
        return MPI_ERR_RMA_SYNC; /* §12.3.5: request-based calls need a passive epoch */
    if (w->fence)
        return MPI_SUCCESS;
    for (int i = 0; w->access && i < w->naccess; i++)
        if (w->access[i].rank == target)
            return mmpi_win_access_ready(self, w, i);
    return MPI_ERR_RMA_SYNC;
}

/* a + d for an address a and a signed byte distance d, unless it leaves the address space. */
static bool address_add(uintptr_t a, MPI_Aint d, uintptr_t *out)
{
    if (d >= 0)
        return !__builtin_add_overflow(a, (uintptr_t)d, out);
    return !__builtin_sub_overflow(a, -(uintptr_t)d, out); /* -(uintptr_t)d == |d| */
}

/* Where (disp, tcount, tdt) lies in target's memory: MPI_ERR_RMA_RANGE when a byte it touches
 * is outside the window (outside attached memory for a dynamic window), or when the arithmetic
 * locating it overflows: such a displacement names no memory of the window. */
static int resolve(struct mmpi_win *w, int target, MPI_Aint disp, size_t tcount,
                   const struct mmpi_datatype *tdt, char **addr)
{
    struct mmpi_win_target *t = &w->core->targets[target];
    bool empty = tcount == 0 || tdt->size == 0;
    MPI_Aint lo = 0, hi = 0;
    if (!empty && !mmpi_win_span(tdt, tcount, &lo, &hi))
        return MPI_ERR_RMA_RANGE;
    if (w->core->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        /* §12.2.4: the displacement is an address (MPI_Get_address) in attached memory,
         * possibly in several adjacent regions (one operation may span them). */
        *addr = (char *)disp;
        uintptr_t a, b;
        if (empty)
            return MPI_SUCCESS;
        if (!address_add((uintptr_t)disp, lo, &a) || !address_add((uintptr_t)disp, hi, &b))
            return MPI_ERR_RMA_RANGE;
        return mmpi_win_covered(t, (char *)a, (char *)b) ? MPI_SUCCESS : MPI_ERR_RMA_RANGE;
    }
    MPI_Aint off;
    if (!mmpi_win_byte_offset(disp, t->disp_unit, &off))
        return MPI_ERR_RMA_RANGE;
    if (empty) {
        *addr = t->base; /* nothing is accessed */
        return MPI_SUCCESS;
    }
    if (!mmpi_win_fits(off, lo, hi, t->size))
        return MPI_ERR_RMA_RANGE;
    *addr = t->base + off;
    return MPI_SUCCESS;
}

int mmpi_win_target_addr(struct mmpi_rank *self, struct mmpi_win *w, int target, MPI_Aint disp,
                         size_t tcount, const struct mmpi_datatype *tdt, bool passive,
                         char **addr)
{
    /* Revocation first, then the sticky failure: either may be why no epoch is open (a lock
     * the failure refused opened nothing), and it is what the call reports. */
    if (mmpi_fault_revoked(&w->core->fault))
        return MPI_ERR_REVOKED; /* every later operation on a revoked window */
    if (w->proc_failed)
        return MPI_ERR_PROC_FAILED; /* sticky (win.h) */
    int err = epoch_covers(self, w, target, passive);
    /* A PSCW target that failed before its post: nothing moves; Win_complete reports. */
    bool failed = err == MPI_ERR_PROC_FAILED;
    if (err != MPI_SUCCESS && !failed)
        return err;
    if (disp < 0 && w->core->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_ERR_DISP;
    /* A bad displacement is the caller's error whether or not the target lives. */
    err = resolve(w, target, disp, tcount, tdt, addr);
    if (err != MPI_SUCCESS)
        return err;
    /* The one-sided sections of the fault-tolerance chapter: failures are reported by
     * synchronization calls, never when an operation starts. An operation whose target failed
     * moves nothing (MMPI_WIN_TARGET_FAILED); the call that ends the epoch reports. */
    if (failed || (mmpi_fault_any(self->world) && mmpi_osc_member_failed(w->core, target)))
        return MMPI_WIN_TARGET_FAILED;
    mmpi_pvar_add(MMPI_PVAR_RMA_OPS, 1); /* issued: it moves data */
    return MPI_SUCCESS;
}

int mmpi_win_put(struct mmpi_win *w, int target, const struct mmpi_win_buf *origin, char *taddr,
                 size_t tcount, const struct mmpi_datatype *tdt)
{
    (void)w, (void)target;
    mmpi_datatype_copy(origin->buf, origin->count, origin->dt, taddr, tcount, tdt);
    return MPI_SUCCESS;
}

int mmpi_win_get_data(struct mmpi_win *w, int target, const struct mmpi_win_buf *origin,
                      char *taddr, size_t tcount, const struct mmpi_datatype *tdt)
{
    (void)w, (void)target;
    mmpi_datatype_copy(taddr, tcount, tdt, origin->buf, origin->count, origin->dt);
    return MPI_SUCCESS;
}

int mmpi_win_accumulate(struct mmpi_win *w, int target, const struct mmpi_win_buf *origin,
                        const struct mmpi_win_buf *result, char *taddr, size_t tcount,
                        const struct mmpi_datatype *tdt, const struct mmpi_op *op)
{
    if (mmpi_win_acc_atomic(w, target, origin, result, taddr, tcount, tdt, op))
        return MPI_SUCCESS;
    /* The origin may overlap the target (a rank accumulating its own window memory): pack it
     * first when the op reads it, outside the mutex. */
    void *packed = NULL;
    const void *in = origin ? origin->buf : NULL;
    const struct mmpi_datatype *in_dt = origin ? origin->dt : NULL;
    size_t in_count = origin ? origin->count : 0;
    if (op->index != MMPI_OPI_NO_OP && origin && !origin->dt->contiguous) {
        size_t bytes = origin->count * origin->dt->size;
        packed = mmpi_xmalloc(bytes ? bytes : 1);
        mmpi_datatype_pack(origin->dt, origin->buf, origin->count, 0, packed, bytes);
        in = packed;
        in_dt = NULL;
        in_count = bytes;
    }
    mmpi_win_acc_lock(w->core, target);
    if (result)
        mmpi_datatype_copy(taddr, tcount, tdt, result->buf, result->count, result->dt);
    if (op->index != MMPI_OPI_NO_OP) {
        mmpi_op_apply_predefined(op, in, in_dt, in_count, taddr, tcount, tdt);
    }
    mmpi_win_acc_unlock(w->core, target);
    free(packed);
    return MPI_SUCCESS;
}

int mmpi_win_compare_and_swap(struct mmpi_win *w, int target, const void *origin,
                              const void *compare, void *result,
                              const struct mmpi_datatype *dt, char *taddr)
{
    if (mmpi_win_cas_atomic(w, target, origin, compare, result, dt, taddr))
        return MPI_SUCCESS;
    size_t n = dt->size;
    char *p = taddr + dt->true_lb;
    mmpi_win_acc_lock(w->core, target);
    memcpy((char *)result + dt->true_lb, p, n);
    if (!memcmp(p, (const char *)compare + dt->true_lb, n))
        memcpy(p, (const char *)origin + dt->true_lb, n);
    mmpi_win_acc_unlock(w->core, target);
    return MPI_SUCCESS;
}
