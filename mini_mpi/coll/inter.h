/*
 * coll/inter.h: the intercommunicator forms of the collectives (MPI-4.1 §6.2.2), as algorithms
 * of the collective engine (coll.h) run on the intercommunicator's bridge board
 * (comm/intercomm.h): deposits 0..n0-1 are side 0's members, n0.. side 1's, and x->rank,
 * x->size are the member's bridge rank and the bridge size. x->root is the user's root
 * argument: MPI_ROOT, MPI_PROC_NULL, or a rank of the remote group. The mmpi_<coll>
 * functions pick these when c is an intercommunicator. Scan and Exscan have none (§6.2.2:
 * erroneous; the entry points raise MPI_ERR_COMM).
 */
#ifndef MMPI_COLL_INTER_H
#define MMPI_COLL_INTER_H

#include "coll/coll.h"

extern const struct mmpi_coll_algo mmpi_inter_bcast_algo;
extern const struct mmpi_coll_algo mmpi_inter_gather_algo;
extern const struct mmpi_coll_algo mmpi_inter_scatter_algo;
extern const struct mmpi_coll_algo mmpi_inter_allgather_algo;
extern const struct mmpi_coll_algo mmpi_inter_alltoall_algo;
extern const struct mmpi_coll_algo mmpi_inter_reduce_algo;
extern const struct mmpi_coll_algo mmpi_inter_allreduce_algo;
extern const struct mmpi_coll_algo mmpi_inter_reduce_scatter_algo;

/* Where member x stands: its rank in its own group, and the remote group's first bridge rank
 * and size. */
struct mmpi_inter_view {
    int me, rbase, rsize;
};
struct mmpi_inter_view mmpi_inter_view_of(const struct mmpi_coll *x);

#endif
