/*
 * create.h: making and unmaking communicators (comm/create.c). Creation is collective over the
 * parent, through the collective board (coll/board.h): every member deposits its arguments, the
 * last to arrive builds the shared cores, and each member then makes its own handle object.
 */
#ifndef MMPI_COMM_CREATE_H
#define MMPI_COMM_CREATE_H

#include "coll/board.h"
#include "mmpi.h"

/* Per-member outcome of a combine step: inst->result is an array of these, one per member of
 * the parent, each new core created with one reference per member that gets it. */
struct mmpi_comm_member {
    struct mmpi_comm_core *core; /* NULL: not a member (MPI_UNDEFINED) */
    int rank;
};
/* Runs a creation on parent's board: deposits `deposit`, the last arriver runs `combine`
 * (which sets inst->result as above), and each member makes its handle object (*out, NULL
 * when not a member). Returns an MPI error class (failure or revoke of the parent). */
int mmpi_comm_create_on_board(struct mmpi_rank *self, struct mmpi_comm *parent,
                              mmpi_board_combine_fn *combine, const void *deposit,
                              struct mmpi_comm **out);
/* MPI_Comm_dup: *out is the new communicator's handle object of the calling rank. */
int mmpi_comm_dup(struct mmpi_rank *self, struct mmpi_comm *parent, struct mmpi_comm **out);
/* MPI_Comm_split: *out is NULL for MPI_UNDEFINED. */
int mmpi_comm_split(struct mmpi_rank *self, struct mmpi_comm *parent, int color, int key,
                    struct mmpi_comm **out);
/* A new handle object of the calling rank for `core` (whose reference it takes over), with
 * the error handler inherited from parent. */
struct mmpi_comm *mmpi_comm_handle_object(struct mmpi_comm *parent, struct mmpi_comm_core *core,
                                          int rank);
/* Registers a new handle object; MPI_ERR_NO_MEM (and frees it) when the table is full. */
int mmpi_comm_register(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm *handle);
/* MPI_Comm_free of a user communicator: local (it succeeds whatever failed, DESIGN §5). */
void mmpi_comm_release(struct mmpi_rank *self, struct mmpi_comm *c);

#endif
