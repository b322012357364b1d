/*
 * reclaim.c: freeing what a rank still holds in its handle tables when the world ends: the
 * communicators, windows, files, groups, datatypes, ops, requests and infos of a rank that
 * failed (it never freed them), or that a program left allocated at MPI_Finalize. No user
 * callback runs (attribute delete functions belong to a live MPI). Called only once every rank
 * thread is gone. This file only orders the kinds; how an object of a kind is freed is that
 * kind's `reclaim` (runtime/kind.h), which its own subsystem provides.
 */
#include "mmpi.h"
#include "runtime/kind.h"
#include "runtime/reclaim.h"

/* Frees each object left in the rank's table of `kind`, by its kind's table (runtime/kind.h). */
static void reclaim_kind(struct mmpi_rank *r, int kind)
{
    void (*release)(struct mmpi_rank *, void *) = mmpi_kind_ops(kind)->reclaim;
    struct mmpi_slots *table = &r->handles[kind];
    uint32_t used = __atomic_load_n(&table->next_unused, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; release && i < used; i++) {
        void *obj = mmpi_slots_remove(table, i);
        if (obj)
            release(r, obj);
    }
}

void mmpi_handles_reclaim(struct mmpi_rank *r)
{
    /* Users first: requests hold communicator cores and datatypes, communicators hold infos. */
    reclaim_kind(r, MMPI_HANDLE_KIND_REQUEST);
    /* Windows hold their private communicator. */
    reclaim_kind(r, MMPI_HANDLE_KIND_WIN);
    reclaim_kind(r, MMPI_HANDLE_KIND_FILE); /* a file holds a communicator */
    reclaim_kind(r, MMPI_HANDLE_KIND_COMM);
    reclaim_kind(r, MMPI_HANDLE_KIND_GROUP);
    reclaim_kind(r, MMPI_HANDLE_KIND_DATATYPE);
    reclaim_kind(r, MMPI_HANDLE_KIND_OP);
    /* Not error handlers: their table may name handlers already freed (errhan/errhan_api.c keeps
     * the slot until the last communicator using one lets go). */
    reclaim_kind(r, MMPI_HANDLE_KIND_INFO);
}
