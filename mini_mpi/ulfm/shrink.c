/*
 * ulfm/shrink.c: the implementation of MPIX_Comm_shrink and MPIX_Comm_ishrink (§17.3.2):
 * mmpi_ulfm_shrink and mmpi_ulfm_ishrink (bindings in shrink_api.c; an intercommunicator's
 * shrink is inter_shrink.c). Every live member arrives on the
 * parent's board; once every member has arrived or failed, one combine step builds the new
 * core from the members that arrived, in their old order, so all survivors agree on who is in
 * it. A member that arrived and then failed is kept (its failure will be reported by later
 * operations, as on a real machine). Shrink never raises MPI_ERR_PROC_FAILED or
 * MPI_ERR_REVOKED.
 */
#include <stdlib.h>

#include "coll/board.h"
#include "comm/create.h"
#include "mpit/mpit.h"
#include "pt2pt/request.h"
#include "ulfm/inter.h"
#include "ulfm/ulfm.h"


struct shrink_result {
    struct mmpi_comm_core *core;
    int *new_rank; /* [parent size]: rank in the new comm, -1 if left out */
};

static void shrink_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    int n = 0;
    int *ranks = mmpi_xmalloc((size_t)pc->size * sizeof(int));
    struct shrink_result *r = mmpi_xmalloc(sizeof(*r) + (size_t)pc->size * sizeof(int));
    r->new_rank = (int *)(r + 1);
    for (int i = 0; i < pc->size; i++) {
        r->new_rank[i] = mmpi_board_arrived(inst, i) ? n : -1;
        if (r->new_rank[i] >= 0)
            ranks[n++] = pc->world_ranks[i];
    }
    r->core = mmpi_comm_core_new(n, ranks);
    r->core->refcount = n;
    inst->result = r; /* one block: freed with the instance */
}

struct shrink_state {
    struct mmpi_comm_core *core;
    struct mmpi_board_instance *inst;
    int me;
    MPI_Comm parent;
    MPI_Comm *newcomm;
};

static struct shrink_state *shrink_start(struct mmpi_comm *c, MPI_Comm *newcomm)
{
    struct shrink_state *s = mmpi_xcalloc(1, sizeof(*s));
    s->core = c->core;
    mmpi_comm_core_retain(c->core);
    s->parent = c->handle;
    s->newcomm = newcomm;
    s->me = c->rank;
    s->inst = mmpi_board_arrive(c->core, mmpi_ulfm_next_seq(c), c->rank, NULL, shrink_combine);
    return s;
}

/* Makes the calling member's handle to the new communicator. */
static int shrink_finish(struct mmpi_rank *self, struct mmpi_comm *parent, struct shrink_state *s)
{
    const struct shrink_result *r = s->inst->result;
    if (!r) { /* members called different collectives (coll/board.h): nothing agreed */
        mmpi_board_leave(s->core, s->inst, s->me);
        s->inst = NULL;
        return MPI_ERR_OTHER;
    }
    mmpi_board_notice_missing(self, s->core, s->inst);
    struct mmpi_comm *nc = mmpi_comm_handle_object(parent, r->core, r->new_rank[parent->rank]);
    mmpi_board_leave(s->core, s->inst, s->me);
    s->inst = NULL;
    mmpi_pvar_add(MMPI_PVAR_SHRINKS, 1);
    return mmpi_comm_register(self, nc, s->newcomm);
}

static void shrink_state_free(struct shrink_state *s)
{
    if (s->inst)
        mmpi_board_leave(s->core, s->inst, s->me);
    mmpi_comm_core_release(s->core);
    free(s);
}

int mmpi_ulfm_shrink(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm *newcomm)
{
    if (c->core->remote) /* ulfm/inter_shrink.c */
        return mmpi_inter_shrink(self, c, newcomm, NULL);
    struct shrink_state *s = shrink_start(c, newcomm);
    mmpi_board_wait_settled(self, c->core, s->inst, shrink_combine);
    int err = shrink_finish(self, c, s);
    shrink_state_free(s);
    return err;
}

static bool ishrink_poll(struct mmpi_request *req)
{
    struct shrink_state *s = req->state;
    if (mmpi_request_is_done(req))
        return true;
    if (mmpi_board_test_settled(s->core, s->inst, shrink_combine) == -1)
        return false;
    struct mmpi_comm *parent = mmpi_comm_get(req->owner, s->parent);
    int err = parent ? shrink_finish(req->owner, parent, s) : MPI_ERR_COMM;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    mmpi_request_complete(req, err);
    return true;
}

static void ishrink_free(struct mmpi_request *req)
{
    shrink_state_free(req->state);
}

int mmpi_ulfm_ishrink(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm *newcomm,
                      MPI_Request *request)
{
    if (c->core->remote)
        return mmpi_inter_shrink(self, c, newcomm, request);
    struct mmpi_request *req = mmpi_request_new_collective(
        self, c->handle, shrink_start(c, newcomm), ishrink_poll, ishrink_free);
    return mmpi_request_publish(self, req, request);
}
