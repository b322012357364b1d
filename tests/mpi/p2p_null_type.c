/* A message of no elements needs no datatype: MPI_DATATYPE_NULL with count 0 is accepted by
 * every send and receive (as MPICH accepts it), to a peer and to MPI_PROC_NULL, and matches as
 * a message of no bytes; with count 1 it is still MPI_ERR_TYPE. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, errs = 0, cls;
    MPI_Status st;
    MPI_Request rq;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    if (MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, from, 5, MPI_COMM_WORLD, &rq) != MPI_SUCCESS ||
        MPI_Send(NULL, 0, MPI_DATATYPE_NULL, peer, 5, MPI_COMM_WORLD) != MPI_SUCCESS ||
        MPI_Wait(&rq, &st) != MPI_SUCCESS || st.MPI_SOURCE != from || st.MPI_TAG != 5) {
        printf("rank %d: empty message with MPI_DATATYPE_NULL failed\n", rank);
        errs++;
    }
    int count = -1;
    MPI_Get_count(&st, MPI_BYTE, &count);
    if (count != 0) {
        printf("rank %d: count %d, expected 0\n", rank, count);
        errs++;
    }
    if (MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st) !=
            MPI_SUCCESS ||
        st.MPI_SOURCE != MPI_PROC_NULL) {
        printf("rank %d: receive from MPI_PROC_NULL failed\n", rank);
        errs++;
    }
    int one = 1, err = MPI_Send(&one, 1, MPI_DATATYPE_NULL, peer, 6, MPI_COMM_WORLD);
    MPI_Error_class(err, &cls);
    if (cls != MPI_ERR_TYPE) {
        printf("rank %d: count 1 with MPI_DATATYPE_NULL gave class %d\n", rank, cls);
        errs++;
    }
    int all = 0;
    MPI_Reduce(&errs, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
