/*
 * osc/sync_api.c: MPI entry points of RMA synchronization (MPI-4.1 §12.5), in the chapter's
 * order. Bindings only: the checks of the window, group, rank, lock type and assertion, the
 * MPI_PROC_NULL target, then one call into sync.c or lock.c, whose MPI_ERR_RMA_SYNC reports
 * every misuse of epochs. Errors go to the window's handler.
 */
#include <stdlib.h>

#include "group/group.h"
#include "osc/win.h"
#include "runtime/enter.h"

/* The assertions of fence, post and start (§12.5.5); lock and lock_all know MPI_MODE_NOCHECK. */
#define KNOWN_ASSERTS                                                                        \
    (MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE |             \
     MPI_MODE_NOSUCCEED)

/* The common shape: resolve the window, run fn, raise on error. The entry is inline: flush,
 * lock and unlock are a few dozen instructions when nothing waits (bench/rma.c). */
#define WIN_OR_FAIL(call)                                                                    \
    struct mmpi_rank *self = mmpi_enter_hot(call);                                           \
    struct mmpi_win *w = mmpi_win_get(self, win);                                            \
    int err = MPI_SUCCESS;                                                                   \
    MMPI_FAIL_IF(!w, MPI_ERR_WIN);

#define END(call)                                                                            \
    err = mmpi_osc_sticky(w, err);                                                           \
    if (err != MPI_SUCCESS)                                                                  \
        goto fn_fail;                                                                        \
    fn_exit:                                                                                 \
    return err;                                                                              \
    fn_fail:                                                                                 \
    err = mmpi_err_raise_win(self, w, err, call);                                            \
    goto fn_exit;

/* A lock's, unlock's or flush's target: a member of the window, or MPI_PROC_NULL. */
static inline bool rank_ok(const struct mmpi_win *w, int rank)
{
    return rank == MPI_PROC_NULL || (rank >= 0 && rank < w->core->size);
}

/* Group members as window ranks (malloc'ed); MPI_ERR_GROUP when one is not in the window. */
static int group_ranks(struct mmpi_win *w, MPI_Group group, struct mmpi_rank *self, int **ranks,
                       int *n)
{
    struct mmpi_group *g = mmpi_group_get(self, group);
    if (!g)
        return MPI_ERR_GROUP;
    int *out = mmpi_xmalloc((size_t)(g->size > 0 ? g->size : 1) * sizeof(int));
    for (int i = 0; i < g->size; i++) {
        out[i] = -1;
        for (int r = 0; r < w->core->size; r++)
            if (w->core->targets[r].world_rank == g->world_ranks[i]) {
                out[i] = r;
                break;
            }
        if (out[i] < 0) {
            free(out);
            return MPI_ERR_GROUP;
        }
    }
    *ranks = out;
    *n = g->size;
    return MPI_SUCCESS;
}

/* The ranks of a PSCW epoch's group, in the order of the checks: MPI_ERR_GROUP; none once the
 * window raised a failure here (sticky: no epoch opens, win.h); MPI_ERR_ASSERT. */
static int epoch_group(struct mmpi_rank *self, struct mmpi_win *w, MPI_Group group, int assert,
                       int **ranks, int *n)
{
    int err = group_ranks(w, group, self, ranks, n);
    if (err != MPI_SUCCESS)
        return err;
    err = mmpi_osc_epoch_refused(w);
    if (err == MPI_SUCCESS && (assert & ~KNOWN_ASSERTS))
        err = MPI_ERR_ASSERT;
    if (err != MPI_SUCCESS)
        free(*ranks);
    return err;
}

MMPI_PROFILED(Win_fence);
int PMPI_Win_fence(int assert, MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_fence)
    MMPI_FAIL_IF(assert & ~KNOWN_ASSERTS, MPI_ERR_ASSERT);
    err = mmpi_win_fence(self, w, assert);
    END(MMPI_CALL_Win_fence)
}

MMPI_PROFILED(Win_start);
int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_start)
    int *ranks, n;
    err = epoch_group(self, w, group, assert, &ranks, &n);
    if (err == MPI_SUCCESS)
        err = mmpi_win_start(self, w, ranks, n);
    END(MMPI_CALL_Win_start)
}

MMPI_PROFILED(Win_complete);
int PMPI_Win_complete(MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_complete)
    err = mmpi_win_complete(self, w);
    END(MMPI_CALL_Win_complete)
}

MMPI_PROFILED(Win_post);
int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_post)
    int *ranks, n;
    err = epoch_group(self, w, group, assert, &ranks, &n);
    if (err == MPI_SUCCESS)
        err = mmpi_win_post(self, w, ranks, n);
    END(MMPI_CALL_Win_post)
}

MMPI_PROFILED(Win_wait);
int PMPI_Win_wait(MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_wait)
    err = mmpi_win_wait(self, w, NULL);
    END(MMPI_CALL_Win_wait)
}

MMPI_PROFILED(Win_test);
int PMPI_Win_test(MPI_Win win, int *flag)
{
    WIN_OR_FAIL(MMPI_CALL_Win_test)
    MMPI_FAIL_IF(!flag, MPI_ERR_ARG);
    err = mmpi_win_wait(self, w, flag);
    END(MMPI_CALL_Win_test)
}

MMPI_PROFILED(Win_lock);
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_lock)
    if ((err = mmpi_osc_epoch_refused(w)))
        goto fn_fail;
    MMPI_FAIL_IF(!rank_ok(w, rank), MPI_ERR_RANK);
    MMPI_FAIL_IF(lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED, MPI_ERR_LOCKTYPE);
    MMPI_FAIL_IF(assert & ~MPI_MODE_NOCHECK, MPI_ERR_ASSERT);
    if (rank != MPI_PROC_NULL) /* MPI-4.1 §12.5.3: no effect */
        err = mmpi_win_lock(self, w, lock_type, rank, assert);
    END(MMPI_CALL_Win_lock)
}

MMPI_PROFILED(Win_lock_all);
int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_lock_all)
    if ((err = mmpi_osc_epoch_refused(w)))
        goto fn_fail;
    MMPI_FAIL_IF(assert & ~MPI_MODE_NOCHECK, MPI_ERR_ASSERT);
    err = mmpi_win_lock_all(self, w, assert);
    END(MMPI_CALL_Win_lock_all)
}

MMPI_PROFILED(Win_unlock);
int PMPI_Win_unlock(int rank, MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_unlock)
    MMPI_FAIL_IF(!rank_ok(w, rank), MPI_ERR_RANK);
    if (rank != MPI_PROC_NULL) /* MPI-4.1 §12.5.3: no effect */
        err = mmpi_win_unlock(self, w, rank);
    END(MMPI_CALL_Win_unlock)
}

MMPI_PROFILED(Win_unlock_all);
int PMPI_Win_unlock_all(MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_unlock_all)
    err = mmpi_win_unlock_all(self, w);
    END(MMPI_CALL_Win_unlock_all)
}

/* Flushes: every operation is complete when its call returns (win.h), so a flush is a full
 * memory fence once the epoch check passed (§12.5.4: only inside a passive-target epoch;
 * `rank` must be locked, or lock_all held). all: every target. A flush is a synchronization
 * call: it reports MPI_ERR_PROC_FAILED when a target it completes has failed (all: any target
 * of the epoch), the operations to the live targets being complete; the epoch stays open. */
static int flush(struct mmpi_rank *self, struct mmpi_win *w, int rank, bool all)
{
    if (!all && !rank_ok(w, rank))
        return MPI_ERR_RANK;
    if (!all && rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (!w->lock_all && (all ? w->nlocks == 0 : !w->locks[rank]))
        return MPI_ERR_RMA_SYNC;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (mmpi_fault_revoked(&w->core->fault))
        return MPI_ERR_REVOKED;
    if (!all) {
        if (!mmpi_osc_member_failed(w->core, rank)) {
            mmpi_win_epoch_ended(w, MMPI_WIN_EPOCH_LOCK, (uint64_t)rank, MPI_SUCCESS);
            return MPI_SUCCESS;
        }
        mmpi_osc_member_reported(self, w->core, rank);
        return MPI_ERR_PROC_FAILED;
    }
    bool failed = false;
    for (int r = 0; r < w->core->size && mmpi_fault_any(self->world); r++)
        if ((w->lock_all || w->locks[r]) && mmpi_osc_member_failed(w->core, r)) {
            mmpi_osc_member_reported(self, w->core, r);
            failed = true;
        }
    if (!failed)
        mmpi_win_epoch_ended(w, MMPI_WIN_EPOCH_LOCK, UINT64_MAX, MPI_SUCCESS);
    return failed ? MPI_ERR_PROC_FAILED : MPI_SUCCESS;
}

/* The common flush of one target, whole: a member target inside the epoch, nothing logged
 * (MINI_MPI_POISON), and after the fence no revoke, no failure published in the world and none
 * raised on the window here. Then flush() would return MPI_SUCCESS having done nothing but the
 * fence. Otherwise false: flush() runs in full (its second fence costs nothing more). */
static inline bool flush_fast(struct mmpi_rank *self, struct mmpi_win *w, int rank)
{
    if (rank < 0 || rank >= w->core->size || !(w->lock_all || w->locks[rank]) ||
        mmpi_win_poison_on())
        return false;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return !mmpi_fault_revoked(&w->core->fault) && !mmpi_fault_any(self->world) &&
           !w->proc_failed;
}

MMPI_PROFILED(Win_flush);
int PMPI_Win_flush(int rank, MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_flush)
    if (flush_fast(self, w, rank))
        return MPI_SUCCESS;
    err = flush(self, w, rank, false);
    END(MMPI_CALL_Win_flush)
}

MMPI_PROFILED(Win_flush_all);
int PMPI_Win_flush_all(MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_flush_all)
    err = flush(self, w, 0, true);
    END(MMPI_CALL_Win_flush_all)
}

MMPI_PROFILED(Win_flush_local);
int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_flush_local)
    if (flush_fast(self, w, rank))
        return MPI_SUCCESS;
    err = flush(self, w, rank, false);
    END(MMPI_CALL_Win_flush_local)
}

MMPI_PROFILED(Win_flush_local_all);
int PMPI_Win_flush_local_all(MPI_Win win)
{
    WIN_OR_FAIL(MMPI_CALL_Win_flush_local_all)
    err = flush(self, w, 0, true);
    END(MMPI_CALL_Win_flush_local_all)
}

MMPI_PROFILED(Win_sync);
int PMPI_Win_sync(MPI_Win win)
{
    /* §12.5.4: synchronizes the private and public copies, which are one memory here
     * (MPI_WIN_UNIFIED): a full fence orders this member's accesses. */
    WIN_OR_FAIL(MMPI_CALL_Win_sync)
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    END(MMPI_CALL_Win_sync)
}
