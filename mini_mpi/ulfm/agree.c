/*
 * ulfm/agree.c: the implementation of MPIX_Comm_agree and MPIX_Comm_iagree (§17.3.3):
 * mmpi_ulfm_agree and mmpi_ulfm_iagree (bindings in agree_api.c; an intercommunicator's
 * agreement is inter_agree.c). Each live member deposits its flag
 * and the failures it has acknowledged; once every member has arrived or failed, one combine
 * step computes the bitwise AND of the contributions and whether some failed member did not
 * contribute without every participant having acknowledged it. That one result is what every
 * member returns, so MPI_ERR_PROC_FAILED is raised uniformly and the flag is the same
 * everywhere. Agreement ignores revocation.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/board.h"
#include "mpit/mpit.h"
#include "pt2pt/request.h"
#include "ulfm/inter.h"
#include "ulfm/ulfm.h"


struct agree_deposit {
    int flag;
    const uint8_t *acked; /* the contributor's acknowledged failures, or NULL */
};

struct agree_result {
    int flag;
    int err;
};

static void agree_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *core)
{
    struct agree_result *r = mmpi_xmalloc(sizeof(*r));
    r->flag = ~0;
    r->err = MPI_SUCCESS;
    for (int i = 0; i < core->size; i++) {
        const struct agree_deposit *d = mmpi_board_deposit(inst, i);
        if (mmpi_board_arrived(inst, i)) {
            r->flag &= d->flag;
            continue;
        }
        /* Member i failed without contributing: an error unless everyone acknowledged it. */
        for (int j = 0; j < core->size && r->err == MPI_SUCCESS; j++) {
            const struct agree_deposit *dj = mmpi_board_deposit(inst, j);
            if (mmpi_board_arrived(inst, j) && (!dj->acked || !dj->acked[i]))
                r->err = MPI_ERR_PROC_FAILED;
        }
    }
    inst->result = r;
}

/* Per-call state: the deposit must outlive the call for iagree. */
struct agree_state {
    struct agree_deposit deposit;
    uint8_t *acked_copy;
    struct mmpi_comm_core *core;
    struct mmpi_board_instance *inst;
    int me;
    int *flag;
};

static struct agree_state *agree_start(struct mmpi_comm *c, int *flag)
{
    struct agree_state *s = mmpi_xcalloc(1, sizeof(*s));
    int n = c->core->size;
    if (c->acked) { /* a snapshot: later acknowledgements must not change this agreement */
        s->acked_copy = mmpi_xmalloc((size_t)n);
        memcpy(s->acked_copy, c->acked, (size_t)n);
    }
    s->deposit.flag = *flag;
    s->deposit.acked = s->acked_copy;
    s->core = c->core;
    mmpi_comm_core_retain(c->core);
    s->flag = flag;
    s->me = c->rank;
    s->inst =
        mmpi_board_arrive(c->core, mmpi_ulfm_next_seq(c), c->rank, &s->deposit, agree_combine);
    return s;
}

/* Completes: copies the agreed flag out and returns the uniform error. The members that did
 * not contribute are now known to have failed. */
static int agree_finish(struct mmpi_rank *self, struct agree_state *s)
{
    const struct agree_result *r = s->inst->result;
    if (!r) { /* members called different collectives (coll/board.h): nothing agreed */
        mmpi_board_leave(s->core, s->inst, s->me);
        s->inst = NULL;
        return MPI_ERR_OTHER;
    }
    mmpi_board_notice_missing(self, s->core, s->inst);
    int err = r->err;
    *s->flag = r->flag;
    mmpi_pvar_add(MMPI_PVAR_AGREEMENTS, 1);
    mmpi_board_leave(s->core, s->inst, s->me);
    s->inst = NULL;
    return err;
}

static void agree_state_free(struct agree_state *s)
{
    if (s->inst)
        mmpi_board_leave(s->core, s->inst, s->me);
    mmpi_comm_core_release(s->core);
    free(s->acked_copy);
    free(s);
}

int mmpi_ulfm_agree(struct mmpi_rank *self, struct mmpi_comm *c, int *flag)
{
    if (c->core->remote) /* ulfm/inter_agree.c */
        return mmpi_inter_agree(self, c, flag, NULL);
    struct agree_state *s = agree_start(c, flag);
    /* Agreement is combined over the deposits of the members, so it only reads memory that
     * lives in each participant's state: the combine step copies what it needs. */
    mmpi_board_wait_settled(self, c->core, s->inst, agree_combine);
    int err = agree_finish(self, s);
    agree_state_free(s);
    return err;
}

static bool iagree_poll(struct mmpi_request *req)
{
    struct agree_state *s = req->state;
    if (mmpi_request_is_done(req))
        return true;
    if (mmpi_board_test_settled(s->core, s->inst, agree_combine) == -1)
        return false;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    mmpi_request_complete(req, agree_finish(req->owner, s));
    return true;
}

static void iagree_free(struct mmpi_request *req)
{
    agree_state_free(req->state);
}

int mmpi_ulfm_iagree(struct mmpi_rank *self, struct mmpi_comm *c, int *flag,
                     MPI_Request *request)
{
    if (c->core->remote)
        return mmpi_inter_agree(self, c, flag, request);
    /* The flag is read now and written only at completion (§17.3.3). */
    struct mmpi_request *req = mmpi_request_new_collective(self, c->handle, agree_start(c, flag),
                                                           iagree_poll, iagree_free);
    return mmpi_request_publish(self, req, request);
}
