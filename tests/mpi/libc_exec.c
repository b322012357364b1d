/*
 * libc_exec.c: exec from a rank replaces the whole job's process (README, "The C library in
 * each rank"): rank 0 runs a shell that prints " No Errors" while the other ranks wait in a
 * barrier that never completes; the job's status is the shell's. With MINI_MPI_VERBOSE=1 the
 * runtime says so first (the testlist greps for the line).
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        fflush(stdout);
        execl("/bin/sh", "sh", "-c", "echo ' No Errors'; exit 0", (char *)NULL);
        printf("execl failed\n");
        return 1;
    }
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 never comes: the exec ends this wait */
    printf("rank %d: the barrier completed\n", rank);
    MPI_Finalize();
    return 1;
}
