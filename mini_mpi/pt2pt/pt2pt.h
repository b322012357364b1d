/*
 * pt2pt.h: the point-to-point interface the MPI entry points and other subsystems (collectives,
 * ULFM) share: argument validation and starting sends and receives on a given matching context;
 * and the implementation of each MPI call, which its binding (the *_api.c files here) calls once.
 */
#ifndef MMPI_PT2PT_PT2PT_H
#define MMPI_PT2PT_PT2PT_H

#include <stdbool.h>

#include "datatype/datatype.h"
#include "mmpi.h"
#include "pt2pt/bsend.h"
#include "mpit/mpit.h" /* the counters of sends and receives */
#include "pt2pt/request.h"
#include "restart/restart.h"

/* Largest tag (the MPI_TAG_UB attribute): every non-negative int. */
#define MMPI_TAG_UB 2147483647

/* Validates the arguments every send or receive shares, in MPICH's order: communicator,
 * count, datatype, peer rank, tag, buffer. On success sets *c and *dt (dt not retained).
 * `receive` allows MPI_ANY_SOURCE and MPI_ANY_TAG. Returns MPI_SUCCESS or an error class; *c is
 * set whenever the communicator is valid, so the error can be raised on it. */
int mmpi_pt2pt_check_args_full(struct mmpi_rank *self, MPI_Comm comm, const void *buf,
                               MPI_Count count, MPI_Datatype datatype, int peer, int tag,
                               bool receive, struct mmpi_comm **c, struct mmpi_datatype **dt);

/* Predefined datatypes already resolved by a check, by the low bits of their handle (start.c):
 * immutable objects shared by every rank, so a send or receive finds its type without a call. */
#define MMPI_PT2PT_DT_CACHE 256
extern const struct mmpi_datatype *mmpi_pt2pt_dt_cache[MMPI_PT2PT_DT_CACHE];

static inline struct mmpi_datatype *mmpi_pt2pt_dt_cached(MPI_Datatype h)
{
    const struct mmpi_datatype *dt =
        __atomic_load_n(&mmpi_pt2pt_dt_cache[(unsigned)h % MMPI_PT2PT_DT_CACHE], __ATOMIC_ACQUIRE);
    return dt && dt->handle == h ? (struct mmpi_datatype *)dt : NULL;
}

/* Remembers a checked datatype for mmpi_pt2pt_dt_cached (predefined ones only: the same object
 * for every rank, forever). */
static inline void mmpi_pt2pt_dt_remember(MPI_Datatype h, const struct mmpi_datatype *dt)
{
    if (mmpi_handle_is_predefined(h))
        __atomic_store_n(&mmpi_pt2pt_dt_cache[(unsigned)h % MMPI_PT2PT_DT_CACHE], dt,
                         __ATOMIC_RELEASE);
}

/* mmpi_pt2pt_check_args_full, with the common case first: every check passes, on
 * MPI_COMM_WORLD or another communicator, with a cached predefined datatype, a member rank (not
 * MPI_PROC_NULL or MPI_ANY_SOURCE) and a buffer. Anything else, errors included (their class
 * depends on the order of the checks), takes the full path. */
static inline int mmpi_pt2pt_check_args(struct mmpi_rank *self, MPI_Comm comm, const void *buf,
                                        MPI_Count count, MPI_Datatype datatype, int peer, int tag,
                                        bool receive, struct mmpi_comm **c,
                                        struct mmpi_datatype **dt)
{
    /* MPI_COMM_WORLD after a restart: the pair's epoch (restart/restart.h). */
    struct mmpi_comm *cc = comm == MPI_COMM_WORLD ? mmpi_restart_world_route(self, peer)
                                                  : mmpi_comm_get(self, comm);
    struct mmpi_datatype *d = mmpi_pt2pt_dt_cached(datatype);
    if (cc && d && count >= 0 && (unsigned)peer < (unsigned)mmpi_comm_remote_size(cc) &&
        (tag >= 0 || (receive && tag == MPI_ANY_TAG)) &&
        (buf || count == 0 || d->size == 0) &&
        !mmpi_fault_revoked(&cc->core->fault)) {
        *c = cc;
        *dt = d;
        return MPI_SUCCESS;
    }
    return mmpi_pt2pt_check_args_full(self, comm, buf, count, datatype, peer, tag, receive, c, dt);
}

/* A request of `kind` (MMPI_REQ_SEND or MMPI_REQ_RECV) already completed with MPI_ERR_REVOKED:
 * what a nonblocking call on a revoked communicator returns (two references, like a started
 * one). */
struct mmpi_request *mmpi_pt2pt_revoked_request(struct mmpi_rank *self, struct mmpi_comm *c,
                                                int kind);

/* Starts a send or a receive; returns the request with two references (the caller's and the
 * engine's). MPI_PROC_NULL gives a request completed at once (MPI-4.1 §3.11). */
struct mmpi_request *mmpi_pt2pt_start_send(struct mmpi_rank *self, struct mmpi_comm *c, int ctx,
                                           const void *buf, MPI_Count count,
                                           struct mmpi_datatype *dt, int dest, int tag,
                                           enum mmpi_send_mode mode);
struct mmpi_request *mmpi_pt2pt_start_recv(struct mmpi_rank *self, struct mmpi_comm *c, int ctx,
                                           void *buf, MPI_Count count, struct mmpi_datatype *dt,
                                           int source, int tag);

/* The same into a request the caller made: fresh from mmpi_request_new (kind SEND or RECV),
 * or mmpi_request_init_blocking in the frame of a call that waits for it before returning
 * (no allocation, no reference counting: the fast path of the blocking calls). */
void mmpi_pt2pt_post_send(struct mmpi_rank *self, struct mmpi_comm *c, int ctx, const void *buf,
                          MPI_Count count, struct mmpi_datatype *dt, int dest, int tag,
                          enum mmpi_send_mode mode, struct mmpi_request *req);
void mmpi_pt2pt_post_recv(struct mmpi_rank *self, struct mmpi_comm *c, int ctx, void *buf,
                          MPI_Count count, struct mmpi_datatype *dt, int source, int tag,
                          struct mmpi_request *req);

/* A blocking send on the user context that a channel (chan.h) completes at once, without a
 * request: true if done; false: post it. Arguments checked; the communicator not revoked. */
bool mmpi_pt2pt_send_direct(struct mmpi_rank *self, struct mmpi_comm *c, const void *buf,
                            MPI_Count count, struct mmpi_datatype *dt, int dest, int tag,
                            enum mmpi_send_mode mode);

/* The sends and receives of the MPI calls (send_recv.c), on the user context, with arguments
 * checked (c valid and, unless `revoked` says otherwise, not revoked). Each returns MPI_SUCCESS
 * or an error class for the caller to raise on c; each is called only by the owning rank.
 * mmpi_pt2pt_send: a blocking send in `mode`; returns its completion error. May block.
 * mmpi_pt2pt_isend: starts a send and stores its request's handle in *request (revoked: the
 * request is completed with MPI_ERR_REVOKED at once, reported at completion). MPI_SUCCESS or
 * MPI_ERR_NO_MEM. Never blocks. */
int mmpi_pt2pt_send(struct mmpi_rank *self, struct mmpi_comm *c, const void *buf, MPI_Count count,
                    struct mmpi_datatype *dt, int dest, int tag, enum mmpi_send_mode mode);
int mmpi_pt2pt_isend(struct mmpi_rank *self, struct mmpi_comm *c, const void *buf, MPI_Count count,
                     struct mmpi_datatype *dt, int dest, int tag, enum mmpi_send_mode mode,
                     bool revoked, MPI_Request *request);
/* mmpi_pt2pt_recv: a blocking receive; status (or MPI_STATUS_IGNORE) is filled even on error;
 * returns the completion error. May block.
 * mmpi_pt2pt_irecv: posts a receive, *request = its handle (revoked: as for isend).
 * MPI_ERR_NO_MEM (the receive withdrawn first) if no handle can be made. Never blocks. */
int mmpi_pt2pt_recv(struct mmpi_rank *self, struct mmpi_comm *c, void *buf, MPI_Count count,
                    struct mmpi_datatype *dt, int source, int tag, MPI_Status *status);
int mmpi_pt2pt_irecv(struct mmpi_rank *self, struct mmpi_comm *c, void *buf, MPI_Count count,
                     struct mmpi_datatype *dt, int source, int tag, bool revoked,
                     MPI_Request *request);
/* MPI_Sendrecv: both at once, never deadlocking against another Sendrecv; the send's error
 * first, else the receive's. May block. */
int mmpi_pt2pt_sendrecv(struct mmpi_rank *self, struct mmpi_comm *c, const void *sendbuf,
                        MPI_Count sendcount, struct mmpi_datatype *sdt, int dest, int sendtag,
                        void *recvbuf, MPI_Count recvcount, struct mmpi_datatype *rdt,
                        int source, int recvtag, MPI_Status *status);
/* MPI_Sendrecv_replace: sends a packed copy of buf (as bytes_dt, MPI_BYTE resolved) and receives
 * into buf. MPI_ERR_NO_MEM if the copy cannot be made. May block. */
int mmpi_pt2pt_sendrecv_replace(struct mmpi_rank *self, struct mmpi_comm *c, void *buf,
                                MPI_Count count, struct mmpi_datatype *dt,
                                struct mmpi_datatype *bytes_dt, int dest, int sendtag, int source,
                                int recvtag, MPI_Status *status);
/* MPI_Isendrecv (isendrecv.c): posts the receive, then starts the send, and stores in *request
 * the handle of a request complete once both are, with the receive's status and the send's
 * error first, else the receive's (revoked: both parts already completed with
 * MPI_ERR_REVOKED, reported at completion). `copy`, if not NULL, is freed with the request.
 * MPI_SUCCESS or MPI_ERR_NO_MEM (nothing left pending). Never blocks, but for MPI_ERR_NO_MEM.
 * mmpi_pt2pt_isendrecv_replace (MPI_Isendrecv_replace): sends a packed copy of buf (as
 * bytes_dt, MPI_BYTE resolved) and receives into buf. */
int mmpi_pt2pt_isendrecv(struct mmpi_rank *self, struct mmpi_comm *c, const void *sendbuf,
                         MPI_Count sendcount, struct mmpi_datatype *sdt, int dest, int sendtag,
                         void *recvbuf, MPI_Count recvcount, struct mmpi_datatype *rdt,
                         int source, int recvtag, bool revoked, void *copy, MPI_Request *request);
int mmpi_pt2pt_isendrecv_replace(struct mmpi_rank *self, struct mmpi_comm *c, void *buf,
                                 MPI_Count count, struct mmpi_datatype *dt,
                                 struct mmpi_datatype *bytes_dt, int dest, int sendtag,
                                 int source, int recvtag, bool revoked, MPI_Request *request);

/* Probes (probe.c), on the user context, with arguments checked (c valid and not revoked, source
 * a member or MPI_ANY_SOURCE, never MPI_PROC_NULL). Called only by the owning rank.
 * mmpi_pt2pt_probe: waits until a message matches (*status filled, MPI_ERROR kept) or never can:
 * MPI_ERR_PROC_FAILED when its source (or, with MPI_ANY_SOURCE, a member not acknowledged)
 * failed, MPI_ERR_REVOKED when c is revoked meanwhile. May block.
 * mmpi_pt2pt_iprobe: *flag = whether a message matches now (*status filled if so); yields the
 * processor when none does. Never fails; never blocks. */
int mmpi_pt2pt_probe(struct mmpi_rank *self, struct mmpi_comm *c, int source, int tag,
                     MPI_Status *status);
void mmpi_pt2pt_iprobe(struct mmpi_rank *self, struct mmpi_comm *c, int source, int tag,
                       int *flag, MPI_Status *status);
/* Matched probes: as the two above, but the matched message leaves the mailbox into a new
 * MPI_Message handle in *message (MPI_ERR_NO_MEM if none can be made). */
int mmpi_pt2pt_mprobe(struct mmpi_rank *self, struct mmpi_comm *c, int source, int tag,
                      MPI_Message *message, MPI_Status *status);
int mmpi_pt2pt_improbe(struct mmpi_rank *self, struct mmpi_comm *c, int source, int tag,
                       int *flag, MPI_Message *message, MPI_Status *status);
/* MPI_Mrecv: receives the message named by *message (or MPI_MESSAGE_NO_PROC) into a new
 * request, complete when this returns (*out: the caller releases it, mmpi_request_release);
 * *message = MPI_MESSAGE_NULL. MPI_ERR_REQUEST if *message names no message. dt checked.
 * mmpi_pt2pt_imrecv (MPI_Imrecv): the same, the request's handle in *request (MPI_ERR_NO_MEM if
 * none can be made). Neither blocks. */
int mmpi_pt2pt_mrecv_start(struct mmpi_rank *self, void *buf, MPI_Count count,
                           struct mmpi_datatype *dt, MPI_Message *message,
                           struct mmpi_request **out);
int mmpi_pt2pt_imrecv(struct mmpi_rank *self, void *buf, MPI_Count count, struct mmpi_datatype *dt,
                      MPI_Message *message, MPI_Request *request);



/* Persistent requests (persistent.c). MPI_Send_init and kin (kind MMPI_REQ_SEND, with their
 * send mode) and MPI_Recv_init (MMPI_REQ_RECV): records the checked arguments (c valid for comm,
 * dt retained here) in an inactive request whose handle goes to *request. MPI_SUCCESS or
 * MPI_ERR_NO_MEM. Called only by the owning rank. */
int mmpi_pt2pt_persistent_init(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm comm,
                               const void *buf, MPI_Count count, struct mmpi_datatype *dt, int peer,
                               int tag, int kind, enum mmpi_send_mode mode, MPI_Request *request);
/* MPI_Start: starts one activation of req (persistent point-to-point or collective).
 * MPI_ERR_REQUEST if req is not persistent or already active, MPI_ERR_COMM if its communicator
 * was freed, MPI_ERR_BUFFER if a buffered send does not fit. Never blocks. */
int mmpi_pt2pt_start(struct mmpi_rank *self, struct mmpi_request *req);
/* MPI_Startall, after every handle was checked to name an inactive persistent request: starts
 * them in order, stopping at the first error; *req = the last request looked at (whose
 * communicator the error is raised on). Never blocks. */
int mmpi_pt2pt_startall(struct mmpi_rank *self, int count, MPI_Request array_of_requests[],
                        struct mmpi_request **req);

/* Raises a request's completion error on the communicator it was started on. */
int mmpi_request_raise(struct mmpi_rank *self, struct mmpi_request *req, int err,
                       enum mmpi_call call);

#endif
