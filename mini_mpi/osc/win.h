/*
 * osc/win.h: windows (MPI-4.1 chapter 12), the internal interface of one-sided communication.
 *
 * Theory of operation. Every rank is a thread of one process, so a window is memory every member
 * can load and store: a put is a typed copy into the target's memory, a get a typed copy out of
 * it, an accumulate a copy combined by the op/ kernels, and every operation is complete at the
 * target when its call returns (MPI_Win_flush is a memory fence, the model is MPI_WIN_UNIFIED).
 * What remains is synchronization, which this subsystem keeps exactly:
 *
 *  - A window has one shared core (struct mmpi_win_core: the members' memory, the passive-target
 *    lock state of each target, the PSCW counters) and, per member, one handle object (struct
 *    mmpi_win: error handler, name, attributes, hints, and the member's epochs),
 *    docs/design.md "Handles and shared cores".
 *  - Fence and MPI_Win_free synchronize with MPI_Barrier's algorithm (coll/fast.h, board.h)
 *    on a private duplicate of the creating communicator, so a fence is a barrier with the
 *    barrier's failure rules and the `kill R during MPI_Win_fence#N` cut rule.
 *  - PSCW: post adds one to posted[origin][target] for each origin of its group and wakes it;
 *    an origin's first access to a target of its start group (or its complete) waits for and
 *    consumes one such post, so MPI_Win_start itself never blocks; complete adds one to
 *    completed[target][origin]; wait/test consume one per origin of the exposure group.
 *  - Passive target: each target's lock is OWNER-TRACKED (lock.c): who holds it exclusive,
 *    which members hold it shared, who waits and for what, all under the target's small mutex,
 *    which is never held across a wait; an uncontended exclusive lock is one compare-and-swap
 *    of a word that names its holder, moved into the record as soon as anyone else looks. A
 *    waiter sleeps (runtime/rank.h) and is woken by every release; it stops waiting with
 *    MPI_ERR_PROC_FAILED when a holder it waits for has failed, so a dead holder never blocks
 *    anyone forever (win_fault.c answers "has it failed").
 *  - Accumulates at one target are serialized by that target's accumulate mutex, held only
 *    while the data is combined (no wait, no MPI entry, no user code inside): element-wise
 *    atomicity among accumulate, get_accumulate, fetch_and_op and compare_and_swap, in the order
 *    they are issued (every accumulate_ordering the program may ask for).
 *
 * Files: create.c (creation and free, collective), attach.c (dynamic memory), win_api.c (window
 * entry points), attr_api.c (attributes, keyvals, names, hints, error handlers), move.c and
 * move_api.c (data movement), sync.c and sync_api.c (fence, PSCW, flush, sync), lock.c
 * (passive-target locks), win_fault.c (failure queries, the sticky rule, the death hook,
 * poisoning, reclaim), revoke_api.c (MPIX_Win_revoke, MPIX_Win_get_failed).
 */
#ifndef MMPI_OSC_WIN_H
#define MMPI_OSC_WIN_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "mmpi.h"

struct mmpi_attr;
struct mmpi_datatype;
struct mmpi_fault_ops;
struct mmpi_win_wlog;
struct mmpi_info;
struct mmpi_op;

/* Lock state of one origin at one target (holds[], waits[], and the origin's locks[]). */
enum { MMPI_WIN_UNLOCKED = 0, MMPI_WIN_SHARED = 1, MMPI_WIN_EXCLUSIVE = 2 };
/* In an origin's locks[]: the lock was taken with MPI_MODE_NOCHECK (nothing acquired). */
#define MMPI_WIN_NOCHECK 0x80

/* mmpi_win_target.lock_word: the record (holds, waits, exposure, a failed holder) is in use. */
#define MMPI_WIN_LOCK_RECORD 0x80000000u

/* Whether a locked read-modify-write is also a full memory fence (on x86 every locked
 * instruction is): a lock's release then completes the epoch's accesses without a fence of
 * its own. */
#if defined(__x86_64__) || defined(__i386__)
#define MMPI_LOCKED_RMW_FENCES 1
#else
#define MMPI_LOCKED_RMW_FENCES 0
#endif

/* Memory attached to a dynamic window (MPI_Win_attach). */
struct mmpi_win_region {
    char *base;
    MPI_Aint size;
    struct mmpi_win_region *next;
};

/* One member's side of the window. */
struct mmpi_win_target {
    char *base;                /* immutable (NULL for dynamic windows) */
    MPI_Aint size;             /* immutable */
    MPI_Aint disp_unit;        /* immutable; MPI_Win_create_c's is an MPI_Aint */
    int world_rank;            /* immutable */
    pthread_mutex_t acc_lock;  /* accumulate atomicity at this target; held only while the
                                * data is combined, never across a wait */
    uint32_t acc_locked;       /* atomic: acc_lock holders past their announcement (atomic.c) */
    uint32_t atomic_used;      /* atomic: an atomic-instruction accumulate ran here (atomic.c) */
    uint32_t lock_word;        /* atomic, the lock's one-word form (lock.c): 0 free, m + 1
                                * member m holds it exclusive, MMPI_WIN_LOCK_RECORD: the
                                * record below is the lock's state */
    pthread_mutex_t lock;      /* protects everything below; never held across a wait */
    int exclusive;             /* member holding the exclusive lock, or -1 */
    int nshared;               /* members holding a shared lock */
    uint8_t *holds;            /* [size]: MMPI_WIN_SHARED/EXCLUSIVE held by each member */
    uint8_t *waits;            /* [size]: the lock type each member waits for, or 0 */
    uint8_t failed_hold;       /* strongest lock type a member held here when it failed, or
                                * 0: later requests that conflict with it raise (lock.c) */
    int failed_holder;         /* the member that held it (for the failure notice), or -1 */
    struct mmpi_win_wlog *wlog;/* MINI_MPI_POISON: what was written here in open epochs
                                * (win_fault.c); NULL when nothing is logged */
    bool exposed;              /* in a PSCW exposure epoch (post to wait/test): locking it
                                * then, or posting while it is locked, is MPI_ERR_RMA_CONFLICT */
    struct mmpi_win_region *regions; /* dynamic windows: attached memory, newest first */
};

/* A member's announcement of its atomic-instruction accumulate (atomic.c), a line each. */
struct mmpi_win_acc_slot {
    uint32_t target; /* atomic: the target's member number + 1 while one runs, else 0 */
    char pad[60];
};

struct mmpi_win_core {
    uint64_t id;               /* immutable: for reports */
    int flavor;                /* immutable: MPI_WIN_FLAVOR_* */
    int size;                  /* immutable: members */
    struct mmpi_win_target *targets; /* immutable array [size] */
    void **blocks;             /* immutable [size]: memory Win_allocate made per member, or
                                * NULL; freed with the core */
    void *shared_block;        /* immutable: Win_allocate_shared's one block, freed with the core */
    uint32_t *posted;          /* [size*size] atomic: posted[o*size+t]: posts of t to o not yet
                                * consumed by o's access epoch */
    uint32_t *completed;       /* [size*size] atomic: completed[t*size+o]: completes of o to t
                                * not yet consumed by t's wait/test */
    int refcount;              /* atomic: member handles not yet freed */
    struct mmpi_win_acc_slot *acc_slots; /* immutable array [size], 64-byte aligned (atomic.c) */
    int *world_ranks;          /* immutable [size]: member -> world rank, for the fault core */
    struct mmpi_fault_core fault; /* registered while the core lives (fault/fault.h): revoke,
                                   * failed members; linked to the private communicator's core
                                   * so that a revoked window's fence and free end at once */
};

/* Epoch kinds a logged write belongs to (win_fault.c). */
enum { MMPI_WIN_EPOCH_FENCE = 1, MMPI_WIN_EPOCH_PSCW = 2, MMPI_WIN_EPOCH_LOCK = 3 };

/* One PSCW access target of the calling member: whether its post was consumed. */
struct mmpi_win_access {
    int rank;
    bool ready;
};

/* A member's handle object. Everything is the owning rank's. */
struct mmpi_win {
    struct mmpi_win_core *core;          /* immutable; one reference */
    struct mmpi_comm *comm;              /* immutable: private duplicate of the creating
                                          * communicator (no handle): fence and free */
    int rank;                            /* immutable: my rank in the window */
    MPI_Win handle;                      /* immutable */
    struct mmpi_errhandler *errhandler;  /* one reference */
    char name[MPI_MAX_OBJECT_NAME];
    struct mmpi_attr *attrs;             /* attr/attr.h list */
    struct mmpi_info *info;              /* hints the program set; NULL: none */
    /* What the predefined attributes point to (§12.2.6). */
    void *attr_base;
    MPI_Aint attr_size;
    int attr_disp_unit, attr_flavor, attr_model;
    /* Epochs. */
    bool fence;                          /* a fence opened an epoch (not NOSUCCEED) */
    struct mmpi_win_access *access;      /* PSCW access group (Win_start), or NULL */
    int naccess;
    int *exposure;                       /* PSCW exposure group (Win_post), or NULL */
    int nexposure;
    uint8_t *locks;                      /* [size]: lock held at each target | NOCHECK */
    int nlocks;                          /* targets locked with MPI_Win_lock */
    bool lock_all;                       /* MPI_Win_lock_all epoch */
    int lock_all_nocheck;                /* ... taken with MPI_MODE_NOCHECK */
    uint64_t fences;                     /* fences this member completed (the epoch number
                                          * of its writes in a fence epoch, win_fault.c) */
    bool proc_failed;                    /* sticky: a call on this window raised
                                          * MPI_ERR_PROC_FAILED here; every later one does
                                          * (win_fault.c), until the window is freed */
};

/* ---- Handles and errors (create.c) --------------------------------------------------- */

/* The calling rank's window behind a handle, or NULL (then MPI_ERR_WIN). */
static inline struct mmpi_win *mmpi_win_get(struct mmpi_rank *self, MPI_Win handle)
{
    return mmpi_handle_lookup(self, MMPI_HANDLE_KIND_WIN, handle);
}
/* The world rank of window member r. */
static inline struct mmpi_rank *mmpi_win_peer(const struct mmpi_win *w, int r)
{
    return mmpi_world->ranks[w->core->targets[r].world_rank];
}

/* ---- Creation and free (create.c). Collective over comm; may block. ---------------- */

/* Creates the calling member's window of `flavor`: for MPI_WIN_FLAVOR_CREATE over (base,
 * size), for ALLOCATE and SHARED over memory it allocates (*base receives it), for DYNAMIC over
 * nothing. Returns an MPI error class; on success *out is registered (its handle set). */
int mmpi_win_create(struct mmpi_rank *self, struct mmpi_comm *comm, int flavor, void **base,
                    MPI_Aint size, MPI_Aint disp_unit, struct mmpi_info *info,
                    struct mmpi_win **out);
/* MPI_Win_free: MPI_ERR_RMA_SYNC with an epoch open, or a delete callback's error (nothing
 * freed then); else synchronizes every member and frees w (*freed true), returning what the
 * synchronization reports. */
int mmpi_win_free(struct mmpi_rank *self, struct mmpi_win *w, bool *freed);

/* Frees the member's handle object and its reference on the core (the last one frees the
 * core), without synchronizing: the tail of mmpi_win_free, and reclaim. The handle must
 * already be out of the rank's table. */
void mmpi_win_handle_free(struct mmpi_rank *self, struct mmpi_win *w);

/* ---- Dynamic windows (attach.c) ---------------------------------------------------- */

/* MPI_Win_attach / MPI_Win_detach on the calling member: MPI_ERR_RMA_FLAVOR (not dynamic),
 * MPI_ERR_SIZE (negative, or past the end of the address space), MPI_ERR_RMA_ATTACH (overlap;
 * detach of memory not attached). Take the member's target mutex. */
int mmpi_win_attach(struct mmpi_win *w, void *base, MPI_Aint size);
int mmpi_win_detach(struct mmpi_win *w, const void *base);
/* Whether attached regions of t cover [lo, hi). Takes t->lock. Any thread. */
bool mmpi_win_covered(struct mmpi_win_target *t, const char *lo, const char *hi);

/* ---- Data movement (move.c). Each returns an MPI error class. ------------------------- */

/* The origin side of a transfer, or the result side of a fetching one. */
struct mmpi_win_buf {
    void *buf;
    size_t count;
    const struct mmpi_datatype *dt;
};
/* Displacement arithmetic. Every product and sum that locates target memory is checked: one
 * that overflows names no memory of the window (MPI_ERR_RMA_RANGE), never memory that a
 * wrapped result happens to land in. */
/* *off = disp * unit (a static window's byte offset of disp), unless it overflows. */
static inline bool mmpi_win_byte_offset(MPI_Aint disp, MPI_Aint unit, MPI_Aint *off)
{
    return !__builtin_mul_overflow(disp, unit, off);
}
/* Whether bytes [off + lo, off + hi) lie in [0, size), their bounds not overflowing. */
static inline bool mmpi_win_fits(MPI_Aint off, MPI_Aint lo, MPI_Aint hi, MPI_Aint size)
{
    MPI_Aint a, b;
    return !__builtin_add_overflow(off, lo, &a) && !__builtin_add_overflow(off, hi, &b) &&
           a >= 0 && b <= size;
}
/* The bytes [lo, hi) that count (> 0) elements of dt touch, relative to the address of element
 * 0; false when they do not fit in an MPI_Aint. Any thread. */
bool mmpi_win_span(const struct mmpi_datatype *dt, size_t count, MPI_Aint *lo, MPI_Aint *hi);
/* What mmpi_win_target_addr returns when the target has failed (its death is published, or
 * its PSCW post can never come): the operation moves no data and raises nothing; the
 * synchronization call that ends the epoch reports MPI_ERR_PROC_FAILED (a request-based
 * operation reports it at its completion). Never an MPI error class. */
#define MMPI_WIN_TARGET_FAILED (-4)
/* Checks the access epoch (MPI_ERR_RMA_SYNC), waits for a PSCW post if needed, and resolves
 * the target's memory for (disp, tcount, tdt): MPI_ERR_REVOKED, MPI_ERR_PROC_FAILED (sticky),
 * MPI_ERR_RMA_RANGE outside the window or when the arithmetic overflows, MPI_ERR_DISP for a
 * negative displacement, MMPI_WIN_TARGET_FAILED (above). `passive`:
 * request-based calls, which need a passive-target epoch. May block (PSCW). */
int mmpi_win_target_addr(struct mmpi_rank *self, struct mmpi_win *w, int target, MPI_Aint disp,
                         size_t tcount, const struct mmpi_datatype *tdt, bool passive,
                         char **addr);
int mmpi_win_put(struct mmpi_win *w, int target, const struct mmpi_win_buf *origin, char *taddr,
                 size_t tcount, const struct mmpi_datatype *tdt);
int mmpi_win_get_data(struct mmpi_win *w, int target, const struct mmpi_win_buf *origin,
                      char *taddr, size_t tcount, const struct mmpi_datatype *tdt);
/* Accumulate with result (NULL: MPI_Accumulate), op predefined (checked by the caller). */
int mmpi_win_accumulate(struct mmpi_win *w, int target, const struct mmpi_win_buf *origin,
                        const struct mmpi_win_buf *result, char *taddr, size_t tcount,
                        const struct mmpi_datatype *tdt, const struct mmpi_op *op);
int mmpi_win_compare_and_swap(struct mmpi_win *w, int target, const void *origin,
                              const void *compare, void *result,
                              const struct mmpi_datatype *dt, char *taddr);

/* ---- Accumulate atomicity (atomic.c) ---------------------------------------------------- */

/* The target's accumulate mutex, taken and given back with the rule that keeps the atomic
 * instructions below atomic with respect to what it covers. */
void mmpi_win_acc_lock(struct mmpi_win_core *core, int target);
void mmpi_win_acc_unlock(struct mmpi_win_core *core, int target);
/* The accumulate (arguments of mmpi_win_accumulate) as one atomic instruction: true when
 * done, false when it is not one aligned element of a 4- or 8-byte predefined type, or a
 * mutex holder is at the target (then nothing happened: take the mutex path). */
bool mmpi_win_acc_atomic(struct mmpi_win *w, int target, const struct mmpi_win_buf *origin,
                         const struct mmpi_win_buf *result, char *taddr, size_t tcount,
                         const struct mmpi_datatype *tdt, const struct mmpi_op *op);
/* The same for a compare-and-swap (arguments of mmpi_win_compare_and_swap). */
bool mmpi_win_cas_atomic(struct mmpi_win *w, int target, const void *origin,
                         const void *compare, void *result, const struct mmpi_datatype *dt,
                         char *taddr);

/* ---- Synchronization (sync.c, lock.c). Each returns an MPI error class. Their arguments
 * are checked by the bindings (sync_api.c): an assertion of known bits only, a lock type
 * MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED, a target that is a member (MPI_PROC_NULL is the
 * binding's: no effect), ranks of a group that are all members. ---------------------------- */

/* A barrier of the window's members (fence, free): MPI_SUCCESS or MPI_ERR_PROC_FAILED. */
int mmpi_win_barrier(struct mmpi_rank *self, struct mmpi_win *w);
int mmpi_win_fence(struct mmpi_rank *self, struct mmpi_win *w, int assert);
/* ranks (malloc'ed, n members' window ranks): taken over, freed on error too. */
int mmpi_win_start(struct mmpi_rank *self, struct mmpi_win *w, int *ranks, int n);
int mmpi_win_complete(struct mmpi_rank *self, struct mmpi_win *w);
int mmpi_win_post(struct mmpi_rank *self, struct mmpi_win *w, int *ranks, int n);
/* flag NULL: MPI_Win_wait (blocks); else MPI_Win_test. */
int mmpi_win_wait(struct mmpi_rank *self, struct mmpi_win *w, int *flag);
/* Waits for (and consumes) the post of access target i. May block. */
int mmpi_win_access_ready(struct mmpi_rank *self, struct mmpi_win *w, int i);

int mmpi_win_lock(struct mmpi_rank *self, struct mmpi_win *w, int type, int target, int assert);
int mmpi_win_unlock(struct mmpi_rank *self, struct mmpi_win *w, int target);
int mmpi_win_lock_all(struct mmpi_rank *self, struct mmpi_win *w, int assert);
int mmpi_win_unlock_all(struct mmpi_rank *self, struct mmpi_win *w);
/* Releases every lock w's member holds on the core (the rank is freeing the window or gone). */
void mmpi_win_locks_drop(struct mmpi_win *w);
/* Call with t->lock, before reading or changing t's lock record: moves an exclusive hold of
 * the one-word form into the record, which stays the lock's state from then on. */
void mmpi_win_lock_record_open(struct mmpi_win_target *t);
/* Call with t->lock, after changing t's lock record: when it holds nothing any more (no
 * holder, waiter, exposure or failed holder), gives the lock back to its one-word form. */
void mmpi_win_lock_record_close(struct mmpi_win_target *t, int size);

/* Whether the member has any epoch open (Win_free's check). */
bool mmpi_win_epoch_open(const struct mmpi_win *w);

/* ---- Process failures (win_fault.c) -------------------------------------------------- */

/* Every question one-sided communication asks about failures, in one place, answered by the
 * fault layer (fault/fault.h). Nothing else in osc/ reads a rank's failure state. */

/* Whether window member r has failed (its death is published). A waiter that waits for r
 * (a lock r holds, r's post or complete) stops waiting with MPI_ERR_PROC_FAILED once this is
 * true. Any thread; lock-free. */
bool mmpi_osc_member_failed(const struct mmpi_win_core *core, int r);

/* Records that the calling rank was told (by an MPI_ERR_PROC_FAILED from a window call) that
 * member r failed, as every other subsystem records what it reports. Owning rank only. */
void mmpi_osc_member_reported(struct mmpi_rank *self, const struct mmpi_win_core *core, int r);

/* Whether some member of the window has failed; the calling rank is then told of each failed
 * member (an unlock_all or flush_all reports them). Owning rank only; lock-free. */
bool mmpi_osc_any_member_failed(struct mmpi_rank *self, const struct mmpi_win_core *core);

/* The sticky rule of process failures on a window (Process Fault Tolerance, one-sided
 * sections): once a call on w raised MPI_ERR_PROC_FAILED at this process, every later call on
 * w here raises it too, until w is freed ("all subsequent operations on the lock must raise
 * MPI_ERR_PROC_FAILED"), or MPI_ERR_REVOKED once w is revoked: revocation wins. Filters a
 * call's result err (w may be NULL: no window): MPI_SUCCESS and MPI_ERR_RMA_SYNC (the epoch
 * the failure kept from opening) become the sticky class; other errors stay. Calls that end
 * an epoch still end it and then report. Owning rank only. */
int mmpi_osc_sticky(struct mmpi_win *w, int err);
/* Before a call that opens an epoch (Win_lock, Win_lock_all, Win_start, Win_post): the
 * sticky class when the rule above applies (the call then opens nothing), else MPI_SUCCESS.
 * Owning rank only. */
int mmpi_osc_epoch_refused(const struct mmpi_win *w);

/* The window's fault-core hooks (on_death: a dead member's locks are released and marked,
 * its passive-target writes poisoned). */
extern const struct mmpi_fault_ops mmpi_win_fault_ops;
/* Whether the calling member's writes must be logged (MINI_MPI_POISON=1). */
bool mmpi_win_poison_on(void);
/* Logs a write (put, accumulate, fetch-and-op or compare-and-swap that may store) of
 * (taddr, tcount, tdt) at target by w's member in its current epoch. Takes the target mutex. */
void mmpi_win_log_write(struct mmpi_win *w, int target, char *taddr, size_t tcount,
                        const struct mmpi_datatype *tdt);
/* The calling member's epoch of `kind` ended at its own memory (fence: writes of fence epoch
 * `seq` by anyone; PSCW: writes of the exposure epoch's origins) or at the targets it
 * accessed (LOCK: its own writes at target `seq`, or at every target for UINT64_MAX; also
 * called by a successful flush); err is what the ending call reports: on MPI_ERR_PROC_FAILED
 * the logged bytes are poisoned, either way they leave the log. */
void mmpi_win_epoch_ended(struct mmpi_win *w, int kind, uint64_t seq, int err);
/* Frees a window member's handle object without synchronizing (its rank failed, or the world
 * ends): the window's reclaim (runtime/kind.h), which mmpi_handles_reclaim calls. No thread
 * of the world runs. */
void mmpi_win_reclaim(struct mmpi_rank *r, struct mmpi_win *w);
/* Frees a target's write log (core destruction). */
void mmpi_win_wlog_free(struct mmpi_win_target *t);
/* Watchdog and deadlock report line of a window member: epochs and locks. */
void mmpi_win_state_describe(const struct mmpi_win *w, char *buf, size_t len);

/* Hang-report text of a window: its name or id and size. */
void mmpi_win_describe(const struct mmpi_win *w, char *buf, size_t len);

#endif
