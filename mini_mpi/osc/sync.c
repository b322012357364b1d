/*
 * osc/sync.c: active-target synchronization (MPI-4.1 §12.5.1, §12.5.2): fence on the board of
 * the window's private communicator, and PSCW on the core's post/complete counters (win.h).
 *
 * Fence is MPI_Barrier's algorithm on the window's private communicator (coll/fast.h, board.h).
 * PSCW. MPI_Win_post(group) adds one to posted[o][me] for every origin o of the group and wakes
 * o; it never blocks. MPI_Win_start(group) records the access group and never blocks either:
 * the first access to a target t (an RMA call, or MPI_Win_complete) waits until posted[me][t]
 * is positive and consumes one, so a start issued before the matching post is fine (§12.5.2
 * allows start to block, and we choose not to). MPI_Win_complete adds one to completed[t][me]
 * for every target and wakes it; MPI_Win_wait waits until completed[me][o] is positive for every
 * origin of the exposure group and consumes one each; MPI_Win_test does the same without
 * waiting. A waiter whose awaited peer has failed stops with MPI_ERR_PROC_FAILED.
 *
 * Process failures are reported only here, in the calls that end an epoch (data movement
 * to a failed target moves nothing and raises nothing, move.c). Win_complete, Win_wait and
 * Win_test that raise MPI_ERR_PROC_FAILED still end their epoch: the operations with live
 * members are done, the counters of live peers consumed. Complete raises when a target of the
 * access group failed (before or after its post); wait and test when an origin of the exposure
 * group failed before its complete. A fence is a barrier and follows the barrier's rule: a
 * member that never arrives makes the fence raise at every survivor, once all of them arrived;
 * a member that dies inside it (`kill R during MPI_Win_fence#N`) after arriving splits it, the
 * survivors ranked below it in the window returning MPI_SUCCESS and those above
 * MPI_ERR_PROC_FAILED. MPIX_Comm_agree over the communicator the window was created from makes
 * the decision uniform (docs/rma.md).
 * Data movement is complete when its call returns, so complete needs no flush: the release
 * ordering of the counter increment publishes the data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/board.h"
#include "coll/fast.h"
#include "comm/create.h"
#include "osc/win.h"

int mmpi_win_barrier(struct mmpi_rank *self, struct mmpi_win *w)
{
    /* A revoked window synchronizes nobody: fence and free end at once. */
    if (mmpi_fault_revoked(&w->core->fault))
        return MPI_ERR_REVOKED;
    /* MPI_Barrier's own choice: the fast path (or its crowd form) when the communicator
     * qualifies, else the board; all three keep the failure and `kill R during` rules. A
     * revoke while waiting reaches the barrier through the private communicator's core,
     * which is linked to the window's (create.c). */
    int err = mmpi_coll_fast_ok(w->comm) ? mmpi_coll_fast_barrier(self, w->comm)
                                         : mmpi_comm_sync(self, w->comm);
    return err;
}

int mmpi_win_fence(struct mmpi_rank *self, struct mmpi_win *w, int assert)
{
    /* §12.5.1: a fence may not end a PSCW or passive-target epoch. */
    if (w->access || w->exposure || w->nlocks > 0 || w->lock_all)
        return MPI_ERR_RMA_SYNC;
    /* The barrier of the window's communicator: every member's operations of the epoch are
     * complete (they completed in their calls) and visible (the board's acquire/release) once
     * all have arrived. NOPRECEDE still synchronizes: a member may start putting at once. */
    int err = mmpi_win_barrier(self, w);
    /* Failed here: what this epoch wrote into our memory is undefined (win_fault.c). The
     * writes are stamped with the writer's fence count, so a member that left this fence
     * already and writes in the next epoch is not concerned. */
    mmpi_win_epoch_ended(w, MMPI_WIN_EPOCH_FENCE, w->fences, err);
    w->fences++;
    w->fence = !(assert & MPI_MODE_NOSUCCEED);
    return err;
}

int mmpi_win_post(struct mmpi_rank *self, struct mmpi_win *w, int *ranks, int n)
{
    (void)self;
    if (w->exposure || w->nlocks > 0 || w->lock_all) {
        free(ranks);
        return MPI_ERR_RMA_SYNC;
    }
    /* Locked and exposed at once is erroneous (lock.c): refused here or by the locker. */
    struct mmpi_win_target *me = &w->core->targets[w->rank];
    pthread_mutex_lock(&me->lock);
    mmpi_win_lock_record_open(me);
    bool locked = me->exclusive >= 0 || me->nshared > 0;
    me->exposed = !locked;
    mmpi_win_lock_record_close(me, w->core->size);
    pthread_mutex_unlock(&me->lock);
    if (locked) {
        free(ranks);
        return MPI_ERR_RMA_CONFLICT;
    }
    int size = w->core->size;
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* local stores before the post are visible */
    for (int i = 0; i < n; i++) {
        __atomic_add_fetch(&w->core->posted[(size_t)ranks[i] * size + w->rank], 1,
                           __ATOMIC_RELEASE);
        mmpi_rank_wake(mmpi_win_peer(w, ranks[i]));
    }
    w->exposure = ranks;
    w->nexposure = n;
    w->fence = false;
    return MPI_SUCCESS;
}

int mmpi_win_start(struct mmpi_rank *self, struct mmpi_win *w, int *ranks, int n)
{
    (void)self;
    if (w->access || w->nlocks > 0 || w->lock_all) {
        free(ranks);
        return MPI_ERR_RMA_SYNC;
    }
    w->access = mmpi_xmalloc((size_t)(n > 0 ? n : 1) * sizeof(*w->access));
    for (int i = 0; i < n; i++)
        w->access[i] = (struct mmpi_win_access){ranks[i], false};
    w->naccess = n;
    w->fence = false;
    free(ranks);
    return MPI_SUCCESS;
}

struct counter_wait {
    struct mmpi_win *w;
    uint32_t *word;
    int peer;
    const char *what;
    int result;
};

static bool counter_ready(void *arg)
{
    struct counter_wait *a = arg;
    if (mmpi_fault_revoked(&a->w->core->fault))
        a->result = MPI_ERR_REVOKED;
    else if (__atomic_load_n(a->word, __ATOMIC_ACQUIRE) > 0)
        a->result = MPI_SUCCESS;
    else if (mmpi_osc_member_failed(a->w->core, a->peer))
        a->result = MPI_ERR_PROC_FAILED;
    return a->result != -1;
}

static void counter_describe(const void *arg, char *buf, size_t len)
{
    const struct counter_wait *a = arg;
    char name[128];
    mmpi_win_describe(a->w, name, sizeof name);
    snprintf(buf, len, "%s from rank %d on %s", a->what, a->peer, name);
}

/* Waits until *word > 0 and consumes one; MPI_ERR_PROC_FAILED if peer fails first. */
static int wait_counter(struct mmpi_rank *self, struct mmpi_win *w, uint32_t *word, int peer,
                        const char *what)
{
    struct counter_wait a = {w, word, peer, what, -1};
    if (!counter_ready(&a))
        mmpi_wait_until_described(self, counter_ready, &a, counter_describe);
    if (a.result != MPI_SUCCESS) {
        if (a.result == MPI_ERR_PROC_FAILED)
            mmpi_osc_member_reported(self, w->core, peer);
        return a.result;
    }
    __atomic_sub_fetch(word, 1, __ATOMIC_ACQ_REL);
    return MPI_SUCCESS;
}

int mmpi_win_access_ready(struct mmpi_rank *self, struct mmpi_win *w, int i)
{
    struct mmpi_win_access *x = &w->access[i];
    if (x->ready)
        return MPI_SUCCESS;
    int size = w->core->size;
    int err = wait_counter(self, w, &w->core->posted[(size_t)w->rank * size + x->rank], x->rank,
                           "MPI_Win_start: waiting for the post");
    if (err == MPI_SUCCESS)
        x->ready = true;
    return err;
}

int mmpi_win_complete(struct mmpi_rank *self, struct mmpi_win *w)
{
    if (!w->access)
        return MPI_ERR_RMA_SYNC;
    int err = MPI_SUCCESS, size = w->core->size;
    for (int i = 0; i < w->naccess; i++) {
        int e = mmpi_win_access_ready(self, w, i);
        if (e != MPI_SUCCESS) {
            err = e;
            continue;
        }
        int t = w->access[i].rank;
        /* Posted, then failed: the epoch cannot complete at it. */
        if (mmpi_osc_member_failed(w->core, t)) {
            mmpi_osc_member_reported(self, w->core, t);
            err = MPI_ERR_PROC_FAILED;
            continue;
        }
        __atomic_add_fetch(&w->core->completed[(size_t)t * size + w->rank], 1, __ATOMIC_RELEASE);
        mmpi_rank_wake(mmpi_win_peer(w, t));
    }
    free(w->access);
    w->access = NULL;
    w->naccess = 0;
    return err;
}

int mmpi_win_wait(struct mmpi_rank *self, struct mmpi_win *w, int *flag)
{
    if (!w->exposure)
        return MPI_ERR_RMA_SYNC;
    int size = w->core->size, err = MPI_SUCCESS;
    if (flag) {
        /* MPI_Win_test: all or nothing, so that a false return leaves the epoch as it was. */
        *flag = 0;
        /* A revoked window's test ends the epoch at once (the waits below report it). */
        bool revoked = mmpi_fault_revoked(&w->core->fault);
        for (int i = 0; i < w->nexposure && !revoked; i++) {
            int o = w->exposure[i];
            uint32_t *word = &w->core->completed[(size_t)w->rank * size + o];
            uint32_t need = 0;
            for (int j = 0; j <= i; j++)
                need += w->exposure[j] == o;
            if (__atomic_load_n(word, __ATOMIC_ACQUIRE) < need) {
                if (!mmpi_osc_member_failed(w->core, o))
                    return MPI_SUCCESS;
                err = MPI_ERR_PROC_FAILED;
            }
        }
        *flag = 1;
    }
    for (int i = 0; i < w->nexposure; i++) {
        int o = w->exposure[i];
        int e = wait_counter(self, w, &w->core->completed[(size_t)w->rank * size + o], o,
                             "MPI_Win_wait: waiting for the complete");
        if (e != MPI_SUCCESS)
            err = e;
    }
    mmpi_win_epoch_ended(w, MMPI_WIN_EPOCH_PSCW, 0, err);
    free(w->exposure);
    w->exposure = NULL;
    w->nexposure = 0;
    struct mmpi_win_target *me = &w->core->targets[w->rank];
    pthread_mutex_lock(&me->lock);
    mmpi_win_lock_record_open(me);
    me->exposed = false;
    mmpi_win_lock_record_close(me, w->core->size);
    pthread_mutex_unlock(&me->lock);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return err;
}
