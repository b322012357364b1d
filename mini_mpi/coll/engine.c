/*
 * coll/engine.c: runs one member's part of a collective on the board (see coll.h for the
 * modes): arrival, the combine trampoline, reading, departure, the finish step, and the
 * request of the nonblocking forms, whose poll runs the same steps without blocking.
 *
 * On process failure (docs/design.md "The fault layer"; the reasoning that makes early returns
 * safe):
 *  - The arrival wait fails with MPI_ERR_PROC_FAILED only while the instance is incomplete and
 *    a failed member never arrived. A dead member never arrives, so the instance can never
 *    complete: no combine runs and no member reads anything. Returning at once is safe.
 *  - It fails with MPI_ERR_REVOKED when the revoke is seen before completion, but the last
 *    member may still arrive afterwards (it passed its entry check just before the revoke).
 *    So a member that saw an error re-reads `complete` under the board lock, which the combine
 *    and the completion hold (board.c complete_once): if still incomplete, the member departs
 *    (so nobody waits for it) and returns; the combine, which runs later, sees the revoke and
 *    touches no deposit, and every member that later sees completion also sees the revoke (it
 *    was set before the re-read) and reads nothing. If complete, the member takes part in the
 *    departure like everyone else, reading nothing.
 *  - After completion, a member that sees the revoke reads nothing, reports MPI_ERR_REVOKED
 *    and still departs and waits: others that checked earlier may be reading its buffers.
 *    Except in SNAPSHOT mode: the snapshot proves a clean completion and reading it touches
 *    no member's memory, so every member gets the result, whenever it wakes up.
 *  - A member that dies after arriving leaves its deposit readable (rank memory is never
 *    unmapped while the world runs); departure waits skip the dead. Only SHARED mode depends
 *    on every member's phase-1 work: there a member that died before departing makes the
 *    result incomplete, and everyone reports MPI_ERR_PROC_FAILED.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/progress.h"
#include "comm/intercomm.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "op/op.h"
#include "pt2pt/request.h"
#include "ulfm/ulfm.h"
#include "util/parse.h"

enum { STEP_ARRIVAL, STEP_DEPARTURE, STEP_DONE };

const struct mmpi_coll *mmpi_coll_deposit(const struct mmpi_board_instance *inst, int i)
{
    return mmpi_board_deposit(inst, i);
}

struct mmpi_coll_result *mmpi_coll_result_new(int mode, size_t noff, size_t bytes)
{
    size_t head = sizeof(struct mmpi_coll_result) + noff * sizeof(size_t);
    head = (head + 15) & ~(size_t)15;
    /* Plain malloc: a combine that cannot get memory falls back to DIRECT mode. */
    struct mmpi_coll_result *r = malloc(head + bytes);
    if (!r)
        return NULL;
    r->mode = mode;
    r->bytes = bytes;
    r->off = noff ? (size_t *)(r + 1) : NULL;
    r->data = (unsigned char *)r + head;
    return r;
}

/* MINI_MPI_COLL_SNAPSHOT (a size: "0", "64k"): replaces every snapshot limit, so that tests
 * can drive the DIRECT and SHARED paths of every collective, blocking and nonblocking, at small
 * sizes (and so that the limit can be tuned). Read once; runtime/launch_config.c has already
 * refused a malformed value at launch. */
static size_t snapshot_override = SIZE_MAX;
static bool snapshot_read; /* atomic: snapshot_override is final (a flag, not pthread_once, which
                            * costs a small allreduce ~10 instructions at every call) */
static pthread_once_t snapshot_once = PTHREAD_ONCE_INIT;

static void read_snapshot_override(void)
{
    const char *v = getenv("MINI_MPI_COLL_SNAPSHOT");
    size_t s;
    if (v && mmpi_parse_size(v, 0, SIZE_MAX / 2, &s))
        snapshot_override = s;
    __atomic_store_n(&snapshot_read, true, __ATOMIC_RELEASE);
}

size_t mmpi_coll_snapshot_override(void)
{
    if (__builtin_expect(!__atomic_load_n(&snapshot_read, __ATOMIC_ACQUIRE), 0))
        pthread_once(&snapshot_once, read_snapshot_override);
    return snapshot_override;
}

size_t mmpi_coll_snapshot_max(const struct mmpi_coll *me)
{
    size_t o = mmpi_coll_snapshot_override();
    if (o != SIZE_MAX)
        return o;
    return me->nonblocking ? MMPI_COLL_NB_SNAPSHOT_MAX : MMPI_COLL_SNAPSHOT_MAX;
}

void mmpi_coll_piece(const struct mmpi_coll_vec *v, int j, char **buf, size_t *count,
                     const struct mmpi_datatype **dt)
{
    if (v->byte_displs) {
        *buf = v->buf + mmpi_poly_at(v->displs, (size_t)j);
        *count = (size_t)mmpi_poly_at(v->counts, (size_t)j);
        *dt = v->dts[j];
    } else if (!mmpi_poly_null(v->counts)) {
        *buf = v->buf + mmpi_poly_at(v->displs, (size_t)j) * v->dt->extent;
        *count = (size_t)mmpi_poly_at(v->counts, (size_t)j);
        *dt = v->dt;
    } else {
        *buf = v->buf + (MPI_Aint)j * (MPI_Aint)v->count * v->dt->extent;
        *count = v->count;
        *dt = v->dt;
    }
}

size_t mmpi_coll_piece_bytes(const struct mmpi_coll_vec *v, int j)
{
    char *buf;
    size_t count;
    const struct mmpi_datatype *dt;
    mmpi_coll_piece(v, j, &buf, &count, &dt);
    return count * dt->size;
}

/* The board's combine step: finds the combining member's own part (its op and datatype
 * handles are the ones valid in this thread) and runs the collective's combine. */
static void combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *core)
{
    /* Someone may have returned on the revoke already (see above): hands off the deposits. */
    if (mmpi_fault_revoked(&core->fault))
        return;
    for (int i = 0; i < core->size; i++) {
        const struct mmpi_coll *d = mmpi_board_deposit(inst, i);
        if (d && d->self == mmpi_self) {
            if (d->algo->combine)
                d->algo->combine(d, inst);
            return;
        }
    }
}

static bool revoked_now(const struct mmpi_comm_core *core)
{
    return mmpi_fault_revoked(&core->fault);
}

static void end(struct mmpi_coll *x)
{
    mmpi_board_leave(x->core, x->inst, x->rank);
    x->inst = NULL;
    x->step = STEP_DONE;
    free(x->tmp);
    x->tmp = NULL;
    free(x->tmp_off);
    x->tmp_off = NULL;
}

static int mode_of(const struct mmpi_board_instance *inst)
{
    const struct mmpi_coll_result *res = inst->result;
    return res ? res->mode : MMPI_COLL_DIRECT;
}

/* `kill R during` this collective (inject.h): a member ranked above R took its full part, and
 * now fails (the arrival step already waited for R's death). */
static void apply_cut(struct mmpi_coll *x)
{
    if (x->err == MPI_SUCCESS && mmpi_board_cut_excludes(x->self, x->core, x->inst))
        x->err = MPI_ERR_PROC_FAILED;
}

/* Runs the steps that can run now; true once the member's part is over (x->err set). */
static bool advance(struct mmpi_coll *x, bool block)
{
    struct mmpi_comm_core *core = x->core;
    struct mmpi_board_instance *inst = x->inst;

    if (x->step == STEP_ARRIVAL) {
        int r = block ? mmpi_board_wait_arrived(x->self, core, inst)
                      : mmpi_board_test_arrived(x->self, core, inst);
        if (r == -1)
            return false;
        if (r != MPI_SUCCESS &&
            (mmpi_board_mismatched(inst) || !mmpi_board_completed_after_all(core, inst))) {
            /* Late completers must not wait for us. */
            mmpi_board_depart(x->core, x->inst, x->rank);
            x->err = r;
            end(x);
            return true;
        }
        const struct mmpi_coll_result *res = inst->result;
        /* A snapshot exists only when the combine ran before any revoke (combine() above):
         * the collective completed cleanly, and its result belongs to the instance, not to
         * any member's buffers. A later revoke must not take it from a member that was
         * merely slow to copy it out, or outcomes would depend on scheduling
         * (docs/design.md "Fault injection and determinism"). */
        if (revoked_now(core) && mode_of(inst) != MMPI_COLL_SNAPSHOT) {
            x->err = MPI_ERR_REVOKED;
            x->wait = true;
        } else {
            x->err = x->algo->read(x, inst, res);
        }
        if (mode_of(inst) == MMPI_COLL_SNAPSHOT) {
            apply_cut(x);
            end(x); /* nobody reads deposits after a snapshot: no departure */
            return true;
        }
        mmpi_board_depart(x->core, x->inst, x->rank);
        x->step = STEP_DEPARTURE;
    }
    int mode = mode_of(inst);
    if (x->wait || x->algo->finish) {
        if (block)
            mmpi_board_wait_departed(x->self, core, inst);
        else if (!mmpi_board_test_departed(x->self, core, inst))
            return false;
    }
    if (x->err == MPI_SUCCESS && x->algo->finish) {
        /* SHARED: a member that died before finishing its slice left the result incomplete. */
        if (mode == MMPI_COLL_SHARED && mmpi_board_departure_missing(x->self, core, inst))
            x->err = MPI_ERR_PROC_FAILED;
        else if (mode == MMPI_COLL_SHARED && revoked_now(core))
            x->err = MPI_ERR_REVOKED; /* some member may have skipped its slice */
        else
            x->err = x->algo->finish(x, inst->result);
    }
    apply_cut(x);
    end(x);
    return true;
}

/* ---- Nonblocking forms ------------------------------------------------------------------ */

bool mmpi_coll_nonblocking_step(struct mmpi_coll *x)
{
    struct mmpi_request *req = x->req;
    if (!advance(x, false))
        return false;
    mmpi_coll_pending_remove(x); /* before completion: x may be freed right after it */
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    req->status.mmpi_count = 0;
    mmpi_request_complete(req, x->err);
    return true;
}

static bool coll_poll(struct mmpi_request *req)
{
    struct mmpi_coll *x = req->state;
    if (mmpi_request_is_done(req))
        return true;
    /* Only the owner's threads run the steps: this poll, or a blocking wait of the owner
     * progressing it (progress.h); the claim keeps them one at a time. */
    if (!mmpi_coll_pending_claim(x))
        return false;
    if (mmpi_coll_nonblocking_step(x))
        return true;
    mmpi_coll_pending_unclaim(x);
    return false;
}

void mmpi_coll_retain_objects(const struct mmpi_coll *x)
{
    mmpi_datatype_retain(x->send.dt);
    mmpi_datatype_retain(x->recv.dt);
    if (x->owned_dts)
        for (int i = 0; i < x->ndts; i++)
            mmpi_datatype_retain(x->owned_dts[i]);
    mmpi_op_retain((struct mmpi_op *)x->op);
}

void mmpi_coll_release_objects(const struct mmpi_coll *x)
{
    mmpi_datatype_release(x->send.dt);
    mmpi_datatype_release(x->recv.dt);
    if (x->owned_dts)
        for (int i = 0; i < x->ndts; i++)
            mmpi_datatype_release(x->owned_dts[i]);
    mmpi_op_release((struct mmpi_op *)x->op);
}

static void coll_free(struct mmpi_request *req)
{
    struct mmpi_coll *x = req->state;
    mmpi_coll_pending_remove(x); /* a request abandoned with its failed owner */
    if (x->inst) /* defensive: the part always ends before the request completes */
        end(x);
    mmpi_coll_release_objects(x);
    mmpi_comm_core_release(x->core);
    free(x->owned_dts);
    free(x);
}

/* The engine request of x's nonblocking part: a heap copy of x (references on the
 * communicator, types and op; x's owned_dts move into it), not yet arrived, no handle. */
static struct mmpi_request *new_request(struct mmpi_rank *self, struct mmpi_comm *c,
                                        struct mmpi_coll *x)
{
    struct mmpi_coll *h = mmpi_xmalloc(sizeof(*h));
    *h = *x;
    x->owned_dts = NULL; /* now h's */
    mmpi_comm_core_retain(h->core);
    mmpi_coll_retain_objects(h);

    struct mmpi_request *req = mmpi_request_new_collective(self, c->handle, h, coll_poll,
                                                           coll_free);
    h->req = req;
    h->busy = 0;
    h->pending_next = NULL;
    h->pending_prev = NULL;
    return req;
}

static void arrive(struct mmpi_request *req, uint64_t seq)
{
    struct mmpi_coll *h = req->state;
    h->inst = mmpi_board_arrive_signed(h->core, seq, h->rank, h, combine,
                                       (uintptr_t)h->algo);
    mmpi_coll_pending_add(h);
}

static int start_nonblocking(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                             MPI_Request *request)
{
    struct mmpi_request *req = new_request(self, c, x);
    /* The handle first: a member that arrived must be able to depart, so it must not be
     * left without a request that someone can poll. */
    if (mmpi_request_publish(self, req, request) != MPI_SUCCESS) {
        mmpi_request_release(req); /* nothing started: the engine's reference goes too */
        return MPI_ERR_NO_MEM;
    }
    arrive(req, c->coll_seq++);
    return MPI_SUCCESS;
}

/* The member's fields of x that every run starts from. */
static void prepare(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                    bool nonblocking)
{
    x->self = self;
    x->core = mmpi_comm_board_core(c); /* an intercommunicator's bridge (coll/inter.h) */
    x->rank = mmpi_comm_board_rank(c);
    x->size = x->core->size;
    x->step = STEP_ARRIVAL;
    x->err = MPI_SUCCESS;
    x->wait = false;
    x->tmp = NULL;
    x->tmp_off = NULL;
    x->inst = NULL;
    x->nonblocking = nonblocking;
}

struct mmpi_request *mmpi_coll_activate(struct mmpi_rank *self, struct mmpi_comm *c,
                                        struct mmpi_coll *x, uint64_t seq)
{
    prepare(self, c, x, true);
    struct mmpi_request *req = new_request(self, c, x);
    arrive(req, seq);
    return req;
}

int mmpi_coll_run(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                  MPI_Request *request)
{
    if (x->persistent) /* MPI_*_init: the part is every activation's template */
        return mmpi_coll_persistent_new(self, c, x, request);
    mmpi_coll_count_board(c, x->algo->op,
                          request ? MMPI_COLLFORM_NONBLOCKING : MMPI_COLLFORM_BLOCKING);
    prepare(self, c, x, request != NULL);
    if (request) {
        int err = start_nonblocking(self, c, x, request);
        free(x->owned_dts);
        return err;
    }
    x->inst = mmpi_board_arrive_signed(x->core, c->coll_seq++, x->rank, x, combine,
                                       (uintptr_t)x->algo);
    advance(x, true);
    free(x->owned_dts);
    x->owned_dts = NULL;
    return x->err;
}
