/*
 * rank_dies.c: rank 2 kills itself with SIGKILL, as a crashing process would. Under mini_mpi
 * only that rank ends (it has failed, in ULFM terms); the others carry on and finish, and the
 * job's exit status is 0 (Open MPI's ULFM convention; mpiexec -disable-auto-cleanup selects
 * MPICH's, where it is 137).
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 2)
        raise(SIGKILL);
    printf("rank %d of %d finished\n", rank, size);
    MPI_Finalize();
    return 0;
}
