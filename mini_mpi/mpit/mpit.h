/*
 * mpit/mpit.h: the tool information interface's internal contract: the hooks the rest of the
 * library calls (counters, queue levels, events) and what the mpit/ files share among
 * themselves (per-rank state, the tables of variables and events, string rules).
 *
 * Theory of operation. Every rank is a process for MPI_T: it has its own initialization count,
 * handles, sessions and event registrations (struct mmpi_mpit_rank, made on first use and freed
 * with the rank); a thread outside any rank (a tool's helper thread in the launcher) gets one
 * shared state of its own. Control variables are the job's run-time settings, one value for the
 * whole job (scope ALL_EQ when writable). Performance counters are kept per thread, in a block
 * only that thread writes (a plain relaxed add, no shared cache line, no atomic read-modify-write
 * on the fast path), and a read sums the blocks of the rank's threads: a value read where the
 * program knows the count (after the calls it counts returned) is exact. Queue levels change
 * under the queue's own lock, by whichever rank's thread holds it, so they are per-rank atomic
 * words. Events are queued to the rank they concern (the observer) under its state's lock and
 * delivered by mmpi_mpit_dispatch at a point where the observer's thread holds no library lock:
 * before an error handler runs (mmpi_err_invoke), in a blocking wait's sleep loop, and at each
 * MPI_T call; the hang report delivers its event on the monitor thread to thread-safe callbacks.
 */
#ifndef MMPI_MPIT_MPIT_H
#define MMPI_MPIT_MPIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "mpi.h"

struct mmpi_rank;
struct mmpi_fault_core;
struct mmpi_mpit_rank;

/* ---- Counters: the hot-path hooks --------------------------------------------------------- */

enum mmpi_pvar_counter {
#define MMPI_COUNTER(id, name, desc) MMPI_PVAR_##id,
#include "mpit/counters.def"
#undef MMPI_COUNTER
    MMPI_PVAR_NCOUNTERS
};

/* Collective calls by the path that served them: per operation (coll_ops.def), per form and
 * per path, one counter each, after the named ones in a thread's block. */
enum mmpi_coll_op {
#define MMPI_COLL_OP(id, name) MMPI_COLLOP_##id,
#include "mpit/coll_ops.def"
#undef MMPI_COLL_OP
    MMPI_NCOLL_OPS
};
enum mmpi_coll_form {
    MMPI_COLLFORM_BLOCKING,
    MMPI_COLLFORM_NONBLOCKING,
    MMPI_COLLFORM_PERSISTENT,
    MMPI_NCOLL_FORMS
};
/* The paths, in the order of each variable's elements (docs/tools-interface.md): fast.c's
 * per-member lines, crowd.c's shared counter, the board of an intracommunicator (engine.c,
 * barrier.c), an intercommunicator's bridge board (coll/inter.h). */
enum mmpi_coll_path {
    MMPI_COLLPATH_FAST,
    MMPI_COLLPATH_CROWD,
    MMPI_COLLPATH_BOARD,
    MMPI_COLLPATH_INTER,
    MMPI_NCOLL_PATHS
};
#define MMPI_PVAR_NSLOTS \
    (MMPI_PVAR_NCOUNTERS + MMPI_NCOLL_OPS * MMPI_NCOLL_FORMS * MMPI_NCOLL_PATHS)
/* The slot of a collective's first path counter. */
#define MMPI_PVAR_COLL_SLOT(op, form) \
    (MMPI_PVAR_NCOUNTERS + ((op)*MMPI_NCOLL_FORMS + (form)) * MMPI_NCOLL_PATHS)
/* The most elements a performance variable has (one per path). */
#define MMPI_PVAR_MAX_COUNT MMPI_NCOLL_PATHS

/* One thread's counters: written only by that thread (relaxed stores), read by any. Freed
 * with its rank's MPI_T state. */
struct mmpi_pvar_block {
    uint64_t v[MMPI_PVAR_NSLOTS];
    struct mmpi_pvar_block *next;    /* immutable once linked into the rank's list */
};

extern __thread struct mmpi_pvar_block *mmpi_pvar_tls __attribute__((tls_model("initial-exec")));

/* The calling thread's block, made and linked on first use; NULL outside ranks. */
struct mmpi_pvar_block *mmpi_pvar_block_attach(void);

/* Adds n to one of the calling thread's counters. Any thread of a rank; a thread that belongs
 * to no rank counts nothing. */
static inline void mmpi_pvar_add(int k, uint64_t n)
{
    struct mmpi_pvar_block *b = mmpi_pvar_tls;
    if (__builtin_expect(!b, 0) && !(b = mmpi_pvar_block_attach()))
        return;
    __atomic_store_n(&b->v[k], __atomic_load_n(&b->v[k], __ATOMIC_RELAXED) + n,
                     __ATOMIC_RELAXED);
}

/* One point-to-point message sent, of `bytes`; returns true (for `return push(...) && ...`). */
static inline bool mmpi_pvar_sent(uint64_t bytes)
{
    mmpi_pvar_add(MMPI_PVAR_MSGS_SENT, 1);
    mmpi_pvar_add(MMPI_PVAR_BYTES_SENT, bytes);
    return true;
}
static inline void mmpi_pvar_received(uint64_t bytes)
{
    mmpi_pvar_add(MMPI_PVAR_MSGS_RECEIVED, 1);
    mmpi_pvar_add(MMPI_PVAR_BYTES_RECEIVED, bytes);
}

/* One collective call of `op` (enum mmpi_coll_op) in `form`, served by `path`: counted where
 * the path is chosen, once per call (or persistent activation) that passed its checks. */
static inline void mmpi_pvar_coll(int op, int form, int path)
{
    mmpi_pvar_add(MMPI_PVAR_COLL_SLOT(op, form) + path, 1);
}

/* A receive completed for the program: counts one message and its bytes when it received one
 * (not MPI_PROC_NULL, not cancelled, no error). */
void mmpi_pvar_recv_status(const MPI_Status *st, int error);
/* The same for a completed point-to-point request (other kinds are ignored). */
struct mmpi_request;
void mmpi_pvar_request_done(const struct mmpi_request *req);

/* ---- Queue levels: per rank, changed under the queue's lock by any rank ----------------- */
enum mmpi_pvar_level { MMPI_LEVEL_UNEXPECTED, MMPI_LEVEL_POSTED, MMPI_NLEVELS };
/* Adds delta (+1 or -1) to the level of world rank `owner`; the unexpected queue also keeps
 * its high watermark. */
void mmpi_pvar_level_add(int owner, enum mmpi_pvar_level level, int delta);
/* Messages in a per-sender channel (pt2pt/chan.h) are unexpected too, but counting them as
 * they come and go would put a shared atomic on the channels' path: instead each mailbox with
 * channels is listed in its receiver's state (add: the first channel, under the mailbox's
 * lock; remove: before its channels are freed), and a read of the level counts what they hold
 * (mmpi_chan_held). */
struct mmpi_mbox;
void mmpi_pvar_chan_box(int owner, struct mmpi_mbox *box, bool add);
/* The unexpected level of st now: the queues' count and the channels' messages; raises the
 * high watermark to it. st->lock held. */
int64_t mmpi_mpit_unexpected_now(struct mmpi_mpit_rank *st);

/* ---- Events ------------------------------------------------------------------------------- */
enum mmpi_mpit_event {
#define MMPI_EVENT(id, name, source, desc, elements) MMPI_EVENT_##id,
#include "mpit/events.def"
#undef MMPI_EVENT
    MMPI_NEVENTS
};

/* Raise points. None runs a callback: each queues an instance to the observer(s), which get it
 * at their next dispatch point. Safe under any library lock. */
void mmpi_mpit_failure_noticed(struct mmpi_rank *observer, int failed_world_rank);
void mmpi_mpit_revoked(const struct mmpi_fault_core *fc);
/* An error of class MPI_ERR_PROC_FAILED(_PENDING) or MPI_ERR_REVOKED is about to be reported
 * to self on an object (errhan/: object kind as enum mmpi_errhandler_object, the handle). */
void mmpi_mpit_error_reported(struct mmpi_rank *self, int object_kind, int handle, int errcode);
void mmpi_mpit_injected_death(const struct mmpi_rank *victim);
/* The hang monitor found a deadlock (called with no lock held, on the monitor thread, before
 * the job ends): delivers the event now to every thread-safe callback registered for it. */
void mmpi_mpit_hang_detected(void);

/* Delivers the calling rank's queued events. `level`: what the calling point allows
 * (MPI_T_CB_REQUIRE_NONE where a callback may call MPI, MPI_T_CB_REQUIRE_MPI_RESTRICTED inside
 * an operation). Call only with no library lock held. Cheap when nothing is queued. */
void mmpi_mpit_dispatch(struct mmpi_rank *self, int level);
/* The same for any state (the hang report delivers on the monitor's thread). */
void mmpi_mpit_deliver(struct mmpi_mpit_rank *st, int level);
/* Event timestamps: nanoseconds of CLOCK_MONOTONIC (source 0's ticks). */
uint64_t mmpi_mpit_now_ns(void);

/* ---- Per-rank state (mpit/state.c) -------------------------------------------------------- */
struct mmpi_mpit_rank {
    pthread_mutex_t lock;            /* protects what is below but the counters; never held
                                      * while user code runs */
    struct mmpi_rank *rank;          /* immutable: owner, NULL for the outside state */
    int init_count;                  /* MPI_T_init_thread minus MPI_T_finalize calls */
    struct mmpi_pvar_block *blocks;  /* atomic head: the rank's threads' counters */
    int64_t level[MMPI_NLEVELS];     /* atomic: queue levels */
    int64_t unexpected_hwm;          /* atomic: highest unexpected level seen */
    uint64_t revocations;            /* atomic: revoked objects this rank is a member of */
    uint64_t failures_noticed;       /* atomic: failed ranks this rank has been told of */
    struct mmpi_mbox **chan_boxes;   /* lock: its mailboxes with channels (mmpi_pvar_chan_box) */
    int nchan_boxes, chan_boxes_cap; /* lock */
    struct MPIR_T_cvar_handle_s *cvar_handles;       /* lock: mpit/objects.h */
    struct MPIR_T_pvar_session_s *sessions;          /* lock */
    struct MPIR_T_event_registration_s *registrations; /* lock */
    int npending;                    /* atomic: instances queued, not yet delivered */
    int nregistered[MMPI_NEVENTS];   /* atomic: registrations per event (raise skips none) */
    bool dispatching;                /* a dispatch runs on one of its threads */
};

/* The state of `r` (NULL: the outside state), made on first use; never NULL. */
struct mmpi_mpit_rank *mmpi_mpit_state_of(struct mmpi_rank *r);
/* Its state if made already, else NULL. */
struct mmpi_mpit_rank *mmpi_mpit_state_peek(const struct mmpi_rank *r);
/* The calling thread's state, and whether MPI_T is initialized there: MPI_SUCCESS or
 * MPI_T_ERR_NOT_INITIALIZED. Every MPI_T entry but init starts here; it also delivers the
 * thread's queued events (no lock is held at an MPI_T entry). */
int mmpi_mpit_enter(struct mmpi_mpit_rank **st);
/* The first line of those entries: declares st, returns the error when MPI_T is not
 * initialized. */
#define MMPI_MPIT_ENTER(st)                       \
    struct mmpi_mpit_rank *st;                    \
    do {                                          \
        int enter_err_ = mmpi_mpit_enter(&st);    \
        if (enter_err_)                           \
            return enter_err_;                    \
    } while (0)
/* The whole of the *_get_num calls: *num = n. */
int mmpi_mpit_get_num(int *num, int n);
/* The whole of the *_get_index calls: the index of the one of n items called name (name_of
 * gives item i's name), or MPI_T_ERR_INVALID_NAME. */
int mmpi_mpit_get_index(const char *name, int *index, int n, const char *(*name_of)(int));
/* Frees a rank's state with the rank (ranks_as_threads.c). */
void mmpi_mpit_rank_free(struct mmpi_rank *r);

/* ---- Strings and names (mpit/strings.c) -------------------------------------------------- */
/* MPI-4.1 §15.3.3: copies src into buf of *len bytes (truncated, terminated) and sets *len to
 * the length written including the terminator; with buf NULL or *len 0 only sets *len to the
 * full length plus one. len NULL: nothing at all. */
void mmpi_mpit_copy_string(const char *src, char *buf, int *len);

/* ---- Tables shared by the API files ------------------------------------------------------- */
/* Enumerations: MPI_T_enum values point into one static table (mpit/enum_api.c). */
struct MPIR_T_enum_s {
    const char *name;
    int nitems;
    const char *const *items;        /* item i has value i */
};
enum mmpi_mpit_enum_id { MMPI_ENUM_OBJECT_KIND, MMPI_ENUM_FT, MMPI_ENUM_EXIT_STATUS,
                         MMPI_NENUMS };
extern const struct MPIR_T_enum_s mmpi_mpit_enums[MMPI_NENUMS];

/* Value of a per-rank counter or level as one pvar read sees it: the sum over the rank's
 * thread blocks. */
uint64_t mmpi_mpit_counter_sum(struct mmpi_mpit_rank *st, int k);

#endif
