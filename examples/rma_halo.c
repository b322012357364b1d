/*
 * rma_halo.c: a 1-D Jacobi relaxation whose halo exchange is one-sided: each rank owns a block
 * of a periodic grid with one ghost cell on each side, exposed in an MPI_Win_create window, and
 * every iteration puts its edge values into its neighbours' ghost cells between two
 * MPI_Win_fence calls (the first asserts MPI_MODE_NOPRECEDE on the first iteration, the last
 * MPI_MODE_NOSUCCEED). The same relaxation is computed serially on every rank over the whole
 * grid, and the distributed result must match it exactly (same operations, same order).
 * Prints "No Errors" when it does.
 *
 *   mpicc rma_halo.c -o rma_halo && mpiexec -n 4 ./rma_halo
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define LOCAL 64
#define ITERS 100

static double initial(long i) { return (double)((i * 7919) % 101); }

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    long n = (long)size * LOCAL;

    /* u[0] and u[LOCAL+1] are ghosts. */
    double *u = malloc((LOCAL + 2) * sizeof(double)), *next = malloc((LOCAL + 2) * sizeof(double));
    for (int i = 1; i <= LOCAL; i++)
        u[i] = initial((long)rank * LOCAL + i - 1);
    MPI_Win win;
    MPI_Win_create(u, (LOCAL + 2) * sizeof(double), sizeof(double), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);

    for (int it = 0; it < ITERS; it++) {
        MPI_Win_fence(it == 0 ? MPI_MODE_NOPRECEDE : 0, win);
        MPI_Put(&u[1], 1, MPI_DOUBLE, left, LOCAL + 1, 1, MPI_DOUBLE, win);
        MPI_Put(&u[LOCAL], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, win);
        MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, win);
        for (int i = 1; i <= LOCAL; i++)
            next[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
        /* Nobody reads u until the next fence, and nobody writes our ghosts before it. */
        for (int i = 1; i <= LOCAL; i++)
            u[i] = next[i];
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);

    /* The serial reference over the whole periodic grid. */
    double *g = malloc(n * sizeof(double)), *h = malloc(n * sizeof(double));
    for (long i = 0; i < n; i++)
        g[i] = initial(i);
    for (int it = 0; it < ITERS; it++) {
        for (long i = 0; i < n; i++)
            h[i] = 0.25 * g[(i + n - 1) % n] + 0.5 * g[i] + 0.25 * g[(i + 1) % n];
        double *t = g;
        g = h;
        h = t;
    }
    int bad = 0, all_bad;
    for (int i = 1; i <= LOCAL; i++)
        if (u[i] != g[(long)rank * LOCAL + i - 1])
            bad++;
    MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (all_bad)
            printf("%d cells differ from the serial relaxation\n", all_bad);
        else
            printf("%ld cells, %d iterations: matches the serial relaxation\n No Errors\n", n,
                   ITERS);
    }
    MPI_Win_free(&win);
    free(u);
    free(next);
    free(g);
    free(h);
    MPI_Finalize();
    return all_bad != 0 && rank == 0;
}
