/*
 * restart/restart.h: restarting a failed rank in place (MPIX_Comm_restart_rank,
 * MPIX_Comm_irestart_rank; docs/design.md "Restarted and spawned ranks"). Implementation in
 * restart.c, entry points in restart_api.c.
 *
 * Theory of operation.
 * - Incarnations. A restarted rank is a new world-rank slot appended to the world's table like a
 *   spawned rank (mmpi_world_add_ranks), running main() of a fresh private image with the
 *   arguments of the dead incarnation, with app_rank = the restarted rank and
 *   rank->incarnation = 1, 2, ... Slots are never reused and a dead slot stays failed, so the
 *   fault layer needs to know nothing about restarts.
 * - Epochs. Each restart opens a new epoch of the launcher's MPI_COMM_WORLD: a fresh core (new
 *   context id, mailboxes, board) whose world_ranks maps every rank to its newest incarnation,
 *   with birth[i] = the epoch in which that incarnation started. Epoch 0 is the world's own
 *   core. Old cores are never changed: communicators derived before a death, and old epochs,
 *   keep reporting it, and what was queued to or from the dead incarnation stays in old
 *   mailboxes that nobody reads: discarded by construction.
 * - The epoch rule. A rank's MPI_COMM_WORLD handle is in one epoch H (its `current` epoch).
 *   It moves to the newest epoch at exactly one point: when one of its own restart calls
 *   completes (restart_rank returns, or the irestart request completes in a wait or test call,
 *   whatever rank it named, alive or not. A new incarnation starts in the newest
 *   epoch. Nothing else moves a handle, so where an operation runs depends on the program's
 *   own calls only (deterministic with the injector). Collectives, communicator creation,
 *   wildcard receives and ULFM calls on MPI_COMM_WORLD run in H.
 * - Point-to-point with a named peer runs in the pair's epoch, max(born, birth_H[peer]): the
 *   newer of the epoch where the caller's incarnation started and the one where the peer's
 *   incarnation (as the caller's epoch H knows it) started. Both sides compute the same epoch
 *   when each knows the other's current incarnation; a side that knows an older (dead)
 *   incarnation of its peer computes an epoch where the peer is that dead incarnation and gets
 *   MPI_ERR_PROC_FAILED, never a hang. So a survivor that never restarts anything keeps
 *   exchanging messages with every rank that was not restarted, in whatever epoch both of them
 *   are, and the restarter talks with the new incarnation in the new epoch.
 *
 * Synchronization: the world's epoch table is appended under the restart lock and published
 * with a release store of its count; entries below the count are immutable. A rank's
 * `struct mmpi_restart_rank` is written by its owning rank only.
 */
#ifndef MMPI_RESTART_RESTART_H
#define MMPI_RESTART_RESTART_H

#include <stdbool.h>

#include "mmpi.h"

/* Restarts a job may make over its lifetime (epochs of MPI_COMM_WORLD). */
#define MMPI_RESTART_MAX_EPOCHS 4096

/* Per rank (rank->restart), for ranks of the launcher's world once an epoch other than 0
 * concerns them: the new incarnations, and ranks whose handle moved. Owning rank only. */
struct mmpi_restart_rank {
    int born;                      /* immutable: epoch in which this incarnation started */
    int current;                   /* the epoch of the MPI_COMM_WORLD handle */
    struct mmpi_comm **routes;     /* [MMPI_RESTART_MAX_EPOCHS], lazily: handle objects of
                                    * MPI_COMM_WORLD in older epochs, for point-to-point with
                                    * peers whose pair epoch is not `current` */
};

/* The handle object a point-to-point operation on MPI_COMM_WORLD with `peer` (a rank, or
 * MPI_ANY_SOURCE / MPI_PROC_NULL) runs on. Called only by the owning rank. */
struct mmpi_comm *mmpi_restart_route_slow(struct mmpi_rank *self, int peer);
static inline struct mmpi_comm *mmpi_restart_world_route(struct mmpi_rank *self, int peer)
{
    /* Fast path: the handle never moved (born and current epochs agree). A rank in sessions
     * only has no MPI_COMM_WORLD (no core: NULL, the caller's MPI_ERR_COMM). */
    if (__builtin_expect(!self->restart || self->restart->born == self->restart->current, 1))
        return self->world_comm.core ? &self->world_comm : NULL;
    return mmpi_restart_route_slow(self, peer);
}

/* Starts (or joins) the restart of rank `rank` of the launcher's MPI_COMM_WORLD. Returns
 * MPI_SUCCESS with *slot the world rank of the incarnation to wait for (already past MPI_Init
 * or not), or MPI_ERR_REVOKED (the caller's world is revoked), MPI_ERR_SPAWN (no thread, image
 * or slot for a new incarnation), MPI_ERR_COMM (the caller is not in the launcher's world: a
 * spawned rank). Takes the restart lock; may load a program image. */
int mmpi_restart_begin(struct mmpi_rank *self, int rank, int *slot);
/* Whether the incarnation in `slot` has passed MPI_Init (*err = MPI_SUCCESS) or ended before
 * that (*err = MPI_ERR_PROC_FAILED). Lock-free. */
bool mmpi_restart_done(const struct mmpi_world *w, int slot, int *err);
/* Moves the caller's MPI_COMM_WORLD handle to the newest epoch (the epoch rule above).
 * Owning rank only. */
void mmpi_restart_move(struct mmpi_rank *self);
/* MPI_Init of a new incarnation returned: wakes the ranks waiting for it. */
void mmpi_restart_init_done(struct mmpi_rank *self);
/* Frees rank->restart (rank_free) and the world's epoch table (world end). */
void mmpi_restart_rank_free(struct mmpi_rank *r);
void mmpi_restart_world_fini(struct mmpi_world *w);

#endif
