/*
 * request.h: request objects, shared by point-to-point, collectives and generalized requests.
 *
 * A request is owned by one rank and completed by whoever finishes its operation (often another
 * rank's thread): the completer fills status and error, sets `done` with release order, then
 * wakes the owner. References: one for the engine until completion, one for the user's handle
 * (or the blocking call's frame) until Wait/Test/Request_free; the last one frees.
 *
 * Waiting is polling: mmpi_request_poll() is true once the request is done, and on the way it
 * notices failures and revocations that mean the request can never complete normally, and
 * completes it with the error instead (docs/design.md "The fault layer": an operation involving a
 * failed rank completes
 * in finite time).
 */
#ifndef MMPI_PT2PT_REQUEST_H
#define MMPI_PT2PT_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct mmpi_comm;
struct mmpi_comm_core;
struct mmpi_datatype;
struct mmpi_mbox;
struct mmpi_msg;
struct mmpi_rank;

enum mmpi_request_kind {
    MMPI_REQ_SEND = 1,
    MMPI_REQ_RECV,
    MMPI_REQ_GREQ,   /* generalized request (MPI_Grequest_start) */
    MMPI_REQ_OTHER,  /* collectives and later subsystems: progress through `poll` */
};

enum mmpi_send_mode { MMPI_SEND_STANDARD, MMPI_SEND_SYNC, MMPI_SEND_READY, MMPI_SEND_BUFFERED };

struct mmpi_request {
    /* The first two cache lines hold what a matching peer reads and writes (envelope, buffer,
     * completion) and what the owner's polls read, so that completing a request moves as few
     * lines between cores as possible. The object is cache-line aligned (stack and heap). */
    _Alignas(64) uint32_t done;    /* atomic: 0 pending, 1 complete */
    int error;                     /* completion: MPI_SUCCESS or an error class; written
                                    * before done */
    MPI_Status status;             /* written before done */
    int peer;                      /* dest or source rank as given (send: dest; recv: source) */
    int tag;
    void *buf;                     /* receive buffer, or (const) send buffer */
    size_t count;
    struct mmpi_datatype *dt;      /* retained while the request lives (unless on_stack) */
    struct mmpi_request *next;     /* mailbox posted queue; under the mailbox lock */
    struct mmpi_rank *owner;       /* immutable: the rank woken at completion */
    int kind;                      /* immutable: enum mmpi_request_kind */
    bool on_stack;                 /* immutable: lives in a blocking call's frame (see
                                    * mmpi_request_init_blocking): no references, never freed */
    bool posted;                   /* recv: still in its mailbox's posted queue (mailbox lock) */
    bool blocking;                 /* started by a blocking call (ANY_SOURCE failure semantics) */
    bool failure_pending;          /* nonblocking ANY_SOURCE receive while an unacknowledged
                                    * failure exists: waits report MPI_ERR_PROC_FAILED_PENDING
                                    * and leave it pending (owner's threads only) */
    struct mmpi_comm_core *core;   /* matching (point-to-point): retained while the request
                                    * lives (unless on_stack) */
    int ctx;                       /* MMPI_CTX_* */
    int peer_world;                /* world rank of the peer; -1 for MPI_ANY_SOURCE */
    uint32_t seen_failure_epoch;   /* last world failure epoch examined by poll */
    int my_rank;                   /* the owner's rank in the communicator (message source) */
    bool direct;                   /* recv: a blocking MPI_Recv that waits for nothing else, so it
                                    * may wait on its source's channel unposted (chan.h) */
    struct mmpi_chan *chan;        /* recv: the channel it waits on unposted, until it matches or
                                    * is abandoned (owner's threads; mailbox lock to clear) */
    uint32_t seen_arrivals;        /* recv waiting on a channel: mailbox arrivals last examined */

    int refs;                      /* atomic */
    MPI_Comm comm;                 /* the user's communicator handle (errors raise on it) */
    int mode;                      /* send: enum mmpi_send_mode */
    struct mmpi_msg *msg;          /* send: its queued envelope while unmatched (mailbox lock) */
    struct mmpi_mbox *mbox;        /* the mailbox it is queued in */

    /* Persistent requests (MPI_Send_init, ...): the request the user holds keeps the arguments;
     * each MPI_Start creates `inner`, the engine request of that activation (NULL: inactive). */
    bool persistent;
    struct mmpi_request *inner;

    /* Generalized requests. */
    MPI_Grequest_query_function *query_fn;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel_fn;
    void *extra_state;
    bool freed_by_user;            /* MPI_Request_free before MPI_Grequest_complete: the handle
                                    * stays valid for the completing call (§13.2) */

    /* MMPI_REQ_OTHER: makes progress and returns true when complete; free_state at the end. */
    bool collective;               /* immutable: a nonblocking collective's (MPI_I<coll>,
                                    * Comm_idup, iagree, ishrink): MPI_Request_free and
                                    * MPI_Cancel of it are erroneous (MPI-4.1 §6.12) */
    bool (*poll)(struct mmpi_request *req);
    void (*free_state)(struct mmpi_request *req);
    void *state;

    int handle;                    /* the MPI_Request naming it, or MPI_REQUEST_NULL */
};

/* A new request of `kind` for `owner` with two references (engine + caller). */
struct mmpi_request *mmpi_request_new(struct mmpi_rank *owner, int kind);
/* A nonblocking collective's request (collectives, agree, shrink, idup) on communicator handle
 * `comm`, driven by poll over the engine's `state` (freed by free_state): MPI_Request_free and
 * MPI_Cancel refuse it (§6.12). Two references, as mmpi_request_new. */
struct mmpi_request *mmpi_request_new_collective(struct mmpi_rank *self, MPI_Comm comm,
                                                 void *state,
                                                 bool (*poll)(struct mmpi_request *req),
                                                 void (*free_state)(struct mmpi_request *req));
/* Gives req to the user: a new handle in *request. MPI_SUCCESS, or MPI_ERR_NO_MEM (the
 * rank's request table is full) with the user's reference dropped. */
int mmpi_request_publish(struct mmpi_rank *self, struct mmpi_request *req, MPI_Request *request);
/* Drops one reference; frees at zero (releasing core and datatype). No-op on_stack. */
void mmpi_request_release(struct mmpi_request *req);
/* Initializes *req, in the frame of a blocking call that waits for it before returning, as a
 * request of `kind` for `owner` that nobody references or frees: no allocation, and no
 * reference count on the communicator core or datatype (the call's arguments must stay valid
 * until it returns anyway). Its completer touches it no more once `done` is published. */
void mmpi_request_init_blocking(struct mmpi_request *req, struct mmpi_rank *owner, int kind);

/* Completes req: records error and status, publishes done, wakes the owner, drops the engine's
 * reference. The status must be filled by the caller beforehand (source, tag, count). */
void mmpi_request_complete(struct mmpi_request *req, int error);

/* The same, by the only thread that will ever wait for req, which therefore needs no wake-up
 * (an on_stack request completed while its blocking call posts it). */
void mmpi_request_complete_by_waiter(struct mmpi_request *req, int error);

static inline bool mmpi_request_is_done(const struct mmpi_request *req)
{
    return __atomic_load_n(&req->done, __ATOMIC_ACQUIRE) != 0;
}

/* True once req is complete; detects failures and revocations that complete it with an error. */
bool mmpi_request_poll(struct mmpi_request *req);
/* The same for a direct receive (req->chan set) whose caller has just found the channel's next
 * cell empty: the poll of every spin of its wait, without looking at the cell twice. */
bool mmpi_request_poll_cell_looked(struct mmpi_request *req);
/* What req waits for, in one line (a mmpi_wait_describe_fn for the hang report). */
void mmpi_request_describe(const void *arg, char *buf, size_t len);
/* Blocks the calling rank until req is complete (spin, then sleep). */
void mmpi_request_wait(struct mmpi_rank *self, struct mmpi_request *req);

/* Handles. A request handle is registered in the owner's table; lookup returns NULL for an
 * invalid handle. */
int mmpi_request_handle_new(struct mmpi_rank *self, struct mmpi_request *req);
struct mmpi_request *mmpi_request_get(struct mmpi_rank *self, MPI_Request handle);
/* The user is done with the handle (after completion or MPI_Request_free): unregisters it and
 * drops the user's reference, unless the request is persistent and only being completed. */
void mmpi_request_handle_drop(struct mmpi_rank *self, struct mmpi_request *req);

/* Copies a request's status to the user's, except MPI_ERROR, which single-completion calls
 * leave untouched (MPI-4.1 §3.2.5). MPI_STATUS_IGNORE is allowed. */
void mmpi_status_copy_out(MPI_Status *out, const MPI_Status *in, bool with_error);
/* The status of an empty or inactive request (MPI-4.1 §3.7.3): source MPI_ANY_SOURCE, tag
 * MPI_ANY_TAG, error MPI_SUCCESS, count 0, not cancelled. MPI_STATUS_IGNORE is allowed. */
void mmpi_status_set_empty(MPI_Status *status);

#endif
