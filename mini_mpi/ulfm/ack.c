/*
 * ulfm/ack.c: failure acknowledgement and queries (§17.3.2 of the chapter, Open MPI 5
 * semantics), the implementation of MPIX_Comm_failure_ack, MPIX_Comm_failure_get_acked,
 * MPIX_Comm_get_failed and MPIX_Comm_ack_failed (mmpi_ulfm_failure_ack, ...; their bindings
 * are in ack_api.c).
 *
 * "Locally known" failures are those this rank has been told of (rank->known_failed: an error
 * naming them, get_failed, agree, shrink), ordered by the time of failure (the world's
 * failure order, fault/fault.h). Acknowledging only those, rather than every failure that has
 * happened, makes a program's outcomes independent of timing: the same spec gives the same results.
 * MPIX_Comm_get_failed reports every failure that has happened (a death must be visible
 * without communication) and so makes them known.
 * Acknowledgements are per rank and communicator: c->acked[i] for group member i.
 */
#include <stdlib.h>

#include "group/group.h"
#include "ulfm/ulfm.h"

/* Members of c's group that have failed, in the order they failed (only those the calling
 * rank has been told of, when known_only). Returns the count; *members (group ranks) is
 * malloc'ed. */
static int failed_members(struct mmpi_rank *self, const struct mmpi_comm *c, bool known_only,
                          int **members)
{
    const struct mmpi_comm_core *g = mmpi_ulfm_peer_group(c);
    struct mmpi_world *w = mmpi_world;
    int nfailed = mmpi_fault_count(w);
    int n = 0;
    *members = mmpi_xmalloc(((size_t)nfailed + 1) * sizeof(int));
    for (int k = 0; k < nfailed; k++) {
        int wr = mmpi_fault_order(w, k);
        if (known_only && !mmpi_rank_knows_failure(self, wr))
            continue;
        if (!known_only)
            mmpi_fault_notice(self, wr); /* returned to the caller: now known */
        for (int i = 0; i < g->size; i++) {
            if (g->world_ranks[i] == wr) {
                (*members)[n++] = i;
                break;
            }
        }
    }
    return n;
}

static uint8_t *acked_array(struct mmpi_comm *c)
{
    if (!c->acked)
        c->acked = mmpi_xcalloc((size_t)mmpi_ulfm_peer_group(c)->size, 1);
    return c->acked;
}

/* A group of the given members of c's group (group ranks), registered for self. */
static MPI_Group group_of(struct mmpi_rank *self, const struct mmpi_comm *c, const int *members,
                          int n)
{
    int *ranks = mmpi_xmalloc(((size_t)n + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
        ranks[i] = mmpi_ulfm_peer_group(c)->world_ranks[members[i]];
    return mmpi_group_handle_new(self, mmpi_group_new(n, ranks));
}

/* MPIX_Comm_failure_ack. */
void mmpi_ulfm_failure_ack(struct mmpi_rank *self, struct mmpi_comm *c)
{
    int *members, n = failed_members(self, c, true, &members);
    uint8_t *acked = acked_array(c);
    for (int i = 0; i < n; i++)
        acked[members[i]] = 1;
    free(members);
}

/* MPIX_Comm_failure_get_acked. */
int mmpi_ulfm_failure_get_acked(struct mmpi_rank *self, struct mmpi_comm *c,
                                MPI_Group *failedgrp)
{
    /* Acknowledged failures, in the order they happened (a snapshot: later failures are not
     * in it until acknowledged). */
    int *members, n = failed_members(self, c, true, &members), k = 0;
    for (int i = 0; i < n; i++)
        if (c->acked && c->acked[members[i]])
            members[k++] = members[i];
    *failedgrp = group_of(self, c, members, k);
    free(members);
    return *failedgrp == MPI_GROUP_NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

/* MPIX_Comm_get_failed. */
int mmpi_ulfm_get_failed(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Group *failedgrp)
{
    int *members, n = failed_members(self, c, false, &members);
    *failedgrp = group_of(self, c, members, n);
    free(members);
    return *failedgrp == MPI_GROUP_NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

/* MPIX_Comm_ack_failed. */
void mmpi_ulfm_ack_failed(struct mmpi_rank *self, struct mmpi_comm *c, int num_to_ack,
                          int *num_acked)
{
    /* Acknowledges the first num_to_ack failures in failure order; returns how many failures
     * are acknowledged now (Open MPI 5). */
    int *members, n = failed_members(self, c, true, &members), count = 0;
    uint8_t *acked = acked_array(c);
    for (int i = 0; i < n && i < num_to_ack; i++)
        acked[members[i]] = 1;
    for (int i = 0; i < n; i++)
        count += acked[members[i]];
    free(members);
    *num_acked = count;
}
