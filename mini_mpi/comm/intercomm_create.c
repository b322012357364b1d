/*
 * intercomm_create.c: MPI_Intercomm_create's implementation (MPI-4.1 §7.6.2).
 *
 * Algorithm: the two leaders meet over peer_comm on the library's matching context
 * (MMPI_CTX_COLL, with the user's tag), so the exchange never matches a user receive. The
 * leader with the higher peer rank sends its group (size and a pointer to its immutable
 * world-rank array: ranks share one address space) and waits; the other leader builds the
 * intercommunicator (intercomm.h: both sides and the bridge, one context id) and sends back
 * the bridge. Each leader then hands the outcome to its own group through a board instance of
 * local_comm (every member arrives; the combine copies the leader's deposit).
 * Cost: two messages between the leaders, one synchronization per group.
 * On process failure: a leader whose partner failed gets MPI_ERR_PROC_FAILED from the
 * exchange and hands that error to its group; a group whose leader (or any member) failed
 * before arriving gets MPI_ERR_PROC_FAILED from the board.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/board.h"
#include "comm/create.h"
#include "comm/intercomm.h"
#include "datatype/datatype.h"
#include "pt2pt/pt2pt.h"

/* Leader to leader: the sender's group. */
struct group_msg {
    int size;
    const int *world_ranks; /* the sender's local core's: immutable, alive while it waits */
};

/* Leader to leader, and leader to its group: the outcome. */
struct outcome {
    int err;
    struct mmpi_comm_core *bridge;
    int side; /* the receiving group's side */
};

static int exchange(struct mmpi_rank *self, struct mmpi_comm *peer, int dest, int tag, bool send,
                    void *buf, int bytes)
{
    struct mmpi_datatype *byte = mmpi_datatype_get(self, MPI_BYTE);
    struct mmpi_request *req =
        send ? mmpi_pt2pt_start_send(self, peer, MMPI_CTX_COLL, buf, bytes, byte, dest, tag,
                                     MMPI_SEND_STANDARD)
             : mmpi_pt2pt_start_recv(self, peer, MMPI_CTX_COLL, buf, bytes, byte, dest, tag);
    mmpi_request_wait(self, req);
    int err = req->error;
    mmpi_request_release(req);
    return err;
}

/* The leaders' part: fills *o. */
static void leaders_meet(struct mmpi_rank *self, struct mmpi_comm *local, struct mmpi_comm *peer,
                         int remote_leader, int tag, struct outcome *o)
{
    struct mmpi_comm_core *lc = local->core;
    memset(o, 0, sizeof(*o));
    /* Over an intercommunicator peer the two leaders' ranks are in different groups: its
     * side 0 builds. */
    bool builds = peer->core->bridge ? peer->core->bridge->remote == peer->core
                                     : peer->rank < remote_leader;
    if (!builds) {
        struct group_msg g = {lc->size, lc->world_ranks};
        o->err = exchange(self, peer, remote_leader, tag, true, &g, sizeof(g));
        if (o->err == MPI_SUCCESS)
            o->err = exchange(self, peer, remote_leader, tag, false, o, sizeof(*o));
        return;
    }
    struct group_msg g;
    o->err = exchange(self, peer, remote_leader, tag, false, &g, sizeof(g));
    if (o->err != MPI_SUCCESS)
        return;
    struct outcome reply = {MPI_SUCCESS, NULL, 1};
    reply.bridge = mmpi_intercomm_between(lc->size, lc->world_ranks, g.size, g.world_ranks);
    if (!reply.bridge)
        reply.err = MPI_ERR_ARG; /* §7.6.2: the groups must be disjoint */
    o->err = exchange(self, peer, remote_leader, tag, true, &reply, sizeof(reply));
    if (o->err != MPI_SUCCESS && reply.bridge) {
        /* The partner failed before the reply could be queued: nobody else knows it. */
        mmpi_intercomm_destroy(reply.bridge);
        reply.bridge = NULL;
    }
    if (o->err == MPI_SUCCESS)
        o->err = reply.err;
    o->bridge = reply.bridge;
    o->side = 0;
}

/* Copies the leader's outcome (the one non-NULL deposit) into the result. */
static void spread_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *core)
{
    struct outcome *o = mmpi_xcalloc(1, sizeof(*o));
    o->err = MPI_ERR_INTERN;
    for (int i = 0; i < core->size; i++) {
        const struct outcome *d = mmpi_board_deposit(inst, i);
        if (d)
            *o = *d;
    }
    inst->result = o;
}

int mmpi_intercomm_hand_out(struct mmpi_rank *self, struct mmpi_comm *local, bool is_leader,
                            int err, struct mmpi_comm_core *bridge, int side,
                            struct mmpi_comm **out)
{
    struct outcome mine = {err, bridge, side};
    struct mmpi_comm_core *lc = local->core;
    struct mmpi_board_instance *inst = mmpi_board_arrive(lc, local->coll_seq++, local->rank,
                                                         is_leader ? &mine : NULL, spread_combine);
    err = mmpi_board_wait_arrived(self, lc, inst);
    *out = NULL;
    if (err == MPI_SUCCESS) {
        const struct outcome *o = inst->result;
        err = o->err;
        if (err == MPI_SUCCESS)
            *out = mmpi_comm_handle_object(local, mmpi_intercomm_side(o->bridge, o->side),
                                           local->rank);
    }
    mmpi_board_leave(lc, inst, local->rank);
    return err;
}

int mmpi_intercomm_create(struct mmpi_rank *self, struct mmpi_comm *local, int local_leader,
                          struct mmpi_comm *peer, int remote_leader, int tag, int leader_err,
                          struct mmpi_comm **out)
{
    struct outcome mine = {leader_err, NULL, 0};
    bool is_leader = local->rank == local_leader;
    if (is_leader && leader_err == MPI_SUCCESS)
        leaders_meet(self, local, peer, remote_leader, tag, &mine);
    return mmpi_intercomm_hand_out(self, local, is_leader, mine.err, mine.bridge, mine.side, out);
}
