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
MMPI_API(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                            int reorder, MPI_Comm *comm_cart));
MMPI_API(int, Dims_create, (int nnodes, int ndims, int dims[]));
MMPI_API(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[],
                             const int edges[], int reorder, MPI_Comm *comm_graph));
MMPI_API(int, Dist_graph_create_adjacent,
         (MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
          int outdegree, const int destinations[], const int destweights[], MPI_Info info,
          int reorder, MPI_Comm *comm_dist_graph));
MMPI_API(int, Dist_graph_create,
         (MPI_Comm comm_old, int n, const int sources[], const int degrees[],
          const int destinations[], const int weights[], MPI_Info info, int reorder,
          MPI_Comm *comm_dist_graph));
/* §8.5.5 topology inquiry */
MMPI_API(int, Topo_test, (MPI_Comm comm, int *status));
MMPI_API(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges));
MMPI_API(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]));
MMPI_API(int, Cartdim_get, (MPI_Comm comm, int *ndims));
MMPI_API(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]));
MMPI_API(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank));
MMPI_API(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]));
MMPI_API(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors));
MMPI_API(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]));
MMPI_API(int, Dist_graph_neighbors_count,
         (MPI_Comm comm, int *indegree, int *outdegree, int *weighted));
MMPI_API(int, Dist_graph_neighbors,
         (MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
          int destinations[], int destweights[]));
/* §8.5.6-8.5.8 shift, partitioning, low-level mapping */
MMPI_API(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source,
                           int *rank_dest));
MMPI_API(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm));
MMPI_API(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[],
                         int *newrank));
MMPI_API(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[],
                          int *newrank));

/* §8.6 neighbourhood collectives and §8.7 their nonblocking forms */
MMPI_API(int, Neighbor_allgather,
         (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
          int recvcount, MPI_Datatype recvtype, MPI_Comm comm));
MMPI_API(int, Neighbor_allgatherv,
         (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm));
MMPI_API(int, Neighbor_alltoall,
         (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
          int recvcount, MPI_Datatype recvtype, MPI_Comm comm));
MMPI_API(int, Neighbor_alltoallv,
         (const void *sendbuf, const int sendcounts[], const int sdispls[],
          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
          MPI_Datatype recvtype, MPI_Comm comm));
MMPI_API(int, Neighbor_alltoallw,
         (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm));
MMPI_API(int, Ineighbor_allgather,
         (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
          int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Ineighbor_allgatherv,
         (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
          MPI_Request *request));
MMPI_API(int, Ineighbor_alltoall,
         (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
          int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Ineighbor_alltoallv,
         (const void *sendbuf, const int sendcounts[], const int sdispls[],
          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
          MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Ineighbor_alltoallw,
         (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
          MPI_Request *request));

/* §8.8 persistent neighbourhood collectives (MPI-4.0) */
MMPI_API(int, Neighbor_allgather_init,
         (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
          int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
          MPI_Request *request));
MMPI_API(int, Neighbor_allgatherv_init,
         (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
          MPI_Info info, MPI_Request *request));
MMPI_API(int, Neighbor_alltoall_init,
         (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
          int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
          MPI_Request *request));
MMPI_API(int, Neighbor_alltoallv_init,
         (const void *sendbuf, const int sendcounts[], const int sdispls[],
          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
MMPI_API(int, Neighbor_alltoallw_init,
         (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
          MPI_Info info, MPI_Request *request));

#ifdef __cplusplus
}
#endif

#endif
