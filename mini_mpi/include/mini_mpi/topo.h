/*
 * mini_mpi/topo.h: included by mpi.h; process topologies and neighbourhood collectives
 * (MPI-4.1 chapter 8, MPI-3.1 chapter 7). Implementation: mini_mpi/topo/.
 */
#ifndef MINI_MPI_TOPO_H
#define MINI_MPI_TOPO_H

#ifdef __cplusplus
extern "C" {
#endif

/* Topology kinds returned by MPI_Topo_test (MPICH's values; MPI_UNDEFINED for none). */
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3

/* Special weight arrays of the distributed graph constructors (§8.5.4). Objects, as in MPICH,
 * not constants like (int *)2: GCC's -Wstringop-overread would warn at every call passing a
 * small constant address as an array argument. */
extern MMPI_EXPORT int *const MPI_UNWEIGHTED;
extern MMPI_EXPORT int *const MPI_WEIGHTS_EMPTY;

/* §8.5.1-8.5.3 Cartesian and graph constructors */
/* §8.5.5 topology inquiry */
/* §8.5.6-8.5.8 shift, partitioning, low-level mapping */

#ifdef __cplusplus
}
#endif

#endif
