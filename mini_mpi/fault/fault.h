/*
 * fault/fault.h: the fault layer, the one owner of process failure and revocation beneath
 * point-to-point, collectives, windows and files (docs/design.md "The fault layer"). It alone:
 *   - publishes a rank's death (fault/publish.c): the rank's `failed` flag, the world's
 *     failure order and epoch, deferred publication when faults are planned;
 *   - answers the queries below (is this rank failed, how many failures, which since an epoch,
 *     the failed members of a set);
 *   - states the reporting rule every blocking and nonblocking wait uses to decide when a
 *     failure among the members it awaits becomes its error (fault/report.c);
 *   - states the one cut rule of a `kill R during` death inside a collective (fault/report.c);
 *   - revokes a shared object core and wakes its members, for every object kind, and keeps the
 *     registry of live cores that publication and revoke walk (fault/registry.c, on liburcu).
 *
 * Synchronization, in liburcu's manner, per function below. Shared facts only ever move one
 * way (a rank never becomes alive again, a core is never un-revoked), so a reader that saw a
 * fact may act on it at once. Every waker follows its change with mmpi_rank_wake or
 * mmpi_world_wake_all (runtime/wait.c), so a waiter whose condition reads these queries
 * re-checks after any death or revoke: no wait outlives a peer's death or its object's
 * revocation. docs/internals.md, "How a death reaches every waiting operation", follows one
 * death file by file.
 *
 * Documented readers of the raw fields: runtime/hang.c reads `npending` (through
 * mmpi_fault_pending) and nothing else; no other file touches struct mmpi_fault_world.
 */
#ifndef MMPI_FAULT_FAULT_H
#define MMPI_FAULT_FAULT_H

#include <stdbool.h>
#include <stdint.h>

#include "fault/state.h"
#include "inject/inject.h"
#include "runtime/rank.h"

/* ---- Queries (lock-free; any thread) ---------------------------------------------------- */

/* Whether rank r's failure has been published. Acquire: what the rank did before it died is
 * visible to a caller that sees true. */
static inline bool mmpi_fault_is_failed(const struct mmpi_rank *r)
{
    return __atomic_load_n(&r->failed, __ATOMIC_ACQUIRE);
}
/* The same by world rank (w->ranks[world_rank] must exist). */
static inline bool mmpi_fault_world_rank_failed(const struct mmpi_world *w, int world_rank)
{
    return mmpi_fault_is_failed(w->ranks[world_rank]);
}
/* Failures published so far; order[0..count) (mmpi_fault_order) are stable. */
static inline int mmpi_fault_count(const struct mmpi_world *w)
{
    return __atomic_load_n(&w->fault.nfailed, __ATOMIC_ACQUIRE);
}
/* Whether any failure has been published: the cheap test in front of every failure check on a
 * hot path. */
static inline bool mmpi_fault_any(const struct mmpi_world *w)
{
    return mmpi_fault_count(w) > 0;
}
/* The world rank of the k-th published failure, k < mmpi_fault_count(w). */
static inline int mmpi_fault_order(const struct mmpi_world *w, int k)
{
    return w->fault.order[k];
}
/* Bumped after every publication: a poller that remembers it knows when to look again. */
static inline uint32_t mmpi_fault_epoch(const struct mmpi_world *w)
{
    return __atomic_load_n(&w->fault.epoch, __ATOMIC_ACQUIRE);
}
/* The failed group of a set: stores in out[] (room for n) the indices i < n whose world rank
 * world_ranks[i] has failed, in index order; returns how many. */
int mmpi_fault_failed_members(const struct mmpi_world *w, const int *world_ranks, int n,
                              int *out);

/* Whether the calling rank `self` has been told that world rank w failed (an error naming it,
 * get_failed, agree, shrink): what MPIX_Comm_failure_ack acknowledges. Owning rank's threads. */
void mmpi_fault_notice_first(struct mmpi_rank *self, int w);
/* Records that `self` has now been told (MINI_MPI_VERBOSE reports the first time). */
static inline void mmpi_fault_notice(struct mmpi_rank *self, int w)
{
    if (!mmpi_rank_knows_failure(self, w))
        mmpi_fault_notice_first(self, w);
}
/* Tells `self` of every failed member of an object (an operation on it found one missing). */
void mmpi_fault_notice_members(struct mmpi_rank *self, const struct mmpi_fault_core *fc);

/* ---- Publication (fault/publish.c) --------------------------------------------------------- */

/* Sets up and frees the world's failure record (world creation and end). */
void mmpi_fault_world_init(struct mmpi_world *w);
void mmpi_fault_world_fini(struct mmpi_world *w);
/* Rank r ended inside its MPI session (ranks_as_threads.c calls this once per failed rank,
 * after recording how it ended): publishes the failure at once, or queues it for the hang
 * monitor when faults are planned (deferred publication, rank.h). Ends the job when fault
 * tolerance is off. Takes w->fault.lock; wakes every rank. */
void mmpi_fault_rank_died(struct mmpi_rank *r);
/* Publishes the queued deaths, sorted by world rank (the hang monitor: nobody can progress,
 * or a death waited PENDING_MAX). Takes w->fault.lock. */
void mmpi_fault_publish_pending(struct mmpi_world *w);
/* How many deaths wait for publication; *since: when the oldest happened. Takes the lock. */
int mmpi_fault_pending_deaths(struct mmpi_world *w, double *since);
/* Lock-free: whether any death waits (may be stale; confirm with the call above). */
static inline bool mmpi_fault_pending(const struct mmpi_world *w)
{
    return __atomic_load_n(&w->fault.npending, __ATOMIC_ACQUIRE) > 0;
}
/* Lets every blocking wait make the failure report it deferred (the hang monitor, when the
 * world is quiescent with failures), then wakes every rank. */
void mmpi_fault_release_reports(struct mmpi_world *w);
/* Whether some blocking wait has held a failure report back since the last release: a world
 * quiescent with such a wait is not deadlocked (the wait is about to fail with
 * MPI_ERR_PROC_FAILED), and a release is due; without one, a release would change nothing.
 * The hang monitor's one test of the rule; exact for a sleeper, which recorded its holding
 * before it slept (mmpi_fault_report_deferred). Lock-free. */
bool mmpi_fault_reports_held(const struct mmpi_world *w);
/* No monitor will ever run: publish what is queued and defer nothing from now on. */
void mmpi_fault_no_monitor(struct mmpi_world *w);

/* ---- The reporting rule (fault/report.c) -------------------------------------------------- */

/* Blocking waits bracket themselves with these (runtime/wait.c): inside, reports may be
 * deferred. Nested brackets count as one. Calling thread only. */
bool mmpi_fault_wait_begin(struct mmpi_world *w);
void mmpi_fault_wait_end(bool outer);

/* The rule (docs/design.md "Fault injection and determinism"): a wait for members of which some
 * have failed and some
 * live ones have not answered yet reports MPI_ERR_PROC_FAILED only once those live members have
 * answered or failed, or once the world went quiescent (mmpi_fault_release_reports) since the
 * wait began. Outside blocking waits (MPI_Test, MPI_Iprobe) the report is immediate. True while
 * the calling thread must still hold the report back; call it only when a report is due (a
 * failed member is missing): a true answer is recorded for mmpi_fault_reports_held. */
bool mmpi_fault_report_deferred(struct mmpi_world *w);

/* The outcome for a wait on the members of a set that `missing(arg, i)` selects (i < size,
 * world ranks world_ranks[i]): MPI_ERR_PROC_FAILED once one of them has failed and the rule
 * above lets it report (the calling rank is then told of each failed missing member), else -1
 * (keep waiting). Lock-free. */
int mmpi_fault_missing_outcome(struct mmpi_rank *self, const int *world_ranks, int size,
                               bool (*missing)(const void *arg, int i), const void *arg);
/* Whether some selected member has failed; *all_failed: every selected member has. */
bool mmpi_fault_missing_failed(const struct mmpi_world *w, const int *world_ranks, int size,
                               bool (*missing)(const void *arg, int i), const void *arg,
                               bool *all_failed);
/* The waking side of the rule, for a member that has just answered (arrived, departed) while
 * some member of the set has failed: true when no live member that `missing` selects is left,
 * i.e. when this answer may end the waits of members holding a deferred report, which the
 * caller must then wake. Until then an answer changes no such wait, and waking every waiter at
 * every answer costs n^2 wake-ups for n members, enough at 256 members to hold back the
 * wake-ups of a death's publication by milliseconds; a death, a revoke and released reports
 * wake everyone themselves. Orders the caller's answer before its reads (a seq_cst fence): of
 * two members answering together, at least one sees the other's answer. `from`: the member to
 * look at first (members answer about in rank order, the order a publication wakes them in:
 * the one above the caller usually settles it). Lock-free. */
bool mmpi_fault_answer_settles(const struct mmpi_world *w, const int *world_ranks, int size,
                               bool (*missing)(const void *arg, int i), const void *arg,
                               int from);
/* Tells the calling rank of every selected member that has failed (ULFM: those failures are
 * now "noticed" and MPIX_Comm_failure_ack may acknowledge them). */
void mmpi_fault_notice_missing(struct mmpi_rank *self, const int *world_ranks, int size,
                               bool (*missing)(const void *arg, int i), const void *arg);

/* The one cut rule of `kill R during CALL` (inject.h): a victim, member `victim` (world rank
 * victim_world), took part and then died inside the collective. For member `me`: while the
 * victim is alive, MMPI_FAULT_CUT_WAIT (everyone leaves only once it is dead, so that what
 * members do next never races with its death); then MPI_ERR_PROC_FAILED for members ranked
 * above it (told of the victim), MPI_SUCCESS for those below. Lock-free. */
#define MMPI_FAULT_CUT_WAIT (-2)
int mmpi_fault_cut_outcome(struct mmpi_rank *self, int me, int victim, int victim_world);

/* The one `kill R during CALL` hook (inject.h), for every collective engine: true when the
 * calling rank must die inside the collective it is arriving at. The engine then records the
 * cut in its own records before it counts its arrival, and calls mmpi_fault_during_die right
 * after: its contribution is in, and its death cuts the collective (mmpi_fault_cut_outcome).
 * Cheap when nothing is armed (one relaxed load). Calling rank only. */
static inline bool mmpi_fault_during_armed(const struct mmpi_rank *self)
{
    return __builtin_expect(__atomic_load_n(&mmpi_inject_active, __ATOMIC_RELAXED), 0) && self &&
           mmpi_inject_during_armed(self);
}
/* Kills the calling rank for its armed `during` directive. Never returns. */
__attribute__((noreturn)) static inline void mmpi_fault_during_die(struct mmpi_rank *self)
{
    mmpi_inject_die_during(self);
}

/* ---- Shared cores: registry and revoke (fault/registry.c) ---------------------------------- */

/* Initializes the fault part of an object's shared core and enters it in the registry of live
 * cores (RCU list; takes the registry mutex). world_ranks must stay valid until
 * mmpi_fault_core_unregister. ops may be NULL. */
void mmpi_fault_core_register(struct mmpi_fault_core *fc, const struct mmpi_fault_ops *ops,
                              int size, const int *world_ranks);
/* Cores revoked together with fc (at most two: an intercommunicator's other group, its
 * bridge). Before the core is shared. */
void mmpi_fault_core_link(struct mmpi_fault_core *fc, struct mmpi_fault_core *other);
/* Removes the core from the registry and waits for a grace period, after which no walker can
 * still see it: the caller may then free the embedding object. May block (briefly); must not
 * be called inside an RCU read-side section. */
void mmpi_fault_core_unregister(struct mmpi_fault_core *fc);
/* Live registered cores (for tests and reports). */
int mmpi_fault_registered_count(void);

/* Whether the core was revoked. Lock-free, seq_cst (some callers pair it with their own
 * seq_cst stores, Dekker-style). */
static inline bool mmpi_fault_revoked(const struct mmpi_fault_core *fc)
{
    return __atomic_load_n(&fc->revoked, __ATOMIC_SEQ_CST);
}
/* Revokes the core and its linked cores (local, non-collective: MPIX_Comm_revoke and the
 * window and file revokes), then wakes every member so that pending operations complete with
 * MPI_ERR_REVOKED. Any thread; lock-free but for the wake. */
void mmpi_fault_revoke(struct mmpi_world *w, struct mmpi_fault_core *fc);

/* An RCU read-side section (liburcu memb; the calling thread is registered the first time) and
 * a grace period, for other read-mostly state reclaimed the registry's way (the injector's
 * plan). Sections nest, must not block, and never enclose a rank's death. */
void mmpi_fault_read_begin(void);
void mmpi_fault_read_end(void);
/* Waits until every section begun before the call has ended. Not inside a section. */
void mmpi_fault_synchronize(void);

/* The registry walk of a publication: runs on_death of every registered core that has world
 * rank `dead` as a member (fault/publish.c; inside an RCU read-side section). */
void mmpi_fault_registry_death(int dead);

#endif
