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
    return mmpi_fault_is_failed(w->ranks[g->world_ranks[peer]]) && !(c->acked && c->acked[peer]);
}

bool mmpi_ulfm_any_unacked_failure(const struct mmpi_comm *c)
{
    if (!mmpi_fault_any(mmpi_world))
        return false;
    for (int i = 0; i < mmpi_ulfm_peer_group(c)->size; i++)
        if (mmpi_ulfm_unacked_failure(c, i))
            return true;
    return false;
}
