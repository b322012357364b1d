/*
 * rma_ft_halo.c: a fence-based halo exchange that survives process failures: the windows
 * recovery pattern (revoke, agree, shrink, recreate; docs/rma.md "Recovering a window").
 *
 * A 1-D Jacobi relaxation over a periodic grid of CELLS cells, distributed in blocks over the
 * ranks; each rank exposes its block with one ghost cell on each side in a window and, every
 * iteration, puts its edge cells into its neighbours' ghosts between two MPI_Win_fence calls.
 * Every CKPT iterations the grid is checkpointed on every rank (MPI_Allgatherv).
 *
 * After each iteration the survivors agree (MPIX_Comm_agree) whether it succeeded everywhere: a
 * fence can raise MPI_ERR_PROC_FAILED at some members and succeed at others (a member that died
 * inside it), or raise MPI_ERR_REVOKED once another member revoked. When it failed:
 *   1. MPIX_Win_revoke: members still inside the window get out;
 *   2. the ghost cells the failed epoch wrote are undefined (with MINI_MPI_POISON=1 they are
 *      NaN: the poisoned region is counted and printed with MINI_MPI_VERBOSE-style detail);
 *   3. MPI_Win_free (local on a revoked window), MPIX_Comm_shrink;
 *   4. the grid is redistributed over the survivors from the last checkpoint, the window
 *      created again, and the iterations since the checkpoint (the poisoned region and the
 *      lost block included) computed again.
 * The result must equal the serial relaxation exactly. Prints "<cells> cells, <iters>
 * iterations, <n> recoveries, <p> ranks left: matches the serial relaxation" and "No Errors".
 *
 *   mpicc rma_ft_halo.c -o rma_ft_halo
 *   MINI_MPI_FAULTS='kill 2 during MPI_Win_fence#9' MINI_MPI_POISON=1 mpiexec -n 4 ./rma_ft_halo
 */
#include <math.h>
#include <mpi.h>
#if defined(OPEN_MPI) || defined(MINI_MPI) /* MPICH declares MPIX_ in mpi.h, has no mpi-ext.h */
#include <mpi-ext.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELLS 240
#define ITERS 40
#define CKPT 5

static double initial(long i) { return (double)((i * 7919) % 101); }

/* Block of rank r of p: cells [lo(r), lo(r+1)). */
static int lo(int r, int p) { return (int)((long)r * CELLS / p); }

struct part {
    MPI_Comm comm;
    int me, p, len, left, right;
    double *u, *next; /* u[0], u[len+1]: ghosts */
    MPI_Win win;
};

/* Creates the window of the current distribution, filled from the checkpoint. */
static void build(struct part *s, const double *ckpt)
{
    MPI_Comm_rank(s->comm, &s->me);
    MPI_Comm_size(s->comm, &s->p);
    s->len = lo(s->me + 1, s->p) - lo(s->me, s->p);
    s->left = (s->me + s->p - 1) % s->p;
    s->right = (s->me + 1) % s->p;
    s->u = realloc(s->u, (s->len + 2) * sizeof(double));
    s->next = realloc(s->next, (s->len + 2) * sizeof(double));
    memcpy(&s->u[1], &ckpt[lo(s->me, s->p)], s->len * sizeof(double));
    MPI_Win_create(s->u, (s->len + 2) * sizeof(double), sizeof(double), MPI_INFO_NULL, s->comm,
                   &s->win);
    MPI_Win_set_errhandler(s->win, MPI_ERRORS_RETURN);
}

/* One relaxation step; returns the first error of its calls. */
static int step(struct part *s)
{
    int rc = MPI_Win_fence(0, s->win);
    int left_len = lo(s->left + 1, s->p) - lo(s->left, s->p);
    if (rc == MPI_SUCCESS)
        rc = MPI_Put(&s->u[1], 1, MPI_DOUBLE, s->left, left_len + 1, 1, MPI_DOUBLE, s->win);
    if (rc == MPI_SUCCESS)
        rc = MPI_Put(&s->u[s->len], 1, MPI_DOUBLE, s->right, 0, 1, MPI_DOUBLE, s->win);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_fence(0, s->win);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 1; i <= s->len; i++)
        s->next[i] = 0.25 * s->u[i - 1] + 0.5 * s->u[i] + 0.25 * s->u[i + 1];
    memcpy(&s->u[1], &s->next[1], s->len * sizeof(double));
    return MPI_SUCCESS;
}

/* The whole grid on every member, into out. */
static int gather(struct part *s, double *out)
{
    int *counts = malloc(s->p * sizeof(int)), *displs = malloc(s->p * sizeof(int));
    for (int r = 0; r < s->p; r++) {
        displs[r] = lo(r, s->p);
        counts[r] = lo(r + 1, s->p) - displs[r];
    }
    int rc = MPI_Allgatherv(&s->u[1], s->len, MPI_DOUBLE, out, counts, displs, MPI_DOUBLE,
                            s->comm);
    free(counts);
    free(displs);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct part s = {0};
    MPI_Comm_dup(MPI_COMM_WORLD, &s.comm);
    MPI_Comm_set_errhandler(s.comm, MPI_ERRORS_RETURN);
    double *ckpt = malloc(CELLS * sizeof(double)), *tmp = malloc(CELLS * sizeof(double));
    for (long i = 0; i < CELLS; i++)
        ckpt[i] = initial(i);
    int ckpt_iter = 0, recoveries = 0, poisoned = 0;
    build(&s, ckpt);

    for (int it = 0; it < ITERS;) {
        int rc = step(&s);
        int saved = rc == MPI_SUCCESS && (it + 1) % CKPT == 0;
        if (saved)
            rc = gather(&s, tmp);
        int ok = rc == MPI_SUCCESS;
        if (!ok)
            MPIX_Win_revoke(s.win);
        if (MPIX_Comm_agree(s.comm, &ok) != MPI_SUCCESS) {
            /* A failure this member was not told of: notice, acknowledge, decide again. */
            MPI_Group failed;
            MPIX_Comm_get_failed(s.comm, &failed);
            MPI_Group_free(&failed);
            MPIX_Comm_failure_ack(s.comm);
            ok = 0;
            MPIX_Comm_agree(s.comm, &ok);
        }
        if (ok) {
            if (saved) {
                memcpy(ckpt, tmp, CELLS * sizeof(double));
                ckpt_iter = it + 1;
            }
            it++;
            continue;
        }
        /* The epoch failed somewhere: what it put into our ghosts is undefined. */
        MPIX_Win_revoke(s.win);
        poisoned += isnan(s.u[0]) + isnan(s.u[s.len + 1]);
        MPI_Win_free(&s.win);
        MPI_Comm shrunk;
        MPIX_Comm_shrink(s.comm, &shrunk);
        MPI_Comm_free(&s.comm);
        s.comm = shrunk;
        MPI_Comm_set_errhandler(s.comm, MPI_ERRORS_RETURN);
        build(&s, ckpt);
        it = ckpt_iter;
        recoveries++;
    }

    /* The serial reference over the whole grid. */
    double *g = malloc(CELLS * sizeof(double)), *h = malloc(CELLS * sizeof(double));
    for (long i = 0; i < CELLS; i++)
        g[i] = initial(i);
    for (int it = 0; it < ITERS; it++) {
        for (long i = 0; i < CELLS; i++)
            h[i] = 0.25 * g[(i + CELLS - 1) % CELLS] + 0.5 * g[i] + 0.25 * g[(i + 1) % CELLS];
        double *t = g;
        g = h;
        h = t;
    }
    int bad = 0, all_bad = 0, all_poisoned = 0;
    for (int i = 1; i <= s.len; i++)
        if (s.u[i] != g[lo(s.me, s.p) + i - 1])
            bad++;
    MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, s.comm);
    MPI_Reduce(&poisoned, &all_poisoned, 1, MPI_INT, MPI_SUM, 0, s.comm);
    if (s.me == 0) {
        if (all_poisoned)
            fprintf(stderr, "%d poisoned ghost cells recomputed\n", all_poisoned);
        if (all_bad)
            printf("%d cells differ from the serial relaxation\n", all_bad);
        else
            printf("%d cells, %d iterations, %d recoveries, %d ranks left: matches the serial "
                   "relaxation\n No Errors\n",
                   CELLS, ITERS, recoveries, s.p);
    }
    MPI_Win_free(&s.win);
    MPI_Comm_free(&s.comm);
    free(s.u);
    free(s.next);
    free(ckpt);
    free(tmp);
    free(g);
    free(h);
    MPI_Finalize();
    return all_bad != 0;
}
