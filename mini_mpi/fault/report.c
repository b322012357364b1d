/*
 * fault/report.c: when a failure becomes an operation's error. Two rules live here, each once:
 *
 * The reporting rule. An operation waiting for answers from a set of members (a receive from
 * one peer, a collective waiting for arrivals, an agreement) learns of a failure among them at
 * once, but in a blocking wait it reports MPI_ERR_PROC_FAILED only when the report no longer
 * depends on thread timing: every live member it awaits has answered or failed, or the world
 * went quiescent since the wait began (nobody could progress; the hang monitor then calls
 * mmpi_fault_release_reports), or a sleeper waited too long. Which failures a rank is told of
 * then depends on the program, not on the scheduler
 * (docs/design.md "Fault injection and determinism"). Nonblocking tests report at
 * once.
 *
 * The cut rule of `kill R during CALL`: the members ranked below the victim complete the
 * collective (its contribution included), those above get MPI_ERR_PROC_FAILED; everyone leaves
 * only once the victim is dead. The collective engines (coll/board.c, fast.c, crowd.c) each
 * find the victim in their own records and ask mmpi_fault_cut_outcome.
 *
 * Also here: the calling rank's record of the failures it has been told of (notice), which
 * MPIX_Comm_failure_ack acknowledges.
 */
#include <stdio.h>

#include "fault/fault.h"
#include "mmpi.h"
#include "mpit/mpit.h"

/* The calling thread is in a blocking wait that began at this quiescence count. */
static __thread bool in_blocking_wait __attribute__((tls_model("initial-exec")));
static __thread uint32_t wait_quiescence __attribute__((tls_model("initial-exec")));

bool mmpi_fault_wait_begin(struct mmpi_world *w)
{
    if (in_blocking_wait)
        return false;
    in_blocking_wait = true;
    wait_quiescence = __atomic_load_n(&w->fault.quiescence, __ATOMIC_ACQUIRE);
    return true;
}

void mmpi_fault_wait_end(bool outer)
{
    if (outer)
        in_blocking_wait = false;
}

/* Records that a wait holds a report back under quiescence count q, before the caller sleeps:
 * the hang monitor, finding every rank asleep, must not take the holder for deadlocked. A max,
 * not a store: a holder still acting on an older count must not hide a newer one. */
static void record_held(struct mmpi_world *w, uint32_t q)
{
    uint32_t mark = __atomic_load_n(&w->fault.held_under, __ATOMIC_SEQ_CST);
    while (mark < q + 1 &&
           !__atomic_compare_exchange_n(&w->fault.held_under, &mark, q + 1, false,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        ;
}

bool mmpi_fault_report_deferred(struct mmpi_world *w)
{
    if (!in_blocking_wait || __atomic_load_n(&w->fault.no_monitor, __ATOMIC_ACQUIRE) ||
        __atomic_load_n(&w->fault.quiescence, __ATOMIC_SEQ_CST) != wait_quiescence)
        return false;
    record_held(w, wait_quiescence);
    return true;
}

bool mmpi_fault_reports_held(const struct mmpi_world *w)
{
    return __atomic_load_n(&w->fault.held_under, __ATOMIC_SEQ_CST) ==
           __atomic_load_n(&w->fault.quiescence, __ATOMIC_SEQ_CST) + 1;
}

void mmpi_fault_notice_first(struct mmpi_rank *self, int w)
{
    char me[48], dead[48]; /* "rank 2 (incarnation 1)" for restarted ranks (rank.h) */
    if (mmpi_rank_learn_failure(self, w))
        return;
    mmpi_mpit_failure_noticed(self, w);
    if (__atomic_load_n(&self->world->config.verbose, __ATOMIC_RELAXED))
        fprintf(stderr, "mini_mpi: %s sees that %s failed\n",
                mmpi_rank_label(self, me, sizeof me),
                mmpi_rank_label(self->world->ranks[w], dead, sizeof dead));
}

void mmpi_fault_notice_members(struct mmpi_rank *self, const struct mmpi_fault_core *fc)
{
    for (int i = 0; i < fc->size; i++)
        if (mmpi_fault_world_rank_failed(self->world, fc->world_ranks[i]))
            mmpi_fault_notice(self, fc->world_ranks[i]);
}

bool mmpi_fault_missing_failed(const struct mmpi_world *w, const int *world_ranks, int size,
                               bool (*missing)(const void *arg, int i), const void *arg,
                               bool *all_failed)
{
    bool failed = false, live_missing = false;
    for (int i = 0; i < size; i++) {
        if (!missing(arg, i))
            continue;
        if (mmpi_fault_world_rank_failed(w, world_ranks[i]))
            failed = true;
        else
            live_missing = true;
    }
    *all_failed = !live_missing;
    return failed;
}

bool mmpi_fault_answer_settles(const struct mmpi_world *w, const int *world_ranks, int size,
                               bool (*missing)(const void *arg, int i), const void *arg,
                               int from)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* our answer before the reads of theirs */
    for (int k = 0; k < size; k++) {
        int i = (from + k) % size;
        if (missing(arg, i) && !mmpi_fault_world_rank_failed(w, world_ranks[i]))
            return false;
    }
    return true;
}

void mmpi_fault_notice_missing(struct mmpi_rank *self, const int *world_ranks, int size,
                               bool (*missing)(const void *arg, int i), const void *arg)
{
    for (int i = 0; i < size; i++)
        if (missing(arg, i) && mmpi_fault_world_rank_failed(self->world, world_ranks[i]))
            mmpi_fault_notice(self, world_ranks[i]);
}

int mmpi_fault_missing_outcome(struct mmpi_rank *self, const int *world_ranks, int size,
                               bool (*missing)(const void *arg, int i), const void *arg)
{
    bool settled;
    if (!mmpi_fault_missing_failed(self->world, world_ranks, size, missing, arg, &settled))
        return -1;
    if (!settled && mmpi_fault_report_deferred(self->world))
        return -1;
    mmpi_fault_notice_missing(self, world_ranks, size, missing, arg);
    return MPI_ERR_PROC_FAILED;
}

int mmpi_fault_cut_outcome(struct mmpi_rank *self, int me, int victim, int victim_world)
{
    if (!mmpi_fault_world_rank_failed(self->world, victim_world))
        return MMPI_FAULT_CUT_WAIT;
    if (me < victim)
        return MPI_SUCCESS;
    mmpi_fault_notice(self, victim_world);
    return MPI_ERR_PROC_FAILED;
}

int mmpi_fault_failed_members(const struct mmpi_world *w, const int *world_ranks, int n,
                              int *out)
{
    int k = 0;
    if (!mmpi_fault_any(w))
        return 0;
    for (int i = 0; i < n; i++)
        if (mmpi_fault_world_rank_failed(w, world_ranks[i]))
            out[k++] = i;
    return k;
}
