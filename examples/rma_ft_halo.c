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
 * Setting up (the communicator, the window) and the final comparison go through the same
 * agreement, so a death at any MPI call ends in the verified result (the fault sweep of
 * tests/tools/rmaft_sweep.sh). The result must equal the serial relaxation exactly. Prints
 * "<cells> cells, <iters> iterations, <n> recoveries, <p> ranks left: matches the serial
 * relaxation" and "No Errors". Optional argument: the number of iterations (default 40).
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

/* The decision every survivor of comm shares: the AND of their `ok`, 0 after a failure that
 * not everyone had acknowledged (each then notices and acknowledges it, and they decide
 * again). */
static int decide(MPI_Comm comm, int ok)
{
    int flag = ok;
    while (MPIX_Comm_agree(comm, &flag) != MPI_SUCCESS) {
        MPI_Group failed;
        MPIX_Comm_get_failed(comm, &failed);
        MPI_Group_free(&failed);
        MPIX_Comm_failure_ack(comm);
        flag = 0;
    }
    return flag;
}

/* Replaces comm by its survivors. */
static void shrink(MPI_Comm *comm)
{
    MPI_Comm shrunk;
    MPIX_Comm_shrink(*comm, &shrunk);
    MPI_Comm_free(comm);
    *comm = shrunk;
    MPI_Comm_set_errhandler(*comm, MPI_ERRORS_RETURN);
}

/* Creates the window of the current distribution, filled from the checkpoint; after a failure
 * (decided together) shrinks and tries again. */
static void build(struct part *s, const double *ckpt)
{
    for (;;) {
        MPI_Comm_rank(s->comm, &s->me);
        MPI_Comm_size(s->comm, &s->p);
        s->len = lo(s->me + 1, s->p) - lo(s->me, s->p);
        s->left = (s->me + s->p - 1) % s->p;
        s->right = (s->me + 1) % s->p;
        s->u = realloc(s->u, (s->len + 2) * sizeof(double));
        s->next = realloc(s->next, (s->len + 2) * sizeof(double));
        memcpy(&s->u[1], &ckpt[lo(s->me, s->p)], s->len * sizeof(double));
        s->win = MPI_WIN_NULL;
        int rc = MPI_Win_create(s->u, (s->len + 2) * sizeof(double), sizeof(double),
                                MPI_INFO_NULL, s->comm, &s->win);
        if (rc == MPI_SUCCESS)
            MPI_Win_set_errhandler(s->win, MPI_ERRORS_RETURN);
        if (decide(s->comm, rc == MPI_SUCCESS))
            return;
        if (s->win != MPI_WIN_NULL) {
            MPIX_Win_revoke(s->win);
            MPI_Win_free(&s->win);
        }
        shrink(&s->comm);
    }
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
    int iters = argc > 1 ? atoi(argv[1]) : 40;
    struct part s = {0};
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPIX_Comm_shrink(MPI_COMM_WORLD, &s.comm); /* the survivors; a shrink cannot fail */
    MPI_Comm_set_errhandler(s.comm, MPI_ERRORS_RETURN);
    double *ckpt = malloc(CELLS * sizeof(double)), *tmp = malloc(CELLS * sizeof(double));
    for (long i = 0; i < CELLS; i++)
        ckpt[i] = initial(i);
    int ckpt_iter = 0, recoveries = 0, poisoned = 0;
    build(&s, ckpt);

    for (int it = 0; it < iters;) {
        int rc = step(&s);
        int saved = rc == MPI_SUCCESS && (it + 1) % CKPT == 0;
        if (saved)
            rc = gather(&s, tmp);
        if (rc != MPI_SUCCESS)
            MPIX_Win_revoke(s.win); /* members still inside the window get out */
        if (decide(s.comm, rc == MPI_SUCCESS)) {
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
        shrink(&s.comm);
        build(&s, ckpt);
        it = ckpt_iter;
        recoveries++;
    }
    MPI_Win_free(&s.win); /* MPI_SUCCESS, or MPI_ERR_PROC_FAILED if a member died: freed */

    /* The serial reference over the whole grid. */
    double *g = malloc(CELLS * sizeof(double)), *h = malloc(CELLS * sizeof(double));
    for (long i = 0; i < CELLS; i++)
        g[i] = initial(i);
    for (int it = 0; it < iters; it++) {
        for (long i = 0; i < CELLS; i++)
            h[i] = 0.25 * g[(i + CELLS - 1) % CELLS] + 0.5 * g[i] + 0.25 * g[(i + 1) % CELLS];
        double *t = g;
        g = h;
        h = t;
    }
    int bad = 0, mine[2], all[2] = {0, 0};
    for (int i = 1; i <= s.len; i++)
        if (s.u[i] != g[lo(s.me, s.p) + i - 1])
            bad++;
    /* Every survivor checks its own block (a member dying now takes its block with it), then
     * the counts are summed until that succeeds everywhere. */
    mine[0] = bad;
    mine[1] = poisoned;
    while (!decide(s.comm, MPI_Allreduce(mine, all, 2, MPI_INT, MPI_SUM, s.comm) == MPI_SUCCESS))
        shrink(&s.comm);
    int me, p;
    MPI_Comm_rank(s.comm, &me);
    MPI_Comm_size(s.comm, &p);
    if (me == 0) {
        if (all[1])
            fprintf(stderr, "%d poisoned ghost cells recomputed\n", all[1]);
        if (all[0])
            printf("%d cells differ from the serial relaxation\n", all[0]);
        else
            printf("%d cells, %d iterations, %d recoveries, %d ranks left: matches the serial "
                   "relaxation\n No Errors\n",
                   CELLS, iters, recoveries, p);
        fflush(stdout);
    }
    MPI_Comm_free(&s.comm);
    free(s.u);
    free(s.next);
    free(ckpt);
    free(tmp);
    free(g);
    free(h);
    MPI_Finalize();
    return all[0] != 0;
}
