// hello.cpp: the C++ side of tests/cmake (find_package(MPI COMPONENTS C CXX)).
#include <mpi.h>

#include <cstdio>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && sum == size * (size - 1) / 2)
        std::printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
