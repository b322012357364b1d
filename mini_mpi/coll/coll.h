/*
 * coll/coll.h: the collective engine: one protocol on the board (board.h) that every collective
 * of MPI-4.1 chapter 6 except the barrier (barrier.c) runs, blocking and nonblocking alike, plus
 * the implementation functions the entry points (*_api.c) call.
 *
 * Theory of operation. Each member fills a struct mmpi_coll describing its part (buffers,
 * counts, types, op, root) and deposits a pointer to it on the board under the communicator's
 * next collective number (c->coll_seq, shared with the barrier and the nonblocking forms, since
 * MPI requires the same order at every member, §6.12). The last member to arrive runs the
 * collective's *combine* step under the board lock, which picks the mode for everybody:
 *
 *   SNAPSHOT  the combine copies (or reduces) all the data into inst->result. Members copy
 *             their output from there and leave: one synchronization, nobody reads anybody's
 *             buffers afterwards. Used for small data and, up to a large cap, for every
 *             nonblocking collective, so that a nonblocking collective never waits for another
 *             member to poll (its completion depends only on the others' *calls*).
 *   DIRECT    members read each other's buffers directly ("copied once, by the reader"), then
 *             depart and, when someone may still be reading their own buffers, wait until every
 *             live member has departed. A `finish` step after the departure wait lets a member
 *             write output it had to keep aside while the others still read its buffers
 *             (MPI_IN_PLACE alltoall, reduce_scatter, scan).
 *   SHARED    (large reductions) the combine allocates inst->result; every member reduces its
 *             own slice of the elements from all inputs into it, departs, waits for everybody,
 *             then copies out what it needs: 2 synchronizations and n-fold parallel work.
 *
 * Errors and failures (docs/design.md "The fault layer"). A member whose arrival wait fails either
 * returns at once or,
 * when the collective turned out to complete anyway, takes part in the departure; see
 * engine.c "On process failure". Members that see the communicator revoked after completion
 * read nothing and report MPI_ERR_REVOKED. The combine step never touches a deposit once the
 * communicator is revoked.
 *
 * Intercommunicators run their own algorithms (coll/inter.h) on the bridge board over both
 * groups (comm/intercomm.h); rank and size of a part are then bridge rank and size.
 */
#ifndef MMPI_COLL_COLL_H
#define MMPI_COLL_COLL_H

#include <stdbool.h>
#include <stddef.h>

#include "api/poly.h"
#include "coll/board.h"
#include "comm/comm.h"
#include "mpi.h"
#include "mpit/mpit.h"

struct mmpi_comm;
struct mmpi_comm_core;
struct mmpi_datatype;
struct mmpi_op;
struct mmpi_rank;
struct mmpi_coll;

/* Blocking collectives snapshot when the data the combine would copy is at most this many
 * bytes: below it, the second synchronization of the direct modes costs more than the extra
 * copy (measured on 2 cores at 2 and 16 ranks: Bcast and Allreduce of 128 KiB are 1.3-2.5x
 * faster as snapshots, 512 KiB to 2 MiB are faster direct). */
#define MMPI_COLL_SNAPSHOT_MAX ((size_t)256 * 1024)
/* Reductions snapshot when, in addition, members * bytes (the combine's work, done by one
 * thread under the board lock) is at most this (same measurements: 16 x 128 KiB still wins,
 * 16 x 512 KiB does not). */
#define MMPI_COLL_REDUCE_WORK_MAX ((size_t)4 * 1024 * 1024)
/* Nonblocking collectives snapshot up to this much data (see above); beyond it they run
 * DIRECT/SHARED and then complete only once every member polls its request. */
#define MMPI_COLL_NB_SNAPSHOT_MAX ((size_t)256 * 1024 * 1024)

enum mmpi_coll_mode { MMPI_COLL_DIRECT = 0, MMPI_COLL_SNAPSHOT, MMPI_COLL_SHARED };

/* inst->result: one malloc'ed block (freed with the instance), written by the combine before
 * the instance completes, read-only afterwards. */
struct mmpi_coll_result {
    int mode;             /* enum mmpi_coll_mode */
    size_t bytes;         /* size of data */
    size_t *off;          /* [noff] byte offsets into data (per-piece layouts), or NULL */
    unsigned char *data;  /* 16-byte aligned */
};

/* A buffer of per-member pieces (gather/scatter/all-to-all), or one block (count, dt). */
struct mmpi_coll_vec {
    char *buf;
    size_t count;                          /* elements per piece, regular forms; or the block */
    /* v and w forms: the user's arrays as either binding passed them (int, or MPI_Count and
     * MPI_Aint: api/poly.h), read in place; counts.base is NULL in the regular forms. */
    struct mmpi_poly_array counts, displs;
    bool byte_displs;                      /* w form: displs in bytes, types per piece */
    const struct mmpi_datatype *dt;        /* regular and v forms */
    const struct mmpi_datatype *const *dts; /* w form */
};

/* Piece j of v: its address, element count and type. */
void mmpi_coll_piece(const struct mmpi_coll_vec *v, int j, char **buf, size_t *count,
                     const struct mmpi_datatype **dt);
/* Packed bytes of piece j. */
size_t mmpi_coll_piece_bytes(const struct mmpi_coll_vec *v, int j);

struct mmpi_board_instance;

/* One collective's steps (one static instance per collective). */
struct mmpi_coll_algo {
    /* The last arriver's step, under the board lock, only when the communicator is not
     * revoked; `me` is the combining member's own part (so user ops and datatype handles are
     * its own). Sets inst->result (a struct mmpi_coll_result) or leaves it NULL (DIRECT). */
    void (*combine)(const struct mmpi_coll *me, struct mmpi_board_instance *inst);
    /* After completion: moves this member's output (from the result or the others' deposits)
     * or computes it aside; sets x->wait when others may still read this member's buffers.
     * Returns an MPI error class. */
    int (*read)(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                const struct mmpi_coll_result *res);
    /* NULL, or run after every live member departed (not in SNAPSHOT mode). */
    int (*finish)(struct mmpi_coll *x, const struct mmpi_coll_result *res);
    int op; /* enum mmpi_coll_op: what MPI_T counts the calls as (mpit/coll_ops.def) */
};

/* A member's part in one collective. The first block is its deposit: written before arrival,
 * immutable until the member leaves, read by other members' threads. */
struct mmpi_coll {
    const struct mmpi_coll_algo *algo;
    struct mmpi_rank *self;
    /* Nonblocking parts (progress.h): the request, the owner's pending list (under its lock)
     * and the flag of the one thread running the steps (atomic). */
    struct mmpi_request *req;
    struct mmpi_coll *pending_next, **pending_prev;
    int busy;
    int rank, size;                 /* in the communicator */
    int root;                       /* rooted collectives */
    bool nonblocking;
    bool persistent;                /* MPI_*_init (§6.13): mmpi_coll_run records the part as the
                                     * template of a persistent request (persistent.c) */
    bool in_place;                  /* MPI_IN_PLACE given where the collective allows it */
    struct mmpi_coll_vec send, recv;
    const void *in;                 /* reductions: input, send.count elements of send.dt */
    const struct mmpi_op *op;       /* reductions: this member's op object */
    MPI_Datatype dth;               /* reductions: this member's datatype handle (user ops) */

    /* Owner only. */
    struct mmpi_comm_core *core;
    struct mmpi_board_instance *inst;
    int step;
    int err;
    bool wait;                      /* must wait for every departure before returning */
    void *tmp;                      /* output kept aside until finish (malloc'ed) */
    size_t *tmp_off;                /* its piece offsets (alltoall in place), malloc'ed */
    const struct mmpi_datatype **owned_dts; /* w forms: resolved type arrays (ndts) */
    int ndts;                       /* w forms: entries of owned_dts (send then receive types:
                                     * 2 * remote size, or a neighbourhood's in + out degree) */
};

/* Runs member x's part on c. request NULL: blocking, returns the collective's error class.
 * Otherwise starts it, stores a new request handle in *request and returns MPI_SUCCESS or
 * MPI_ERR_NO_MEM (the collective's own errors come at completion). x may live on the caller's
 * stack: the nonblocking form copies it (taking references on types, op and communicator).
 * x->persistent: starts nothing; *request receives an inactive persistent request whose every
 * MPI_Start runs mmpi_coll_activate on a copy of x (persistent.c).
 * Called only by the owning rank. Blocking: may block. */
int mmpi_coll_run(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                  MPI_Request *request);
/* Starts member x's part on c exactly as a nonblocking collective does (copying x, taking the
 * same references), as the board's collective `seq` (which the caller numbers: persistent.c),
 * but returns the engine request itself, with two references (engine and caller) and no
 * handle: one activation of a persistent collective. x->owned_dts must be NULL: x's type
 * arrays stay the caller's, alive until the request completes. Called only by the owning
 * rank. Never blocks. */
struct mmpi_request *mmpi_coll_activate(struct mmpi_rank *self, struct mmpi_comm *c,
                                        struct mmpi_coll *x, uint64_t seq);

/* References on the objects a part names: its datatypes (send.dt, recv.dt, the owned_dts
 * array's) and its op; a part that outlives its call holds them (engine.c, persistent.c). */
void mmpi_coll_retain_objects(const struct mmpi_coll *x);
void mmpi_coll_release_objects(const struct mmpi_coll *x);

/* Counts for MPI_T one call of `op` (enum mmpi_coll_op) in `form` (enum mmpi_coll_form) on c,
 * served by `path` (mpit.h), where the path is chosen; only calls the program made: the
 * collectives the library runs on a private communicator (a window's fence, a file's
 * meeting), which has no handle, are not. */
static inline void mmpi_coll_count(const struct mmpi_comm *c, int op, int form, int path)
{
    if (c->handle != MPI_COMM_NULL)
        mmpi_pvar_coll(op, form, path);
}
/* The same on c's board: the board path, or an intercommunicator's. */
static inline void mmpi_coll_count_board(const struct mmpi_comm *c, int op, int form)
{
    mmpi_coll_count(c, op, form, c->core->remote ? MMPI_COLLPATH_INTER : MMPI_COLLPATH_BOARD);
}

/* Helpers for the algorithms (engine.c). */
const struct mmpi_coll *mmpi_coll_deposit(const struct mmpi_board_instance *inst, int i);
/* A result block of `noff` offsets and `bytes` data bytes, mode set. */
struct mmpi_coll_result *mmpi_coll_result_new(int mode, size_t noff, size_t bytes);
/* The largest snapshot the combine may take for member me's kind of call. */
size_t mmpi_coll_snapshot_max(const struct mmpi_coll *me);
/* The MINI_MPI_COLL_SNAPSHOT limit replacing all others, or SIZE_MAX when unset. */
size_t mmpi_coll_snapshot_override(void);

/* Reductions (reduce_util.c). out (packed, count elements) = a[lo] op ... op a[hi-1]
 * restricted to elements [first, first + count) of every member's input, computed with x's
 * own op and datatype. lo < hi. */
void mmpi_coll_reduce_range(const struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                            int lo, int hi, size_t first, size_t count, void *out);
/* Whether every member can reduce into packed memory with its own op and type (user ops need
 * contiguous types) and all types have one element size; SHARED mode needs it. */
bool mmpi_coll_all_packed_ok(const struct mmpi_coll *me, const struct mmpi_board_instance *inst);
/* Whether a reduction over `bytes` per member should snapshot. */
bool mmpi_coll_reduce_snapshot(const struct mmpi_coll *me, size_t bytes, size_t slots);

/* ---- Implementations: fill the part, run it (one file each) ------------------------------ */
int mmpi_bcast(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
               MPI_Request *request);
int mmpi_gather(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                MPI_Request *request);
int mmpi_scatter(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                 MPI_Request *request);
int mmpi_allgather(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                   MPI_Request *request);
int mmpi_alltoall(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                  MPI_Request *request);
int mmpi_reduce(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                MPI_Request *request);
int mmpi_allreduce(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                   MPI_Request *request);
int mmpi_reduce_scatter(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                        MPI_Request *request);
int mmpi_scan(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
              MPI_Request *request);
int mmpi_exscan(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                MPI_Request *request);

/* ---- Barrier (barrier.c) and persistent collectives (persistent.c) ---------------------- */
/* Arrives at the next collective of c as a barrier member; returns the request that completes
 * when every member arrived (MPI_ERR_PROC_FAILED, MPI_ERR_REVOKED), two references (engine and
 * caller), no handle. Called only by the owning rank. Never blocks. */
struct mmpi_request *mmpi_coll_ibarrier_start(struct mmpi_rank *self, struct mmpi_comm *c);
/* The same as the board's collective `seq` (numbered by the caller: persistent.c). */
struct mmpi_request *mmpi_coll_ibarrier_start_at(struct mmpi_rank *self, struct mmpi_comm *c,
                                                 uint64_t seq);
/* MPI_Barrier: returns when every member of c (both groups of an intercommunicator) has
 * arrived; MPI_ERR_PROC_FAILED if a member failed without arriving, MPI_ERR_REVOKED if c is
 * revoked meanwhile. c checked valid and not revoked. Called only by the owning rank. May block. */
int mmpi_coll_barrier(struct mmpi_rank *self, struct mmpi_comm *c);
/* MPI_Ibarrier (persistent false: arrives now, *request = the handle of the request that
 * completes as mmpi_coll_barrier returns) or MPI_Barrier_init (persistent true: an inactive
 * persistent request, mmpi_coll_persistent_new). MPI_SUCCESS or MPI_ERR_NO_MEM (the arrival
 * stands). Called only by the owning rank. Never blocks. */
int mmpi_coll_ibarrier(struct mmpi_rank *self, struct mmpi_comm *c, bool persistent,
                       MPI_Request *request);
/* Creates the inactive persistent request of an MPI_*_init call and stores its handle in
 * *request: x (NULL for MPI_Barrier_init) is the checked part, kept as the template of every
 * activation (with references on its types, op and the communicator; x->owned_dts moves into
 * the request). MPI_SUCCESS or MPI_ERR_NO_MEM. Called only by the owning rank. */
int mmpi_coll_persistent_new(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                             MPI_Request *request);

#endif
