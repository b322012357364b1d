/*
 * ft_iterative.c: iterative refinement that survives rank failures, after Example 17.3 of the
 * MPI standard's "Process Fault Tolerance" chapter (ULFM). Each iteration ends with an
 * MPI_Allreduce. A rank whose Allreduce fails with MPIX_ERR_PROC_FAILED revokes the
 * communicator, so that ranks already waiting in the next Allreduce are interrupted
 * (MPIX_ERR_REVOKED) instead of waiting forever; then all agree (MPIX_Comm_agree) on whether
 * everyone succeeded, and if not they shrink the communicator and the solver loop carries on
 * with the survivors. The same agreement confirms convergence, so nobody leaves the loop alone.
 *
 * The problem: find x minimising sum_i (x - a_i)^2 over NPOINTS fixed points a_i (the answer is
 * their mean) by the damped fixed-point iteration x <- x - g/(2N), g = sum_i (x - a_i). The
 * points are dealt round-robin over the current communicator, so after a shrink the survivors
 * simply take over the dead ranks' points (they can be recomputed, as data re-read from input
 * would be), and rank 0 of the shrunk communicator re-broadcasts x, since ranks may have left
 * the failed iteration at different points. The result is checked against the exact mean at
 * every rank; the verdict is agreed among the survivors (shrinking again if someone died
 * meanwhile) and the lowest of them prints "No Errors".
 *
 *   MINI_MPI_FAULTS="kill 2 at MPI_Allreduce#7" bin/mpiexec -n 6 build/examples/ft_iterative
 */
#include <math.h>
#include <mpi.h>
#if defined(OPEN_MPI) || defined(MINI_MPI) /* MPICH declares MPIX_ in mpi.h, has no mpi-ext.h */
#include <mpi-ext.h>
#endif
#include <stdio.h>

#define NPOINTS 30000
#define EPSILON 1e-9

static double point(int i) { return (double)(i % 101) * 0.25; }

/* sum over this rank's share of the points of (x - a_i). */
static double local_residual(double x, MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double s = 0;
    for (int i = rank; i < NPOINTS; i += size)
        s += x - point(i);
    return s;
}

static int error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    MPI_Comm comm;
    int wrank, iterations = 0, recoveries = 0, resync = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    /* Errors are returned, not fatal; the solver starts on MPI_COMM_WORLD itself so that a
     * death at any call after MPI_Init is survivable (an MPI_Comm_dup could fail too). */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    comm = MPI_COMM_WORLD;

    double x = 0.0, gnorm = 1.0;
    for (;;) {
        int rc = MPI_SUCCESS;
        if (resync) /* after a shrink: everyone continues from the same x */
            rc = MPI_Bcast(&x, 1, MPI_DOUBLE, 0, comm);
        double g = 0.0, lres = 0.0;
        if (rc == MPI_SUCCESS) {
            lres = local_residual(x, comm);
            rc = MPI_Allreduce(&lres, &g, 1, MPI_DOUBLE, MPI_SUM, comm);
        }
        if (rc == MPI_SUCCESS)
            gnorm = fabs(g) / NPOINTS;
        if (rc != MPI_SUCCESS || gnorm <= EPSILON) {
            /* This rank leaves the failure-free path. Peers may already be in the next
             * Allreduce, which it will not join: revoke so that they come here too. */
            if (error_class(rc) == MPIX_ERR_PROC_FAILED)
                MPIX_Comm_revoke(comm);
            int allsucceeded = rc == MPI_SUCCESS;
            MPIX_Comm_agree(comm, &allsucceeded);
            if (!allsucceeded) {
                MPI_Comm survivors;
                MPIX_Comm_revoke(comm); /* we are going to shrink: nobody may stay behind */
                MPIX_Comm_shrink(comm, &survivors);
                if (comm != MPI_COMM_WORLD)
                    MPI_Comm_free(&comm);
                comm = survivors;
                recoveries++;
                resync = 1;
                continue; /* redo the iteration with the survivors */
            }
            break; /* everyone succeeded and converged */
        }
        x -= g / (2.0 * NPOINTS);
        iterations++;
        resync = 0;
    }

    double mean = 0;
    for (int i = 0; i < NPOINTS; i++)
        mean += point(i);
    mean /= NPOINTS;
    int good = fabs(x - mean) <= 1e-6;
    if (!good)
        printf("world rank %d: x = %.12f, expected %.12f\n", wrank, x, mean);
    /* The verdict: agreed by the survivors, and printed by the lowest of them with no MPI call
     * in between, so that a death anywhere up to here still leaves someone to report. */
    int rank, size, verdict, rc;
    do {
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
        verdict = good;
        rc = MPIX_Comm_agree(comm, &verdict);
        if (rc != MPI_SUCCESS) { /* someone died since: agree again among the survivors */
            MPI_Comm shrunk;
            MPIX_Comm_shrink(comm, &shrunk);
            if (comm != MPI_COMM_WORLD)
                MPI_Comm_free(&comm);
            comm = shrunk;
        }
    } while (rc != MPI_SUCCESS);
    if (rank == 0) {
        printf("x = %.9f (mean %.9f) after %d iterations; %d recoveries, "
               "%d ranks left\n", x, mean, iterations, recoveries, size);
        if (verdict)
            printf("No Errors\n");
    }
    if (comm != MPI_COMM_WORLD)
        MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
