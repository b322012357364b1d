/*
 * restart/restart_api.c: the entry points of restarting a failed rank in place,
 * MPIX_Comm_restart_rank and MPIX_Comm_irestart_rank (with the MPI_ spellings the
 * fault-tolerance scenarios use), and the request of the nonblocking one. restart.h states the
 * semantics; restart.c does the work.
 *
 * Errors, through MPI_COMM_WORLD's handler: MPI_ERR_COMM (comm is not MPI_COMM_WORLD, or the
 * caller is a spawned rank, whose MPI_COMM_WORLD is its spawn's), MPI_ERR_RANK, MPI_ERR_ARG (no
 * request pointer), MPI_ERR_REVOKED (the caller's MPI_COMM_WORLD is revoked), MPI_ERR_SPAWN
 * (no slot, thread or program image for the new incarnation), MPI_ERR_PROC_FAILED (the new
 * incarnation died before its MPI_Init returned; the rank is failed again and may be
 * restarted again).
 */
#include <stdio.h>
#include <stdlib.h>

#include "pt2pt/request.h"
#include "restart/restart.h"
#include "ulfm/ulfm.h"

static int check_args(struct mmpi_rank *self, MPI_Comm comm, int rank, struct mmpi_comm **c)
{
    *c = mmpi_comm_get(self, comm);
    if (!*c || comm != MPI_COMM_WORLD)
        return MPI_ERR_COMM;
    if (rank < 0 || rank >= (*c)->core->size)
        return MPI_ERR_RANK;
    return MPI_SUCCESS;
}

struct ready_arg {
    struct mmpi_world *w;
    int slot, err;
};

static bool restart_ready(void *arg)
{
    struct ready_arg *a = arg;
    return mmpi_restart_done(a->w, a->slot, &a->err);
}

static void describe_restart(const void *arg, char *buf, size_t len)
{
    const struct ready_arg *a = arg;
    char who[48];
    snprintf(buf, len, "restart of %s (until its MPI_Init returns)",
             mmpi_rank_label(a->w->ranks[a->slot], who, sizeof who));
}

MMPI_FT_PROFILED(Comm_restart_rank);
int PMPIX_Comm_restart_rank(MPI_Comm comm, int rank)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_restart_rank);
    struct mmpi_comm *c;
    struct ready_arg a = {self->world, -1, MPI_SUCCESS};
    int err = MPI_SUCCESS;

    if ((err = check_args(self, comm, rank, &c)))
        goto fn_fail;
    if ((err = mmpi_restart_begin(self, rank, &a.slot)))
        goto fn_fail;
    mmpi_wait_until_described(self, restart_ready, &a, describe_restart);
    if ((err = a.err))
        goto fn_fail;
    mmpi_restart_move(self);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPIX_CALL_Comm_restart_rank);
    goto fn_exit;
}

static bool irestart_poll(struct mmpi_request *req)
{
    struct ready_arg *a = req->state;
    if (mmpi_request_is_done(req))
        return true;
    if (!restart_ready(a))
        return false;
    if (a->err == MPI_SUCCESS)
        mmpi_restart_move(req->owner); /* the epoch rule: at completion, in the owner's wait */
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    mmpi_request_complete(req, a->err);
    return true;
}

static void irestart_free(struct mmpi_request *req)
{
    free(req->state);
}

MMPI_FT_PROFILED(Comm_irestart_rank);
int PMPIX_Comm_irestart_rank(MPI_Comm comm, int rank, MPI_Request *request)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_irestart_rank);
    struct mmpi_comm *c;
    struct ready_arg *a;
    struct mmpi_request *req;
    int slot = -1;
    int err = MPI_SUCCESS;

    if ((err = check_args(self, comm, rank, &c)))
        goto fn_fail;
    MMPI_FAIL_IF(!request, MPI_ERR_ARG);
    if ((err = mmpi_restart_begin(self, rank, &slot)))
        goto fn_fail;
    a = mmpi_xmalloc(sizeof(*a));
    *a = (struct ready_arg){self->world, slot, MPI_SUCCESS};
    req = mmpi_request_new(self, MMPI_REQ_OTHER);
    req->comm = MPI_COMM_WORLD;
    req->state = a;
    req->poll = irestart_poll;
    req->free_state = irestart_free;
    if ((err = mmpi_request_publish(self, req, request))) {
        mmpi_request_release(req); /* the engine's reference: nothing else holds it */
        goto fn_fail;
    }
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPIX_CALL_Comm_irestart_rank);
    goto fn_exit;
}
