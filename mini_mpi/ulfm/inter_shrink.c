/*
 * ulfm/inter_shrink.c: shrink of an intercommunicator (ULFM, Open MPI 5 semantics): every
 * live member of both groups arrives on the bridge board; once every member has arrived or
 * failed, one combine step builds a new intercommunicator from the members that arrived,
 * each group in its old order. A member that arrived and then failed is kept (as in
 * shrink.c). If no member of one group arrived there is no remote group left: the survivors
 * get MPI_COMM_NULL. Shrink never raises MPI_ERR_PROC_FAILED or MPI_ERR_REVOKED.
 */
#include <stdlib.h>

#include "coll/board.h"
#include "comm/create.h"
#include "comm/intercomm.h"
#include "pt2pt/request.h"
#include "ulfm/inter.h"
#include "ulfm/ulfm.h"

struct result {
    struct mmpi_comm_core *side[2]; /* NULL: nothing left */
    int *new_rank;                  /* [bridge size]: rank in the new group, -1 if left out */
};

static void combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *b)
{
    int n0 = mmpi_intercomm_side(b, 0)->size, count[2] = {0, 0};
    int *w[2] = {mmpi_xmalloc(((size_t)n0 + 1) * sizeof(int)),
                 mmpi_xmalloc(((size_t)(b->size - n0) + 1) * sizeof(int))};
    struct result *r = mmpi_xcalloc(1, sizeof(*r) + (size_t)b->size * sizeof(int));
    r->new_rank = (int *)(r + 1);
    for (int i = 0; i < b->size; i++) {
        int s = i >= n0;
        r->new_rank[i] = mmpi_board_arrived(inst, i) ? count[s] : -1;
        if (r->new_rank[i] >= 0)
            w[s][count[s]++] = b->world_ranks[i];
    }
    if (count[0] > 0 && count[1] > 0) {
        struct mmpi_comm_core *nb =
            mmpi_intercomm_new(count[0], w[0], count[0], count[1], w[1], count[1]);
        r->side[0] = mmpi_intercomm_side(nb, 0);
        r->side[1] = mmpi_intercomm_side(nb, 1);
    } else {
        free(w[0]);
        free(w[1]);
    }
    inst->result = r; /* one block: freed with the instance */
}

struct state {
    struct mmpi_comm_core *bridge;
    struct mmpi_board_instance *inst;
    int me, side;
    MPI_Comm parent;
    MPI_Comm *newcomm;
};

static struct state *start(struct mmpi_comm *c, MPI_Comm *newcomm)
{
    struct state *s = mmpi_xcalloc(1, sizeof(*s));
    s->bridge = c->core->bridge;
    mmpi_comm_core_retain(s->bridge);
    s->me = mmpi_comm_board_rank(c);
    s->side = s->bridge->remote != c->core;
    s->parent = c->handle;
    s->newcomm = newcomm;
    s->inst = mmpi_board_arrive(s->bridge, mmpi_ulfm_next_seq(c), s->me, NULL, combine);
    return s;
}

static int finish(struct mmpi_rank *self, struct mmpi_comm *parent, struct state *s)
{
    const struct result *r = s->inst->result;
    if (!r) { /* members called different collectives (coll/board.h): nothing agreed */
        mmpi_board_leave(s->bridge, s->inst, s->me);
        s->inst = NULL;
        return MPI_ERR_OTHER;
    }
    struct mmpi_comm_core *core = r->side[s->side];
    int rank = r->new_rank[s->me];
    mmpi_board_notice_missing(self, s->bridge, s->inst);
    mmpi_board_leave(s->bridge, s->inst, s->me);
    s->inst = NULL;
    *s->newcomm = MPI_COMM_NULL;
    if (!core)
        return MPI_SUCCESS;
    return mmpi_comm_register(self, mmpi_comm_handle_object(parent, core, rank), s->newcomm);
}

static void state_free(struct state *s)
{
    if (s->inst)
        mmpi_board_leave(s->bridge, s->inst, s->me);
    mmpi_comm_core_release(s->bridge);
    free(s);
}

static bool poll(struct mmpi_request *req)
{
    struct state *s = req->state;
    if (mmpi_request_is_done(req))
        return true;
    if (mmpi_board_test_settled(s->bridge, s->inst, combine) == -1)
        return false;
    struct mmpi_comm *parent = mmpi_comm_get(req->owner, s->parent);
    int err = parent ? finish(req->owner, parent, s) : MPI_ERR_COMM;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    mmpi_request_complete(req, err);
    return true;
}

static void free_state(struct mmpi_request *req)
{
    state_free(req->state);
}

int mmpi_inter_shrink(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm *newcomm,
                      MPI_Request *request)
{
    if (!request) {
        struct state *s = start(c, newcomm);
        mmpi_board_wait_settled(self, s->bridge, s->inst, combine);
        int err = finish(self, c, s);
        state_free(s);
        return err;
    }
    struct mmpi_request *req =
        mmpi_request_new_collective(self, c->handle, start(c, newcomm), poll, free_state);
    return mmpi_request_publish(self, req, request);
}
