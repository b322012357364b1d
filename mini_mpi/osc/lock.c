/*
 * osc/lock.c: passive-target locks (MPI-4.1 §12.5.3), owner-tracked.
 *
 * Each target's lock state (win.h struct mmpi_win_target) records the member holding it
 * exclusive, every member holding it shared, and every member waiting and for which type, under
 * the target's mutex. That mutex is held for a few loads and stores only, never across a wait
 * and never while user code runs. A request is granted when compatible with the holders
 * (exclusive: nobody holds it; shared: nobody holds it exclusive). A waiter records itself in
 * waits[], sleeps (mmpi_wait_until_described, so the hang report names the window, the target
 * and the holders), and retries at every wake-up; every release wakes the members recorded as
 * waiting. A waiter whose blocking holders include a failed member stops with
 * MPI_ERR_PROC_FAILED (win.h): a dead holder never blocks anyone forever, and the
 * record of who holds what is what a later recovery needs.
 *
 * The dead-holder rule (deterministic: it depends on the order the lock was requested in, never
 * on when the death became known). When a member dies holding a lock at a target, the death
 * hook (win_fault.c) releases its hold and records its type in failed_hold. From then on every
 * request at that target that conflicts with the dead member's hold (any request after an
 * exclusive holder; an exclusive request after a shared holder), whether it was already
 * waiting or comes later, raises MPI_ERR_PROC_FAILED and acquires nothing; a shared request
 * after a shared holder is granted as usual. A lock on a failed target raises too, with
 * MPI_MODE_NOCHECK as well (the assertion is about other lockers, not the target). Requests
 * granted before the dead member acquired the lock are not concerned.
 *
 * Failures are reported by synchronization calls: Win_unlock raises MPI_ERR_PROC_FAILED when its
 * target failed, Win_unlock_all when any member failed, after releasing their locks (and, with
 * MINI_MPI_POISON, after poisoning what the failed epoch wrote at live targets, which no one
 * else can touch while the locks are held).
 *
 * Locked and exposed at once is erroneous (§12.5.3: no lock of a window in a PSCW exposure
 * epoch, no post of a locked window). Both sides meet under the target's mutex, so it costs
 * nothing to detect: a lock request on an exposed target (at once, or found at a wake-up)
 * fails with MPI_ERR_RMA_CONFLICT, and so does MPI_Win_post while anyone holds the lock
 * (sync.c). MPI_MODE_NOCHECK locks never touch the record and are not checked for conflicts.
 *
 * The one-word form. An uncontended exclusive lock costs one compare-and-swap to take and one
 * to give back, on the target's lock_word (win.h): 0 when the lock is free and its record
 * holds nothing, member + 1 while that member holds it exclusive, MMPI_WIN_LOCK_RECORD while
 * the record is the lock's state. Every other request, and everything else that reads or
 * changes the record under its mutex (a waiter, MPI_Win_post, the death hook), first opens
 * the record (mmpi_win_lock_record_open): the word becomes
 * MMPI_WIN_LOCK_RECORD and a holder it named is written into the record as holding exclusive,
 * exactly as if it had been granted there. Its compare-and-swap at unlock then fails and it
 * releases through the record, waking whoever waits. The word goes back to 0 only under the
 * mutex, when the record holds nothing (mmpi_win_lock_record_close). So the holder is always
 * known (in the word or in the record), a waiter exists only in record mode (so the hang
 * report, which describes a waiter, reads the record), and a fast release never has anyone
 * to wake.
 *
 * Not an anonymous ticket lock on purpose: with a ticket lock, a holder that dies takes its
 * ticket with it and every later locker waits forever (Open MPI's osc/sm).
 */
#include <stdio.h>
#include <string.h>

#include "mpit/mpit.h"
#include "osc/win.h"

struct lock_wait {
    struct mmpi_win *w;
    int target;
    int type;
    int result;   /* -1 waiting, else an MPI error class */
};

/* Whether `type` can be granted to `me` now. Call with t->lock. */
static bool grantable(const struct mmpi_win_target *t, int type)
{
    if (type == MMPI_WIN_EXCLUSIVE)
        return t->exclusive < 0 && t->nshared == 0;
    return t->exclusive < 0;
}

static void grant(struct mmpi_win_target *t, int me, int type)
{
    if (type == MMPI_WIN_EXCLUSIVE)
        t->exclusive = me;
    else
        t->nshared++;
    t->holds[me] = (uint8_t)type;
    t->waits[me] = 0;
}

/* Whether `type` conflicts with the lock a failed member held here (the dead-holder rule
 * above). Call with t->lock. */
static bool failed_conflict(const struct mmpi_win_target *t, int type)
{
    return t->failed_hold == MMPI_WIN_EXCLUSIVE || (t->failed_hold && type == MMPI_WIN_EXCLUSIVE);
}

/* Whether a holder that blocks `type` has failed. Call with t->lock. */
static bool holder_failed(const struct mmpi_win_core *core, const struct mmpi_win_target *t,
                          int type)
{
    if (t->exclusive >= 0)
        return mmpi_osc_member_failed(core, t->exclusive);
    if (type != MMPI_WIN_EXCLUSIVE)
        return false;
    for (int r = 0; r < core->size; r++)
        if (t->holds[r] == MMPI_WIN_SHARED && mmpi_osc_member_failed(core, r))
            return true;
    return false;
}

void mmpi_win_lock_record_open(struct mmpi_win_target *t)
{
    if (__atomic_load_n(&t->lock_word, __ATOMIC_RELAXED) == MMPI_WIN_LOCK_RECORD)
        return;
    uint32_t word = __atomic_exchange_n(&t->lock_word, MMPI_WIN_LOCK_RECORD, __ATOMIC_ACQ_REL);
    if (word != 0 && word != MMPI_WIN_LOCK_RECORD) {
        t->exclusive = (int)word - 1;
        t->holds[word - 1] = MMPI_WIN_EXCLUSIVE;
    }
}

void mmpi_win_lock_record_close(struct mmpi_win_target *t, int size)
{
    if (t->exclusive >= 0 || t->nshared > 0 || t->exposed || t->failed_hold)
        return;
    for (int r = 0; r < size; r++)
        if (t->waits[r])
            return;
    /* Release: the next taker of the word sees everything done under the record. */
    __atomic_store_n(&t->lock_word, 0, __ATOMIC_RELEASE);
}

static bool lock_ready(void *arg)
{
    struct lock_wait *a = arg;
    struct mmpi_win_target *t = &a->w->core->targets[a->target];
    pthread_mutex_lock(&t->lock);
    mmpi_win_lock_record_open(t);
    if (mmpi_fault_revoked(&a->w->core->fault)) {
        t->waits[a->w->rank] = 0;
        a->result = MPI_ERR_REVOKED;
    } else if (failed_conflict(t, a->type)) {
        t->waits[a->w->rank] = 0;
        a->result = MPI_ERR_PROC_FAILED;
    } else if (t->exposed) {
        t->waits[a->w->rank] = 0;
        a->result = MPI_ERR_RMA_CONFLICT;
    } else if (grantable(t, a->type)) {
        grant(t, a->w->rank, a->type);
        a->result = MPI_SUCCESS;
    } else if (holder_failed(a->w->core, t, a->type)) {
        t->waits[a->w->rank] = 0;
        a->result = MPI_ERR_PROC_FAILED;
    }
    mmpi_win_lock_record_close(t, a->w->core->size);
    pthread_mutex_unlock(&t->lock);
    return a->result != -1;
}

static void lock_describe(const void *arg, char *buf, size_t len)
{
    const struct lock_wait *a = arg;
    const struct mmpi_win_target *t = &a->w->core->targets[a->target];
    char name[128];
    mmpi_win_describe(a->w, name, sizeof name);
    int n = snprintf(buf, len, "%s lock of rank %d on %s, held by",
                     a->type == MMPI_WIN_EXCLUSIVE ? "exclusive" : "shared", a->target, name);
    /* Read without the mutex: the report is advisory and the fields are words. */
    int ex = __atomic_load_n(&t->exclusive, __ATOMIC_RELAXED);
    if (ex >= 0 && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " %d (exclusive)", ex);
    for (int r = 0; r < a->w->core->size && n > 0 && (size_t)n < len; r++)
        if (__atomic_load_n(&t->holds[r], __ATOMIC_RELAXED) == MMPI_WIN_SHARED)
            n += snprintf(buf + n, len - (size_t)n, " %d", r);
}

/* acquire() through the record. May block. */
static __attribute__((noinline)) int acquire_in_record(struct mmpi_rank *self,
                                                       struct mmpi_win *w, int target, int type)
{
    struct lock_wait a = {w, target, type, -1};
    struct mmpi_win_target *t = &w->core->targets[target];
    pthread_mutex_lock(&t->lock);
    mmpi_win_lock_record_open(t);
    if (failed_conflict(t, type)) {
        a.result = MPI_ERR_PROC_FAILED;
    } else if (t->exposed) {
        a.result = MPI_ERR_RMA_CONFLICT; /* see the top: locked and exposed at once */
    } else if (grantable(t, type)) {
        grant(t, w->rank, type);
        a.result = MPI_SUCCESS;
    } else {
        t->waits[w->rank] = (uint8_t)type;
    }
    pthread_mutex_unlock(&t->lock);
    if (a.result == -1 && (mmpi_pvar_add(MMPI_PVAR_RMA_LOCK_WAITS, 1), true))
        mmpi_wait_until_described(self, lock_ready, &a, lock_describe);
    if (a.result == MPI_ERR_PROC_FAILED) {
        /* Told of the dead holder: the one the hook recorded, or one still recorded as
         * holding (its death is published, the hook about to run). */
        pthread_mutex_lock(&t->lock);
        mmpi_win_lock_record_open(t);
        int dead = t->failed_holder;
        if (dead < 0 && t->exclusive >= 0 && mmpi_osc_member_failed(w->core, t->exclusive))
            dead = t->exclusive;
        for (int r = 0; dead < 0 && r < w->core->size; r++)
            if (t->holds[r] && mmpi_osc_member_failed(w->core, r))
                dead = r;
        pthread_mutex_unlock(&t->lock);
        if (dead >= 0)
            mmpi_osc_member_reported(self, w->core, dead);
    }
    return a.result;
}

/* Why no lock at target can be had, with or without MPI_MODE_NOCHECK (the assertion says
 * nobody else locks it, not that it lives): the window was revoked, or the target failed (its
 * lock can never be acquired again). MPI_SUCCESS otherwise. */
static inline int lock_refused(struct mmpi_rank *self, struct mmpi_win *w, int target)
{
    if (mmpi_fault_revoked(&w->core->fault))
        return MPI_ERR_REVOKED;
    if (mmpi_fault_any(self->world) && mmpi_osc_member_failed(w->core, target)) {
        mmpi_osc_member_reported(self, w->core, target);
        return MPI_ERR_PROC_FAILED;
    }
    return MPI_SUCCESS;
}

/* Acquires `type` at target for the calling member. May block. */
static inline int acquire(struct mmpi_rank *self, struct mmpi_win *w, int target, int type)
{
    int err = lock_refused(self, w, target);
    if (err != MPI_SUCCESS)
        return err;
    uint32_t free_word = 0;
    if (type == MMPI_WIN_EXCLUSIVE &&
        __atomic_compare_exchange_n(&w->core->targets[target].lock_word, &free_word,
                                    (uint32_t)w->rank + 1, false, __ATOMIC_ACQUIRE,
                                    __ATOMIC_RELAXED))
        return MPI_SUCCESS; /* the one-word form (top); acquire: after the last release */
    return acquire_in_record(self, w, target, type);
}

/* release() through the record. */
static __attribute__((noinline)) void release_in_record(struct mmpi_win *w, int target)
{
    struct mmpi_win_core *core = w->core;
    struct mmpi_win_target *t = &core->targets[target];
    pthread_mutex_lock(&t->lock);
    mmpi_win_lock_record_open(t);
    if (t->holds[w->rank] == MMPI_WIN_EXCLUSIVE)
        t->exclusive = -1;
    else if (t->holds[w->rank] == MMPI_WIN_SHARED)
        t->nshared--;
    t->holds[w->rank] = 0;
    /* Wake outside the mutex would need a copy of waits[]; mmpi_rank_wake takes no lock of
     * ours, so waking under it is safe and keeps the list exact. */
    for (int r = 0; r < core->size; r++)
        if (t->waits[r])
            mmpi_rank_wake(mmpi_win_peer(w, r));
    mmpi_win_lock_record_close(t, core->size);
    pthread_mutex_unlock(&t->lock);
}

/* Releases the calling member's lock at target and wakes its waiters. On x86 a full fence
 * (MMPI_LOCKED_RMW_FENCES): both ways start with a locked read-modify-write. */
static inline void release(struct mmpi_win *w, int target)
{
    uint32_t mine = (uint32_t)w->rank + 1;
    if (!__atomic_compare_exchange_n(&w->core->targets[target].lock_word, &mine, 0, false,
                                     __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
        release_in_record(w, target); /* nobody waits when the word held it (top) */
}

int mmpi_win_lock(struct mmpi_rank *self, struct mmpi_win *w, int type, int target, int assert)
{
    /* §12.5: one lock per target, and no lock inside a lock_all or PSCW access epoch. */
    if (w->lock_all || w->locks[target] || w->access)
        return MPI_ERR_RMA_SYNC;
    int err;
    int kind = type == MPI_LOCK_EXCLUSIVE ? MMPI_WIN_EXCLUSIVE : MMPI_WIN_SHARED;
    if (!(assert & MPI_MODE_NOCHECK)) {
        err = acquire(self, w, target, kind);
        if (err != MPI_SUCCESS)
            return err;
    } else {
        err = lock_refused(self, w, target);
        if (err != MPI_SUCCESS)
            return err;
        /* Nothing acquired: only the fence orders the epoch's accesses after the call. An
         * acquired lock needs none: the record's mutex orders them after the previous
         * holder's release. */
        kind |= MMPI_WIN_NOCHECK;
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    w->locks[target] = (uint8_t)kind;
    w->nlocks++;
    w->fence = false; /* a passive epoch ends the fence epoch (MPICH's rule too) */
    return MPI_SUCCESS;
}

int mmpi_win_unlock(struct mmpi_rank *self, struct mmpi_win *w, int target)
{
    if (!w->locks[target])
        return MPI_ERR_RMA_SYNC;
    /* Every operation is complete at the target: a full fence, which the release below is
     * on x86. */
    bool nocheck = (w->locks[target] & MMPI_WIN_NOCHECK) != 0;
    if (nocheck || !MMPI_LOCKED_RMW_FENCES)
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    /* A failed target: the epoch cannot complete there (nothing to poison: its memory is
     * nobody's to read any more). */
    int err = MPI_SUCCESS;
    if (mmpi_fault_any(self->world) && mmpi_osc_member_failed(w->core, target)) {
        mmpi_osc_member_reported(self, w->core, target);
        err = MPI_ERR_PROC_FAILED;
    }
    mmpi_win_epoch_ended(w, MMPI_WIN_EPOCH_LOCK, (uint64_t)target, err);
    if (!nocheck)
        release(w, target);
    w->locks[target] = 0;
    w->nlocks--;
    /* A revoked window's epoch still ends (the lock is released), and reports the revoke. */
    return mmpi_fault_revoked(&w->core->fault) ? MPI_ERR_REVOKED : err;
}

int mmpi_win_lock_all(struct mmpi_rank *self, struct mmpi_win *w, int assert)
{
    if (w->lock_all || w->nlocks > 0 || w->access)
        return MPI_ERR_RMA_SYNC;
    bool nocheck = (assert & MPI_MODE_NOCHECK) != 0;
    /* In rank order: two lock_all callers never hold each other's next target. With NOCHECK
     * nothing is acquired, but a lock that could not be had is refused all the same. */
    for (int r = 0; r < w->core->size; r++) {
        int err = nocheck ? lock_refused(self, w, r) : acquire(self, w, r, MMPI_WIN_SHARED);
        if (err != MPI_SUCCESS) {
            while (!nocheck && --r >= 0)
                release(w, r);
            return err;
        }
    }
    w->lock_all_nocheck = nocheck;
    w->lock_all = true;
    w->fence = false;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return MPI_SUCCESS;
}

int mmpi_win_unlock_all(struct mmpi_rank *self, struct mmpi_win *w)
{
    if (!w->lock_all)
        return MPI_ERR_RMA_SYNC;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    int err = mmpi_osc_any_member_failed(self, w->core) ? MPI_ERR_PROC_FAILED : MPI_SUCCESS;
    /* Poisoned while the shared locks are still held: nobody else's exclusive epoch runs. */
    mmpi_win_epoch_ended(w, MMPI_WIN_EPOCH_LOCK, UINT64_MAX, err);
    if (!w->lock_all_nocheck)
        for (int r = 0; r < w->core->size; r++)
            release(w, r);
    w->lock_all = false;
    return mmpi_fault_revoked(&w->core->fault) ? MPI_ERR_REVOKED : err;
}

void mmpi_win_locks_drop(struct mmpi_win *w)
{
    for (int r = 0; r < w->core->size; r++) {
        if (w->locks[r] && !(w->locks[r] & MMPI_WIN_NOCHECK))
            release(w, r);
        w->locks[r] = 0;
    }
    if (w->lock_all && !w->lock_all_nocheck)
        for (int r = 0; r < w->core->size; r++)
            release(w, r);
    w->nlocks = 0;
    w->lock_all = false;
}
