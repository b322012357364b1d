/*
 * rank.h: the world and its ranks: the objects ranks_as_threads.c creates, runs and ends.
 *
 * A rank is a thread (plus any threads it creates) running main() of its own private copy of the
 * program. Everything per rank lives in struct mmpi_rank; what all ranks share lives in struct
 * mmpi_world. mmpi_self (thread-local) names the rank of the calling thread, NULL in threads
 * that belong to no rank (the launcher).
 *
 * Lifecycle of a rank: STARTED -> INITIALIZED (MPI_Init) -> FINALIZED (MPI_Finalize), and at any
 * point it may end. A rank that ends before MPI_Finalize (exit, abort, a fatal signal, an
 * injected death, returning from main without finalizing) has *failed* in the ULFM sense: its
 * `failed` flag is set once, every waiting rank is woken, and the rank never performs another
 * MPI effect.
 */
#ifndef MMPI_RUNTIME_RANK_H
#define MMPI_RUNTIME_RANK_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "comm/comm.h"
#include "runtime/thread.h"
#include "util/slots.h"

/* Ranks a job holds over its lifetime, spawned ones included (world ranks are never reused):
 * the capacity of the world's rank table. Two mappings per rank stack: stays far below
 * vm.max_map_count. */
#define MMPI_MAX_RANKS 32768

enum mmpi_phase {
    MMPI_PHASE_STARTED = 0,   /* main() running, MPI_Init not called yet */
    MMPI_PHASE_INITIALIZED,
    MMPI_PHASE_FINALIZED,
};

/* How a rank ended; decides its share of the job's exit status (docs/design.md "Exit status"). */
enum mmpi_end {
    MMPI_END_RUNNING = 0,
    MMPI_END_NORMAL,   /* returned from main / exit() outside an MPI session: code counts */
    MMPI_END_KILLED,   /* died inside an MPI session: a process failure */
    MMPI_END_INJECTED, /* argument only: killed by the fault injector, a failure wherever it
                        * happens (even before MPI_Init); recorded as MMPI_END_KILLED */
};

enum mmpi_exit_convention {
    MMPI_EXIT_OMPI,   /* Open MPI with ULFM: killed ranks do not fail the job */
    MMPI_EXIT_MPICH,  /* MPICH -disable-auto-cleanup: any death makes the status non-zero */
};

struct mmpi_attr_rank;
struct mmpi_errhandler;
struct mmpi_fault_plan;
struct mmpi_restart_rank;
struct mmpi_info;

/* Launch settings, read from the environment once (runtime/launch_config.c). Immutable. */
struct mmpi_launch_config {
    int nranks;                      /* MINI_MPI_NP, default 1 */
    int universe_size;               /* MINI_MPI_UNIVERSE_SIZE (the MPI_UNIVERSE_SIZE
                                      * attribute), default nranks */
    bool privatize;                  /* MINI_MPI_PRIVATIZE, default true */
    size_t stack_size;               /* MINI_MPI_STACK, default 8 MiB */
    bool fault_tolerant;             /* MINI_MPI_FT: ulfm (default) / no */
    enum mmpi_exit_convention exit_convention; /* MINI_MPI_EXIT_STATUS: ompi / mpich */
    const char *initial_errhandler;  /* MINI_MPI_INITIAL_ERRHANDLER, canonical lowercase name */
    bool verbose;                    /* MINI_MPI_VERBOSE */
    struct mmpi_fault_plan *faults;  /* MINI_MPI_FAULTS, parsed (inject/plan.c); never NULL */
    bool hang_check;                 /* MINI_MPI_HANG_CHECK, default true: deadlock detector */
    double timeout;                  /* MINI_MPI_TIMEOUT seconds (watchdog), 0 = none */
    const char *timeout_by;          /* how the user set it, as the report names it: "--timeout",
                                      * "-timeout", "MINI_MPI_TIMEOUT" or "MPIEXEC_TIMEOUT" */
    bool poison;                     /* MINI_MPI_POISON=1: what a failure leaves undefined
                                      * (window memory, file pointers) gets documented values */
    long max_comms;                  /* MINI_MPI_MAX_COMMS: communicators a rank may hold at
                                      * once (MPICH's context-id limit, 2048), 0 = no limit */
    bool bind_cores;                 /* MINI_MPI_BIND: core (default) binds each rank-thread
                                      * to a CPU of its own when the ranks fit (cpu_bind.c) */
    const char *call_counts;         /* MINI_MPI_CALL_COUNTS: file to write the per-rank MPI call
                                      * counts to at world end (inject/call_counts.c), or NULL */
};

struct mmpi_rank {
    int world_rank;                  /* immutable: index in the world's rank table (the initial
                                      * ranks first, then spawned ones in spawn order) */
    struct mmpi_world *world;        /* immutable */
    int app_rank;                    /* immutable: rank in its own MPI_COMM_WORLD */
    int appnum;                      /* immutable: MPI_APPNUM (spawn_multiple's command index) */
    int incarnation;                 /* immutable: 0, or k for the k-th restart of rank app_rank
                                      * of the launcher's world (restart/restart.h) */
    struct mmpi_restart_rank *restart; /* owning rank (restart/restart.h): epochs of its
                                      * MPI_COMM_WORLD; NULL unless a restart concerns it */
    struct mmpi_comm_core *world_core; /* immutable: its MPI_COMM_WORLD's core (the world's for
                                      * initial ranks, its spawn's for spawned ones, its epoch's
                                      * for restarted ones); one reference, dropped with the
                                      * rank */
    struct mmpi_comm_core *parent_core; /* spawned ranks: the children's side of the parent
                                      * intercommunicator, one reference, which MPI_Init hands
                                      * to the parent handle (then NULL); NULL otherwise */
    struct mmpi_comm *parent;        /* owning rank: the handle object MPI_Comm_get_parent
                                      * returns; NULL when there is none or it was freed */
    pthread_t thread;                /* immutable after start: the rank's main thread */
    bool started;                    /* immutable after start: `thread` was created */
    void *stack;                     /* immutable; runtime-owned, unmapped only at world end */
    size_t stack_size;
    int (*main)(int, char **, char **); /* immutable: main of this rank's program image */
    int argc;                        /* owning rank only */
    char **argv;                     /* owning rank only; this rank's private copy */

    int phase;                       /* enum mmpi_phase; written by owner, atomic reads */
    int sessions;                    /* atomic: sessions open (MPI_Session_init not yet
                                      * finalized), opened and closed by any thread of the rank
                                      * (session/session.h) */
    bool session_used;               /* atomic: the rank has opened a session */
    bool failed;                     /* set once (release) by fault/publish.c when the rank's
                                      * failure is published; never cleared. Read it through
                                      * mmpi_fault_is_failed (fault/fault.h) */
    int end;                         /* enum mmpi_end; written once under world->lock,
                                      * atomic reads */
    bool main_thread_done;           /* atomic: the rank's main thread is exiting */
    int end_code;                    /* exit code, or 128+signal; under world->lock */
    const char *end_cause;           /* static string for verbose reports; under world->lock */

    int thread_level;                /* set by MPI_Init_thread; read-only after */
    pthread_t init_thread;           /* the thread that called MPI_Init (MPI_Is_thread_main) */
    /* The wake word is written by other ranks' threads at every completion they make for this
     * rank: it sits alone on its cache line so that those writes do not evict the fields the
     * rank reads on every call (phase, failed, world_comm), whatever the allocation's alignment. */
    char wake_pad_before[64];
    uint32_t wake_word;              /* futex word: bumped by anyone who may unblock the rank */
    uint32_t sleepers;               /* threads of this rank sleeping on wake_word (atomic) */
    char wake_pad_after[64];

    struct mmpi_comm world_comm;     /* this rank's MPI_COMM_WORLD handle object */
    struct mmpi_comm self_comm;      /* this rank's MPI_COMM_SELF handle object */
    struct mmpi_info *info_env;      /* MPI_INFO_ENV; immutable after MPI_Init */
    char **dt_names;                 /* names this rank gave predefined datatypes, or NULL
                                      * (datatype/object.c, under its names lock) */
    struct mmpi_slots handles[16];   /* per kind (MMPI_HANDLE_KIND_*): user-created objects */
    uint32_t *inject_counts;         /* atomic: [MMPI_CALL_COUNT] MPI entries, per call */
    uint32_t inject_total;           /* atomic: MPI entries of any call */
    int inject_die_next;             /* atomic: 1 + call to report, a `kill after` pending */
    int inject_during;               /* owning rank: 1 + call, a `kill during` armed */
    double init_done_time;           /* atomic: mmpi_now() when MPI_Init returned, or 0 */
    uint8_t *known_failed;           /* bitmap [MMPI_MAX_RANKS / 8], atomic bytes: failures
                                      * this rank has been told of (an error naming them,
                                      * get_failed, agree, shrink); MPIX_Comm_failure_ack
                                      * acknowledges these only, which keeps outcomes
                                      * independent of timing
                                      * (docs/design.md "Fault injection and determinism").
                                      * mmpi_rank_knows_failure
                                      * and mmpi_rank_learn_failure below read and set it. */
    struct mmpi_thread *threads;     /* the rank's threads (runtime/thread.h); atomic head,
                                      * records linked under threads_lock, never unlinked */
    pthread_mutex_t threads_lock;
    struct mmpi_attr_rank *attr;     /* attr/attr.h: keyval and attribute state; created by
                                      * MPI_Init, freed with the rank */
    pthread_mutex_t bsend_lock;      /* protects the rank's buffered-send buffers (its own and
                                      * its communicators', pt2pt/bsend.h) */
    struct mmpi_bsend_buffer *bsend; /* MPI_Buffer_attach's; NULL: none */
    /* coll/progress.h: the rank's pending nonblocking collectives, which its blocking waits
     * progress (runtime/wait.c); atomic head, list under coll_pending_lock (a spin word). */
    struct mmpi_coll *coll_pending;
    int coll_pending_lock;
    /* libc/libc.h: the rank's C library state (getopt, rand, strtok, exit handlers, ...);
     * created by the rank's main thread before main, freed with the rank. */
    struct mmpi_libc *libc;
    /* How a spawned rank starts (spawn/spawn.c), else NULL: its spawn's info key "env"
     * (newline-separated NAME=value, added to the launch environment) and the directory it
     * starts in. Immutable; freed by mmpi_libc_rank_free. */
    char *start_env, *start_dir;
};

struct mmpi_world {
    struct mmpi_launch_config config; /* immutable */
    int size;                        /* ranks in the table: grows (release store under lock)
                                      * as MPI_Comm_spawn adds ranks, never shrinks; read it
                                      * with mmpi_world_nranks */
    int initial_size;                /* immutable: ranks the launcher started (config.nranks);
                                      * time and random fault directives address these */
    struct mmpi_rank **ranks;        /* [MMPI_MAX_RANKS], never moves; world rank -> rank,
                                      * entries below size immutable once published */
    struct mmpi_comm_core *world_core; /* shared core of the initial MPI_COMM_WORLD */
    int (*entry)(int, char **, char **); /* immutable: main of the shared image (spawning the
                                      * program itself without private images) */
    double start_time;               /* CLOCK_MONOTONIC seconds at world creation */

    pthread_mutex_t lock;            /* protects ranks_running and each rank's end fields */
    pthread_cond_t all_ended;        /* signalled when ranks_running reaches 0 */
    int ranks_running;
    int deaths_in_flight;            /* atomic: failed ranks whose end is recorded but not yet
                                      * handed to the fault layer (ranks_as_threads.c); the
                                      * hang monitor sees no deadlock while one is */
    struct mmpi_fault_world fault;   /* the failure record: fault/ alone writes it, everyone
                                      * else reads it through fault/fault.h */
    uint32_t ending;                 /* futex word, set once every rank has ended: threads of
                                      * failed ranks, parked so far, may exit */
};

/* The rank of the calling thread, NULL outside ranks. Inherited by threads a rank creates. */
extern __thread struct mmpi_rank *mmpi_self __attribute__((tls_model("initial-exec")));
/* The one world of this process while it runs (NULL before and after). */
extern struct mmpi_world *mmpi_world;

/* Reads and validates the MINI_MPI_* launch variables. On a bad value prints one line naming it
 * to stderr and returns false. */
bool mmpi_launch_config_read(struct mmpi_launch_config *config);

/* Runs a world of config->nranks ranks, each calling entry(argc, argv, envp) (either main of a
 * private image or, with images == NULL, the given entry in one shared image), and waits until
 * every rank has ended. Returns the job's exit status (docs/design.md "Exit status"). */
int mmpi_world_run(const struct mmpi_launch_config *config,
                   int (*entry)(int, char **, char **), int argc, char **argv,
                   int (**private_mains)(int, char **, char **));

/* How many ranks the world's table holds now (initial and spawned; ranks[0..n) are valid). */
static inline int mmpi_world_nranks(const struct mmpi_world *w)
{
    return __atomic_load_n(&w->size, __ATOMIC_ACQUIRE);
}

/* Spawning (MPI_Comm_spawn, spawn/): reserves n new ranks at the end of the table and returns
 * the world rank of the first, or -1 when the table is full (MMPI_MAX_RANKS). The new ranks are
 * running for everyone (counted until they end, each with a RUNNING thread record, so the hang
 * monitor never sees them blocked before they start) but run nothing yet: the caller sets each
 * one's main, argc/argv (taken over), world_core, parent_core, app_rank and appnum, then calls
 * mmpi_world_start_rank. Takes world->lock. */
int mmpi_world_add_ranks(struct mmpi_world *w, int n);
/* Starts the thread of a rank reserved by mmpi_world_add_ranks. If the thread cannot be
 * created, the rank is recorded as failed (a process that died at once) and false returned. */
bool mmpi_world_start_rank(struct mmpi_rank *r);

/* Ends the calling thread's rank (the rank failed, or ended normally outside an MPI session):
 * records how, wakes every waiter, and stops the calling thread (parked, its stack intact,
 * until the world ends; then it exits). Never returns. */
__attribute__((noreturn)) void mmpi_rank_end_self(enum mmpi_end how, int code, const char *cause);

/* Marks `rank` failed from another thread (the fault injector, a helper thread's exit()).
 * The rank's own threads unwind at their next MPI entry or wait. */
void mmpi_rank_mark_failed(struct mmpi_rank *rank, int code, const char *cause);

/* If the calling thread's rank has failed, unwinds the thread (never returns then). Call only
 * where the thread holds no internal lock. */
void mmpi_rank_check_alive(struct mmpi_rank *self);

/* Names a rank in reports: "rank 5" (its world rank), or "rank 2 (incarnation 1)" for a
 * restarted one (restart/restart.h), whose world rank is a slot nobody knows it by. */
const char *mmpi_rank_label(const struct mmpi_rank *r, char *buf, size_t len);

/* Ends the whole job now with `status` (MPI_Abort, fatal errors, fault tolerance off). */
__attribute__((noreturn)) void mmpi_job_exit(int status);

/* Whether `self` has been told that world rank w failed (known_failed). */
static inline bool mmpi_rank_knows_failure(const struct mmpi_rank *self, int w)
{
    return __atomic_load_n(&self->known_failed[w >> 3], __ATOMIC_RELAXED) & (1u << (w & 7));
}
/* Records it; returns whether it was known already. */
static inline bool mmpi_rank_learn_failure(struct mmpi_rank *self, int w)
{
    uint8_t bit = (uint8_t)(1u << (w & 7));
    return __atomic_fetch_or(&self->known_failed[w >> 3], bit, __ATOMIC_RELAXED) & bit;
}

static inline int mmpi_rank_phase(const struct mmpi_rank *r)
{
    return __atomic_load_n(&r->phase, __ATOMIC_ACQUIRE);
}

/* Whether r may make MPI calls: between MPI_Init and MPI_Finalize, or holding an open session
 * (MPI-4.1 §11.3: the Sessions Model needs no MPI_Init). */
static inline bool mmpi_rank_in_mpi(const struct mmpi_rank *r)
{
    return mmpi_rank_phase(r) == MMPI_PHASE_INITIALIZED ||
           __atomic_load_n(&r->sessions, __ATOMIC_ACQUIRE) > 0;
}

/* Whether the end of r is no failure for its peers: it finalized the World Model and holds no
 * session, or it only ever used sessions, closed them all, and ends of its own accord (a kill
 * between two sessions is a failure: the rank could have come back). */
static inline bool mmpi_rank_left_mpi(const struct mmpi_rank *r, bool killed)
{
    if (__atomic_load_n(&r->sessions, __ATOMIC_ACQUIRE) > 0)
        return false;
    int phase = mmpi_rank_phase(r);
    return phase == MMPI_PHASE_FINALIZED ||
           (phase == MMPI_PHASE_STARTED && !killed &&
            __atomic_load_n(&r->session_used, __ATOMIC_ACQUIRE));
}

/* ---- Waiting (runtime/wait.c) ---------------------------------------------------------- */

/* Wakes every thread of `rank` sleeping in mmpi_wait_until, so it re-checks its condition. */
void mmpi_rank_wake(struct mmpi_rank *rank);
/* Wakes every rank (a failure or revoke may concern anyone). */
void mmpi_world_wake_all(struct mmpi_world *world);
/* Waits until ready(arg) is true: a short spin, then sleep on self->wake_word. Whoever changes
 * what ready() reads must call mmpi_rank_wake(self) afterwards. Unwinds if self fails. May
 * block. */
void mmpi_wait_until(struct mmpi_rank *self, bool (*ready)(void *arg), void *arg);
/* The same, with a describer of what is awaited, which the hang report prints (thread.h). */
void mmpi_wait_until_described(struct mmpi_rank *self, bool (*ready)(void *arg), void *arg,
                               mmpi_wait_describe_fn *describe);

double mmpi_now(void); /* CLOCK_MONOTONIC seconds */

#endif
