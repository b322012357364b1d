/*
 * osc/win_fault.c: what a process failure does to a window beyond the error codes (the one-sided
 * sections of the fault-tolerance chapter; docs/rma.md "Process failures and revocation"):
 *
 *  - The death hook (mmpi_win_fault_ops.on_death, run by the fault layer when a death is
 *    published, before every rank is woken): the dead member's passive-target locks are
 *    released and each target records the lock type it held (failed_hold): later requests that
 *    conflict with it raise MPI_ERR_PROC_FAILED (lock.c), so a dead holder never blocks anyone
 *    and the outcome depends only on the order in which the lock was requested, never on when
 *    the death became known. The dead member's writes in its passive-target epochs are
 *    poisoned (below), since that epoch can never complete.
 *  - Poisoning (MINI_MPI_POISON=1). The standard leaves undefined the window memory targeted
 *    by a put or an accumulate in an epoch that failed, except what was only read. With poison
 *    on, every write (put, accumulate, get_accumulate and fetch_and_op with an op other than
 *    MPI_NO_OP, compare_and_swap) is logged at its target with its epoch, and when the epoch
 *    ends in MPI_ERR_PROC_FAILED exactly its typed bytes are overwritten with MMPI_WIN_POISON
 *    (0xFF bytes: NaN in every floating type, -1 in signed integers). Who poisons, so that it
 *    never races with a survivor's next epoch: a fence's or a Win_wait's failure, the target
 *    itself in the failing call (its own memory, the writes of that epoch only); an
 *    unlock_all's failure, the origin before it releases its locks; a dead holder's epoch, the
 *    death hook under the target's mutex. MINI_MPI_VERBOSE prints each range.
 *  - Reclaim: a failed member never frees its window, so its handle object (and the core's
 *    reference it holds) is freed when the world ends (runtime/reclaim.c, through the window's
 *    table of operations, create.c).
 *  - The failure queries and the sticky rule (win.h, "Process failures"): every question
 *    osc/ asks about failures, answered by the fault layer (fault/fault.h).
 *
 * Not here: reporting in each synchronization call (sync.c, lock.c, sync_api.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/datatype.h"
#include "osc/win.h"

#define MMPI_WIN_POISON 0xFF

/* ---- Failure queries and the sticky rule ---------------------------------------------- */

bool mmpi_osc_member_failed(const struct mmpi_win_core *core, int r)
{
    return mmpi_fault_world_rank_failed(mmpi_world, core->targets[r].world_rank);
}

/* What a call on a window with the sticky failure reports: revocation wins over the failure
 * (docs/rma.md), as it does in every call that checks it. */
static int sticky_class(const struct mmpi_win *w)
{
    return mmpi_fault_revoked(&w->core->fault) ? MPI_ERR_REVOKED : MPI_ERR_PROC_FAILED;
}

int mmpi_osc_sticky(struct mmpi_win *w, int err)
{
    if (!w)
        return err;
    if (err == MPI_ERR_PROC_FAILED)
        w->proc_failed = true;
    /* A synchronization error after the failure is the failure's: the lock, lock_all, start
     * or post it refused opened no epoch for this call to end or use. */
    else if (w->proc_failed && (err == MPI_SUCCESS || err == MPI_ERR_RMA_SYNC))
        err = sticky_class(w);
    return err;
}

int mmpi_osc_epoch_refused(const struct mmpi_win *w)
{
    return w->proc_failed ? sticky_class(w) : MPI_SUCCESS;
}

void mmpi_osc_member_reported(struct mmpi_rank *self, const struct mmpi_win_core *core, int r)
{
    mmpi_fault_notice(self, core->targets[r].world_rank);
}

bool mmpi_osc_any_member_failed(struct mmpi_rank *self, const struct mmpi_win_core *core)
{
    if (!mmpi_fault_any(self->world))
        return false;
    bool any = false;
    for (int r = 0; r < core->size; r++)
        if (mmpi_osc_member_failed(core, r)) {
            mmpi_osc_member_reported(self, core, r);
            any = true;
        }
    return any;
}

/* ---- Poisoning ---------------------------------------------------------------------- */

struct wlog_entry {
    int origin;                     /* member that wrote */
    int kind;                       /* MMPI_WIN_EPOCH_* of the origin's epoch */
    uint64_t seq;                   /* FENCE: the origin's fence count when it wrote */
    char *addr;
    size_t count;
    const struct mmpi_datatype *dt; /* one reference */
};

/* Writes at one target not yet settled by the end of their epoch. Under the target's mutex. */
struct mmpi_win_wlog {
    struct wlog_entry *e;
    int n, cap;
};

bool mmpi_win_poison_on(void)
{
    return mmpi_world->config.poison;
}

void mmpi_win_log_write(struct mmpi_win *w, int target, char *taddr, size_t tcount,
                        const struct mmpi_datatype *tdt)
{
    if (tcount == 0 || tdt->size == 0)
        return;
    struct mmpi_win_target *t = &w->core->targets[target];
    int kind = w->lock_all || w->locks[target] ? MMPI_WIN_EPOCH_LOCK
               : w->fence                      ? MMPI_WIN_EPOCH_FENCE
                                               : MMPI_WIN_EPOCH_PSCW;
    pthread_mutex_lock(&t->lock);
    if (!t->wlog)
        t->wlog = mmpi_xcalloc(1, sizeof(*t->wlog));
    struct mmpi_win_wlog *l = t->wlog;
    /* The same bytes written again in the same epoch (a counter, a repeated halo put): one
     * entry is enough, and the log stays as small as what was targeted. */
    const struct wlog_entry *last = l->n ? &l->e[l->n - 1] : NULL;
    if (last && last->origin == w->rank && last->kind == kind && last->seq == w->fences &&
        last->addr == taddr && last->count == tcount && last->dt == tdt) {
        pthread_mutex_unlock(&t->lock);
        return;
    }
    mmpi_datatype_retain(tdt);
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        l->e = realloc(l->e, (size_t)l->cap * sizeof(*l->e));
        if (!l->e)
            mmpi_die("realloc");
    }
    l->e[l->n++] = (struct wlog_entry){w->rank, kind, w->fences, taddr, tcount, tdt};
    pthread_mutex_unlock(&t->lock);
}

static void entry_span(const struct wlog_entry *e, const char **lo, const char **hi);

/* Overwrites the typed bytes of e at target member tr. Call with the target's mutex. */
static void poison(const struct mmpi_win_core *core, int tr, const struct wlog_entry *e)
{
    size_t len = e->count * e->dt->size;
    unsigned char *pattern = mmpi_xmalloc(len);
    memset(pattern, MMPI_WIN_POISON, len);
    mmpi_datatype_unpack(e->dt, e->addr, e->count, 0, pattern, len);
    free(pattern);
    if (!mmpi_world->config.verbose)
        return;
    const struct mmpi_win_target *t = &core->targets[tr];
    const char *lo, *hi;
    entry_span(e, &lo, &hi);
    /* Offsets in the target's window (addresses in a dynamic window). */
    uintptr_t base = core->flavor == MPI_WIN_FLAVOR_DYNAMIC ? 0 : (uintptr_t)t->base;
    fprintf(stderr,
            "mini_mpi: window #%llu: rank %d's bytes [%lld, %lld) poisoned (%zu bytes written "
            "by rank %d in a failed epoch)\n",
            (unsigned long long)core->id, tr, (long long)((uintptr_t)lo - base),
            (long long)((uintptr_t)hi - base), len, e->origin);
}

/* The bytes [lo, hi) an entry's typed data spans (it was checked in range when logged). */
static void entry_span(const struct wlog_entry *e, const char **lo, const char **hi)
{
    MPI_Aint a, b;
    mmpi_win_span(e->dt, e->count, &a, &b);
    *lo = e->addr + a;
    *hi = e->addr + b;
}

/* Whether a write that `pick` does not select, of a later fence epoch, overlaps e: a member
 * that left the failed fence with MPI_SUCCESS (below a `during` victim) may already have
 * written there in its next epoch, and its data must not be poisoned (writes logged later
 * wait for the mutex and land after the poison). */
static bool rewritten(const struct mmpi_win_wlog *l, const struct wlog_entry *e)
{
    if (e->kind != MMPI_WIN_EPOCH_FENCE)
        return false;
    const char *lo, *hi;
    entry_span(e, &lo, &hi);
    for (int i = 0; i < l->n; i++) {
        const struct wlog_entry *o = &l->e[i];
        if (o->kind != MMPI_WIN_EPOCH_FENCE || o->seq <= e->seq)
            continue;
        const char *olo, *ohi;
        entry_span(o, &olo, &ohi);
        if (olo < hi && lo < ohi)
            return true;
    }
    return false;
}

/* Settles the entries of target tr's log that `pick` selects: poisons them when `failed`,
 * drops them either way. Call with the target's mutex. */
static void settle(const struct mmpi_win_core *core, int tr, bool failed,
                   bool (*pick)(const struct wlog_entry *e, const void *arg), const void *arg)
{
    struct mmpi_win_wlog *l = core->targets[tr].wlog;
    if (!l)
        return;
    for (int i = 0; failed && i < l->n; i++)
        if (pick(&l->e[i], arg) && !rewritten(l, &l->e[i]))
            poison(core, tr, &l->e[i]);
    int k = 0;
    for (int i = 0; i < l->n; i++) {
        struct wlog_entry *e = &l->e[i];
        if (!pick(e, arg)) {
            l->e[k++] = *e;
            continue;
        }
        mmpi_datatype_release(e->dt);
    }
    l->n = k;
}

struct pick_arg {
    const struct mmpi_win *w;
    uint64_t seq;
    int origin;
};

static bool pick_fence(const struct wlog_entry *e, const void *arg)
{
    const struct pick_arg *a = arg;
    return e->kind == MMPI_WIN_EPOCH_FENCE && e->seq <= a->seq;
}

static bool pick_pscw(const struct wlog_entry *e, const void *arg)
{
    const struct pick_arg *a = arg;
    if (e->kind != MMPI_WIN_EPOCH_PSCW)
        return false;
    for (int i = 0; i < a->w->nexposure; i++)
        if (a->w->exposure[i] == e->origin)
            return true;
    return false;
}

static bool pick_lock(const struct wlog_entry *e, const void *arg)
{
    const struct pick_arg *a = arg;
    return e->kind == MMPI_WIN_EPOCH_LOCK && e->origin == a->origin;
}

void mmpi_win_epoch_ended(struct mmpi_win *w, int kind, uint64_t seq, int err)
{
    if (!mmpi_win_poison_on())
        return;
    struct mmpi_win_core *core = w->core;
    bool failed = err == MPI_ERR_PROC_FAILED;
    struct pick_arg a = {w, seq, w->rank};
    if (kind != MMPI_WIN_EPOCH_LOCK) {
        struct mmpi_win_target *t = &core->targets[w->rank];
        pthread_mutex_lock(&t->lock);
        settle(core, w->rank, failed, kind == MMPI_WIN_EPOCH_FENCE ? pick_fence : pick_pscw, &a);
        pthread_mutex_unlock(&t->lock);
        return;
    }
    for (int r = 0; r < core->size; r++) {
        if (seq != UINT64_MAX && (uint64_t)r != seq)
            continue;
        /* A failed target's memory is nobody's to read any more: dropped, not poisoned. A
         * successful flush (err MPI_SUCCESS, the epoch still open) settles them the same way:
         * they completed, a later failure of the epoch does not undo them. */
        bool poison_here = failed && !mmpi_osc_member_failed(core, r);
        struct mmpi_win_target *t = &core->targets[r];
        pthread_mutex_lock(&t->lock);
        settle(core, r, poison_here, pick_lock, &a);
        pthread_mutex_unlock(&t->lock);
    }
}

/* The death hook: runs in the publishing thread inside the registry's RCU read section, before
 * every rank is woken (fault/state.h: records, never waits). */
static void win_on_death(struct mmpi_fault_core *fc, int member)
{
    struct mmpi_win_core *core =
        (struct mmpi_win_core *)((char *)fc - offsetof(struct mmpi_win_core, fault));
    struct pick_arg a = {NULL, 0, member};
    for (int r = 0; r < core->size; r++) {
        struct mmpi_win_target *t = &core->targets[r];
        pthread_mutex_lock(&t->lock);
        mmpi_win_lock_record_open(t); /* a hold in the one-word form moves into the record */
        uint8_t held = t->holds[member];
        if (held == MMPI_WIN_EXCLUSIVE && t->exclusive == member)
            t->exclusive = -1;
        else if (held == MMPI_WIN_SHARED)
            t->nshared--;
        t->holds[member] = 0;
        t->waits[member] = 0;
        if (held > t->failed_hold) {
            t->failed_hold = held;
            t->failed_holder = member;
        } else if (held && t->failed_holder < 0) {
            t->failed_holder = member;
        }
        /* Its passive-target epoch at r can never end: what it wrote there is undefined. */
        if (t->wlog && r != member)
            settle(core, r, true, pick_lock, &a);
        mmpi_win_lock_record_close(t, core->size);
        pthread_mutex_unlock(&t->lock);
    }
}

const struct mmpi_fault_ops mmpi_win_fault_ops = {"window", win_on_death};

void mmpi_win_wlog_free(struct mmpi_win_target *t)
{
    if (!t->wlog)
        return;
    for (int i = 0; i < t->wlog->n; i++)
        mmpi_datatype_release(t->wlog->e[i].dt);
    free(t->wlog->e);
    free(t->wlog);
    t->wlog = NULL;
}

void mmpi_win_reclaim(struct mmpi_rank *r, struct mmpi_win *w)
{
    /* Its locks were released by the death hook; a window a live rank left at the end has
     * nobody left to wake. */
    struct mmpi_win_core *core = w->core;
    for (int i = 0; i < core->size; i++) {
        struct mmpi_win_target *t = &core->targets[i];
        uint32_t mine = (uint32_t)w->rank + 1;
        __atomic_compare_exchange_n(&t->lock_word, &mine, 0, false, __ATOMIC_RELEASE,
                                    __ATOMIC_RELAXED);
        uint8_t held = t->holds[w->rank];
        if (held == MMPI_WIN_EXCLUSIVE)
            t->exclusive = -1;
        else if (held == MMPI_WIN_SHARED)
            t->nshared--;
        t->holds[w->rank] = 0;
    }
    w->handle = MPI_WIN_NULL; /* already out of the table */
    mmpi_win_handle_free(r, w);
}

void mmpi_win_state_describe(const struct mmpi_win *w, char *buf, size_t len)
{
    char name[128];
    mmpi_win_describe(w, name, sizeof name);
    int n = snprintf(buf, len, "%s, member %d:", name, w->rank);
    if (w->fence && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " fence epoch");
    if (w->access && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " access epoch (%d targets)", w->naccess);
    if (w->exposure && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " exposure epoch (%d origins)", w->nexposure);
    if (w->lock_all && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " lock_all");
    for (int r = 0; r < w->core->size && w->nlocks > 0 && n > 0 && (size_t)n < len; r++)
        if (w->locks[r])
            n += snprintf(buf + n, len - (size_t)n, " %s lock on %d",
                          (w->locks[r] & ~MMPI_WIN_NOCHECK) == MMPI_WIN_EXCLUSIVE ? "exclusive"
                                                                                  : "shared",
                          r);
    if (!mmpi_win_epoch_open(w) && !w->fence && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " no epoch");
    if (w->proc_failed && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ", failed (sticky MPI_ERR_PROC_FAILED)");
}
