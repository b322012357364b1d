/*
 * coll/persistent.c: persistent collective requests (MPI-4.1 §6.13): the request an MPI_*_init
 * call returns (*_api.c, barrier_api.c, topo/neighbor_api.c check the arguments exactly as for the
 * nonblocking form, then mmpi_coll_run hands the filled part here), and the start of each
 * activation. Completion, MPI_Request_free and the inactive state are point-to-point's
 * persistent-request machinery (pt2pt/request.h: `persistent`, `inner`), unchanged.
 *
 * Design: the request keeps the member's checked part (struct mmpi_coll) as a template, with
 * its own references on the datatypes, the op, the communicator core and the w-form type
 * arrays. Each MPI_Start runs a copy of the template through the engine as a nonblocking
 * collective whose request has no handle (mmpi_coll_activate; a barrier:
 * mmpi_coll_ibarrier_start_at) and makes it `inner`. An activation is thus an ordinary
 * collective instance on the board, but numbered apart from the communicator's other
 * collectives: MPI-4.1 §6.13 matches persistent collectives by the order of their
 * initialization calls, so members may start them in different orders, and in any order
 * relative to their other collectives. The number of activation j of the communicator's k-th
 * persistent request (counted by each member's handle, c->pcoll_inits) is
 * activation_seq(k, j) below: every member computes the same one. A hint
 * "mpi_assert_strict_persistent_collective_ordering" changes nothing (the numbering is right
 * either way). Every
 * failure and revoke behaviour is the nonblocking collective's (engine.c): an activation with a
 * member that failed completes with MPI_ERR_PROC_FAILED, one pending at a revoke with
 * MPI_ERR_REVOKED, both in finite time and reported by the completing call; one started on a
 * revoked communicator completes at once with MPI_ERR_REVOKED, touching no board (where a
 * nonblocking collective's call fails: MPI_Start itself succeeds, as for point-to-point).
 * The copy's type-array pointers (send.dts, recv.dts) point into the template's array, which
 * lives as long as the request; the request cannot be freed while active (MPI_ERR_REQUEST,
 * pt2pt/request_api.c), so it outlives every activation.
 */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/persistent.h"
#include "mmpi.h"
#include "pt2pt/request.h"

struct persistent_coll {
    bool barrier;                /* MPI_Barrier_init: no part */
    struct mmpi_coll part;       /* immutable: the template (owner only) */
    uint64_t index;              /* immutable: how many persistent collectives were
                                  * initialized on the communicator before this one */
    uint64_t starts;             /* owner only: activations started */
};

/* The board numbers of activations: bit 62 set, apart from the communicator's collective
 * numbers (c->coll_seq, far below 2^62) and the fault-tolerant ones (bit 63, ulfm/ulfm.h);
 * then the request's index (31 bits) and its activation count (31 bits). Both wrap: two
 * activations with one number would have to be 2^31 starts, or 2^31 inits, apart and still
 * pending together. */
#define ACTIVATION_SEQ_BIT (1ULL << 62)
#define ACTIVATION_FIELD_BITS 31
#define ACTIVATION_FIELD_MASK ((1ULL << ACTIVATION_FIELD_BITS) - 1)

static uint64_t activation_seq(uint64_t index, uint64_t start)
{
    return ACTIVATION_SEQ_BIT | (index & ACTIVATION_FIELD_MASK) << ACTIVATION_FIELD_BITS |
           (start & ACTIVATION_FIELD_MASK);
}

/* The request the user holds never completes itself; a poll looks at the activation. */
static bool persistent_poll(struct mmpi_request *req)
{
    return !req->inner || mmpi_request_poll(req->inner);
}

static void persistent_free(struct mmpi_request *req)
{
    struct persistent_coll *p = req->state;
    if (req->inner) /* defensive: an active request cannot be freed */
        mmpi_request_release(req->inner);
    if (!p->barrier) {
        mmpi_coll_release_objects(&p->part);
        free(p->part.owned_dts);
    }
    free(p);
}

int mmpi_coll_persistent_new(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                             MPI_Request *request)
{
    struct persistent_coll *p = mmpi_xcalloc(1, sizeof(*p));
    p->barrier = !x;
    p->index = c->pcoll_inits++; /* the same at every member: inits are collective calls */
    if (x) {
        p->part = *x;
        x->owned_dts = NULL; /* now the request's */
        mmpi_coll_retain_objects(&p->part);
    }
    struct mmpi_request *req = mmpi_request_new(self, MMPI_REQ_OTHER);
    req->refs = 1; /* only the user's: no engine work until MPI_Start */
    req->persistent = true;
    req->comm = c->handle;
    req->core = c->core; /* MPI_Start checks that the communicator is still this one */
    mmpi_comm_core_retain(c->core);
    req->state = p;
    req->poll = persistent_poll;
    req->free_state = persistent_free;
    return mmpi_request_publish(self, req, request);
}

static bool done_poll(struct mmpi_request *req)
{
    return true;
}

/* An activation on a revoked communicator fails at once and touches no board: after a revoke
 * the members may have started different numbers of collectives, so their instance numbers no
 * longer pair up (chapter "Process Fault Tolerance": every later operation fails). */
static struct mmpi_request *revoked_activation(struct mmpi_rank *self, struct mmpi_comm *c)
{
    struct mmpi_request *req = mmpi_request_new(self, MMPI_REQ_OTHER);
    req->comm = c->handle;
    req->poll = done_poll;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    mmpi_request_complete(req, MPI_ERR_REVOKED);
    return req;
}

bool mmpi_coll_persistent_is(const struct mmpi_request *req)
{
    return req->persistent && req->free_state == persistent_free;
}

bool mmpi_coll_request_active(const struct mmpi_request *req)
{
    if (mmpi_coll_persistent_is(req))
        return req->inner != NULL;
    return req->collective;
}

int mmpi_coll_persistent_start(struct mmpi_rank *self, struct mmpi_comm *c,
                               struct mmpi_request *req)
{
    struct persistent_coll *p = req->state;
    if (mmpi_fault_revoked(&c->core->fault)) {
        req->inner = revoked_activation(self, c);
        return MPI_SUCCESS;
    }
    uint64_t seq = activation_seq(p->index, p->starts++);
    mmpi_coll_count_board(c, p->barrier ? MMPI_COLLOP_BARRIER : p->part.algo->op,
                          MMPI_COLLFORM_PERSISTENT);
    if (p->barrier) {
        req->inner = mmpi_coll_ibarrier_start_at(self, c, seq);
        return MPI_SUCCESS;
    }
    struct mmpi_coll x = p->part;
    x.owned_dts = NULL; /* the activation borrows the template's type arrays */
    x.ndts = 0;
    x.persistent = false;
    req->inner = mmpi_coll_activate(self, c, &x, seq);
    return MPI_SUCCESS;
}
