/*
 * hang.c: the monitor thread of hang.h: deadlock detection, the watchdog, and the report.
 *
 * Why the detection is sound: a thread asleep on its rank's wake word with the value it read
 * before checking its condition can only be woken by someone bumping that word. If, across two
 * looks, every thread of every live rank is asleep that way and no rank's word moved, nobody
 * ran in between. The sleepers are then frozen (compare-and-swap ASLEEP -> FROZEN; a frozen
 * sleeper that wakes parks at once) and the words checked a third time: if still unchanged,
 * no rank thread can ever run again, except through the fault injector's timer, so the check is
 * skipped while a timed death is pending. Threads outside MPI (computing, or blocked in a system
 * call) are RUNNING and so never look deadlocked: the watchdog is for them.
 *
 * A frozen world with failures is not necessarily deadlocked: a wait that finds a failed member
 * missing holds its MPI_ERR_PROC_FAILED back until the world is quiescent (fault/report.c).
 * The fault layer alone knows whether such a wait exists (mmpi_fault_reports_held); then the
 * reports are released instead, so an erroneous program whose every blocked call awaits a
 * failed rank fails with MPI_ERR_PROC_FAILED on every run, whatever the thread timing.
 *
 * Spawned ranks (MPI_Comm_spawn) are watched like the others: each look covers the ranks the
 * table holds at that moment (mmpi_world_nranks), and a spawn publishes its ranks with RUNNING
 * thread records before they start, so a rank that appeared between two looks makes them
 * differ (its word array entry changes from 0) or shows a running thread.
 */
#include "runtime/hang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "inject/inject.h"
#include "mmpi.h"
#include "mpit/mpit.h"
#include "runtime/kind.h"
#include "util/futex.h"
#include "util/real.h"

#define POLL_NS 2000000L /* 2 ms between looks: a deadlock is reported within ~5 ms */
#define LONG_SLEEP 0.05  /* s: a sleeper this long releases deferred failure reports */
#define PENDING_MAX 0.05 /* s: a death is published at the latest this long after it */

static pthread_t monitor;
static bool monitor_running;
static int monitor_stop;   /* atomic */
static uint32_t thaw_word; /* frozen sleepers park on it */

void mmpi_hang_park(struct mmpi_thread *t)
{
    for (;;) {
        uint32_t w = __atomic_load_n(&thaw_word, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&t->state, __ATOMIC_SEQ_CST) != MMPI_THREAD_FROZEN)
            break;
        mmpi_futex_wait(&thaw_word, w, NULL);
    }
    __atomic_store_n(&t->state, MMPI_THREAD_RUNNING, __ATOMIC_SEQ_CST);
}

/* Whether r finalized the World Model and can use MPI no more: one that uses sessions may
 * open another after MPI_Finalize (MPI-4.1 §11.3), so it stays live until it ends. */
static bool rank_finalized_for_good(const struct mmpi_rank *r)
{
    return mmpi_rank_phase(r) == MMPI_PHASE_FINALIZED &&
           !__atomic_load_n(&r->session_used, __ATOMIC_ACQUIRE);
}

/* A rank whose threads can still make MPI progress: running, inside its MPI session (a rank
 * that finalized or ended can wake no one). */
static bool rank_is_live(const struct mmpi_rank *r)
{
    return __atomic_load_n(&r->end, __ATOMIC_ACQUIRE) == MMPI_END_RUNNING &&
           !rank_finalized_for_good(r);
}

/* Whether every thread of every live rank sleeps on its rank's current word; fills words[]. */
static bool all_blocked(struct mmpi_world *w, uint32_t *words)
{
    int live = 0;
    for (int i = 0; i < mmpi_world_nranks(w); i++) {
        struct mmpi_rank *r = w->ranks[i];
        words[i] = 0;
        if (!rank_is_live(r))
            continue;
        live++;
        uint32_t word = __atomic_load_n(&r->wake_word, __ATOMIC_SEQ_CST);
        words[i] = word;
        for (struct mmpi_thread *t = __atomic_load_n(&r->threads, __ATOMIC_ACQUIRE); t;
             t = t->next) {
            int st = __atomic_load_n(&t->state, __ATOMIC_SEQ_CST);
            if (st == MMPI_THREAD_UNUSED)
                continue;
            if (st == MMPI_THREAD_RUNNING ||
                __atomic_load_n(&t->seen, __ATOMIC_RELAXED) != word)
                return false;
        }
    }
    /* Read after the ends: a rank seen gone above whose failure the fault layer does not hold
     * yet leaves waits for it that will be woken once it does (ranks_as_threads.c). */
    if (__atomic_load_n(&w->deaths_in_flight, __ATOMIC_SEQ_CST))
        return false;
    return live > 0;
}

/* Freezes every sleeping thread of the live ranks (all of them when require_all; false if one
 * was running). */
static bool freeze(struct mmpi_world *w, bool require_all)
{
    for (int i = 0; i < mmpi_world_nranks(w); i++) {
        struct mmpi_rank *r = w->ranks[i];
        if (!rank_is_live(r))
            continue;
        for (struct mmpi_thread *t = __atomic_load_n(&r->threads, __ATOMIC_ACQUIRE); t;
             t = t->next) {
            int asleep = MMPI_THREAD_ASLEEP;
            if (!__atomic_compare_exchange_n(&t->state, &asleep, MMPI_THREAD_FROZEN, false,
                                             __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) &&
                asleep == MMPI_THREAD_RUNNING && require_all)
                return false;
        }
    }
    return true;
}

static void thaw(struct mmpi_world *w)
{
    for (int i = 0; i < mmpi_world_nranks(w); i++)
        for (struct mmpi_thread *t = __atomic_load_n(&w->ranks[i]->threads, __ATOMIC_ACQUIRE);
             t; t = t->next) {
            int frozen = MMPI_THREAD_FROZEN;
            __atomic_compare_exchange_n(&t->state, &frozen, MMPI_THREAD_ASLEEP, false,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        }
    __atomic_fetch_add(&thaw_word, 1, __ATOMIC_SEQ_CST);
    mmpi_futex_wake_all(&thaw_word);
}

/* When t's current wait began to sleep (relaxed, thread.h). */
static double thread_since(const struct mmpi_thread *t)
{
    double since;
    __atomic_load(&t->since, &since, __ATOMIC_RELAXED);
    return since;
}

static const char *call_name(int call)
{
    return call < 0 ? "no MPI call yet" : mmpi_call_name((enum mmpi_call)call);
}

/* One line per object of r whose kind reports something (runtime/kind.h). */
static void report_objects(struct mmpi_rank *r, const char *rank_name)
{
    char line[512];
    for (int kind = 0; kind < MMPI_KINDS; kind++) {
        const struct mmpi_kind_ops *ops = mmpi_kind_ops(kind);
        const void *obj;
        for (uint32_t i = 0; ops->report && (obj = mmpi_handles_next(r, kind, &i));)
            if (ops->report(obj, line, sizeof line))
                fprintf(stderr, "mini_mpi:   %s: %s\n", rank_name, line);
    }
}

/* One line per thread of a live rank, one line per ended rank. Frozen threads are described
 * from their wait's arguments, which freezing keeps stable. */
static void report(struct mmpi_world *w, const char *headline)
{
    double now = mmpi_now();
    char what[512];
    fprintf(stderr, "mini_mpi: %s\n", headline);
    for (int i = 0; i < mmpi_world_nranks(w); i++) {
        struct mmpi_rank *r = w->ranks[i];
        char rank_name[48]; /* "rank 2 (incarnation 1)" for a restarted rank (rank.h) */
        mmpi_rank_label(r, rank_name, sizeof rank_name);
        int end = __atomic_load_n(&r->end, __ATOMIC_ACQUIRE);
        if (end != MMPI_END_RUNNING) {
            fprintf(stderr, "mini_mpi:   %s: %s\n", rank_name,
                    mmpi_rank_phase(r) == MMPI_PHASE_FINALIZED ? "finalized and ended"
                    : end == MMPI_END_KILLED ? "failed"
                    : __atomic_load_n(&r->session_used, __ATOMIC_ACQUIRE)
                        ? "finalized its sessions and ended"
                        : "ended without MPI_Init");
            continue;
        }
        if (rank_finalized_for_good(r)) {
            fprintf(stderr, "mini_mpi:   %s: finalized, still running\n", rank_name);
            continue;
        }
        /* Records are prepended: the list runs from the newest thread to the main one. */
        struct mmpi_thread *threads[64];
        int n = 0, more = 0;
        for (struct mmpi_thread *t = __atomic_load_n(&r->threads, __ATOMIC_ACQUIRE); t;
             t = t->next) {
            if (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) == MMPI_THREAD_UNUSED)
                continue;
            if (n < 64)
                threads[n++] = t;
            else
                more++;
        }
        int running = 0;
        for (int k = n - 1; k >= 0; k--) {
            struct mmpi_thread *t = threads[k];
            char who[72];
            if (n > 1)
                snprintf(who, sizeof who, "%s thread %d", rank_name, n - 1 - k);
            else
                snprintf(who, sizeof who, "%s", rank_name);
            int call = __atomic_load_n(&t->call, __ATOMIC_RELAXED);
            if (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != MMPI_THREAD_FROZEN) {
                fprintf(stderr, "mini_mpi:   %s: not blocked in MPI (last MPI call entered: %s)\n",
                        who, call_name(call));
                running++;
                continue;
            }
            what[0] = 0;
            if (t->describe)
                t->describe(t->arg, what, sizeof what);
            fprintf(stderr, "mini_mpi:   %s: %s, blocked for %.3f s%s%s\n", who,
                    call_name(call), now - thread_since(t), what[0] ? ": " : "", what);
        }
        if (more)
            fprintf(stderr, "mini_mpi:   %s: and %d more threads\n", rank_name, more);
        /* Its objects' state (a window's epochs and locks), read while every thread of it is
         * frozen. */
        if (!running && !more)
            report_objects(r, rank_name);
    }
}

/* Looks come faster while a death waits for publication or a deadlock is suspected. */
static void sleep_poll(bool fast)
{
    struct timespec ts = {0, fast ? POLL_NS / 10 : POLL_NS};
    nanosleep(&ts, NULL);
}

/* How much of the word arrays a comparison covers: entries at and beyond the table's size
 * were never written (0), and the size only grows. */
static size_t words_bytes(struct mmpi_world *w)
{
    return (size_t)mmpi_world_nranks(w) * sizeof(uint32_t);
}

/* Whether some thread of a live rank has slept in one wait longer than LONG_SLEEP. A rank
 * polling with MPI_Test never lets the world look quiescent; this bounds what a deferred
 * report can cost then. */
static bool long_sleeper(struct mmpi_world *w, double now)
{
    for (int i = 0; i < mmpi_world_nranks(w); i++) {
        struct mmpi_rank *r = w->ranks[i];
        if (!rank_is_live(r))
            continue;
        for (struct mmpi_thread *t = __atomic_load_n(&r->threads, __ATOMIC_ACQUIRE); t;
             t = t->next)
            if (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) == MMPI_THREAD_ASLEEP &&
                now - thread_since(t) > LONG_SLEEP)
                return true;
    }
    return false;
}

static void *monitor_main(void *arg)
{
    struct mmpi_world *w = arg;
    /* Word arrays cover the whole table (spawns add ranks); see words_bytes. */
    uint32_t *words = mmpi_xcalloc(MMPI_MAX_RANKS, sizeof(uint32_t));
    uint32_t *again = mmpi_xcalloc(MMPI_MAX_RANKS, sizeof(uint32_t));
    bool candidate = false; /* the previous look found everything blocked, with `words` */
    double last_release = 0;

    while (!__atomic_load_n(&monitor_stop, __ATOMIC_ACQUIRE)) {
        sleep_poll(candidate || mmpi_fault_pending(w));
        double timeout; /* MPI_T may change it (mpit/cvar.c) */
        __atomic_load(&w->config.timeout, &timeout, __ATOMIC_RELAXED);
        if (timeout > 0 && mmpi_now() - w->start_time >= timeout) {
            freeze(w, false);
            char headline[160];
            const char *by = w->config.timeout_by ? w->config.timeout_by : "MINI_MPI_TIMEOUT";
            snprintf(headline, sizeof headline,
                     "%s%s%g s expired; the job is ended with status %d. Ranks:", by,
                     by[0] == '-' ? " " : "=", timeout, MMPI_EXIT_TIMEOUT);
            report(w, headline);
            mmpi_job_exit(MMPI_EXIT_TIMEOUT);
        }
        bool failures = mmpi_fault_any(w);
        double now = mmpi_now(), since;
        bool pending = mmpi_fault_pending(w) && mmpi_fault_pending_deaths(w, &since) > 0;
        if (pending && now - since >= PENDING_MAX) {
            /* Someone keeps running (polling MPI_Test, computing): publish anyway. */
            mmpi_fault_publish_pending(w);
            candidate = false;
            continue;
        }
        if (failures && now - last_release > LONG_SLEEP && mmpi_fault_reports_held(w) &&
            long_sleeper(w, now)) {
            mmpi_fault_release_reports(w);
            last_release = now;
            candidate = false;
            continue;
        }
        if (mmpi_inject_timer_pending(w) || !all_blocked(w, again)) {
            candidate = false;
            continue;
        }
        if (!candidate || memcmp(words, again, words_bytes(w)) != 0) {
            memcpy(words, again, words_bytes(w));
            candidate = true;
            continue;
        }
        /* Two looks agree: confirm with the sleepers frozen. The failure record is read again
         * after that look, which found every gone rank's failure handed over. */
        bool stuck = freeze(w, true) && all_blocked(w, again) &&
                     !memcmp(words, again, words_bytes(w));
        failures = mmpi_fault_any(w);
        pending = mmpi_fault_pending(w) && mmpi_fault_pending_deaths(w, &since) > 0;
        if (stuck && pending) {
            /* Nobody can progress without knowing of the deaths: publish them. */
            thaw(w);
            mmpi_fault_publish_pending(w);
            candidate = false;
            continue;
        }
        if (stuck && failures && mmpi_fault_reports_held(w)) {
            /* Quiescent, and a wait holds back the report of a failure among the members it
             * awaits: it is about to fail, not deadlocked. Whatever the order in which the
             * ranks reached this state, the decision is the same (the fault layer's record,
             * not the wake words, says whether a release is due). */
            thaw(w);
            mmpi_fault_release_reports(w);
            last_release = now;
            candidate = false;
            continue;
        }
        if (stuck && __atomic_load_n(&w->config.hang_check, __ATOMIC_RELAXED)) {
            mmpi_mpit_hang_detected(); /* thread-safe tool callbacks, before the job ends */
            report(w, "deadlock: every live rank is blocked in MPI and none can proceed; "
                      "ending the job with status 123. Ranks:");
            mmpi_job_exit(MMPI_EXIT_DEADLOCK);
        }
        thaw(w);
        candidate = false;
    }
    free(words);
    free(again);
    return NULL;
}

void mmpi_hang_world_start(struct mmpi_world *w)
{
    /* Without fault tolerance a failure ends the job, so nothing is ever deferred. */
    if (!w->config.hang_check && !(w->config.timeout > 0) && !w->config.fault_tolerant)
        return;
    __atomic_store_n(&monitor_stop, 0, __ATOMIC_RELEASE);
    monitor_running = mmpi_thread_create_unowned(&monitor, NULL, monitor_main, w) == 0;
    if (!monitor_running) {
        /* Nobody would ever release what waits for the monitor: defer nothing from now on,
         * and let go of what early deaths already queued. */
        mmpi_fault_no_monitor(w);
    }
}

bool mmpi_hang_monitor_running(void)
{
    return __atomic_load_n(&monitor_running, __ATOMIC_RELAXED);
}

void mmpi_hang_world_stop(struct mmpi_world *w)
{
    (void)w;
    if (!monitor_running)
        return;
    __atomic_store_n(&monitor_stop, 1, __ATOMIC_RELEASE);
    pthread_join(monitor, NULL);
    monitor_running = false;
}
