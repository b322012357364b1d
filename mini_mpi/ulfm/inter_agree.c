/*
 * ulfm/inter_agree.c: agreement on an intercommunicator (ULFM, Open MPI 5 semantics): every
 * live member of both groups deposits its flag and its acknowledgements on the bridge board;
 * once every member has arrived or failed, one combine step computes each group's AND and
 * the uniform error, and each member returns the AND of the *other* group's flags.
 *
 * Failures: a member that failed without contributing makes the agreement raise
 * MPI_ERR_PROC_FAILED everywhere unless every contributor of the other group acknowledged it
 * (acknowledgements on an intercommunicator name remote members only, so a group cannot
 * acknowledge its own). Agreement ignores revocation.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/board.h"
#include "comm/intercomm.h"
#include "pt2pt/request.h"
#include "ulfm/inter.h"
#include "ulfm/ulfm.h"

struct deposit {
    int flag;
    const uint8_t *acked; /* [remote size]: the contributor's acknowledged remote failures */
};

struct result {
    int flag[2]; /* AND of each side's flags */
    int err;
};

/* Whether every contributor of side `other` acknowledged local rank r of the other side. */
static bool acked_by_side(struct mmpi_board_instance *inst, int base, int n, int r)
{
    for (int j = base; j < base + n; j++) {
        const struct deposit *d = mmpi_board_deposit(inst, j);
        if (mmpi_board_arrived(inst, j) && (!d->acked || !d->acked[r]))
            return false;
    }
    return true;
}

static void combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *b)
{
    int n0 = mmpi_intercomm_side(b, 0)->size, n1 = b->size - n0;
    struct result *r = mmpi_xmalloc(sizeof(*r));
    r->flag[0] = r->flag[1] = ~0;
    r->err = MPI_SUCCESS;
    for (int i = 0; i < b->size; i++) {
        int side = i >= n0, local = side ? i - n0 : i;
        if (mmpi_board_arrived(inst, i)) {
            r->flag[side] &= ((const struct deposit *)mmpi_board_deposit(inst, i))->flag;
            continue;
        }
        if (r->err == MPI_SUCCESS &&
            !acked_by_side(inst, side ? 0 : n0, side ? n0 : n1, local))
            r->err = MPI_ERR_PROC_FAILED;
    }
    inst->result = r;
}

struct state {
    struct deposit deposit;
    uint8_t *acked_copy;
    struct mmpi_comm_core *bridge;
    struct mmpi_board_instance *inst;
    int side;
    int me; /* member index on the bridge */
    int *flag;
};

static struct state *start(struct mmpi_comm *c, int *flag)
{
    struct state *s = mmpi_xcalloc(1, sizeof(*s));
    int n = c->core->remote->size;
    if (c->acked) { /* a snapshot: later acknowledgements must not change this agreement */
        s->acked_copy = mmpi_xmalloc((size_t)n);
        memcpy(s->acked_copy, c->acked, (size_t)n);
    }
    s->deposit.flag = *flag;
    s->deposit.acked = s->acked_copy;
    s->bridge = c->core->bridge;
    s->side = s->bridge->remote != c->core;
    mmpi_comm_core_retain(s->bridge);
    s->flag = flag;
    s->me = mmpi_comm_board_rank(c);
    s->inst = mmpi_board_arrive(s->bridge, mmpi_ulfm_next_seq(c), s->me,
                                &s->deposit, combine);
    return s;
}

static int finish(struct mmpi_rank *self, struct state *s)
{
    const struct result *r = s->inst->result;
    if (!r) { /* members called different collectives (coll/board.h): nothing agreed */
        mmpi_board_leave(s->bridge, s->inst, s->me);
        s->inst = NULL;
        return MPI_ERR_OTHER;
    }
    mmpi_board_notice_missing(self, s->bridge, s->inst);
    int err = r->err;
    *s->flag = r->flag[!s->side];
    mmpi_board_leave(s->bridge, s->inst, s->me);
    s->inst = NULL;
    return err;
}

static void state_free(struct state *s)
{
    if (s->inst)
        mmpi_board_leave(s->bridge, s->inst, s->me);
    mmpi_comm_core_release(s->bridge);
    free(s->acked_copy);
    free(s);
}

static bool poll(struct mmpi_request *req)
{
    struct state *s = req->state;
    if (mmpi_request_is_done(req))
        return true;
    if (mmpi_board_test_settled(s->bridge, s->inst, combine) == -1)
        return false;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    mmpi_request_complete(req, finish(req->owner, s));
    return true;
}

static void free_state(struct mmpi_request *req)
{
    state_free(req->state);
}

int mmpi_inter_agree(struct mmpi_rank *self, struct mmpi_comm *c, int *flag,
                     MPI_Request *request)
{
    if (!request) {
        struct state *s = start(c, flag);
        mmpi_board_wait_settled(self, s->bridge, s->inst, combine);
        int err = finish(self, s);
        state_free(s);
        return err;
    }
    struct mmpi_request *req =
        mmpi_request_new_collective(self, c->handle, start(c, flag), poll, free_state);
    return mmpi_request_publish(self, req, request);
}
