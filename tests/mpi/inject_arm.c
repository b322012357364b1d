/*
 * inject_arm.c: directives armed at run time (mini_mpi_arm) while every rank runs.
 * Each rank appends many directives that never fire while the others keep entering MPI (each
 * entry reads the plan: appends and reads race by design), then rank 0 arms a death of the last
 * rank at a barrier all ranks reach later: that rank dies exactly there, the others see
 * MPI_ERR_PROC_FAILED from that barrier. A bad directive is refused with MPI_ERR_ARG and
 * changes nothing.
 */
#include <stdio.h>

#include <mpi.h>
#include <mini_mpi_inject.h>

#define ROUNDS 200

int main(int argc, char **argv)
{
    int rank, size, errs = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int victim = size - 1;

    for (int i = 0; i < ROUNDS; i++) {
        char d[96];
        /* Never fires: no rank makes 1000000 calls of MPI_Comm_spawn. */
        snprintf(d, sizeof d, "kill %d at MPI_Comm_spawn#%d", rank, 1000000 + i);
        if (mini_mpi_arm(d) != MPI_SUCCESS) {
            printf("rank %d: mini_mpi_arm(\"%s\") failed\n", rank, d);
            errs++;
        }
        int one = 1, sum = 0;
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (sum != size) {
            printf("rank %d: allreduce %d gave %d\n", rank, i, sum);
            errs++;
        }
    }
    if (rank == 0 && mini_mpi_arm("kill 0 at MPI_Bogus") != MPI_ERR_ARG) {
        printf("a bad directive was accepted\n");
        errs++;
    }
    /* Every rank has made exactly 1 MPI_Barrier call so far after this one. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        char d[64];
        snprintf(d, sizeof d, "kill %d at MPI_Barrier#3", victim);
        if (mini_mpi_arm(d) != MPI_SUCCESS) {
            printf("arming the death failed\n");
            errs++;
        }
    }
    int rc = MPI_Barrier(MPI_COMM_WORLD); /* #2: the directive is armed before anyone leaves */
    if (rc != MPI_SUCCESS) {
        printf("rank %d: barrier #2 failed\n", rank);
        errs++;
    }
    rc = MPI_Barrier(MPI_COMM_WORLD); /* #3: the victim dies on entering it */
    if (rank == victim) {
        printf("rank %d: still alive after its barrier #3\n", rank);
        errs++;
    }
    int eclass = MPI_SUCCESS;
    MPI_Error_class(rc, &eclass);
    if (eclass != MPIX_ERR_PROC_FAILED) {
        printf("rank %d: barrier #3 returned class %d, expected MPIX_ERR_PROC_FAILED\n", rank,
               eclass);
        errs++;
    }
    if (mini_mpi_injected_deaths() != 1) {
        printf("rank %d: %d injected deaths, expected 1\n", rank, mini_mpi_injected_deaths());
        errs++;
    }
    int all = 0;
    MPI_Comm shrunk;
    MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk);
    MPI_Reduce(&errs, &all, 1, MPI_INT, MPI_SUM, 0, shrunk);
    if (rank == 0 && all == 0)
        printf(" No Errors\n");
    MPI_Comm_free(&shrunk);
    MPI_Finalize();
    return 0;
}
