/*
 * create.h: making and unmaking communicators (comm/create.c). Creation is collective over the
 * parent, through the collective board (coll/board.h): every member deposits its arguments, the
 * last to arrive builds the shared cores, and each member then makes its own handle object.
 * MPI_Comm_create_group, collective over a group only, meets elsewhere (create_group.c);
 * MPI_Comm_idup is the nonblocking form of the same board steps (idup.c).
 */
#ifndef MMPI_COMM_CREATE_H
#define MMPI_COMM_CREATE_H

#include "coll/board.h"
#include "mmpi.h"

struct mmpi_board_instance;
struct mmpi_group;
struct mmpi_info;

/* Per-member outcome of a combine step: inst->result is an array of these, one per member of
 * the parent, each new core created with one reference per member that gets it. */
struct mmpi_comm_member {
    struct mmpi_comm_core *core; /* NULL: not a member (MPI_UNDEFINED) */
    int rank;
};
/* Runs a creation on parent's board (an intercommunicator's bridge, members of both groups:
 * comm/intercomm.h): deposits `deposit`, the last arriver runs `combine` (which sets
 * inst->result as above, indexed by board rank, and builds nothing once the parent is
 * revoked), and each member makes its handle object (*out, NULL when not a member). Returns an
 * MPI error class (failure or revoke of the parent). */
int mmpi_comm_create_on_board(struct mmpi_rank *self, struct mmpi_comm *parent,
                              mmpi_board_combine_fn *combine, const void *deposit,
                              struct mmpi_comm **out);

/* MPI_Comm_dup: *out is the new communicator's handle object of the calling rank. */
int mmpi_comm_dup(struct mmpi_rank *self, struct mmpi_comm *parent, struct mmpi_comm **out);
/* MPI_Comm_split: *out is NULL for MPI_UNDEFINED. */
int mmpi_comm_split(struct mmpi_rank *self, struct mmpi_comm *parent, int color, int key,
                    struct mmpi_comm **out);
/* MPI_Comm_create: group is a subgroup of the parent's (checked by the caller); *out is NULL
 * when the calling rank is not in its group. */
int mmpi_comm_create(struct mmpi_rank *self, struct mmpi_comm *parent,
                     const struct mmpi_group *group, struct mmpi_comm **out);
/* A synchronization of every member on the parent's board, both groups of an
 * intercommunicator (MPI_Comm_disconnect, e.g. of a spawn's intercommunicator): MPI_SUCCESS,
 * MPI_ERR_PROC_FAILED or MPI_ERR_REVOKED. May block. */
int mmpi_comm_sync(struct mmpi_rank *self, struct mmpi_comm *c);

/* The dup combine step, and reading a member's outcome of a creation instance once its arrival
 * wait returned wait_err (create.c "On revoke"): MPI_SUCCESS with *core (NULL: not a member)
 * and *rank, or the error. For the nonblocking form. */
void mmpi_comm_dup_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc);
int mmpi_comm_create_outcome(struct mmpi_rank *self, struct mmpi_comm_core *pc,
                             struct mmpi_board_instance *inst, int me, int wait_err,
                             struct mmpi_comm_core **core, int *rank);

/* A new handle object of the calling rank for `core` (whose reference it takes over), with
 * the error handler inherited from parent (or eh; NULL: the initial handler). */
struct mmpi_comm *mmpi_comm_handle_object(struct mmpi_comm *parent, struct mmpi_comm_core *core,
                                          int rank);
struct mmpi_comm *mmpi_comm_handle_object_eh(struct mmpi_errhandler *eh,
                                             struct mmpi_comm_core *core, int rank);
/* The checks an intracommunicator constructor makes of its parent c at every member:
 * MPI_ERR_COMM (none, or an intercommunicator), MPI_ERR_ARG (no output pointer out),
 * MPI_ERR_REVOKED. */
int mmpi_comm_check_parent(const struct mmpi_comm *c, const void *out);
/* The hints of info a new communicator keeps (the standard ones, MPI-4.1 §7.4.4), as a new
 * info object; NULL for none, or out of memory (hints are optional). */
struct mmpi_info *mmpi_comm_hints_copy(const struct mmpi_info *info);
/* Registers a new handle object; MPI_ERR_NO_MEM (and frees it) when the table is full. */
int mmpi_comm_register(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm *handle);
/* The end of MPI_Comm_dup(_with_info): gives dup the hints `info` (taken over; NULL: none),
 * registers it and runs the attribute copy callbacks. On error *newcomm is MPI_COMM_NULL and
 * dup is gone. */
int mmpi_comm_finish_dup(struct mmpi_rank *self, struct mmpi_comm *parent,
                         struct mmpi_comm *dup, struct mmpi_info *info, MPI_Comm *newcomm);
/* MPI_Comm_free of a user communicator once its attributes are deleted: local (it succeeds
 * whatever failed, docs/design.md "The fault layer"). */
void mmpi_comm_release(struct mmpi_rank *self, struct mmpi_comm *c);

/* MPI_Comm_idup(_with_info) (idup.c): starts the dup; the new communicator gets the hints
 * `info` (taken over; NULL: none). MPI_SUCCESS or MPI_ERR_NO_MEM; the dup's own errors come at
 * completion. Called only by the owning rank. */
int mmpi_comm_idup(struct mmpi_rank *self, struct mmpi_comm *parent, struct mmpi_info *info,
                   MPI_Comm *newcomm, MPI_Request *request);

/* What the members of a creation collective over a group only agree on (create_group.c):
 * with a parent, its context id and the tag; without one (parent_cid 0), the string tag. The
 * members in order (world ranks); an intercommunicator between the first n0 and the others
 * when n0 < size (disjoint groups), an intracommunicator when n0 == size. */
struct mmpi_comm_meet {
    uint64_t parent_cid;
    int tag;
    const char *stringtag;
    int n0, size;
    const int *world_ranks;
};
/* Meets the other members of `key` (the caller is member `me`): MPI_SUCCESS with *core (the
 * intracommunicator's core, or the intercommunicator's bridge) holding one reference for the
 * caller; MPI_ERR_PROC_FAILED when a member failed before arriving (then no member gets a
 * core); MPI_ERR_REVOKED when `parent` (NULL: none) is revoked first. May block. */
int mmpi_comm_meet(struct mmpi_rank *self, const struct mmpi_comm_meet *key,
                   const struct mmpi_fault_core *parent, int me, struct mmpi_comm_core **core);
/* MPI_Comm_create_group (create_group.c): collective over the members of group only, matched
 * by (parent, tag, group). The caller is in group, which is a subgroup of the parent's. */
int mmpi_comm_create_group(struct mmpi_rank *self, struct mmpi_comm *parent,
                           const struct mmpi_group *group, int tag, struct mmpi_comm **out);

#endif
