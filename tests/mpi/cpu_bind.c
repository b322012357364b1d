/* cpu_bind.c: which CPUs rank-threads run on. When the ranks fit the process's CPUs and
 * MINI_MPI_BIND is not "none", each rank-thread runs on one CPU, a different one per rank, until
 * it creates a thread: from then on the rank and its thread run on the process's whole mask (its
 * threads may need its CPU), while the other ranks stay bound. Otherwise every rank runs on the
 * whole mask. arg=spawn: after an MPI_Comm_spawn no rank is bound any more (the job may have
 * outgrown the CPUs), and the children are not bound either. arg=restart: rank 1 dies and rank 0
 * restarts it in place; the restart, which adds a rank to the job as a spawn does, releases every
 * binding: neither rank 0 nor the new rank 1 is bound after it. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_* */
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int errs;
static cpu_set_t process_mask; /* the launcher thread's mask: the process's */

#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            errs++;                                                                               \
            printf(__VA_ARGS__);                                                                  \
            printf("\n");                                                                         \
        }                                                                                         \
    } while (0)

static int only_cpu(const cpu_set_t *set)
{
    if (CPU_COUNT(set) != 1)
        return -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, set))
            return cpu;
    return -1;
}

static cpu_set_t mine(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof(set), &set);
    return set;
}

static void *thread_main(void *arg)
{
    cpu_set_t *out = arg;
    *out = mine();
    return NULL;
}

static void check_unbound(const char *who, int rank)
{
    cpu_set_t set = mine();
    CHECK(CPU_EQUAL(&set, &process_mask), "%s %d: runs on %d CPUs, not the process's %d", who,
          rank, CPU_COUNT(&set), CPU_COUNT(&process_mask));
}

static int finish(int rank)
{
    int total = 0;
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm parent;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CPU_ZERO(&process_mask);
    sched_getaffinity(getpid(), sizeof(process_mask), &process_mask);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) { /* a spawned child: never bound */
        check_unbound("child", rank);
        MPI_Send(&errs, 1, MPI_INT, 0, 1, parent);
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }

    int flag = 0, *incarnation = NULL;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MINI_MPI_INCARNATION, &incarnation, &flag);
    int restarted = flag && *incarnation;
    int restart_mode = argc > 1 && !strcmp(argv[1], "restart");
    const char *bind = getenv("MINI_MPI_BIND");
    int bound = !(bind && !strcmp(bind, "none")) && size > 1 &&
                size <= CPU_COUNT(&process_mask);
    cpu_set_t set = mine();
    int cpu = only_cpu(&set);
    if (restarted) {
        check_unbound("restarted rank", rank);
    } else if (bound) {
        CHECK(cpu >= 0 && CPU_ISSET(cpu, &process_mask),
              "rank %d: bound to %d CPUs, expected one of the process's", rank, CPU_COUNT(&set));
        if (!restart_mode) { /* (there, the first rank 1 dies at once) */
            int *cpus = malloc((size_t)size * sizeof(int));
            MPI_Allgather(&cpu, 1, MPI_INT, cpus, 1, MPI_INT, MPI_COMM_WORLD);
            for (int r = 0; r < rank; r++)
                CHECK(cpus[r] != cpu, "ranks %d and %d share CPU %d", r, rank, cpu);
            free(cpus);
        }
    } else {
        check_unbound("rank", rank);
    }

    if (restart_mode) { /* two ranks */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        if (rank == 1 && !restarted)
            raise(SIGKILL);
        if (rank == 0) {
            int v;
            CHECK(MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
                  MPI_ERR_PROC_FAILED, "rank 0: the first rank 1 did not fail");
            CHECK(MPIX_Comm_restart_rank(MPI_COMM_WORLD, 1) == MPI_SUCCESS,
                  "rank 0: restart failed");
            check_unbound("rank 0 after the restart", rank);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* with the new rank 1, which checked itself above */
        return finish(rank);
    }

    /* Rank 0 creates a thread: both run on the process's mask from then on; the others keep
     * their CPUs. */
    if (rank == 0) {
        pthread_t t;
        cpu_set_t of_thread;
        pthread_create(&t, NULL, thread_main, &of_thread);
        pthread_join(t, NULL);
        CHECK(CPU_EQUAL(&of_thread, &process_mask), "rank 0: its thread runs on %d CPUs, not "
              "the process's %d", CPU_COUNT(&of_thread), CPU_COUNT(&process_mask));
        check_unbound("rank that created a thread", rank);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0) {
        cpu_set_t after = mine();
        CHECK(CPU_EQUAL(&after, &set), "rank %d: its mask changed when rank 0 created a thread",
              rank);
    }

    if (argc > 1 && !strcmp(argv[1], "spawn")) {
        MPI_Comm children;
        int child_errs = 0;
        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children,
                       MPI_ERRCODES_IGNORE);
        if (rank == 0)
            MPI_Recv(&child_errs, 1, MPI_INT, 0, 1, children, MPI_STATUS_IGNORE);
        errs += child_errs;
        MPI_Comm_disconnect(&children);
        check_unbound("rank after a spawn", rank);
        MPI_Barrier(MPI_COMM_WORLD); /* the ranks wait on the whole mask now */
    }

    return finish(rank);
}
