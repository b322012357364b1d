/*
 * ft_master_worker_hardened.c: the hardened master/worker of the ULFM "FT scenarios"
 * discussion. Compared with Example 17.2 (ft_master_worker.c) it closes the gaps that
 * discussion lists:
 *   - each worker holds up to DEPTH tasks at once (pipelined), so a death loses several;
 *     the master records exactly which tasks each worker holds and re-queues all of them;
 *   - the dead are found by difference: MPIX_Comm_get_failed returns every failure known so
 *     far, and only the ones not seen before are processed (a count, as in Example 17.2, says
 *     how many died, not which ones hold work);
 *   - an answer can arrive from a worker the master already declared dead (it was sent just
 *     before the death): it is still a valid answer, so results are deduplicated by task id
 *     and the re-queued copy is ignored when it comes back;
 *   - a wildcard receive that reports MPIX_ERR_PROC_FAILED_PENDING stays pending: after
 *     MPIX_Comm_ack_failed the master keeps waiting on the same request;
 *   - a send to a dead worker fails (MPIX_ERR_PROC_FAILED) and re-queues the task;
 *   - all work is finished with whatever workers are left (by the master alone if none);
 *   - a worker whose master died leaves instead of waiting forever.
 * Task t computes t*t + 1; the master checks that every task was counted exactly once and the
 * sum against the closed form, then prints "No Errors".
 *
 *   MINI_MPI_FAULTS="kill 2 at MPI_Send#2;kill 3 at MPI_Recv#4" \
 *       bin/mpiexec -n 6 build/examples/ft_master_worker_hardened
 */
#include <mpi.h>
#if defined(OPEN_MPI) || defined(MINI_MPI) /* MPICH declares MPIX_ in mpi.h, has no mpi-ext.h */
#include <mpi-ext.h>
#endif
#include <stdio.h>
#include <stdlib.h>

#define NTASKS 300
#define DEPTH 2
#define TAG_WORK 1
#define TAG_ANSWER 2
#define TAG_STOP 3
#define NONE (-1)

static long work(int task) { return (long)task * task + 1; }

static int error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

static void worker(MPI_Comm comm)
{
    for (;;) {
        int task;
        MPI_Status st;
        if (MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, comm, &st) != MPI_SUCCESS)
            return; /* the master failed: leave */
        if (st.MPI_TAG == TAG_STOP)
            return;
        long answer[2] = {task, work(task)};
        if (MPI_Send(answer, 2, MPI_LONG, 0, TAG_ANSWER, comm) != MPI_SUCCESS)
            return;
    }
}

struct master {
    MPI_Comm comm;
    MPI_Group group;
    int size;
    int (*held)[DEPTH]; /* per worker: the tasks it holds, NONE for a free slot */
    char *dead;         /* per worker */
    char *done;         /* per task */
    int *queue, nqueue; /* tasks to hand out (a stack) */
    int live;           /* live workers */
    int ndone, requeued, late, duplicates;
    long sum;
};

static int held_count(const struct master *m, int w)
{
    int n = 0;
    for (int k = 0; k < DEPTH; k++)
        n += m->held[w][k] != NONE;
    return n;
}

static void requeue_all(struct master *m, int w)
{
    for (int k = 0; k < DEPTH; k++) {
        if (m->held[w][k] != NONE) {
            m->queue[m->nqueue++] = m->held[w][k];
            m->held[w][k] = NONE;
            m->requeued++;
        }
    }
}

/* Processes the failures not seen yet: marks the workers dead and re-queues their tasks. */
static void new_failures(struct master *m)
{
    MPI_Group failed;
    int nfailed, nacked;
    MPIX_Comm_get_failed(m->comm, &failed);
    MPI_Group_size(failed, &nfailed);
    /* The group lists failures in the order they became known, but a new one is recognised
     * by dead[] rather than by position, which costs nothing and assumes nothing. */
    for (int i = 0; i < nfailed; i++) {
        int r;
        MPI_Group_translate_ranks(failed, 1, &i, m->group, &r);
        if (r == MPI_UNDEFINED || r == 0 || m->dead[r])
            continue;
        m->dead[r] = 1;
        m->live--;
        requeue_all(m, r);
    }
    /* Acknowledge exactly those: wildcard receives stop reporting them. */
    MPIX_Comm_ack_failed(m->comm, nfailed, &nacked);
    MPI_Group_free(&failed);
}

/* Fills worker w's free slots from the queue. */
static void feed(struct master *m, int w)
{
    for (int k = 0; k < DEPTH && !m->dead[w] && m->nqueue > 0; k++) {
        if (m->held[w][k] != NONE)
            continue;
        int task = m->queue[--m->nqueue];
        m->held[w][k] = task;
        if (MPI_Send(&task, 1, MPI_INT, w, TAG_WORK, m->comm) != MPI_SUCCESS) {
            new_failures(m);
            if (!m->dead[w]) { /* only a failure can make this send fail; be safe anyway */
                m->dead[w] = 1;
                m->live--;
                requeue_all(m, w);
            }
        }
    }
}

static void feed_idle(struct master *m)
{
    for (int w = 1; w < m->size && m->nqueue > 0; w++)
        if (!m->dead[w] && held_count(m, w) < DEPTH)
            feed(m, w);
}

static void record(struct master *m, int w, long task, long value)
{
    if (task < 0 || task >= NTASKS || value != work((int)task)) {
        fprintf(stderr, "master: bad answer %ld=%ld from %d\n", task, value, w);
        return;
    }
    for (int k = 0; k < DEPTH; k++)
        if (m->held[w][k] == task)
            m->held[w][k] = NONE;
    if (m->dead[w])
        m->late++; /* sent just before it died: still a good answer */
    if (m->done[task]) {
        m->duplicates++; /* the re-queued copy came back too */
        return;
    }
    m->done[task] = 1;
    m->ndone++;
    m->sum += value;
}

static int master(MPI_Comm comm, int size)
{
    struct master m = {.comm = comm, .size = size, .live = size - 1};
    MPI_Comm_group(comm, &m.group);
    m.held = malloc(sizeof(*m.held) * (size_t)size);
    m.dead = calloc((size_t)size, 1);
    m.done = calloc(NTASKS, 1);
    m.queue = malloc(sizeof(int) * (NTASKS + (size_t)size * DEPTH));
    for (int w = 0; w < size; w++)
        for (int k = 0; k < DEPTH; k++)
            m.held[w][k] = NONE;
    for (int t = NTASKS - 1; t >= 0; t--)
        m.queue[m.nqueue++] = t;
    feed_idle(&m);

    long answer[2];
    MPI_Request req = MPI_REQUEST_NULL;
    while (m.ndone < NTASKS && m.live > 0) {
        if (req == MPI_REQUEST_NULL)
            MPI_Irecv(answer, 2, MPI_LONG, MPI_ANY_SOURCE, TAG_ANSWER, comm, &req);
        MPI_Status st;
        int rc = MPI_Wait(&req, &st);
        int cls = error_class(rc);
        if (rc == MPI_SUCCESS) {
            record(&m, st.MPI_SOURCE, answer[0], answer[1]);
            feed(&m, st.MPI_SOURCE);
        } else if (cls == MPIX_ERR_PROC_FAILED_PENDING) {
            new_failures(&m); /* req stays posted */
        } else if (cls == MPIX_ERR_PROC_FAILED) {
            new_failures(&m); /* req completed in error (MPI_REQUEST_NULL now): repost */
            req = MPI_REQUEST_NULL;
        } else {
            fprintf(stderr, "master: unexpected error class %d\n", cls);
            break;
        }
        /* Drop requeued tasks that got done meanwhile, then keep everyone busy. */
        int n = 0;
        for (int i = 0; i < m.nqueue; i++)
            if (!m.done[m.queue[i]])
                m.queue[n++] = m.queue[i];
        m.nqueue = n;
        feed_idle(&m);
    }
    if (req != MPI_REQUEST_NULL) {
        MPI_Cancel(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    /* No worker left: the master does the rest itself. */
    int alone = 0;
    for (int t = 0; t < NTASKS; t++) {
        if (!m.done[t]) {
            m.done[t] = 1;
            m.ndone++;
            m.sum += work(t);
            alone++;
        }
    }
    int stop = 0;
    for (int w = 1; w < size; w++)
        if (!m.dead[w])
            MPI_Send(&stop, 1, MPI_INT, w, TAG_STOP, comm); /* fails only for the dead */

    long n = NTASKS;
    long want = (n - 1) * n * (2 * n - 1) / 6 + n;
    printf("sum = %ld (expected %ld), %d tasks; %d re-queued, %d late answers from the dead, "
           "%d duplicates ignored, %d done by the master; %d of %d workers left\n",
           m.sum, want, m.ndone, m.requeued, m.late, m.duplicates, alone, m.live, size - 1);
    MPI_Group_free(&m.group);
    free(m.held);
    free(m.dead);
    free(m.done);
    free(m.queue);
    return m.sum == want && m.ndone == NTASKS;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0) {
        if (master(comm, size))
            printf("No Errors\n");
    } else {
        worker(comm);
    }
    MPI_Finalize();
    return 0;
}
