/*
 * ft_safe_split.c: safe communicator creation, after Example 17.1 of the MPI standard's
 * "Process Fault Tolerance" chapter (ULFM). MPI_Comm_split may succeed at some ranks and fail
 * at others when a rank dies during it, so the ranks agree on the outcome with
 * MPIX_Comm_agree: on any failure every rank frees what it created and the split is retried,
 * here on the shrunk parent (a split over a communicator with a dead member keeps failing).
 *
 * The program splits the survivors by parity of world rank, ROUNDS times. In every round each
 * new communicator sums the world ranks of its members with MPI_Allreduce; the sum is checked
 * against the parent's group (translated to world ranks), and the round counts only when every
 * rank agrees it succeeded. Prints the per-round sums and "No Errors" when all checks pass.
 *
 *   MINI_MPI_FAULTS="kill 3 at MPI_Comm_split#2" bin/mpiexec -n 8 build/examples/ft_safe_split
 */
#include <mpi.h>
#if defined(OPEN_MPI) || defined(MINI_MPI) /* MPICH declares MPIX_ in mpi.h, has no mpi-ext.h */
#include <mpi-ext.h>
#endif
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 4

/* Example 17.1: a split that either succeeds at every surviving rank or fails at all of them
 * (then *newcomm is MPI_COMM_NULL everywhere). */
static int comm_split_safe(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    int rc = MPI_Comm_split(comm, color, key, newcomm);
    int flag = rc == MPI_SUCCESS;
    int arc = MPIX_Comm_agree(comm, &flag);
    if (arc != MPI_SUCCESS || !flag) {
        if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL)
            MPI_Comm_free(newcomm);
        *newcomm = MPI_COMM_NULL;
        return rc != MPI_SUCCESS ? rc : (arc != MPI_SUCCESS ? arc : MPIX_ERR_PROC_FAILED);
    }
    return MPI_SUCCESS;
}

/* The sum of the world ranks of comm's members whose world rank has parity `color`. */
static long expected_sum(MPI_Comm comm, int color)
{
    MPI_Group g, wg;
    int n;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_size(g, &n);
    int *in = malloc(sizeof(int) * (size_t)n), *out = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        in[i] = i;
    MPI_Group_translate_ranks(g, n, in, wg, out);
    long s = 0;
    for (int i = 0; i < n; i++)
        if (out[i] % 2 == color)
            s += out[i];
    free(in);
    free(out);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    return s;
}

/* Replaces *comm by its survivors. */
static void shrink(MPI_Comm *comm)
{
    MPI_Comm survivors;
    MPIX_Comm_revoke(*comm);
    MPIX_Comm_shrink(*comm, &survivors);
    if (*comm != MPI_COMM_WORLD)
        MPI_Comm_free(comm);
    *comm = survivors;
}

int main(int argc, char **argv)
{
    int wrank, errors = 0, retries = 0;
    MPI_Comm parent;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    /* Errors are returned, not fatal; the parent starts as MPI_COMM_WORLD itself so that a
     * death at any call after MPI_Init is survivable (an MPI_Comm_dup could fail too). */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    parent = MPI_COMM_WORLD;

    int color = wrank % 2;
    for (int round = 0; round < ROUNDS;) {
        MPI_Comm half;
        int rc = comm_split_safe(parent, color, wrank, &half);
        if (rc != MPI_SUCCESS) {
            shrink(&parent);
            retries++;
            continue;
        }
        MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
        long mine = wrank, sum = -1;
        rc = MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, half);
        /* The round counts only if every rank of the parent got its sum. */
        int ok = rc == MPI_SUCCESS;
        int arc = MPIX_Comm_agree(parent, &ok);
        MPI_Comm_free(&half);
        if (arc != MPI_SUCCESS || !ok) {
            MPIX_Comm_failure_ack(parent);
            shrink(&parent);
            retries++;
            continue;
        }
        long want = expected_sum(parent, color);
        if (sum != want) {
            printf("rank %d round %d: sum %ld, expected %ld\n", wrank, round, sum, want);
            errors++;
        }
        int prank;
        MPI_Comm_rank(parent, &prank);
        if (prank == 0 || prank == 1)
            printf("round %d: color %d sum of world ranks %ld\n", round, color, sum);
        round++;
    }

    /* Everyone's verdict; agree is the one call that works whatever failed meanwhile. */
    int good = errors == 0, size, prank;
    MPIX_Comm_agree(parent, &good);
    MPI_Comm_size(parent, &size);
    MPI_Comm_rank(parent, &prank);
    if (prank == 0) {
        printf("%d rounds, %d retries, %d ranks left\n", ROUNDS, retries, size);
        if (good)
            printf("No Errors\n");
    }
    if (parent != MPI_COMM_WORLD)
        MPI_Comm_free(&parent);
    MPI_Finalize();
    return 0;
}
