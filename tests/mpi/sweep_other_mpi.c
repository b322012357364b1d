/*
 * sweep_other_mpi.c: a 2-process program of known call sequence, swept on Open MPI and MPICH
 * (built with their mpicc, libmini_mpi_inject.so preloaded) and on mini_mpi by
 * tests/tools/sweep_other_mpi.sh, which checks the call each run killed at:
 *
 *   call  rank 0                    rank 1
 *    1    MPI_Init                  MPI_Init
 *    2    MPI_Comm_set_errhandler   MPI_Comm_set_errhandler
 *    3    MPI_Comm_rank             MPI_Comm_rank
 *    4    MPI_Send                  MPI_Recv
 *    5    MPI_Allreduce             MPI_Allreduce
 *    6    MPI_Finalize              MPI_Finalize
 *
 * Standard MPI only, so that it compiles unchanged with any MPI. Rank 0 prints "No Errors" when
 * the value went round. Errors are returned, so that under mini_mpi (with ULFM) the survivor
 * finishes and every run writes its call counts, which name the call each run killed at.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 0, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        value = 7;
        MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(sum == 14 ? " No Errors\n" : " wrong sum %d\n", sum);
    MPI_Finalize();
    return 0;
}
