/* pmpi_wrap.c: the profiling interface (MPI-4.1 §15.2): a tool defines MPI_Send and
 * MPI_Barrier itself and reaches the library through PMPI_Send and PMPI_Barrier. */
#include "mtest.h"

static int sends, barriers;

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    sends++;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Barrier(MPI_Comm comm)
{
    barriers++;
    return PMPI_Barrier(comm);
}

int main(int argc, char **argv)
{
    int rank, size, v = 7, in = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Send(&v, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
    MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(in == 7 && sends == 1 && barriers == 1);
    return mtest_finish();
}
