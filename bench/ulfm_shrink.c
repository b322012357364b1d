/*
 * bench/ulfm_shrink.c: milliseconds per MPIX_Comm_shrink of MPI_COMM_WORLD after one failure.
 *
 * After a barrier the last rank kills itself with raise(SIGKILL). The survivors call
 * MPIX_Comm_agree, which fails with MPIX_ERR_PROC_FAILED at all of them, so that every
 * survivor knows of the failure before the timed part (detection is bench/ulfm_detect.c's
 * figure, not this one). Then each survivor times its own MPIX_Comm_shrink; rank 0 collects
 * the times over the shrunk communicator and reports the slowest (ulfm_shrink, ms).
 *
 * Without ULFM (no MPIX_ERR_PROC_FAILED) it prints value=NA note=no-ULFM.
 */
#include "common.h"
#include "ulfm.h"

#include <signal.h>

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
#if !BENCH_HAVE_ULFM
    if (rank == 0)
        bench_result_na("ulfm_shrink", 0, size, "ms", "no-ULFM");
#else
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "ulfm_shrink: needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1)
        raise(SIGKILL);
    int flag = 1;
    int rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    if (cls != MPIX_ERR_PROC_FAILED)
        fprintf(stderr, "ulfm_shrink: rank %d: agree after the failure returned %d\n", rank, rc);
    MPI_Comm shrunk = MPI_COMM_NULL;
    double t0 = MPI_Wtime();
    rc = MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk);
    double dt = MPI_Wtime() - t0;
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "ulfm_shrink: rank %d: MPIX_Comm_shrink returned %d\n", rank, rc);
        MPI_Abort(MPI_COMM_WORLD, 4);
    }
    int nrank, nsize;
    MPI_Comm_rank(shrunk, &nrank);
    MPI_Comm_size(shrunk, &nsize);
    if (nrank == 0) {
        double worst = dt;
        for (int r = 1; r < nsize; r++) {
            double x;
            MPI_Recv(&x, 1, MPI_DOUBLE, r, 8, shrunk, MPI_STATUS_IGNORE);
            if (x > worst)
                worst = x;
        }
        if (nsize != size - 1)
            fprintf(stderr, "ulfm_shrink: shrunk size %d, expected %d\n", nsize, size - 1);
        bench_result("ulfm_shrink", 0, size, worst * 1e3, "ms");
    } else {
        MPI_Send(&dt, 1, MPI_DOUBLE, 0, 8, shrunk);
    }
    MPI_Comm_free(&shrunk);
#endif
    MPI_Finalize();
    return 0;
}
