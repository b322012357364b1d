/*
 * inject.c: carrying out the fault plan (inject.h): counting each rank's MPI entries, killing
 * ranks at the planned calls, the timer thread for time directives, and the public C API of
 * mini_mpi_inject.h. An injected death is the death of a rank that raised SIGKILL: it fails in
 * the ULFM sense, its status is 137, and nothing is printed unless MINI_MPI_VERBOSE=1.
 *
 * The plan is read by every rank at every MPI entry and appended to by mini_mpi_arm while
 * ranks run: readers walk it inside an RCU read-side section of the fault layer and never die
 * inside one (they note what fires, leave, then act); an append frees the array it replaced
 * after a grace period (retire_directives).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fault/fault.h"
#include "mpit/mpit.h"
#include "inject/call_counts.h"
#include "inject/inject.h"
#include "mini_mpi_inject.h"
#include "mmpi.h"
#include "util/real.h"

#define KILLED_STATUS (128 + 9)

bool mmpi_inject_active;
static int injected_deaths;          /* atomic */
static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER; /* C API appends */

static pthread_t timer_thread;
static bool timer_running;
static int timer_stop;               /* atomic */

/* Whether directive f names rank r: plain R the rank as started (a restarted incarnation's slot
 * is never named by its world rank), R.k the k-th restart of launcher rank R. */
static bool names(const struct mmpi_fault *f, const struct mmpi_rank *r)
{
    if (f->incarnation == 0)
        return r->incarnation == 0 && f->rank == r->world_rank;
    return r->incarnation == f->incarnation && r->app_rank == f->rank;
}

static void report(const struct mmpi_rank *r, const char *how, enum mmpi_call call, uint32_t n)
{
    char who[48];
    if (r->world->config.verbose)
        fprintf(stderr, "mini_mpi: injected death: %s %s %s #%u\n",
                mmpi_rank_label(r, who, sizeof who), how,
                call == (enum mmpi_call)MMPI_FAULT_ANY_CALL ? "any call" : mmpi_call_name(call),
                n);
}

/* After the death's tools event is in every rank's queue: a rank that sees the count has the
 * event to read at its next MPI_T call (release; mini_mpi_injected_deaths acquires). */
static void count_death(void)
{
    __atomic_add_fetch(&injected_deaths, 1, __ATOMIC_RELEASE);
}

__attribute__((noreturn)) static void die_now(struct mmpi_rank *self)
{
    mmpi_mpit_injected_death(self);
    count_death();
    mmpi_rank_end_self(MMPI_END_INJECTED, KILLED_STATUS, "killed by MINI_MPI_FAULTS");
}

void mmpi_inject_on_enter(struct mmpi_rank *self, enum mmpi_call call)
{
    int pending = __atomic_load_n(&self->inject_die_next, __ATOMIC_ACQUIRE);
    if (pending || self->inject_during)
        die_now(self); /* `kill after`: the previous call has returned; `kill during`: the
                        * previous call returned without reaching a collective board */
    if (!self->inject_counts)
        return; /* rank not set up (a unit test world) */
    uint32_t n_call = __atomic_add_fetch(&self->inject_counts[call], 1, __ATOMIC_RELAXED);
    uint32_t n_any = __atomic_add_fetch(&self->inject_total, 1, __ATOMIC_RELAXED);
    const struct mmpi_fault_plan *p = self->world->config.faults;
    int rank = self->incarnation ? self->app_rank : self->world_rank;
    bool die_at = false, die_at_any = false;
    mmpi_fault_read_begin();
    for (int i = -1;
         (i = mmpi_fault_plan_match(p, i + 1, rank, self->incarnation, call, n_call, n_any)) >=
         0;) {
        const struct mmpi_fault *f = __atomic_load_n(&p->faults, __ATOMIC_ACQUIRE) + i;
        if (f->when == MMPI_FAULT_AT_CALL) {
            die_at = true;
            die_at_any = f->call == MMPI_FAULT_ANY_CALL;
            break;
        }
        if (f->when == MMPI_FAULT_DURING_CALL) {
            self->inject_during = 1 + (int)call;
            continue;
        }
        report(self, "after", call, n_call);
        __atomic_store_n(&self->inject_die_next, 1 + (int)call, __ATOMIC_RELEASE);
    }
    mmpi_fault_read_end();
    if (die_at) {
        report(self, "at", die_at_any ? (enum mmpi_call)MMPI_FAULT_ANY_CALL : call,
               die_at_any ? n_any : n_call);
        die_now(self);
    }
}

bool mmpi_inject_during_armed(const struct mmpi_rank *self)
{
    return self->inject_during != 0;
}

void mmpi_inject_die_during(struct mmpi_rank *self)
{
    enum mmpi_call call = (enum mmpi_call)(self->inject_during - 1);
    report(self, "during", call, self->inject_counts ? self->inject_counts[call] : 0);
    die_now(self);
}

void mmpi_inject_die_if_pending(struct mmpi_rank *self)
{
    if (__atomic_load_n(&self->inject_die_next, __ATOMIC_ACQUIRE) != 0 || self->inject_during)
        die_now(self);
}

void mmpi_inject_init_done(struct mmpi_rank *self)
{
    double now = mmpi_now();
    __atomic_store(&self->init_done_time, &now, __ATOMIC_RELEASE);
}

/* Kills ranks whose time has come; the rank's threads unwind at their next MPI entry or wait
 * (a waiting rank at once: marking it failed wakes every rank). */
static void *timer_main(void *arg)
{
    struct mmpi_world *w = arg;
    const struct mmpi_fault_plan *p = w->config.faults;
    int planned = __atomic_load_n(&p->n, __ATOMIC_ACQUIRE); /* later mini_mpi_arm: no timers */
    char *fired = mmpi_xcalloc((size_t)planned + 1, 1);
    while (!__atomic_load_n(&timer_stop, __ATOMIC_ACQUIRE)) {
        double now = mmpi_now();
        for (int i = 0; i < planned; i++) {
            mmpi_fault_read_begin();
            const struct mmpi_fault f = __atomic_load_n(&p->faults, __ATOMIC_ACQUIRE)[i];
            mmpi_fault_read_end();
            if (f.when != MMPI_FAULT_AT_TIME || fired[i])
                continue;
            struct mmpi_rank *r = w->ranks[f.rank];
            double t0;
            __atomic_load(&r->init_done_time, &t0, __ATOMIC_ACQUIRE);
            if (t0 > 0 && now >= t0 + (double)f.time_ns * 1e-9) {
                fired[i] = 1;
                if (!mmpi_fault_is_failed(r) && r->end == MMPI_END_RUNNING) {
                    if (w->config.verbose)
                        fprintf(stderr, "mini_mpi: injected death: rank %d at %.3f ms\n",
                                r->world_rank, (double)f.time_ns * 1e-6);
                    mmpi_mpit_injected_death(r);
                    count_death();
                    mmpi_rank_mark_failed(r, KILLED_STATUS, "killed by MINI_MPI_FAULTS");
                }
            }
        }
        struct timespec ts = {0, 100000}; /* 0.1 ms: time directives are this precise */
        nanosleep(&ts, NULL);
    }
    free(fired);
    return NULL;
}

void mmpi_inject_world_start(struct mmpi_world *w)
{
    const struct mmpi_fault_plan *p = w->config.faults;
    for (int i = 0; i < w->size; i++)
        w->ranks[i]->inject_counts = mmpi_xcalloc(MMPI_CALL_COUNT, sizeof(uint32_t));
    __atomic_store_n(&injected_deaths, 0, __ATOMIC_RELAXED);
    /* MINI_MPI_CALL_COUNTS counts without killing anyone. */
    __atomic_store_n(&mmpi_inject_active, p->n > 0 || w->config.call_counts, __ATOMIC_RELEASE);
    bool timed = false;
    for (int i = 0; i < p->n; i++)
        timed |= p->faults[i].when == MMPI_FAULT_AT_TIME;
    timer_stop = 0;
    timer_running = timed && mmpi_thread_create_unowned(&timer_thread, NULL, timer_main, w) == 0;
}

void mmpi_inject_world_stop(struct mmpi_world *w)
{
    if (timer_running) {
        __atomic_store_n(&timer_stop, 1, __ATOMIC_RELEASE);
        pthread_join(timer_thread, NULL);
        timer_running = false;
    }
    mmpi_call_counts_write(w);
    const struct mmpi_fault_plan *p = w->config.faults;
    pthread_mutex_lock(&plan_lock); /* a thread of a rank may still be in mini_mpi_arm */
    for (int i = 0; i < p->n; i++) {
        const struct mmpi_fault *f = &p->faults[i];
        bool existed = f->incarnation == 0 && f->rank < w->size &&
                       w->ranks[f->rank]->incarnation == 0;
        for (int k = 0; f->incarnation > 0 && !existed && k < w->size; k++)
            existed = names(f, w->ranks[k]);
        if (f->incarnation > 0 && !existed)
            fprintf(stderr, "mini_mpi: MINI_MPI_FAULTS: rank %d (incarnation %d) never existed: "
                            "its directive did nothing\n", f->rank, f->incarnation);
        else if (!existed)
            fprintf(stderr, "mini_mpi: MINI_MPI_FAULTS: rank %d never existed (the job had %d "
                            "ranks): its directive did nothing\n", p->faults[i].rank, w->size);
    }
    pthread_mutex_unlock(&plan_lock);
    for (int i = 0; i < w->size; i++) {
        free(w->ranks[i]->inject_counts);
        w->ranks[i]->inject_counts = NULL;
    }
    __atomic_store_n(&mmpi_inject_active, false, __ATOMIC_RELEASE);
}

bool mmpi_inject_timer_pending(struct mmpi_world *w)
{
    if (!timer_running)
        return false;
    const struct mmpi_fault_plan *p = w->config.faults;
    bool pending = false;
    mmpi_fault_read_begin();
    int n = __atomic_load_n(&p->n, __ATOMIC_ACQUIRE);
    const struct mmpi_fault *f = __atomic_load_n(&p->faults, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n && !pending; i++)
        pending = f[i].when == MMPI_FAULT_AT_TIME &&
                  __atomic_load_n(&w->ranks[f[i].rank]->end, __ATOMIC_ACQUIRE) ==
                      MMPI_END_RUNNING;
    mmpi_fault_read_end();
    return pending;
}

void mmpi_inject_retire_directives(struct mmpi_fault *old)
{
    mmpi_fault_synchronize();
    free(old);
}

/* ---- Public C API (mini_mpi_inject.h) -------------------------------------------------- */

MMPI_EXPORT int mini_mpi_kill(int world_rank)
{
    struct mmpi_world *w = __atomic_load_n(&mmpi_world, __ATOMIC_ACQUIRE);
    if (!w || world_rank < 0 || world_rank >= mmpi_world_nranks(w))
        return MPI_ERR_RANK;
    struct mmpi_rank *r = w->ranks[world_rank];
    if (r == mmpi_self)
        die_now(r);
    if (r->end != MMPI_END_RUNNING)
        return MPI_SUCCESS;
    mmpi_mpit_injected_death(r);
    count_death();
    mmpi_rank_mark_failed(r, KILLED_STATUS, "killed by mini_mpi_kill");
    return MPI_SUCCESS;
}

MMPI_EXPORT int mini_mpi_arm(const char *directives)
{
    struct mmpi_world *w = __atomic_load_n(&mmpi_world, __ATOMIC_ACQUIRE);
    char error[512];
    if (!w || !directives)
        return MPI_ERR_ARG;
    pthread_mutex_lock(&plan_lock);
    int n = mmpi_world_nranks(w);
    bool ok = mmpi_fault_plan_append(w->config.faults, directives, n,
                                     w->config.universe_size > n ? w->config.universe_size : n,
                                     error, sizeof error);
    pthread_mutex_unlock(&plan_lock);
    if (!ok) {
        fprintf(stderr, "mini_mpi: mini_mpi_arm: %s\n", error);
        return MPI_ERR_ARG;
    }
    __atomic_store_n(&mmpi_inject_active, true, __ATOMIC_RELEASE);
    return MPI_SUCCESS;
}

MMPI_EXPORT int mini_mpi_injected_deaths(void)
{
    return __atomic_load_n(&injected_deaths, __ATOMIC_ACQUIRE);
}
