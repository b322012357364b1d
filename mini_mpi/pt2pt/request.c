/*
 * request.c: the request life cycle of request.h: creation, references, completion, polling
 * (with failure detection for point-to-point), waiting, handles and status copies, and the
 * request's table of operations (runtime/kind.h).
 */
#include "pt2pt/request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/datatype.h"
#include "mmpi.h"
#include "pt2pt/chan.h"
#include "pt2pt/match.h"
#include "runtime/kind.h"
#include "ulfm/ulfm.h"

struct mmpi_request *mmpi_request_new(struct mmpi_rank *owner, int kind)
{
    struct mmpi_request *req = aligned_alloc(_Alignof(struct mmpi_request), sizeof(*req));
    if (!req)
        mmpi_die("out of memory (request)");
    memset(req, 0, sizeof(*req));
    req->kind = kind;
    req->refs = 2;
    req->owner = owner;
    req->comm = MPI_COMM_NULL;
    req->peer_world = -1;
    req->handle = MPI_REQUEST_NULL;
    return req;
}

struct mmpi_request *mmpi_request_new_collective(struct mmpi_rank *self, MPI_Comm comm,
                                                 void *state,
                                                 bool (*poll)(struct mmpi_request *req),
                                                 void (*free_state)(struct mmpi_request *req))
{
    struct mmpi_request *req = mmpi_request_new(self, MMPI_REQ_OTHER);
    req->collective = true;
    req->comm = comm;
    req->state = state;
    req->poll = poll;
    req->free_state = free_state;
    return req;
}

int mmpi_request_publish(struct mmpi_rank *self, struct mmpi_request *req, MPI_Request *request)
{
    if (mmpi_request_handle_new(self, req) == MPI_REQUEST_NULL) {
        mmpi_request_release(req);
        return MPI_ERR_NO_MEM;
    }
    *request = req->handle;
    return MPI_SUCCESS;
}

void mmpi_request_init_blocking(struct mmpi_request *req, struct mmpi_rank *owner, int kind)
{
    *req = (struct mmpi_request){.kind = kind,
                                 .on_stack = true,
                                 .owner = owner,
                                 .comm = MPI_COMM_NULL,
                                 .peer_world = -1,
                                 .handle = MPI_REQUEST_NULL};
}

void mmpi_request_release(struct mmpi_request *req)
{
    if (req->on_stack)
        return;
    if (__atomic_sub_fetch(&req->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    if (req->free_state)
        req->free_state(req);
    if (req->dt)
        mmpi_datatype_release(req->dt);
    if (req->core)
        mmpi_comm_core_release(req->core);
    free(req);
}

void mmpi_request_complete(struct mmpi_request *req, int error)
{
    struct mmpi_rank *owner = req->owner;
    bool on_stack = req->on_stack;
    req->error = error;
    req->status.MPI_ERROR = error;
    __atomic_store_n(&req->done, 1, __ATOMIC_RELEASE);
    /* From here on req may be gone (an on_stack one as soon as its owner sees done; others
     * once the owner drops its reference): wake the owner (a rank outlives every request),
     * then drop the engine's reference, which a blocking frame's request does not count. */
    mmpi_rank_wake(owner);
    if (!on_stack)
        mmpi_request_release(req);
}

void mmpi_request_complete_by_waiter(struct mmpi_request *req, int error)
{
    req->error = error;
    req->status.MPI_ERROR = error;
    __atomic_store_n(&req->done, 1, __ATOMIC_RELEASE);
    mmpi_request_release(req);
}

/* A point-to-point request whose peer failed can never complete normally
 * (docs/design.md "The fault layer"). */
static void check_failures(struct mmpi_request *req)
{
    struct mmpi_world *w = req->owner->world;
    if (req->peer_world >= 0) {
        if (mmpi_fault_is_failed(w->ranks[req->peer_world]) &&
            mmpi_match_abandon(req, MPI_ERR_PROC_FAILED))
            mmpi_fault_notice(req->owner, req->peer_world);
        return;
    }
    /* MPI_ANY_SOURCE: any failed member of the group it receives from that this rank has not
     * acknowledged. A blocking receive fails; a nonblocking one reports
     * MPI_ERR_PROC_FAILED_PENDING and stays matchable (chapter §17.2.2). */
    struct mmpi_comm *c = mmpi_comm_get(req->owner, req->comm);
    bool unacked = c ? mmpi_ulfm_any_unacked_failure(c) : false;
    if (unacked && c)
        mmpi_fault_notice_members(req->owner, &mmpi_ulfm_peer_group(c)->fault);
    if (req->blocking) {
        if (unacked)
            mmpi_match_abandon(req, MPI_ERR_PROC_FAILED);
    } else {
        req->failure_pending = unacked;
    }
}

/* mmpi_request_poll; cell_looked: a direct receive's caller has just found its channel's next
 * cell empty, so only what the channel cannot show (a slow-path arrival) is looked at. */
static bool poll(struct mmpi_request *req, bool cell_looked)
{
    if (mmpi_request_is_done(req))
        return true;
    switch (req->kind) {
    case MMPI_REQ_OTHER:
        return req->poll(req);
    case MMPI_REQ_GREQ:
        return false; /* completed by the user's MPI_Grequest_complete */
    default:
        break;
    }
    if (!req->core)
        return false;
    if (req->chan && mmpi_chan_poll(req, cell_looked))
        return true;
    if (mmpi_fault_revoked(&req->core->fault) && req->ctx == MMPI_CTX_USER) {
        mmpi_match_abandon(req, MPI_ERR_REVOKED);
        return mmpi_request_is_done(req);
    }
    uint32_t epoch = mmpi_fault_epoch(req->owner->world);
    /* ANY_SOURCE nonblocking receives re-check every time: an acknowledgement (no new epoch)
     * can clear their pending state. */
    if (epoch != req->seen_failure_epoch || (req->failure_pending && req->peer_world < 0)) {
        req->seen_failure_epoch = epoch;
        check_failures(req);
    }
    return mmpi_request_is_done(req);
}

bool mmpi_request_poll(struct mmpi_request *req)
{
    return poll(req, false);
}

bool mmpi_request_poll_cell_looked(struct mmpi_request *req)
{
    return poll(req, true);
}

static bool poll_ready(void *arg)
{
    return mmpi_request_poll(arg);
}

void mmpi_request_describe(const void *arg, char *buf, size_t len)
{
    const struct mmpi_request *req = arg;
    char comm[96] = "?";
    const struct mmpi_comm_core *core = req->core;
    if (!core) {
        const struct mmpi_comm *c = mmpi_comm_get(req->owner, req->comm);
        core = c ? c->core : NULL;
    }
    if (core)
        mmpi_comm_describe(req->owner, core, comm, sizeof comm);
    const char *lib = req->ctx == MMPI_CTX_USER ? "" : " (library-internal)";
    char tag[24];
    if (req->tag == MPI_ANY_TAG)
        snprintf(tag, sizeof tag, "any tag");
    else
        snprintf(tag, sizeof tag, "tag %d", req->tag);
    switch (req->kind) {
    case MMPI_REQ_SEND:
        snprintf(buf, len, "%ssend to rank %d, %s, on %s%s",
                 req->mode == MMPI_SEND_SYNC ? "synchronous " : "", req->peer, tag, comm, lib);
        break;
    case MMPI_REQ_RECV:
        if (req->peer == MPI_ANY_SOURCE)
            snprintf(buf, len, "receive from any source, %s, on %s%s", tag, comm, lib);
        else
            snprintf(buf, len, "receive from rank %d, %s, on %s%s", req->peer, tag, comm, lib);
        break;
    case MMPI_REQ_GREQ:
        snprintf(buf, len, "generalized request (until MPI_Grequest_complete)");
        break;
    default:
        snprintf(buf, len, "nonblocking operation on %s", comm);
        break;
    }
}

void mmpi_request_wait(struct mmpi_rank *self, struct mmpi_request *req)
{
    mmpi_wait_until_described(self, poll_ready, req, mmpi_request_describe);
}

int mmpi_request_handle_new(struct mmpi_rank *self, struct mmpi_request *req)
{
    req->handle = mmpi_handle_new(self, MMPI_HANDLE_KIND_REQUEST, req);
    return req->handle;
}

struct mmpi_request *mmpi_request_get(struct mmpi_rank *self, MPI_Request handle)
{
    return mmpi_handle_lookup(self, MMPI_HANDLE_KIND_REQUEST, handle);
}

void mmpi_request_handle_drop(struct mmpi_rank *self, struct mmpi_request *req)
{
    mmpi_handle_remove(self, MMPI_HANDLE_KIND_REQUEST, req->handle);
    req->handle = MPI_REQUEST_NULL;
    mmpi_request_release(req);
}

/* A request still pending at world end was started by a rank that failed (or never waited):
 * its operation is abandoned, which drops the engine's reference (and with it the
 * communicator core it holds, which would otherwise keep the core, its mailboxes and board
 * alive). */
static void request_reclaim(struct mmpi_rank *r, void *obj)
{
    (void)r;
    struct mmpi_request *req = obj;
    struct mmpi_request *active = req->persistent ? req->inner : req;
    if (active && !mmpi_request_is_done(active)) {
        if (active->kind == MMPI_REQ_SEND || active->kind == MMPI_REQ_RECV)
            mmpi_match_abandon(active, MPI_ERR_PROC_FAILED);
        else
            mmpi_request_complete(active, MPI_ERR_PROC_FAILED);
    }
    mmpi_request_release(req); /* the user's reference; a persistent request's free_state
                                * drops its activation */
}

static const struct mmpi_kind_ops request_kind_ops = {.reclaim = request_reclaim};
MMPI_KIND_REGISTER(MMPI_HANDLE_KIND_REQUEST, request_kind_ops)

void mmpi_status_copy_out(MPI_Status *out, const MPI_Status *in, bool with_error)
{
    if (out == MPI_STATUS_IGNORE)
        return;
    int keep = out->MPI_ERROR;
    *out = *in;
    if (!with_error)
        out->MPI_ERROR = keep;
}

void mmpi_status_set_empty(MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    memset(status, 0, sizeof(*status));
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS; /* part of an empty status (§3.7.3), whatever the call */
}
