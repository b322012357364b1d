/*
 * coll/barrier.c: the implementation of MPI_Barrier, MPI_Ibarrier and MPI_Barrier_init (MPI-4.1
 * §6.3, §6.12.1, §6.13): mmpi_coll_barrier and mmpi_coll_ibarrier (bindings in barrier_api.c;
 * small intracommunicators take coll/fast.c's barrier). On the collective board: every
 * member arrives; nobody leaves before all have arrived. A member that failed without arriving
 * makes every waiting member's barrier complete with MPI_ERR_PROC_FAILED. Each activation of an
 * MPI_Barrier_init request (persistent.c) is an MPI_Ibarrier without a handle.
 */
#include <stdlib.h>

#include "coll/board.h"
#include "coll/check.h"
#include "coll/coll.h"
#include "coll/fast.h"
#include "comm/intercomm.h"
#include "mmpi.h"
#include "pt2pt/request.h"

/* Out of line, so that the fast path's caller saves no registers for it. */
__attribute__((noinline)) static int barrier(struct mmpi_rank *self, struct mmpi_comm *c)
{
    /* An intercommunicator's bridge joins both groups: nobody leaves before all members of
     * both have arrived, which §6.3's "all of the other group" needs. */
    struct mmpi_comm_core *core = mmpi_comm_board_core(c);
    int me = mmpi_comm_board_rank(c);
    mmpi_coll_count_board(c, MMPI_COLLOP_BARRIER, MMPI_COLLFORM_BLOCKING);
    struct mmpi_board_instance *inst = mmpi_board_arrive(core, c->coll_seq++, me, NULL, NULL);
    int err = mmpi_board_wait_arrived(self, core, inst);
    mmpi_board_leave(core, inst, me);
    return err;
}

int mmpi_coll_barrier(struct mmpi_rank *self, struct mmpi_comm *c)
{
    return mmpi_coll_fast_ok(c) ? mmpi_coll_fast_barrier(self, c) : barrier(self, c);
}

struct ibarrier_state {
    struct mmpi_comm_core *core;
    struct mmpi_board_instance *inst;
    int me;
};

static bool ibarrier_poll(struct mmpi_request *req)
{
    struct ibarrier_state *s = req->state;
    if (mmpi_request_is_done(req))
        return true;
    int r = mmpi_board_test_arrived(req->owner, s->core, s->inst);
    if (r == -1)
        return false;
    /* Only the owner polls its request, so completing here cannot race. */
    mmpi_board_leave(s->core, s->inst, s->me);
    s->inst = NULL;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    mmpi_request_complete(req, r);
    return true;
}

static void ibarrier_free(struct mmpi_request *req)
{
    struct ibarrier_state *s = req->state;
    if (s->inst)
        mmpi_board_leave(s->core, s->inst, s->me);
    mmpi_comm_core_release(s->core);
    free(s);
}

struct mmpi_request *mmpi_coll_ibarrier_start_at(struct mmpi_rank *self, struct mmpi_comm *c,
                                                 uint64_t seq)
{
    struct ibarrier_state *s = mmpi_xmalloc(sizeof(*s));
    s->core = mmpi_comm_board_core(c);
    mmpi_comm_core_retain(s->core);
    s->me = mmpi_comm_board_rank(c);
    s->inst = mmpi_board_arrive(s->core, seq, s->me, NULL, NULL);
    return mmpi_request_new_collective(self, c->handle, s, ibarrier_poll, ibarrier_free);
}

struct mmpi_request *mmpi_coll_ibarrier_start(struct mmpi_rank *self, struct mmpi_comm *c)
{
    return mmpi_coll_ibarrier_start_at(self, c, c->coll_seq++);
}

int mmpi_coll_ibarrier(struct mmpi_rank *self, struct mmpi_comm *c, bool persistent,
                       MPI_Request *request)
{
    if (persistent)
        return mmpi_coll_persistent_new(self, c, NULL, request);
    mmpi_coll_count_board(c, MMPI_COLLOP_BARRIER, MMPI_COLLFORM_NONBLOCKING);
    /* On failure the arrival stands: the others are not blocked by us. */
    return mmpi_request_publish(self, mmpi_coll_ibarrier_start(self, c), request);
}
