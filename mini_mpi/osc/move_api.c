/*
 * osc/move_api.c: MPI entry points of RMA communication (MPI-4.1 §12.3), in the chapter's
 * order, request-based forms last; the calls with a large-count form are written once
 * (mmpi_api_*, api/README.md). Bindings: argument checks (one visible block per call, in
 * check_*), the MPI_PROC_NULL early return, the epoch and range checks of
 * mmpi_win_target_addr, then one call into move.c. Errors go to the window's handler.
 */
#include <string.h>

#include "datatype/datatype.h"
#include "generated/api_impl.h"
#include "op/op.h"
#include "osc/win.h"
#include "pt2pt/request.h"
#include "runtime/enter.h"

/* A transfer's arguments, resolved. */
struct xfer {
    struct mmpi_win *w;
    struct mmpi_win_buf origin, result;
    const struct mmpi_datatype *tdt;
    size_t tcount;
    const struct mmpi_op *op;
    char *taddr;
};

/* Count and datatype of one side: MPI_ERR_COUNT, MPI_ERR_TYPE. */
static int check_side(struct mmpi_rank *self, MPI_Count count, MPI_Datatype dt,
                      const struct mmpi_datatype **out)
{
    if (count < 0)
        return MPI_ERR_COUNT;
    struct mmpi_datatype *d;
    int err = mmpi_datatype_check(self, dt, &d);
    *out = d;
    return err;
}

/* §12.3: the origin (or result) and target signatures must match: MPI_ERR_TYPE when their
 * byte counts differ, MPI_ERR_COUNT when one does not fit in a size_t (no buffer is that
 * large, and a wrapped product could match the other side). */
static int check_signature(size_t count, const struct mmpi_datatype *dt, size_t tcount,
                           const struct mmpi_datatype *tdt)
{
    size_t b, tb;
    if (__builtin_mul_overflow(count, dt->size, &b) ||
        __builtin_mul_overflow(tcount, tdt->size, &tb))
        return MPI_ERR_COUNT;
    return b == tb ? MPI_SUCCESS : MPI_ERR_TYPE;
}

/* The checks common to every call, up to the target's memory. *proc_null: nothing to do. */
static int check_target(struct mmpi_rank *self, MPI_Win win, int target_rank, MPI_Aint disp,
                        MPI_Count target_count, MPI_Datatype target_datatype, struct xfer *x,
                        bool *proc_null)
{
    *proc_null = false;
    if (!(x->w = mmpi_win_get(self, win)))
        return MPI_ERR_WIN;
    int err = check_side(self, target_count, target_datatype, &x->tdt);
    if (err != MPI_SUCCESS)
        return err;
    x->tcount = (size_t)target_count;
    if (target_rank == MPI_PROC_NULL) {
        *proc_null = true; /* MPI-4.1 §12.3: no effect */
        return MPI_SUCCESS;
    }
    if (target_rank < 0 || target_rank >= x->w->core->size)
        return MPI_ERR_RANK;
    if (disp < 0 && x->w->core->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_ERR_DISP;
    return MPI_SUCCESS;
}

/* The accumulate op: predefined (§12.3.4: no user ops), defined on the target type, with the
 * origin of the same basic type. */
static int check_op(struct mmpi_rank *self, MPI_Op op, struct xfer *x, bool with_origin)
{
    struct mmpi_op *o = mmpi_op_get(self, op);
    if (!o || o->index == MMPI_OPI_USER)
        return MPI_ERR_OP;
    x->op = o;
    if (mmpi_op_check(o, x->tdt) != MPI_SUCCESS)
        return MPI_ERR_OP;
    if (with_origin && o->index != MMPI_OPI_NO_OP && x->tcount > 0 && x->tdt->size > 0 &&
        x->origin.count > 0 && x->origin.dt->size > 0 && x->origin.dt->basic != x->tdt->basic)
        return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

enum kind { PUT, GET, ACC, GET_ACC };

static int run(struct mmpi_rank *self, enum kind kind, struct xfer *x, int target_rank,
               MPI_Aint disp, bool passive)
{
    int err = mmpi_win_target_addr(self, x->w, target_rank, disp, x->tcount, x->tdt, passive,
                                   &x->taddr);
    if (err != MPI_SUCCESS)
        return err; /* MMPI_WIN_TARGET_FAILED included: nothing moves */
    /* MINI_MPI_POISON: what may be written is logged, what is only read is not (a
     * Get_accumulate with MPI_NO_OP reads). */
    if (kind != GET && (kind != GET_ACC || x->op->index != MMPI_OPI_NO_OP) &&
        mmpi_win_poison_on())
        mmpi_win_log_write(x->w, target_rank, x->taddr, x->tcount, x->tdt);
    switch (kind) {
    case PUT: return mmpi_win_put(x->w, target_rank, &x->origin, x->taddr, x->tcount, x->tdt);
    case GET:
        return mmpi_win_get_data(x->w, target_rank, &x->origin, x->taddr, x->tcount, x->tdt);
    case ACC:
        return mmpi_win_accumulate(x->w, target_rank, &x->origin, NULL, x->taddr, x->tcount,
                                   x->tdt, x->op);
    default:
        return mmpi_win_accumulate(x->w, target_rank, &x->origin, &x->result, x->taddr,
                                   x->tcount, x->tdt, x->op);
    }
}

/* A request that is complete at once: the operation completed in its call (win.h), or its
 * target has failed and the request reports MPI_ERR_PROC_FAILED at its completion, through the
 * window's error handler (a request-based operation reports there, never at its start). */
static int completed_request(struct mmpi_rank *self, struct mmpi_win *w, int result,
                             MPI_Request *request)
{
    struct mmpi_request *req = mmpi_request_new(self, MMPI_REQ_OTHER);
    req->comm = w->handle;
    memset(&req->status, 0, sizeof req->status);
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    mmpi_request_complete(req, result);
    if (mmpi_request_handle_new(self, req) == MPI_REQUEST_NULL) {
        mmpi_request_release(req);
        return MPI_ERR_NO_MEM;
    }
    *request = req->handle;
    return MPI_SUCCESS;
}

/* Runs a checked transfer (none to MPI_PROC_NULL) and hands back its request. A failed target
 * moves nothing and raises nothing here: a request reports it at its completion, the epoch's
 * synchronization otherwise. */
static int issue(struct mmpi_rank *self, enum kind kind, struct xfer *x, bool proc_null,
                 int target_rank, MPI_Aint target_disp, MPI_Request *request)
{
    int result = MPI_SUCCESS;
    if (!proc_null) {
        int err = run(self, kind, x, target_rank, target_disp, request != NULL);
        if (err == MMPI_WIN_TARGET_FAILED)
            result = MPI_ERR_PROC_FAILED;
        else if (err != MPI_SUCCESS)
            return err;
    }
    return request ? completed_request(self, x->w, result, request) : MPI_SUCCESS;
}

/* Put, Get and Accumulate, request-based (the R forms: `request` must be given) or not. */
static int transfer(struct mmpi_rank *self, enum mmpi_call call, enum kind kind,
                    const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, bool request_based,
                    MPI_Request *request)
{
    struct xfer x = {0};
    bool proc_null;
    int err = check_target(self, win, target_rank, target_disp, target_count, target_datatype,
                           &x, &proc_null);
    if (err == MPI_SUCCESS)
        err = check_side(self, origin_count, origin_datatype, &x.origin.dt);
    x.origin.count = origin_count > 0 ? (size_t)origin_count : 0;
    if (err == MPI_SUCCESS &&
        mmpi_buffer_missing(origin_addr, x.origin.count, x.origin.dt))
        err = MPI_ERR_BUFFER;
    if (err == MPI_SUCCESS && kind == ACC)
        err = check_op(self, op, &x, true);
    if (err == MPI_SUCCESS && request_based && request == NULL)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        goto fn_fail;
    x.origin.buf = (void *)origin_addr;
    x.origin.count = (size_t)origin_count;
    err = check_signature(x.origin.count, x.origin.dt, x.tcount, x.tdt);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    err = issue(self, kind, &x, proc_null, target_rank, target_disp, request);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, x.w, err, call);
    goto fn_exit;
}

/* Get_accumulate, request-based or not, and Fetch_and_op. */
static int get_accumulate(struct mmpi_rank *self, enum mmpi_call call, const void *origin_addr,
                          MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr,
                          MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count,
                          MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, bool request_based,
                          MPI_Request *request, bool fetch_and_op)
{
    struct xfer x = {0};
    bool proc_null;
    int err = check_target(self, win, target_rank, target_disp, target_count, target_datatype,
                           &x, &proc_null);
    if (err == MPI_SUCCESS)
        err = check_side(self, result_count, result_datatype, &x.result.dt);
    if (err == MPI_SUCCESS &&
        mmpi_buffer_missing(result_addr, result_count > 0 ? (size_t)result_count : 0,
                            x.result.dt))
        err = MPI_ERR_BUFFER;
    /* §12.3.4: with MPI_NO_OP the origin buffer, count and type are ignored. */
    bool no_op = op == MPI_NO_OP;
    if (err == MPI_SUCCESS && !no_op)
        err = check_side(self, origin_count, origin_datatype, &x.origin.dt);
    x.origin.count = !no_op && origin_count > 0 ? (size_t)origin_count : 0;
    if (err == MPI_SUCCESS && !no_op &&
        mmpi_buffer_missing(origin_addr, x.origin.count, x.origin.dt))
        err = MPI_ERR_BUFFER;
    /* §12.3.5: Fetch_and_op takes one element of a predefined type. */
    if (err == MPI_SUCCESS && fetch_and_op && !x.tdt->predefined)
        err = MPI_ERR_TYPE;
    if (err == MPI_SUCCESS)
        err = check_op(self, op, &x, !no_op);
    if (err == MPI_SUCCESS && request_based && request == NULL)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        goto fn_fail;
    x.result.buf = result_addr;
    x.result.count = (size_t)result_count;
    if (!no_op) {
        x.origin.buf = (void *)origin_addr;
        x.origin.count = (size_t)origin_count;
    }
    if (!no_op)
        err = check_signature(x.origin.count, x.origin.dt, x.tcount, x.tdt);
    if (err == MPI_SUCCESS)
        err = check_signature(x.result.count, x.result.dt, x.tcount, x.tdt);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    err = issue(self, GET_ACC, &x, proc_null, target_rank, target_disp, request);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, x.w, err, call);
    goto fn_exit;
}

/* The target of a common-case operation: a member target covered by a lock or lock_all epoch,
 * a window with static memory that is neither revoked nor failed here, no failure published in
 * the world, nothing to log (MINI_MPI_POISON), and the n bytes at disp (moved by the datatype's
 * true lower bound lb) inside the target's memory. Their address, or NULL: the caller takes
 * its general path, which checks everything again in the standard's order (the class of an
 * error depends on that order). */
static inline char *fast_target(struct mmpi_rank *self, struct mmpi_win *w, int target_rank,
                                MPI_Aint disp, MPI_Aint lb, size_t n)
{
    if (!w || target_rank < 0 || target_rank >= w->core->size ||
        !(w->lock_all || w->locks[target_rank]) || w->proc_failed ||
        w->core->flavor == MPI_WIN_FLAVOR_DYNAMIC || mmpi_fault_any(self->world) ||
        mmpi_fault_revoked(&w->core->fault) || mmpi_win_poison_on())
        return NULL;
    const struct mmpi_win_target *t = &w->core->targets[target_rank];
    MPI_Aint off;
    if (disp < 0 || n > (size_t)t->size || !mmpi_win_byte_offset(disp, t->disp_unit, &off) ||
        !mmpi_win_fits(off, lb, lb + (MPI_Aint)n, t->size))
        return NULL;
    return t->base + off + lb;
}

/* The common put, whole: a contiguous predefined datatype, the same on both sides (so the
 * signatures match), and fast_target's conditions. Then the put is one copy, as transfer()
 * would make it, without the datatype cursor or the epoch and range resolution of the general
 * path. Anything else, errors included, returns false and takes transfer(). */
static inline bool put_fast(struct mmpi_rank *self, const void *origin_addr, MPI_Count count,
                            MPI_Datatype datatype, int target_rank, MPI_Aint disp,
                            MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    if (count <= 0 || count != target_count || datatype != target_datatype)
        return false;
    const struct mmpi_datatype *dt = mmpi_dt_predefined(datatype);
    if (!dt || !dt->contiguous || !origin_addr)
        return false;
    size_t n;
    if (__builtin_mul_overflow((size_t)count, dt->size, &n))
        return false;
    char *dst = fast_target(self, mmpi_win_get(self, win), target_rank, disp, dt->true_lb, n);
    if (!dst)
        return false;
    const char *src = (const char *)origin_addr + dt->true_lb;
    if (n == 8 && ((uintptr_t)dst & 7) == 0) {
        /* One load then one store: the same bytes memmove would leave when the origin
         * overlaps the target (a rank putting into its own window). The store is a relaxed
         * atomic one, the same instruction as a plain store: a target polling the word with
         * atomic loads (the unified model, MPI-4.1 §12.4) does not race with it. */
        uint64_t v;
        memcpy(&v, src, 8);
        __atomic_store_n((uint64_t *)(void *)dst, v, __ATOMIC_RELAXED);
    } else {
        memmove(dst, src, n);
    }
    return true;
}

int mmpi_api_Put(struct mmpi_rank *self, enum mmpi_call call, const void *origin_addr,
                 MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                 MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype,
                 MPI_Win win)
{
    if (put_fast(self, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                 target_count, target_datatype, win))
        return MPI_SUCCESS;
    return transfer(self, call, PUT, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, MPI_OP_NULL, win, false, NULL);
}

int mmpi_api_Get(struct mmpi_rank *self, enum mmpi_call call, void *origin_addr,
                 MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                 MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype,
                 MPI_Win win)
{
    return transfer(self, call, GET, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, MPI_OP_NULL, win, false, NULL);
}

int mmpi_api_Accumulate(struct mmpi_rank *self, enum mmpi_call call, const void *origin_addr,
                        MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype,
                        MPI_Op op, MPI_Win win)
{
    return transfer(self, call, ACC, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, op, win, false, NULL);
}

int mmpi_api_Get_accumulate(struct mmpi_rank *self, enum mmpi_call call, const void *origin_addr,
                            MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr,
                            MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                            MPI_Aint target_disp, MPI_Count target_count,
                            MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return get_accumulate(self, call, origin_addr, origin_count, origin_datatype, result_addr,
                          result_count, result_datatype, target_rank, target_disp, target_count,
                          target_datatype, op, win, false, NULL, false);
}

/* The common fetch-and-op, whole: an element of a contiguous predefined datatype, a
 * predefined op defined on it (check_op's rule), both buffers given, and fast_target's
 * conditions. Then it is mmpi_win_accumulate of that one element, as the general path would
 * run it, without the general path's resolution. Anything else, errors included, returns
 * false and takes get_accumulate(). */
static inline bool fetch_and_op_fast(struct mmpi_rank *self, const void *origin_addr,
                                     void *result_addr, MPI_Datatype datatype, int target_rank,
                                     MPI_Aint disp, MPI_Op op, MPI_Win win)
{
    const struct mmpi_datatype *dt = mmpi_dt_predefined(datatype);
    const struct mmpi_op *o = mmpi_op_get(self, op);
    if (!dt || !dt->contiguous || !o || o->index == MMPI_OPI_USER || !result_addr ||
        (!origin_addr && o->index != MMPI_OPI_NO_OP) || mmpi_op_check(o, dt) != MPI_SUCCESS)
        return false;
    struct mmpi_win *w = mmpi_win_get(self, win);
    char *taddr = fast_target(self, w, target_rank, disp, dt->true_lb, dt->size);
    if (!taddr)
        return false;
    struct mmpi_win_buf origin = {(void *)origin_addr, 1, dt}, result = {result_addr, 1, dt};
    mmpi_win_accumulate(w, target_rank, &origin, &result, taddr - dt->true_lb, 1, dt, o);
    return true;
}

MMPI_PROFILED(Fetch_and_op);
int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Fetch_and_op);
    if (fetch_and_op_fast(self, origin_addr, result_addr, datatype, target_rank, target_disp,
                          op, win))
        return MPI_SUCCESS;
    /* §12.3.5: Get_accumulate of one element of a predefined type on all three sides. */
    return get_accumulate(self, MMPI_CALL_Fetch_and_op, origin_addr, 1, datatype, result_addr, 1,
                          datatype, target_rank, target_disp, 1, datatype, op, win, false, NULL,
                          true);
}

/* MPI_Compare_and_swap's implementation, once the target is checked. */
static int compare_and_swap(struct mmpi_rank *self, struct xfer *x, int target_rank,
                            MPI_Aint target_disp, const void *origin_addr,
                            const void *compare_addr, void *result_addr)
{
    int err = mmpi_win_target_addr(self, x->w, target_rank, target_disp, 1, x->tdt, false,
                                   &x->taddr);
    if (err == MMPI_WIN_TARGET_FAILED)
        return MPI_SUCCESS; /* nothing moves; the epoch's end reports */
    if (err != MPI_SUCCESS)
        return err;
    if (mmpi_win_poison_on())
        mmpi_win_log_write(x->w, target_rank, x->taddr, 1, x->tdt);
    return mmpi_win_compare_and_swap(x->w, target_rank, origin_addr, compare_addr, result_addr,
                                     x->tdt, x->taddr);
}

/* §12.3.5: MPI_Compare_and_swap takes C integer, Fortran integer, logical, multi-language or
 * byte types only: the predefined ones on which MPI_BOR or MPI_LAND is defined. */
static bool cas_type_ok(struct mmpi_rank *self, const struct mmpi_datatype *dt)
{
    return dt->predefined && (mmpi_op_check(mmpi_op_get(self, MPI_BOR), dt) == MPI_SUCCESS ||
                              mmpi_op_check(mmpi_op_get(self, MPI_LAND), dt) == MPI_SUCCESS);
}

/* The common compare-and-swap, whole: an element of a predefined datatype on which MPI_BOR or
 * MPI_LAND is defined (§12.3.5's types), the three buffers given, and fast_target's
 * conditions. Then it is mmpi_win_compare_and_swap, without the general path's resolution.
 * Anything else, errors included, returns false and takes the general path. */
static inline bool compare_and_swap_fast(struct mmpi_rank *self, const void *origin_addr,
                                         const void *compare_addr, void *result_addr,
                                         MPI_Datatype datatype, int target_rank, MPI_Aint disp,
                                         MPI_Win win)
{
    const struct mmpi_datatype *dt = mmpi_dt_predefined(datatype);
    if (!dt || !origin_addr || !compare_addr || !result_addr || !cas_type_ok(self, dt))
        return false;
    struct mmpi_win *w = mmpi_win_get(self, win);
    char *taddr = fast_target(self, w, target_rank, disp, dt->true_lb, dt->size);
    if (!taddr)
        return false;
    mmpi_win_compare_and_swap(w, target_rank, origin_addr, compare_addr, result_addr, dt,
                              taddr - dt->true_lb);
    return true;
}

MMPI_PROFILED(Compare_and_swap);
int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Win win)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Compare_and_swap);
    if (compare_and_swap_fast(self, origin_addr, compare_addr, result_addr, datatype,
                              target_rank, target_disp, win))
        return MPI_SUCCESS;
    struct xfer x = {0};
    bool proc_null;
    int err = check_target(self, win, target_rank, target_disp, 1, datatype, &x, &proc_null);

    if (err != MPI_SUCCESS)
        goto fn_fail;
    MMPI_FAIL_IF(!cas_type_ok(self, x.tdt), MPI_ERR_TYPE);
    MMPI_FAIL_IF((!origin_addr || !compare_addr || !result_addr) && !proc_null, MPI_ERR_BUFFER);
    if (proc_null)
        goto fn_exit; /* §12.3: MPI_PROC_NULL as target, nothing moves */
    err = compare_and_swap(self, &x, target_rank, target_disp, origin_addr, compare_addr,
                           result_addr);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_win(self, x.w, err, MMPI_CALL_Compare_and_swap);
    goto fn_exit;
}

int mmpi_api_Rput(struct mmpi_rank *self, enum mmpi_call call, const void *origin_addr,
                  MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                  MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype,
                  MPI_Win win, MPI_Request *request)
{
    return transfer(self, call, PUT, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, MPI_OP_NULL, win, true, request);
}

int mmpi_api_Rget(struct mmpi_rank *self, enum mmpi_call call, void *origin_addr,
                  MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                  MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype,
                  MPI_Win win, MPI_Request *request)
{
    return transfer(self, call, GET, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, MPI_OP_NULL, win, true, request);
}

int mmpi_api_Raccumulate(struct mmpi_rank *self, enum mmpi_call call, const void *origin_addr,
                         MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype,
                         MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return transfer(self, call, ACC, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, op, win, true, request);
}

int mmpi_api_Rget_accumulate(struct mmpi_rank *self, enum mmpi_call call, const void *origin_addr,
                             MPI_Count origin_count, MPI_Datatype origin_datatype,
                             void *result_addr, MPI_Count result_count,
                             MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                             MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                             MPI_Win win, MPI_Request *request)
{
    return get_accumulate(self, call, origin_addr, origin_count, origin_datatype, result_addr,
                          result_count, result_datatype, target_rank, target_disp, target_count,
                          target_datatype, op, win, true, request, false);
}
