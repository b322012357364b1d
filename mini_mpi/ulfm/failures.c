/*
 * failures.c: what the engines ask about failures on a communicator, honouring this rank's
 * acknowledgements (an MPI_ANY_SOURCE receive proceeds once every failure is acknowledged,
 * chapter §17.2.2). Acknowledgements themselves are made in ack.c.
 */
#include <stdio.h>

#include "ulfm/ulfm.h"

bool mmpi_ulfm_unacked_failure(const struct mmpi_comm *c, int peer)
{
    const struct mmpi_comm_core *g = mmpi_ulfm_peer_group(c);
    struct mmpi_world *w = mmpi_world;
    return mmpi_rank_is_failed(w->ranks[g->world_ranks[peer]]) && !(c->acked && c->acked[peer]);
}

bool mmpi_ulfm_any_unacked_failure(const struct mmpi_comm *c)
{
    if (__atomic_load_n(&mmpi_world->nfailed, __ATOMIC_ACQUIRE) == 0)
        return false;
    for (int i = 0; i < mmpi_ulfm_peer_group(c)->size; i++)
        if (mmpi_ulfm_unacked_failure(c, i))
            return true;
    return false;
}


/* The first time `self` is told that world rank w failed (MINI_MPI_VERBOSE reports it). */
void mmpi_ulfm_notice_first(struct mmpi_rank *self, int w)
{
    if (!mmpi_rank_learn_failure(self, w) &&
        self->world->config.verbose)
        fprintf(stderr, "mini_mpi: rank %d sees that rank %d failed\n", self->world_rank, w);
}

void mmpi_ulfm_notice_core(struct mmpi_rank *self, const struct mmpi_comm_core *core)
{
    struct mmpi_world *w = self->world;
    for (int i = 0; i < core->size; i++)
        if (mmpi_rank_is_failed(w->ranks[core->world_ranks[i]]))
            mmpi_ulfm_notice(self, core->world_ranks[i]);
}
