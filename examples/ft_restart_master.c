/*
 * ft_restart_master.c: the hardened workers that restart their master (the restart-based
 * recovery of the ULFM "FT scenarios" discussion). A worker whose receive from the master, or
 * send to it, fails with MPI_ERR_PROC_FAILED calls MPI_Comm_restart_rank(MPI_COMM_WORLD, 0):
 * every worker eventually does, one new incarnation of the master starts, and the others only
 * block until it has passed MPI_Init. The new master reads its input again; what the dead one
 * had collected is gone, but every answer still lives with the worker that produced it:
 * the new master asks each worker for the answers it holds (TAG_COLLECT), then hands out the
 * tasks nobody has done. Workers leave the master's epoch only through an agreement of every
 * worker and the master (on a stop, or on the master's death), so that no worker has left
 * when a new master collects, and none is still waiting on the dead one. So each answer is
 * produced exactly once, by one worker, and counted exactly once, by the master incarnation
 * that finishes the job. Messages between the workers and a dead master are discarded
 * (MPIX_Comm_restart_rank's semantics).
 * Task t computes t*t + 1. The master checks that every task was answered exactly once and
 * the sum, then prints "No Errors". Workers must survive (nobody restarts them here). A master
 * that dies once the final agreement has completed (having contributed to it: `kill 0 during
 * MPIX_Comm_agree`, or after it) ends the job without its report: every worker has left by
 * then, as they would on any machine.
 *
 *   MINI_MPI_FAULTS="kill 0 at MPI_Waitany#20;kill 0.1 at MPI_Send#5" \
 *       bin/mpiexec -n 4 build/examples/ft_restart_master [ntasks]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef MINI_MPI_HAVE_RESTART
#error "needs MPIX_Comm_restart_rank (mini_mpi)"
#endif

#define TAG_WORK 1
#define TAG_ANSWER 2
#define TAG_STOP 3
#define TAG_COLLECT 4
#define TAG_HELD 5

static long work(int task) { return (long)task * task + 1; }

/* The master's input: the task list, from the arguments (read again by every incarnation). */
static int read_input(int argc, char **argv, int **tasks)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    *tasks = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
        (*tasks)[i] = i;
    return n;
}

/* ---- Workers -------------------------------------------------------------------------- */

/* Everything this worker produced: what a new master collects. */
struct held {
    long (*answers)[2]; /* everything this worker produced */
    int n, cap;
};

/* The master died, or a stop came: every worker and the master agree (MPIX_Comm_agree is
 * uniform). Success: the master had every answer and every worker got its stop: leave.
 * Failure: the master died; since every worker leaves the master's epoch through this same
 * agreement (none has left, none is left behind in a receive), they all restart the master
 * together: one new incarnation starts, and the others only block until it has passed
 * MPI_Init. Returns 1 to go on working, 0 to leave. */
static int sync_or_restart(void)
{
    int flag = 1;
    if (MPIX_Comm_agree(MPI_COMM_WORLD, &flag) == MPI_SUCCESS)
        return 0;
    for (int tries = 0; tries < 16; tries++)
        if (MPI_Comm_restart_rank(MPI_COMM_WORLD, 0) == MPI_SUCCESS)
            return 1;
    return 0; /* its new incarnations keep dying before MPI_Init: give up */
}

static void worker(void)
{
    struct held h = {NULL, 0, 0};
    for (;;) {
        int task;
        MPI_Status st;
        if (MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS ||
            st.MPI_TAG == TAG_STOP) {
            if (!sync_or_restart())
                break;
            continue;
        }
        if (st.MPI_TAG == TAG_COLLECT) { /* a new master: everything held so far */
            if (MPI_Send(h.answers, 2 * h.n, MPI_LONG, 0, TAG_HELD, MPI_COMM_WORLD) !=
                    MPI_SUCCESS &&
                !sync_or_restart())
                break;
            continue;
        }
        if (h.n == h.cap) {
            h.cap = h.cap ? 2 * h.cap : 64;
            h.answers = realloc(h.answers, sizeof(*h.answers) * (size_t)h.cap);
        }
        h.answers[h.n][0] = task;
        h.answers[h.n][1] = work(task);
        if (MPI_Send(h.answers[h.n++], 2, MPI_LONG, 0, TAG_ANSWER, MPI_COMM_WORLD) !=
                MPI_SUCCESS &&
            !sync_or_restart())
            break;
    }
    free(h.answers);
}

/* ---- The master ----------------------------------------------------------------------- */

struct master {
    int size, ntasks;
    int *tasks;
    char *done;         /* per task: answered (counted once) */
    char *given;        /* per task: handed out by this incarnation, or held by a worker */
    int next;           /* next task to hand out */
    long sum;
    int ndone, duplicates, collected;
};

static void count(struct master *m, long task, long value)
{
    if (task < 0 || task >= m->ntasks || value != work((int)task)) {
        fprintf(stderr, "master: bad answer %ld=%ld\n", task, value);
        return;
    }
    m->given[task] = 1;
    if (m->done[task]) {
        m->duplicates++;
        return;
    }
    m->done[task] = 1;
    m->ndone++;
    m->sum += value;
}

/* A restarted master: every worker reports what it has produced so far. */
static void collect(struct master *m)
{
    long (*buf)[2] = malloc(sizeof(*buf) * (size_t)m->ntasks);
    for (int w = 1; w < m->size; w++) {
        int dummy = 0, n;
        MPI_Status st;
        MPI_Send(&dummy, 1, MPI_INT, w, TAG_COLLECT, MPI_COMM_WORLD);
        MPI_Recv(buf, 2 * m->ntasks, MPI_LONG, w, TAG_HELD, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_LONG, &n);
        for (int i = 0; i < n / 2; i++)
            count(m, buf[i][0], buf[i][1]);
        m->collected += n / 2;
    }
    free(buf);
}

/* The next task nobody has: -1 when none is left. */
static int next_task(struct master *m)
{
    while (m->next < m->ntasks && m->given[m->tasks[m->next]])
        m->next++;
    if (m->next == m->ntasks)
        return -1;
    m->given[m->tasks[m->next]] = 1;
    return m->tasks[m->next++];
}

static int master(int size, int incarnation, int argc, char **argv)
{
    struct master m = {.size = size};
    m.ntasks = read_input(argc, argv, &m.tasks);
    m.done = calloc((size_t)m.ntasks, 1);
    m.given = calloc((size_t)m.ntasks, 1);
    if (incarnation > 0)
        collect(&m);

    /* One task per worker at a time; a receive posted per worker, waited on together. */
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)size);
    long (*ans)[2] = malloc(sizeof(*ans) * (size_t)size);
    int busy = 0;
    req[0] = MPI_REQUEST_NULL;
    for (int w = 1; w < size; w++) {
        int t = next_task(&m);
        req[w] = MPI_REQUEST_NULL;
        if (t < 0)
            continue;
        MPI_Send(&t, 1, MPI_INT, w, TAG_WORK, MPI_COMM_WORLD);
        MPI_Irecv(ans[w], 2, MPI_LONG, w, TAG_ANSWER, MPI_COMM_WORLD, &req[w]);
        busy++;
    }
    while (busy > 0) {
        int w;
        MPI_Status st;
        if (MPI_Waitany(size, req, &w, &st) != MPI_SUCCESS) {
            fprintf(stderr, "master: a worker failed; this program does not restart workers\n");
            return 0;
        }
        busy--;
        count(&m, ans[w][0], ans[w][1]);
        int t = next_task(&m);
        if (t < 0)
            continue;
        MPI_Send(&t, 1, MPI_INT, w, TAG_WORK, MPI_COMM_WORLD);
        MPI_Irecv(ans[w], 2, MPI_LONG, w, TAG_ANSWER, MPI_COMM_WORLD, &req[w]);
        busy++;
    }
    int stop = 0, flag = 1;
    for (int w = 1; w < size; w++)
        MPI_Send(&stop, 1, MPI_INT, w, TAG_STOP, MPI_COMM_WORLD);
    if (MPIX_Comm_agree(MPI_COMM_WORLD, &flag) != MPI_SUCCESS) {
        fprintf(stderr, "master: a worker failed; this program does not restart workers\n");
        return 0;
    }

    long n = m.ntasks;
    long want = (n - 1) * n * (2 * n - 1) / 6 + n;
    printf("master incarnation %d: sum = %ld (expected %ld), %d tasks, %d collected from the "
           "workers, %d duplicates\n",
           incarnation, m.sum, want, m.ndone, m.collected, m.duplicates);
    int ok = m.sum == want && m.ndone == m.ntasks && m.duplicates == 0;
    free(req);
    free(ans);
    free(m.tasks);
    free(m.done);
    free(m.given);
    return ok;
}

int main(int argc, char **argv)
{
    int rank, size, *incarnation, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MINI_MPI_INCARNATION, &incarnation, &flag);
    if (rank == 0) {
        if (master(size, flag ? *incarnation : 0, argc, argv))
            printf("No Errors\n");
    } else {
        worker();
    }
    MPI_Finalize();
    return 0;
}
