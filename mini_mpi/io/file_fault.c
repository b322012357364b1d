/*
 * io/fault.c: files under process failure and revoke (the fault-tolerance chapter's I/O
 * sections; docs/io.md "Files and process failures"). The fault layer (fault/fault.h) owns
 * every rule; this file only ties a file to it:
 *
 * - The file's shared core embeds a fault core (kind "file", members the file's group) linked
 *   to its private communicator's core: MPIX_File_revoke revokes both, so a member blocked in
 *   a board meeting of the file (coll_link.c) wakes and completes with MPI_ERR_REVOKED, and
 *   every later call finds the file revoked here.
 * - Failure notification needs nothing of its own: collective access meets on the board, whose
 *   reporting rule and `kill R during` cut decide; independent access waits for nobody.
 * - After MPI_ERR_PROC_FAILED the pointer the operation used is undefined; MINI_MPI_POISON=1
 *   makes that visible by moving it to MMPI_FILE_POISON_FP.
 * - Failed members never close: the members that do give back their references, so the file
 *   is closed (and deleted under MPI_MODE_DELETE_ON_CLOSE) when the last survivor closes. The
 *   handle objects a failed rank (or a program that never closed) left behind are freed when
 *   the world ends (mmpi_file_reclaim, the file's reclaim in its table of operations, file.c).
 */
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "comm/create.h"
#include "comm/info.h"
#include "fault/fault.h"
#include "io/io.h"
#include "pt2pt/request.h"

static const struct mmpi_fault_ops file_fault_ops = {"file", NULL};

void mmpi_file_fault_init(struct mmpi_file_core *core, struct mmpi_comm *dup)
{
    core->size = dup->core->size;
    core->world_ranks = mmpi_xmalloc((size_t)core->size * sizeof(int));
    memcpy(core->world_ranks, dup->core->world_ranks, (size_t)core->size * sizeof(int));
    core->closed = mmpi_xcalloc((size_t)core->size, sizeof(int));
    mmpi_fault_core_register(&core->fault, &file_fault_ops, core->size, core->world_ranks);
    mmpi_fault_core_link(&core->fault, &dup->core->fault);
}

void mmpi_file_fault_fini(struct mmpi_file_core *core)
{
    mmpi_fault_core_unregister(&core->fault);
    free(core->world_ranks);
    free(core->closed);
}

int mmpi_file_check_revoked(const struct mmpi_file *f)
{
    return mmpi_fault_revoked(&f->core->fault) ? MPI_ERR_REVOKED : MPI_SUCCESS;
}

bool mmpi_file_member_failed(struct mmpi_rank *self, const struct mmpi_file *f)
{
    if (!mmpi_fault_any(self->world))
        return false;
    const struct mmpi_file_core *core = f->core;
    bool any = false;
    for (int i = 0; i < core->size; i++)
        if (mmpi_fault_world_rank_failed(self->world, core->world_ranks[i])) {
            mmpi_fault_notice(self, core->world_ranks[i]);
            any = true;
        }
    return any;
}

void mmpi_file_pointer_failed(struct mmpi_rank *self, struct mmpi_file *f,
                              enum mmpi_file_pointer fp, int err)
{
    if (err != MPI_ERR_PROC_FAILED || !self->world->config.poison)
        return;
    if (fp == MMPI_FP_INDIVIDUAL)
        f->fp = MMPI_FILE_POISON_FP;
    else if (fp == MMPI_FP_SHARED || fp == MMPI_FP_ORDERED)
        __atomic_store_n(&f->core->shared_fp, MMPI_FILE_POISON_FP, __ATOMIC_RELEASE);
}

int mmpi_file_core_leave(struct mmpi_file *f)
{
    struct mmpi_file_core *core = f->core;
    struct mmpi_world *w = mmpi_self->world;
    /* Our own reference last: it keeps the core alive while we give back the others. */
    __atomic_store_n(&core->closed[f->comm->rank], 1, __ATOMIC_RELEASE);
    if (mmpi_fault_any(w))
        for (int i = 0; i < core->size; i++)
            if (mmpi_fault_world_rank_failed(w, core->world_ranks[i]) &&
                __atomic_exchange_n(&core->closed[i], 1, __ATOMIC_ACQ_REL) == 0)
                (void)mmpi_file_core_release(core); /* not the last: ours still held */
    return mmpi_file_core_release(core);
}

void mmpi_file_reclaim(struct mmpi_rank *r, struct mmpi_file *f)
{
    /* A split collective its rank never ended: completing drops the engine's reference,
     * releasing the caller's. */
    struct mmpi_request *split = f->split;
    if (split) {
        if (!mmpi_request_is_done(split))
            mmpi_request_complete(split, MPI_ERR_PROC_FAILED);
        mmpi_request_release(split);
    }
    /* Unless a survivor's close gave it back already (mmpi_file_core_leave). */
    if (__atomic_exchange_n(&f->core->closed[f->comm->rank], 1, __ATOMIC_ACQ_REL) == 0)
        (void)mmpi_file_core_release(f->core); /* nobody to tell: the world is over */
    mmpi_file_handle_free(r, f);
}
