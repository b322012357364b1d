/*
 * osc/move.c: data movement (MPI-4.1 §12.3): resolving the target's memory and moving typed
 * data with the datatype cursor (datatype/cursor.c) and the op/ kernels. Every operation is
 * complete, at origin and target, when its call returns (win.h). Accumulates at a target run
 * under its accumulate mutex, which covers nothing but the combine itself. An operation whose
 * target failed moves nothing and raises nothing (the epoch's end reports, sync.c).
 */
#include <stdlib.h>
#include <string.h>

#include "datatype/datatype.h"
#include "op/op.h"
#include "osc/failure_link.h"
#include "osc/win.h"

/* Bytes [lo, hi) relative to the address of element 0 that count elements of dt touch. */
static void span(const struct mmpi_datatype *dt, size_t count, MPI_Aint *lo, MPI_Aint *hi)
{
    *lo = dt->true_lb;
    *hi = dt->true_lb + dt->true_extent;
    if (count > 1) {
        MPI_Aint s = (MPI_Aint)(count - 1) * dt->extent;
        if (s < 0)
            *lo += s;
        else
            *hi += s;
    }
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

int mmpi_win_target_addr(struct mmpi_rank *self, struct mmpi_win *w, int target, MPI_Aint disp,
                         size_t tcount, const struct mmpi_datatype *tdt, bool passive,
                         char **addr)
{
    int err = epoch_covers(self, w, target, passive);
    /* A PSCW target that failed before its post: nothing moves; Win_complete reports. */
    bool failed = err == MPI_ERR_PROC_FAILED;
    if (err != MPI_SUCCESS && !failed)
        return err;
    if (mmpi_fault_revoked(&w->core->fault))
        return MPI_ERR_REVOKED; /* every later operation on a revoked window */
    if (w->proc_failed)
        return MPI_ERR_PROC_FAILED; /* sticky (failure_link.h) */
    if (disp < 0 && w->core->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_ERR_DISP;
    /* The one-sided sections of the fault-tolerance chapter: failures are reported by
     * synchronization calls, never when an operation starts. An operation whose target failed
     * moves nothing (MMPI_WIN_TARGET_FAILED); the call that ends the epoch reports. */
    if (failed || (mmpi_fault_any(self->world) && mmpi_osc_member_failed(w->core, target)))
        return MMPI_WIN_TARGET_FAILED;
    struct mmpi_win_target *t = &w->core->targets[target];
    MPI_Aint lo, hi;
    span(tdt, tcount, &lo, &hi);
    bool empty = tcount == 0 || tdt->size == 0;
    if (w->core->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        /* §12.2.4: the displacement is an address (MPI_Get_address) in attached memory. */
        char *a = (char *)disp;
        *addr = a;
        if (empty)
            return MPI_SUCCESS;
        /* Covered by attached regions, possibly several adjacent ones (§12.2.4 lets one
         * operation span them). */
        return mmpi_win_covered(t, a + lo, a + hi) ? MPI_SUCCESS : MPI_ERR_RMA_RANGE;
    }
    MPI_Aint off = disp * t->disp_unit;
    *addr = t->base + off;
    if (empty)
        return MPI_SUCCESS;
    if (off + lo < 0 || off + hi > t->size)
        return MPI_ERR_RMA_RANGE;
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
    struct mmpi_win_target *t = &w->core->targets[target];
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
    pthread_mutex_lock(&t->acc_lock);
    if (result)
        mmpi_datatype_copy(taddr, tcount, tdt, result->buf, result->count, result->dt);
    if (op->index != MMPI_OPI_NO_OP) {
        mmpi_op_apply_predefined(op, in, in_dt, in_count, taddr, tcount, tdt);
    }
    pthread_mutex_unlock(&t->acc_lock);
    free(packed);
    return MPI_SUCCESS;
}

int mmpi_win_compare_and_swap(struct mmpi_win *w, int target, const void *origin,
                              const void *compare, void *result,
                              const struct mmpi_datatype *dt, char *taddr)
{
    struct mmpi_win_target *t = &w->core->targets[target];
    size_t n = dt->size;
    char *p = taddr + dt->true_lb;
    pthread_mutex_lock(&t->acc_lock);
    memcpy((char *)result + dt->true_lb, p, n);
    if (!memcmp(p, (const char *)compare + dt->true_lb, n))
        memcpy(p, (const char *)origin + dt->true_lb, n);
    pthread_mutex_unlock(&t->acc_lock);
    return MPI_SUCCESS;
}
