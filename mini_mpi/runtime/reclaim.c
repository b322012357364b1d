/*
 * reclaim.c: freeing what a rank still holds in its handle tables when the world ends: the
 * communicators, windows, files, groups, datatypes, ops, requests and infos of a rank that
 * failed (it never freed them), or that a program left allocated at MPI_Finalize. No user
 * callback runs (attribute delete functions belong to a live MPI). Called only once every rank
 * thread is gone.
 */
#include "comm/create.h"
#include "comm/info.h"
#include "datatype/datatype.h"
#include "group/group.h"
#include "io/io.h"
#include "mmpi.h"
#include "op/op.h"
#include "osc/win.h"
#include "pt2pt/match.h"
#include "pt2pt/request.h"
#include "runtime/reclaim.h"

/* Calls release(obj) for each object left in the rank's table of `kind`. */
static void reclaim_kind(struct mmpi_rank *r, int kind, void (*release)(struct mmpi_rank *, void *))
{
    struct mmpi_slots *table = &r->handles[kind];
    uint32_t used = __atomic_load_n(&table->next_unused, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; i < used; i++) {
        void *obj = mmpi_slots_remove(table, i);
        if (obj)
            release(r, obj);
    }
}

/* A request still pending was started by a rank that failed (or never waited): its operation
 * is abandoned, which drops the engine's reference (and with it the communicator core it holds,
 * which would otherwise keep the core, its mailboxes and board alive). */
static void release_request(struct mmpi_rank *r, void *obj)
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

static void release_file(struct mmpi_rank *r, void *obj) { mmpi_file_reclaim(r, obj); }

static void release_comm(struct mmpi_rank *r, void *obj)
{
    struct mmpi_comm *c = obj;
    c->handle = MPI_COMM_NULL; /* already out of the table */
    mmpi_comm_release(r, c);
}

/* A window a failed rank never freed (or a program left at MPI_Finalize): its handle object
 * and its reference on the shared core, without synchronizing (osc/win_fault.c). */
static void release_win(struct mmpi_rank *r, void *obj) { mmpi_win_reclaim(r, obj); }

static void release_group(struct mmpi_rank *r, void *obj)
{
    (void)r;
    mmpi_group_release(obj);
}

static void release_datatype(struct mmpi_rank *r, void *obj)
{
    (void)r;
    mmpi_datatype_release(obj);
}

static void release_op(struct mmpi_rank *r, void *obj)
{
    (void)r;
    mmpi_op_release(obj);
}

static void release_info(struct mmpi_rank *r, void *obj)
{
    (void)r;
    mmpi_info_release(obj);
}

void mmpi_handles_reclaim(struct mmpi_rank *r)
{
    /* Users first: requests hold communicator cores and datatypes, communicators hold infos. */
    reclaim_kind(r, MMPI_HANDLE_KIND_REQUEST, release_request);
    /* Windows hold their private communicator. */
    reclaim_kind(r, MMPI_HANDLE_KIND_WIN, release_win);
    reclaim_kind(r, MMPI_HANDLE_KIND_FILE, release_file); /* a file holds a communicator */
    reclaim_kind(r, MMPI_HANDLE_KIND_COMM, release_comm);
    reclaim_kind(r, MMPI_HANDLE_KIND_GROUP, release_group);
    reclaim_kind(r, MMPI_HANDLE_KIND_DATATYPE, release_datatype);
    reclaim_kind(r, MMPI_HANDLE_KIND_OP, release_op);
    /* Not error handlers: their table may name handlers already freed (errhan/errhan_api.c keeps
     * the slot until the last communicator using one lets go). */
    reclaim_kind(r, MMPI_HANDLE_KIND_INFO, release_info);
}
