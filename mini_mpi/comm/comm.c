/*
 * comm.c: communicator cores and handle resolution. MPI_COMM_WORLD and MPI_COMM_SELF name,
 * through the calling rank, that rank's own handle objects; other communicators live in the
 * rank's handle table. Creation and collective construction belong to the communicator
 * subsystem's later files. Also the communicator's table of operations (runtime/kind.h).
 */
#include <stdlib.h>

#include "mmpi.h"
#include "coll/board.h"
#include "coll/progress.h"
#include "comm/create.h"
#include "comm/intercomm.h"
#include "pt2pt/match.h"
#include "runtime/kind.h"
#include "topo/topo.h"

static uint64_t next_context_id = 1; /* atomic; 64-bit, never wraps in practice */

uint64_t mmpi_context_id_new(void)
{
    return __atomic_fetch_add(&next_context_id, 1, __ATOMIC_RELAXED);
}

struct mmpi_comm *mmpi_comm_get(struct mmpi_rank *self, MPI_Comm handle)
{
    switch (handle) {
    case MPI_COMM_WORLD:
    case MPI_COMM_SELF:
        /* The World Model's: a rank in sessions only has neither (MPI-4.1 §11.3). */
        if (__builtin_expect(mmpi_rank_phase(self) != MMPI_PHASE_INITIALIZED, 0))
            return NULL;
        return handle == MPI_COMM_WORLD ? &self->world_comm : &self->self_comm;
    default: return mmpi_handle_lookup(self, MMPI_HANDLE_KIND_COMM, handle);
    }
}

struct mmpi_comm_core *mmpi_comm_core_new(int size, int *world_ranks)
{
    struct mmpi_comm_core *core = mmpi_xcalloc(1, sizeof(*core));
    core->context_id = mmpi_context_id_new();
    core->size = size;
    core->world_ranks = world_ranks;
    core->refcount = 1;
    for (int ctx = 0; ctx < MMPI_NCTX; ctx++)
        core->mbox[ctx] = mmpi_mbox_array_new(size, world_ranks);
    core->board = mmpi_board_new();
    mmpi_fault_core_register(&core->fault, NULL, size, world_ranks);
    return core;
}

void mmpi_comm_core_destroy(struct mmpi_comm_core *core)
{
    mmpi_fault_core_unregister(&core->fault);
    for (int ctx = 0; ctx < MMPI_NCTX; ctx++)
        mmpi_mbox_array_free(core->mbox[ctx], core->size);
    mmpi_board_free(core->board);
    mmpi_topo_release(core->topo);
    free(core->world_ranks);
    free(core);
}

void mmpi_comm_core_release(struct mmpi_comm_core *core)
{
    if (core && __atomic_sub_fetch(&core->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
        if (core->bridge) /* an intercommunicator side: its bridge frees both sides */
            mmpi_comm_core_release(core->bridge);
        else if (core->remote) /* an intercommunicator's bridge */
            mmpi_intercomm_destroy(core);
        else
            mmpi_comm_core_destroy(core);
    }
}

/* A communicator a rank left in its table at world end. */
static void comm_reclaim(struct mmpi_rank *r, void *obj)
{
    struct mmpi_comm *c = obj;
    c->handle = MPI_COMM_NULL; /* already out of the table */
    mmpi_comm_release(r, c);
}

/* Communicators' errors are errhan/'s own (mmpi_err_raise_comm), and the hang report names them
 * itself (describe.c): what the runtime needs of them is reclaim, and the progress of
 * nonblocking collectives while their owner waits on something else. Here, not in create.c:
 * every program holds communicators (this file makes their cores), so a static link that
 * waits holds this registration. */
static const struct mmpi_kind_ops comm_kind_ops = {.reclaim = comm_reclaim,
                                                   .progress = mmpi_coll_progress};
MMPI_KIND_REGISTER(MMPI_HANDLE_KIND_COMM, comm_kind_ops)
