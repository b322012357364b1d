/*
 * intercomm.h: intercommunicators (MPI-4.1 §7.6). An intercommunicator is two side cores (one
 * per group: its members' mailboxes, handles' core) pointing at each other through `remote`,
 * and one *bridge*: a core over both groups (side 0's members, then side 1's) whose board runs
 * every operation that involves both groups (collectives, agreement, shrink, dup, split,
 * merge). Side 0 is the group of the leader with the lower rank in the peer communicator.
 *
 * Lifetime: each side's refcount counts its handles and requests as for any core; when it
 * drops to zero the side releases its reference on the bridge (comm.c), and the bridge, whose
 * refcount is 2 (the sides) plus transient users (nonblocking collectives), frees all three.
 * So a request of one group keeps the other group's mailboxes alive.
 *
 * Revocation marks both sides and the bridge (fault/registry.c), so board waits on the bridge
 * see it.
 */
#ifndef MMPI_COMM_INTERCOMM_H
#define MMPI_COMM_INTERCOMM_H

#include "mmpi.h"

struct mmpi_board_instance;

/* A new intercommunicator over groups w0[n0] and w1[n1] (arrays taken over); the sides start
 * with refs0 and refs1 references (one per member that will hold a handle). Returns the
 * bridge; side 0 is bridge->remote, side 1 is side 0's remote. Both sides and the bridge share
 * one new context id. */
struct mmpi_comm_core *mmpi_intercomm_new(int n0, int *w0, int refs0, int n1, int *w1, int refs1);
/* An intercommunicator between two groups given by their world ranks (copied), every member
 * of both to hold one handle; NULL when the groups overlap (§7.6.2: they must be disjoint). */
struct mmpi_comm_core *mmpi_intercomm_between(int n0, const int *w0, int n1, const int *w1);
/* Frees a bridge whose last reference is gone, with both sides (comm.c calls it). */
void mmpi_intercomm_destroy(struct mmpi_comm_core *bridge);

static inline struct mmpi_comm_core *mmpi_intercomm_side(struct mmpi_comm_core *bridge, int s)
{
    return s == 0 ? bridge->remote : bridge->remote->remote;
}

/* The core whose board runs c's collectives (the bridge of an intercommunicator), and the
 * calling member's index on it. */
static inline struct mmpi_comm_core *mmpi_comm_board_core(const struct mmpi_comm *c)
{
    return c->core->bridge ? c->core->bridge : c->core;
}
static inline int mmpi_comm_board_rank(const struct mmpi_comm *c)
{
    const struct mmpi_comm_core *b = c->core->bridge;
    return b && b->remote != c->core ? b->remote->size + c->rank : c->rank;
}

/* Collective constructors over an intercommunicator c (all members of both groups call them).
 * *out is the calling rank's new handle object, or NULL (split: MPI_COMM_NULL). They return
 * an MPI error class: MPI_ERR_PROC_FAILED / MPI_ERR_REVOKED as the board reports. May block. */
int mmpi_intercomm_dup(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_comm **out);
/* The dup's combine step on bridge b (inst->result as comm/create.h's mmpi_comm_member, one per
 * bridge member), for the nonblocking form (idup.c). */
struct mmpi_board_instance;
void mmpi_intercomm_dup_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *b);
int mmpi_intercomm_split(struct mmpi_rank *self, struct mmpi_comm *c, int color, int key,
                         struct mmpi_comm **out);
/* MPI_Intercomm_merge: an intracommunicator over both groups, the group that said high after
 * the other; when both said the same, side 0 first (§7.6.2 leaves the order open). */
int mmpi_intercomm_merge(struct mmpi_rank *self, struct mmpi_comm *c, int high,
                         struct mmpi_comm **out);
/* MPI_Intercomm_create (intercomm_create.c): collective over local; the leader exchanges
 * with remote_leader over peer on the library's context. Arguments have been checked at the
 * caller; leader_err is the outcome of the leader's own checks (peer arguments): when not
 * MPI_SUCCESS the leader skips the exchange and its whole group returns that error. */
int mmpi_intercomm_create(struct mmpi_rank *self, struct mmpi_comm *local, int local_leader,
                          struct mmpi_comm *peer, int remote_leader, int tag, int leader_err,
                          struct mmpi_comm **out);
/* The end of an intercommunicator built by one leader per group (intercomm_create.c, and
 * the ports of spawn/port.c): collective over local; the leader (is_leader) hands its outcome
 * (err; on success the bridge and its group's side of it) to every member through a board
 * instance of local. *out: the caller's handle object. Returns the class every member gets
 * (the leader's err, or MPI_ERR_PROC_FAILED / MPI_ERR_REVOKED from the board). May block. */
int mmpi_intercomm_hand_out(struct mmpi_rank *self, struct mmpi_comm *local, bool is_leader,
                            int err, struct mmpi_comm_core *bridge, int side,
                            struct mmpi_comm **out);
/* MPI_Comm_compare for two intercommunicators (§7.4.1: both groups compared). */
int mmpi_intercomm_compare(const struct mmpi_comm_core *x, const struct mmpi_comm_core *y);

#endif
