/*
 * rank_dies.c: rank 2 kills itself with SIGKILL, as a crashing process would. Under mini_mpi
 * only that rank ends (it has failed, in ULFM terms); the others carry on. They learn of the
 * death the way an MPI program does: their next collective, an MPI_Barrier that the dead rank
 * never enters, returns MPIX_ERR_PROC_FAILED (the communicator's handler is MPI_ERRORS_RETURN),
 * and MPIX_Comm_failure_ack / MPIX_Comm_failure_get_acked give the group of failed ranks. Then
 * they finish, and the job's exit status is 0 (Open MPI's ULFM convention; mpiexec
 * -disable-auto-cleanup selects MPICH's, where it is 137). With fewer than 3 ranks nobody dies.
 *
 *   bin/mpiexec -n 4 build/examples/rank_dies
 */
#include <mpi.h>
#if defined(OPEN_MPI) || defined(MINI_MPI) /* MPICH declares MPIX_ in mpi.h, has no mpi-ext.h */
#include <mpi-ext.h>
#endif
#include <signal.h>
#include <stdio.h>

#define VICTIM 2

/* Prints the world ranks in `failed` after `prefix`, on one line. */
static void print_failed(const char *prefix, MPI_Group failed)
{
    MPI_Group world;
    int n;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_size(failed, &n);
    printf("%s", prefix);
    for (int i = 0; i < n; i++) {
        int r;
        MPI_Group_translate_ranks(failed, 1, &i, world, &r);
        printf("%s%d", i ? ", " : " ", r);
    }
    printf("\n");
    MPI_Group_free(&world);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == VICTIM) {
        printf("rank %d of %d: raise(SIGKILL)\n", rank, size);
        fflush(stdout);
        raise(SIGKILL);
    }

    int rc = MPI_Barrier(MPI_COMM_WORLD), eclass;
    MPI_Error_class(rc, &eclass);
    char prefix[128];
    if (eclass == MPIX_ERR_PROC_FAILED) {
        MPI_Group failed;
        MPIX_Comm_failure_ack(MPI_COMM_WORLD);
        MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, &failed);
        snprintf(prefix, sizeof prefix,
                 "rank %d of %d: MPI_Barrier returned MPIX_ERR_PROC_FAILED; failed ranks:", rank,
                 size);
        print_failed(prefix, failed);
        MPI_Group_free(&failed);
    } else if (rc == MPI_SUCCESS) {
        printf("rank %d of %d: MPI_Barrier succeeded: no rank failed\n", rank, size);
    } else {
        char text[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc, text, &len);
        printf("rank %d of %d: MPI_Barrier returned an unexpected error: %s\n", rank, size, text);
    }
    printf("rank %d of %d finished\n", rank, size);
    MPI_Finalize();
    return 0;
}
