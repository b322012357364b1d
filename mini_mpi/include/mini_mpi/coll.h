/* mini_mpi/coll.h: included by mpi.h; collective prototypes (MPI-4.1 chapter 6). */
#ifndef MINI_MPI_COLL_H
#define MINI_MPI_COLL_H

#ifdef __cplusplus
extern "C" {
#endif

MMPI_API(int, Barrier, (MPI_Comm comm));
MMPI_API(int, Ibarrier, (MPI_Comm comm, MPI_Request *request));

/* Blocking collectives (MPI-4.1 §6.4-6.11), in the chapter's order. */
MMPI_API(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm));
MMPI_API(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm));
MMPI_API(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        int root, MPI_Comm comm));
MMPI_API(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm));
MMPI_API(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm));
MMPI_API(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm));
MMPI_API(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[], const int displs[],
                           MPI_Datatype recvtype, MPI_Comm comm));
MMPI_API(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm));
MMPI_API(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                          const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm));
MMPI_API(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                          const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm));
MMPI_API(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm));
MMPI_API(int, Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm));
MMPI_API(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
MMPI_API(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
MMPI_API(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm));
MMPI_API(int, Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm));

/* Nonblocking collectives (MPI-4.1 §6.12). */
MMPI_API(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                       MPI_Request *request));
MMPI_API(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Request *request));
MMPI_API(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm,
                          MPI_Request *request));
MMPI_API(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request *request));
MMPI_API(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *request));
MMPI_API(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request *request));
MMPI_API(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                           const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                           const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                           MPI_Request *request));
MMPI_API(int, Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, int root, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      MPI_Request *request));
MMPI_API(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                MPI_Request *request));
MMPI_API(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Request *request));

/* §6.13 persistent collectives (MPI-4.0) */
MMPI_API(int, Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *request));
MMPI_API(int, Bcast_init, (void *buffer, int count, MPI_Datatype datatype, int root,
                           MPI_Comm comm, MPI_Info info, MPI_Request *request));
MMPI_API(int, Gather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm, MPI_Info info, MPI_Request *request));
MMPI_API(int, Gatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request));
MMPI_API(int, Scatter_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Info info, MPI_Request *request));
MMPI_API(int, Scatterv_init, (const void *sendbuf, const int sendcounts[], const int displs[],
                              MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request));
MMPI_API(int, Allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Info info, MPI_Request *request));
MMPI_API(int, Allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const int recvcounts[], const int displs[],
                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request));
MMPI_API(int, Alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Info info, MPI_Request *request));
MMPI_API(int, Alltoallv_init, (const void *sendbuf, const int sendcounts[],
                               const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request));
MMPI_API(int, Alltoallw_init, (const void *sendbuf, const int sendcounts[],
                               const int sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const int recvcounts[], const int rdispls[],
                               const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                               MPI_Request *request));
MMPI_API(int, Reduce_init, (const void *sendbuf, void *recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                            MPI_Info info, MPI_Request *request));
MMPI_API(int, Allreduce_init, (const void *sendbuf, void *recvbuf, int count,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request));
MMPI_API(int, Reduce_scatter_block_init, (const void *sendbuf, void *recvbuf, int recvcount,
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                          MPI_Info info, MPI_Request *request));
MMPI_API(int, Reduce_scatter_init, (const void *sendbuf, void *recvbuf,
                                    const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                                    MPI_Comm comm, MPI_Info info, MPI_Request *request));
MMPI_API(int, Scan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request));
MMPI_API(int, Exscan_init, (const void *sendbuf, void *recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request));

#ifdef __cplusplus
}
#endif

#endif
