/*
 * bench/restart.c: restarting a failed rank in place (MPIX_Comm_restart_rank, mini_mpi only),
 * side by side with starting one rank by MPI_Comm_spawn, the closest standard operation.
 *
 * Restart: the last rank (the victim) dies (raise(SIGKILL)); rank 0 learns it (a receive from
 * it fails), takes t0 = MPI_Wtime() and calls MPIX_Comm_restart_rank(MPI_COMM_WORLD, victim).
 * The new incarnation takes MPI_Wtime() as soon as its MPI_Init returns and sends it to rank 0,
 * then dies again for the next round. MPI_Wtime is one clock for all ranks in mini_mpi
 * (MPI_WTIME_IS_GLOBAL). The other ranks wait in a receive all along, as survivors would.
 * Reported, median of ROUNDS rounds:
 *   restart (ms)       t0 to the new incarnation's MPI_Init returning (the figure);
 *   restart_call (ms)  t0 to the restart call returning (it returns once the new incarnation's
 *                      MPI_Init has done its work; the incarnation's own timestamp also waits
 *                      for its thread to be scheduled, so it is often the later of the two).
 * Spawn: rank 0 calls MPI_Comm_spawn of this program, one process, over MPI_COMM_SELF; the child
 * sends MPI_Wtime() right after its MPI_Init to its parent, then both disconnect.
 *   spawn1 (ms)        t0 to the child's MPI_Init returning;
 *   spawn1_call (ms)   t0 to MPI_Comm_spawn returning.
 * With another MPI (no MINI_MPI_HAVE_RESTART) the restart figures are NA.
 */
#include "common.h"

#include <signal.h>

#define ROUNDS 15
#define TAG_TIME 41
#define TAG_NEVER 42
#define TAG_DONE 43

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp);
    return v[n / 2];
}

static void spawn_child(MPI_Comm parent)
{
    double t = MPI_Wtime();
    MPI_Send(&t, 1, MPI_DOUBLE, 0, TAG_TIME, parent);
    MPI_Comm_disconnect(&parent);
}

static void bench_spawn(char *program, int size)
{
    double init[ROUNDS], call[ROUNDS];
    char *args[] = {"child", NULL};
    for (int k = 0; k < ROUNDS; k++) {
        MPI_Comm inter;
        double t0 = MPI_Wtime(), t;
        MPI_Comm_spawn(program, args, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter,
                       MPI_ERRCODES_IGNORE);
        call[k] = (MPI_Wtime() - t0) * 1e3;
        MPI_Recv(&t, 1, MPI_DOUBLE, 0, TAG_TIME, inter, MPI_STATUS_IGNORE);
        init[k] = (t - t0) * 1e3;
        MPI_Comm_disconnect(&inter);
    }
    bench_result("spawn1", 0, size, median(init, ROUNDS), "ms");
    bench_result("spawn1_call", 0, size, median(call, ROUNDS), "ms");
}

#ifdef MINI_MPI_HAVE_RESTART
/* Rank 0's rounds: each starts with the victim's death. */
static void bench_restart(int victim, int size)
{
    double init[ROUNDS], call[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        double dummy, t;
        /* Learn of the death: nothing is ever sent with this tag. */
        MPI_Recv(&dummy, 1, MPI_DOUBLE, victim, TAG_NEVER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double t0 = MPI_Wtime();
        MPIX_Comm_restart_rank(MPI_COMM_WORLD, victim);
        call[k] = (MPI_Wtime() - t0) * 1e3;
        MPI_Recv(&t, 1, MPI_DOUBLE, victim, TAG_TIME, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        init[k] = (t - t0) * 1e3;
    }
    bench_result("restart", 0, size, median(init, ROUNDS), "ms");
    bench_result("restart_call", 0, size, median(call, ROUNDS), "ms");
}
#endif

int main(int argc, char **argv)
{
    int rank, size, incarnation = 0, *attr, flag = 0;
    MPI_Comm parent;
    MPI_Init(&argc, &argv);
    double t_init = MPI_Wtime();
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        spawn_child(parent);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifdef MINI_MPI_HAVE_RESTART
    MPI_Comm_get_attr(MPI_COMM_WORLD, MINI_MPI_INCARNATION, &attr, &flag);
    if (flag)
        incarnation = *attr;
#else
    (void)attr;
    (void)flag;
#endif
    int victim = size - 1;
    if (size < 2) {
        if (rank == 0)
            bench_result_na("restart", 0, size, "ms", "needs-2-ranks");
        MPI_Finalize();
        return 0;
    }
    if (incarnation > 0) { /* a new incarnation of the victim */
        MPI_Send(&t_init, 1, MPI_DOUBLE, 0, TAG_TIME, MPI_COMM_WORLD);
        if (incarnation < ROUNDS)
            raise(SIGKILL); /* the next round */
        MPI_Recv(&flag, 1, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Finalize();
        return 0;
    }
    if (rank == 0) {
        bench_spawn(argv[0], size);
#ifdef MINI_MPI_HAVE_RESTART
        int go = 1;
        MPI_Send(&go, 1, MPI_INT, victim, TAG_DONE, MPI_COMM_WORLD); /* the victim may die */
        bench_restart(victim, size);
#else
        bench_result_na("restart", 0, size, "ms", "no-restart");
        bench_result_na("restart_call", 0, size, "ms", "no-restart");
#endif
        for (int r = 1; r < size; r++) /* the survivors, and the last incarnation */
            MPI_Send(&flag, 1, MPI_INT, r, TAG_DONE, MPI_COMM_WORLD);
    } else if (rank == victim) {
        MPI_Recv(&flag, 1, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#ifdef MINI_MPI_HAVE_RESTART
        raise(SIGKILL);
#endif
    } else {
        MPI_Recv(&flag, 1, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
