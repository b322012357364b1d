/*
 * ft_master_worker.c: a fault-tolerant master/worker, after Example 17.2 of the MPI standard's
 * "Process Fault Tolerance" chapter (ULFM). The master (rank 0) hands out NTASKS tasks and
 * collects answers with one nonblocking MPI_ANY_SOURCE receive. When a worker dies, the
 * pending wildcard receive reports MPIX_ERR_PROC_FAILED_PENDING (it stays pending) or
 * MPIX_ERR_PROC_FAILED (it completed in error and is posted again); the master then
 * acknowledges the failures (MPIX_Comm_failure_ack), learns who failed
 * (MPIX_Comm_failure_get_acked), and gives the dead workers' tasks to others. A send to a dead
 * worker fails with MPIX_ERR_PROC_FAILED and is handled the same way. If every worker dies the
 * master finishes the work alone.
 *
 * Task t computes t*t; the master checks the sum of the answers against the closed form and
 * prints "No Errors". Only the master's death is not tolerated (nobody would collect).
 *
 *   MINI_MPI_FAULTS="kill 2 at MPI_Send#3" bin/mpiexec -n 5 build/examples/ft_master_worker
 */
#include <mpi.h>
#if defined(OPEN_MPI) || defined(MINI_MPI) /* MPICH declares MPIX_ in mpi.h, has no mpi-ext.h */
#include <mpi-ext.h>
#endif
#include <stdio.h>
#include <stdlib.h>

#define NTASKS 200
#define TAG_WORK 1
#define TAG_ANSWER 2
#define TAG_STOP 3
#define NONE (-1)

static long work(int task) { return (long)task * task; }

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
            return; /* the master is gone: nothing left to do */
        if (st.MPI_TAG == TAG_STOP)
            return;
        long answer[2] = {task, work(task)};
        if (MPI_Send(answer, 2, MPI_LONG, 0, TAG_ANSWER, comm) != MPI_SUCCESS)
            return;
    }
}

struct master {
    MPI_Comm comm;
    int size;
    int *assigned;   /* per worker rank: its task, or NONE */
    char *dead;      /* per worker rank */
    int *queue;      /* tasks not handed out yet (a stack) */
    int nqueue;
    int active;      /* live workers */
    long sum;
    int done, requeued;
};

/* Acknowledges the failures known so far and returns the dead workers' tasks to the queue. */
static void handle_failures(struct master *m)
{
    MPI_Group failed, group;
    int nfailed;
    MPIX_Comm_failure_ack(m->comm);
    MPIX_Comm_failure_get_acked(m->comm, &failed);
    MPI_Group_size(failed, &nfailed);
    MPI_Comm_group(m->comm, &group);
    for (int i = 0; i < nfailed; i++) {
        int r;
        MPI_Group_translate_ranks(failed, 1, &i, group, &r);
        if (r == MPI_UNDEFINED || m->dead[r])
            continue;
        m->dead[r] = 1;
        if (m->assigned[r] != NONE) {
            m->queue[m->nqueue++] = m->assigned[r];
            m->assigned[r] = NONE;
            m->requeued++;
        }
    }
    /* Example 17.2's count: everyone but the master and the acknowledged dead. */
    m->active = m->size - nfailed - 1;
    MPI_Group_free(&group);
    MPI_Group_free(&failed);
}

/* Gives worker w the next task, if any; a dead worker is found out here too. */
static void feed(struct master *m, int w)
{
    while (m->nqueue > 0 && !m->dead[w]) {
        int task = m->queue[--m->nqueue];
        m->assigned[w] = task;
        if (MPI_Send(&task, 1, MPI_INT, w, TAG_WORK, m->comm) == MPI_SUCCESS)
            return;
        handle_failures(m); /* puts the task back if w is the one that died */
        if (!m->dead[w]) {  /* should not happen: only a failure makes a send fail */
            m->assigned[w] = NONE;
            m->queue[m->nqueue++] = task;
            m->dead[w] = 1;
            m->active--;
        }
    }
}

static int master(MPI_Comm comm, int size)
{
    struct master m = {.comm = comm, .size = size, .active = size - 1};
    m.assigned = malloc(sizeof(int) * (size_t)size);
    m.dead = calloc((size_t)size, 1);
    m.queue = malloc(sizeof(int) * NTASKS);
    for (int r = 0; r < size; r++)
        m.assigned[r] = NONE;
    for (int t = NTASKS - 1; t >= 0; t--)
        m.queue[m.nqueue++] = t;

    /* Submit the initial work requests. */
    for (int w = 1; w < size; w++)
        feed(&m, w);

    long answer[2];
    MPI_Request req;
    MPI_Irecv(answer, 2, MPI_LONG, MPI_ANY_SOURCE, TAG_ANSWER, comm, &req);
    /* Progress engine: collect answers, hand out work, handle failures. */
    while (m.done < NTASKS && m.active > 0) {
        MPI_Status st;
        int rc = MPI_Wait(&req, &st);
        int cls = error_class(rc);
        if (cls == MPIX_ERR_PROC_FAILED || cls == MPIX_ERR_PROC_FAILED_PENDING) {
            handle_failures(&m);
            /* A pending wildcard receive is still posted; one that failed must be reposted. */
            if (cls == MPIX_ERR_PROC_FAILED)
                MPI_Irecv(answer, 2, MPI_LONG, MPI_ANY_SOURCE, TAG_ANSWER, comm, &req);
            /* Idle live workers pick up the requeued tasks. */
            for (int w = 1; w < size; w++)
                if (!m.dead[w] && m.assigned[w] == NONE)
                    feed(&m, w);
            continue;
        }
        if (rc != MPI_SUCCESS) {
            fprintf(stderr, "master: unexpected error class %d\n", cls);
            break;
        }
        int w = st.MPI_SOURCE;
        if (m.assigned[w] == (int)answer[0]) {
            m.sum += answer[1];
            m.done++;
            m.assigned[w] = NONE;
        }
        MPI_Irecv(answer, 2, MPI_LONG, MPI_ANY_SOURCE, TAG_ANSWER, comm, &req);
        feed(&m, w);
    }
    /* Cancel the last receive; finish alone whatever no worker is left to do. */
    MPI_Cancel(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int w = 1; w < size; w++)
        if (m.assigned[w] != NONE)
            m.queue[m.nqueue++] = m.assigned[w];
    int alone = 0;
    while (m.nqueue > 0) {
        m.sum += work(m.queue[--m.nqueue]);
        m.done++;
        alone++;
    }
    int stop = 0;
    for (int w = 1; w < size; w++)
        if (!m.dead[w])
            MPI_Send(&stop, 1, MPI_INT, w, TAG_STOP, comm); /* an error here is a dead worker */

    long want = (long)(NTASKS - 1) * NTASKS * (2 * NTASKS - 1) / 6;
    printf("sum of squares 0..%d = %ld (expected %ld); %d tasks requeued, %d done by the master,"
           " %d workers left\n", NTASKS - 1, m.sum, want, m.requeued, alone, m.active);
    free(m.assigned);
    free(m.dead);
    free(m.queue);
    return m.sum == want && m.done == NTASKS;
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
