/*
 * ranks_as_threads.c: the one place that starts and ends ranks. It creates the world, gives
 * each rank a runtime-owned stack and a thread running main() of the rank's program image,
 * records how each rank ends, hands an end inside an MPI session to the fault layer
 * (fault/publish.c makes it a process failure that every waiting rank notices), and computes
 * the job's exit status (docs/design.md "Ranks are threads", "Exit status"). Ranks that
 * MPI_Comm_spawn adds (spawn/) join the
 * same table and are started here too: the world ends when every rank, spawned or not, has
 * ended.
 *
 * Not here: loading private program images (runtime/private_image.c), taking over exit/abort/
 * raise/kill (runtime/interpose.c), sleeping and waking (runtime/wait.c).
 *
 * The table of ranks never moves (MMPI_MAX_RANKS entries): a spawn appends ranks under
 * world->lock and publishes the new size with release order, so any thread that reads the size
 * (mmpi_world_nranks) sees the ranks below it.
 *
 * Invariants: a rank's end is recorded exactly once, under world->lock, by whichever comes first
 * (its own thread ending, or mmpi_rank_mark_failed from another thread); the fault layer then
 * sets `failed`, with release order, before any waiter is woken, so a woken waiter that
 * re-checks sees it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "attr/attr.h"
#include "comm/info.h"
#include "datatype/build.h"
#include "inject/inject.h"
#include "libc/libc.h"
#include "mmpi.h"
#include "mpit/mpit.h"
#include "pt2pt/bsend.h"
#include "restart/restart.h"
#include "runtime/cpu_bind.h"
#include "runtime/hang.h"
#include "runtime/reclaim.h"
#include "util/futex.h"
#include "util/real.h"

__thread struct mmpi_rank *mmpi_self __attribute__((tls_model("initial-exec")));
struct mmpi_world *mmpi_world;

double mmpi_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void mmpi_job_exit(int status)
{
    /* Only the two standard streams: fflush(NULL) would also wait for the lock of an input
     * stream that a rank may be blocked reading. */
    fflush(stdout);
    fflush(stderr);
    mmpi_real__exit(status);
}

const char *mmpi_rank_label(const struct mmpi_rank *r, char *buf, size_t len)
{
    if (r->incarnation > 0)
        snprintf(buf, len, "rank %d (incarnation %d)", r->app_rank, r->incarnation);
    else
        snprintf(buf, len, "rank %d", r->world_rank);
    return buf;
}

/* Records the end of rank r; returns false if it had already ended. */
static bool record_end(struct mmpi_rank *r, int code, const char *cause, bool killed)
{
    struct mmpi_world *w = r->world;
    /* A rank that finalized (the World Model, or every session it opened) is gone without
     * failing; one still inside MPI, or that never entered it, fails (rank.h). */
    bool in_session = !mmpi_rank_left_mpi(r, killed);
    bool initialized = mmpi_rank_in_mpi(r);

    pthread_mutex_lock(&w->lock);
    if (r->end != MMPI_END_RUNNING) {
        pthread_mutex_unlock(&w->lock);
        return false;
    }
    r->end_code = code;
    r->end_cause = cause;
    /* Counted before the end is visible: from when the hang monitor sees this rank gone until
     * the fault layer holds its failure, its peers' waits cannot know of it yet, and a look
     * then would take them for deadlocked (runtime/hang.c). */
    if (in_session)
        __atomic_fetch_add(&w->deaths_in_flight, 1, __ATOMIC_SEQ_CST);
    int end = initialized || killed ? MMPI_END_KILLED : MMPI_END_NORMAL;
    __atomic_store_n(&r->end, end, __ATOMIC_RELEASE);
    if (--w->ranks_running == 0)
        pthread_cond_broadcast(&w->all_ended);
    pthread_mutex_unlock(&w->lock);

    /* A rank that never finalized is gone for its peers, whatever its exit status counts as:
     * anything waiting for it must complete (with an error) rather than hang. */
    if (in_session) {
        mmpi_fault_rank_died(r);
        __atomic_fetch_sub(&w->deaths_in_flight, 1, __ATOMIC_SEQ_CST);
    }
    return true;
}

/* A thread of a failed rank stops here without unwinding: peers may still be reading buffers
 * and board deposits on its stack (a rank killed `during` a collective, or while it waited
 * after arriving). Unwinding would run cleanup code over those frames. The world releases the
 * parked threads once every rank has ended; then they exit. */
__attribute__((noreturn)) static void park_until_world_end(struct mmpi_rank *self)
{
    struct mmpi_world *w = self->world;
    mmpi_thread_park_self(); /* from now on its board instances may be freed (coll/board.h) */
    while (!__atomic_load_n(&w->ending, __ATOMIC_ACQUIRE))
        mmpi_futex_wait(&w->ending, 0, NULL);
    if (mmpi_thread_end_jump)
        longjmp(*mmpi_thread_end_jump, 1); /* no unwinding: see runtime/thread.h */
    pthread_exit(NULL);
}

void mmpi_rank_end_self(enum mmpi_end how, int code, const char *cause)
{
    struct mmpi_rank *self = mmpi_self;
    if (self && pthread_equal(pthread_self(), self->thread))
        __atomic_store_n(&self->main_thread_done, true, __ATOMIC_RELEASE);
    if (!self)
        pthread_exit(NULL);
    record_end(self, code, cause, how == MMPI_END_INJECTED);
    park_until_world_end(self);
}

void mmpi_rank_mark_failed(struct mmpi_rank *rank, int code, const char *cause)
{
    record_end(rank, code, cause, true);
}

void mmpi_rank_check_alive(struct mmpi_rank *self)
{
    if (__builtin_expect(__atomic_load_n(&self->end, __ATOMIC_ACQUIRE) != MMPI_END_RUNNING, 0))
        park_until_world_end(self);
}

/* Runs when a rank's main thread ends by any path, including a user's pthread_exit(). */
static void rank_thread_cleanup(void *arg)
{
    struct mmpi_rank *r = arg;
    __atomic_store_n(&r->main_thread_done, true, __ATOMIC_RELEASE);
    record_end(arg, 0, "main thread exited", false);
    mmpi_cpu_bind_rank_end(r->world_rank);
    mmpi_thread_detach();
}

static void *rank_thread(void *arg)
{
    struct mmpi_rank *r = arg;
    int code;
    jmp_buf killed;

    mmpi_self = r;
    mmpi_thread_adopt(r->threads); /* reserved by mmpi_world_run, the rank's first record */
    mmpi_cpu_bind_rank_start(r->world_rank);
    if (setjmp(killed)) {
        /* Failed and released at world end (park_until_world_end): the frames of main are
         * abandoned, as a killed process's are. The cleanup pushed below is not run by
         * glibc on this path (only pthread_exit runs it), so run it here. */
        mmpi_thread_end_jump = NULL;
        rank_thread_cleanup(r);
        return NULL;
    }
    mmpi_thread_end_jump = &killed;
    pthread_cleanup_push(rank_thread_cleanup, r);
    mmpi_libc_rank_start(r); /* its own getopt, rand, strtok, ... (libc/libc.h) */
    code = r->main(r->argc, r->argv, mmpi_libc_environ(r->libc)); /* its own environment */
    mmpi_thread_end_jump = NULL;
    mmpi_inject_die_if_pending(r); /* `kill after` its last call (MPI_Finalize, say) */
    mmpi_libc_run_exit_handlers(r, code); /* returning from main is exit(code) */
    __atomic_store_n(&r->main_thread_done, true, __ATOMIC_RELEASE);
    record_end(r, code & 0xff,
               mmpi_rank_phase(r) == MMPI_PHASE_INITIALIZED
                   ? "returned from main without MPI_Finalize"
               : __atomic_load_n(&r->sessions, __ATOMIC_ACQUIRE)
                   ? "returned from main without MPI_Session_finalize"
                   : "returned from main",
               false);
    pthread_cleanup_pop(0);
    mmpi_cpu_bind_rank_end(r->world_rank);
    mmpi_thread_detach();
    return NULL;
}

static char **copy_argv(int argc, char **argv)
{
    char **copy = mmpi_xcalloc((size_t)argc + 1, sizeof(char *));
    for (int i = 0; i < argc; i++)
        copy[i] = mmpi_xstrdup(argv[i]);
    return copy;
}

static struct mmpi_rank *rank_new(struct mmpi_world *w, int world_rank)
{
    struct mmpi_rank *r = mmpi_xcalloc(1, sizeof(*r));
    r->world_rank = world_rank;
    r->app_rank = world_rank;
    r->world = w;
    for (unsigned k = 0; k < sizeof(r->handles) / sizeof(r->handles[0]); k++)
        mmpi_slots_init(&r->handles[k]);
    MMPI_CHECK_PTHREAD(pthread_mutex_init(&r->bsend_lock, NULL));
    MMPI_CHECK_PTHREAD(pthread_mutex_init(&r->threads_lock, NULL));
    r->known_failed = mmpi_xcalloc(MMPI_MAX_RANKS / 8, 1);
    return r;
}

static void rank_free(struct mmpi_rank *r)
{
    mmpi_handles_reclaim(r);
    mmpi_mpit_rank_free(r);
    mmpi_libc_rank_free(r);
    mmpi_dt_names_free(r);
    free(r->world_comm.acked);
    free(r->self_comm.acked);
    for (unsigned k = 0; k < sizeof(r->handles) / sizeof(r->handles[0]); k++)
        mmpi_slots_destroy(&r->handles[k]);
    mmpi_bsend_buffer_free(r->bsend);
    pthread_mutex_destroy(&r->bsend_lock);
    mmpi_thread_free_all(r);
    pthread_mutex_destroy(&r->threads_lock);
    free(r->known_failed);
    for (int i = 0; i < r->argc; i++)
        free(r->argv[i]);
    free(r->argv);
    mmpi_info_release(r->info_env);
    mmpi_attr_rank_free(r);
    if (r->self_comm.core)
        mmpi_comm_core_release(r->self_comm.core);
    if (r->world_comm.core) /* the reference MPI_Init took (a failed rank never finalized) */
        mmpi_comm_core_release(r->world_comm.core);
    mmpi_comm_core_release(r->parent_core); /* a spawned rank that never called MPI_Init */
    mmpi_comm_core_release(r->world_core);
    mmpi_restart_rank_free(r);
    if (r->stack)
        munmap(r->stack, r->stack_size);
    free(r);
}

/* Maps a stack with a guard page below it. The runtime owns it: it stays mapped after the
 * rank dies so that a peer still copying from the rank's buffers never faults
 * (docs/design.md "Object lifetimes"). */
static void *stack_new(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    mprotect(p, 4096, PROT_NONE);
    return p;
}

/* Gives r its stack and starts its thread (its first thread record is reserved already);
 * returns 0 or an errno value. */
static int start_thread(struct mmpi_rank *r)
{
    pthread_attr_t attr;
    if (!r->stack) { /* the launcher's ranks have theirs already (mmpi_world_run) */
        r->stack_size = r->world->config.stack_size;
        r->stack = stack_new(r->stack_size);
    }
    if (!r->stack)
        return ENOMEM;
    MMPI_CHECK_PTHREAD(pthread_attr_init(&attr));
    int rc = pthread_attr_setstack(&attr, r->stack, r->stack_size);
    if (rc == 0)
        rc = mmpi_thread_create_unowned(&r->thread, &attr, rank_thread, r);
    pthread_attr_destroy(&attr);
    r->started = rc == 0;
    return rc;
}

int mmpi_world_add_ranks(struct mmpi_world *w, int n)
{
    pthread_mutex_lock(&w->lock);
    int first = w->size;
    if (n <= 0 || n > MMPI_MAX_RANKS - first) {
        pthread_mutex_unlock(&w->lock);
        return -1;
    }
    mmpi_cpu_bind_release_all(); /* the new ranks (spawned, restarted) have no CPU of their own */
    for (int i = first; i < first + n; i++) {
        struct mmpi_rank *r = rank_new(w, i);
        r->inject_counts = mmpi_xcalloc(MMPI_CALL_COUNT, sizeof(uint32_t)); /* freed by
                                                                 * mmpi_inject_world_stop */
        mmpi_thread_reserve(r); /* RUNNING before anyone can see the rank */
        w->ranks[i] = r;
    }
    w->ranks_running += n;
    __atomic_store_n(&w->size, first + n, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&w->lock);
    return first;
}

bool mmpi_world_start_rank(struct mmpi_rank *r)
{
    int rc = start_thread(r);
    if (rc == 0)
        return true;
    fprintf(stderr, "mini_mpi: cannot start spawned rank %d: %s\n", r->world_rank, strerror(rc));
    mmpi_thread_release(r->threads);
    record_end(r, 1, "its thread could not be created", true);
    return false;
}

static int exit_status(struct mmpi_world *w)
{
    int first_normal = 0, first_killed = 0, nnormal = 0;
    for (int i = 0; i < mmpi_world_nranks(w); i++) { /* spawned ranks count as well */
        struct mmpi_rank *r = w->ranks[i];
        if (r->end == MMPI_END_NORMAL) {
            nnormal++;
            if (!first_normal && r->end_code)
                first_normal = r->end_code;
        } else if (r->end == MMPI_END_KILLED && !first_killed) {
            first_killed = r->end_code ? r->end_code : 1;
        }
    }
    if (w->config.exit_convention == MMPI_EXIT_MPICH && first_killed)
        return first_killed;
    if (nnormal == 0)                /* every rank died: nothing survived to report success */
        return first_killed ? first_killed : 1;
    return first_normal;
}

static void world_free(struct mmpi_world *w)
{
    mmpi_restart_world_fini(w);
    for (int i = 0; i < mmpi_world_nranks(w); i++)
        rank_free(w->ranks[i]);
    mmpi_comm_core_release(w->world_core);
    free(w->ranks);
    mmpi_fault_world_fini(w);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->all_ended);
    free(w);
}

/* Whether a thread the rank created may still be unwinding (it detaches from the rank's records
 * as it ends): then the rank must stay allocated. Under threads_lock: a thread marks its record
 * unused while holding it (mmpi_thread_release), so once the walk has the lock no thread is
 * still inside that critical section, about to unlock a mutex the caller would then free. */
static bool threads_in_use(struct mmpi_rank *r)
{
    bool in_use = false;
    pthread_mutex_lock(&r->threads_lock);
    for (struct mmpi_thread *t = r->threads; t && !in_use; t = t->next)
        in_use = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != MMPI_THREAD_UNUSED;
    pthread_mutex_unlock(&r->threads_lock);
    return in_use;
}

/* A world no reaper thread could be started for: kept reachable, never freed. */
static struct mmpi_world *volatile unreaped_world; /* volatile: the store must stay */

struct straggling_world {
    struct mmpi_world *w;
    bool *joined; /* [nranks at world end]: main threads already joined */
};

/* A reaper thread: waits until the last straggler (a rank thread killed while computing, or a
 * thread a rank created) has gone, then frees the world. If one never ends, the world stays
 * reachable from here until the process exits, as it must: the straggler may still read it. */
static void *reap_world(void *arg)
{
    struct straggling_world *sw = arg;
    struct mmpi_world *w = sw->w;
    for (int i = 0; i < mmpi_world_nranks(w); i++) {
        if (!sw->joined[i])
            pthread_join(w->ranks[i]->thread, NULL);
        while (threads_in_use(w->ranks[i]))
            nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    world_free(w);
    free(sw->joined);
    free(sw);
    return NULL;
}

static void reclaim_later(struct mmpi_world *w, bool *joined)
{
    struct straggling_world *sw = mmpi_xmalloc(sizeof(*sw));
    *sw = (struct straggling_world){w, joined};
    pthread_t reaper;
    pthread_attr_t attr;
    MMPI_CHECK_PTHREAD(pthread_attr_init(&attr));
    MMPI_CHECK_PTHREAD(pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED));
    if (mmpi_thread_create_unowned(&reaper, &attr, reap_world, sw) != 0) {
        /* No reaper: keep the world reachable (never freed) rather than free it under a
         * straggler. */
        unreaped_world = w;
        free(joined);
        free(sw);
    }
    pthread_attr_destroy(&attr);
}

int mmpi_world_run(const struct mmpi_launch_config *config, int (*entry)(int, char **, char **),
                   int argc, char **argv, int (**private_mains)(int, char **, char **))
{
    struct mmpi_world *w = mmpi_xcalloc(1, sizeof(*w));
    int status;

    w->config = *config;
    w->size = w->initial_size = config->nranks;
    w->entry = entry;
    w->start_time = mmpi_now();
    /* Room for every rank the job may ever hold (spawned ones too): these never move, and
     * pages nobody touches cost nothing. */
    w->ranks = mmpi_xcalloc(MMPI_MAX_RANKS, sizeof(*w->ranks));
    mmpi_fault_world_init(w);
    MMPI_CHECK_PTHREAD(pthread_mutex_init(&w->lock, NULL));
    MMPI_CHECK_PTHREAD(pthread_cond_init(&w->all_ended, NULL));
    int *world_ranks = mmpi_xmalloc((size_t)w->size * sizeof(int));
    for (int i = 0; i < w->size; i++)
        world_ranks[i] = i;
    w->world_core = mmpi_comm_core_new(w->size, world_ranks);
    for (int i = 0; i < w->size; i++) {
        struct mmpi_rank *r = rank_new(w, i);
        r->main = private_mains ? private_mains[i] : entry;
        r->argc = argc;
        r->argv = copy_argv(argc, argv);
        mmpi_comm_core_retain(w->world_core);
        r->world_core = w->world_core;
        mmpi_thread_reserve(r);
        w->ranks[i] = r;
    }
    w->ranks_running = w->size;
    __atomic_store_n(&mmpi_world, w, __ATOMIC_RELEASE);

    /* Every stack before any rank runs: ranks that run allocate (malloc's arenas reserve
     * address space), so under an address-space limit a stack reserved later could fail
     * half-way through start-up, with ranks already running. */
    for (int i = 0; i < w->initial_size; i++) {
        struct mmpi_rank *r = w->ranks[i];
        r->stack_size = config->stack_size;
        r->stack = stack_new(r->stack_size);
        if (!r->stack) {
            fprintf(stderr, "mini_mpi: cannot reserve the stack of rank %d of %d: %s\n", i,
                    w->initial_size, strerror(errno));
            mmpi_job_exit(2);
        }
    }
    mmpi_cpu_bind_plan(w->initial_size, config->bind_cores);
    mmpi_inject_world_start(w); /* before any rank runs: MPI_Init#1 must count */
    /* Not w->size: the ranks started first may spawn more before this loop ends. */
    for (int i = 0; i < w->initial_size; i++) {
        int rc = start_thread(w->ranks[i]);
        if (rc != 0) {
            fprintf(stderr, "mini_mpi: cannot start rank %d of %d: %s\n", i, w->initial_size,
                    strerror(rc));
            mmpi_job_exit(2);
        }
    }
    mmpi_hang_world_start(w);

    pthread_mutex_lock(&w->lock);
    while (w->ranks_running > 0)
        pthread_cond_wait(&w->all_ended, &w->lock);
    pthread_mutex_unlock(&w->lock);
    status = exit_status(w);
    __atomic_store_n(&w->ending, 1, __ATOMIC_RELEASE); /* parked threads of failed ranks exit */
    mmpi_futex_wake_all(&w->ending);
    mmpi_hang_world_stop(w);
    mmpi_inject_world_stop(w);

    /* Threads of ranks killed while computing may still run (they can no longer affect MPI):
     * reclaim the world only when every rank thread has really gone. */
    bool *joined = mmpi_xcalloc((size_t)mmpi_world_nranks(w), sizeof(bool));
    bool all_joined = true;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 1;
    for (int i = 0; i < mmpi_world_nranks(w); i++) {
        struct mmpi_rank *r = w->ranks[i];
        if (!r->started) {
            joined[i] = true; /* a spawned rank whose thread could not be created */
            continue;
        }
        /* A main thread that is on its way out is joined however long it takes (valgrind
         * makes that slow); only one still running user code gets the deadline. */
        int rc = __atomic_load_n(&r->main_thread_done, __ATOMIC_ACQUIRE)
                     ? pthread_join(r->thread, NULL)
                     : pthread_timedjoin_np(r->thread, NULL, &deadline);
        joined[i] = rc == 0;
        all_joined &= joined[i] && !threads_in_use(r);
    }
    __atomic_store_n(&mmpi_world, NULL, __ATOMIC_RELEASE);
    if (all_joined) {
        free(joined);
        world_free(w);
    } else {
        reclaim_later(w, joined);
    }
    return status;
}
