/*
 * inject_during.c: `kill R during CALL` (inject.h) cuts a collective in two. Run with
 * MINI_MPI_FAULTS="kill 2 during MPI_Allreduce#2" (or another victim V): in the second
 * allreduce, ranks below V complete with the full sum (V's contribution included), ranks above
 * V get MPI_ERR_PROC_FAILED; the agreement that follows is uniform and shrink leaves size-1
 * ranks. argv[1] is V. With argv[2] = "shared" (MINI_MPI_COLL_SNAPSHOT=0: each member reduces
 * a slice of the data) V's slice is never reduced, so every survivor fails. Prints "No Errors"
 * at rank 0 when every check holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, errs = 0;
    int victim = argc > 1 ? atoi(argv[1]) : 2;
    int shared = argc > 2 && !strcmp(argv[2], "shared");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    for (int round = 1; round <= 2; round++) {
        int sum = -1, eclass;
        int rc = MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Error_class(rc, &eclass);
        int expect_ok = round == 1 || (rank < victim && !shared);
        if (expect_ok && (rc != MPI_SUCCESS || sum != size * (size - 1) / 2)) {
            printf("rank %d round %d: rc %d sum %d, expected success with %d\n", rank, round,
                   eclass, sum, size * (size - 1) / 2);
            errs++;
        }
        if (!expect_ok && eclass != MPIX_ERR_PROC_FAILED) {
            printf("rank %d round %d: class %d, expected MPI_ERR_PROC_FAILED\n", rank, round,
                   eclass);
            errs++;
        }
    }
    int flag = 1;
    int rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag), eclass;
    MPI_Error_class(rc, &eclass);
    if (eclass != MPIX_ERR_PROC_FAILED) { /* the failure is not acknowledged by all */
        printf("rank %d: agree class %d, expected MPI_ERR_PROC_FAILED\n", rank, eclass);
        errs++;
    }
    MPI_Comm shrunk;
    MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk);
    int nsize, total = 0;
    MPI_Comm_size(shrunk, &nsize);
    if (nsize != size - 1) {
        printf("rank %d: shrunk size %d, expected %d\n", rank, nsize, size - 1);
        errs++;
    }
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, shrunk);
    if (rank == (victim == 0 ? 1 : 0) && total == 0) /* the lowest survivor reports */
        printf(" No Errors\n");
    MPI_Comm_free(&shrunk);
    MPI_Finalize();
    return 0;
}
