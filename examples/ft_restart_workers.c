/*
 * ft_restart_workers.c: the hardened master that restarts its workers (the restart-based
 * recovery of the ULFM "FT scenarios" discussion). The master keeps one receive posted per
 * worker and waits on all of them together with the restart requests (MPI_Waitany). When a
 * worker's receive fails with MPI_ERR_PROC_FAILED, the task it held goes back to the queue and
 * MPIX_Comm_irestart_rank starts a new incarnation of the worker in its place; once that
 * request completes the master feeds the new incarnation like any worker. A worker restarted
 * in place needs no recovery code at all: it is the same program, started again. Messages to
 * and from the dead incarnation are discarded (MPIX_Comm_restart_rank's semantics), answers
 * are deduplicated by task id anyway.
 * Task t computes t*t + 1; the master checks that every task was counted exactly once and the
 * sum against the closed form, then prints "No Errors". The master (rank 0) must survive.
 *
 *   MINI_MPI_FAULTS="kill 2 at MPI_Recv#3;kill 2.1 at MPI_Send#2" \
 *       bin/mpiexec -n 4 build/examples/ft_restart_workers [ntasks]
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
#define NONE (-1)
#define MAX_RESTARTS 8 /* per worker: one whose new incarnation keeps dying is given up */

static long work(int task) { return (long)task * task + 1; }

static void worker(void)
{
    for (;;) {
        int task;
        MPI_Status st;
        if (MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS)
            return; /* the master failed: nobody restarts it in this program */
        if (st.MPI_TAG == TAG_STOP)
            return;
        long answer[2] = {task, work(task)};
        if (MPI_Send(answer, 2, MPI_LONG, 0, TAG_ANSWER, MPI_COMM_WORLD) != MPI_SUCCESS)
            return;
    }
}

struct master {
    int size, ntasks;
    int *held;          /* per worker: the task it holds, or NONE */
    int *restarts;      /* per worker: restarts so far */
    char *gone;         /* per worker: given up */
    char *done;         /* per task */
    int *queue, nqueue; /* tasks to hand out (a stack) */
    MPI_Request *req;   /* [0, size): answer receives; [size, 2 size): restarts */
    long answers[64][2];
    int ndone, requeued, duplicates, nrestarts;
    long sum;
};

static void post_receive(struct master *m, int w)
{
    MPI_Irecv(m->answers[w], 2, MPI_LONG, w, TAG_ANSWER, MPI_COMM_WORLD, &m->req[w]);
}

/* Gives worker w a task, if any is left; a send that fails means w died: its receive will
 * report it. */
static void feed(struct master *m, int w)
{
    while (m->nqueue > 0 && m->done[m->queue[m->nqueue - 1]])
        m->nqueue--; /* done meanwhile (a late answer) */
    if (m->nqueue == 0 || m->held[w] != NONE)
        return;
    int task = m->queue[--m->nqueue];
    m->held[w] = task;
    MPI_Send(&task, 1, MPI_INT, w, TAG_WORK, MPI_COMM_WORLD);
}

/* Hands re-queued tasks to the workers that wait for work (in service, holding none). */
static void feed_idle(struct master *m)
{
    for (int w = 1; w < m->size; w++)
        if (m->req[w] != MPI_REQUEST_NULL && m->held[w] == NONE)
            feed(m, w);
}

/* Worker w died (its receive failed), or its new incarnation died before MPI_Init: its task
 * goes back to the queue, and it is restarted. */
static void lost(struct master *m, int w)
{
    if (m->held[w] != NONE) {
        m->queue[m->nqueue++] = m->held[w];
        m->held[w] = NONE;
        m->requeued++;
        feed_idle(m);
    }
    if (m->restarts[w]++ == MAX_RESTARTS) {
        m->gone[w] = 1;
        return;
    }
    m->nrestarts++;
    if (MPIX_Comm_irestart_rank(MPI_COMM_WORLD, w, &m->req[m->size + w]) != MPI_SUCCESS)
        m->gone[w] = 1;
}

static void record(struct master *m, int w)
{
    long task = m->answers[w][0], value = m->answers[w][1];
    if (task < 0 || task >= m->ntasks || value != work((int)task)) {
        fprintf(stderr, "master: bad answer %ld=%ld from %d\n", task, value, w);
        return;
    }
    if (m->held[w] == task)
        m->held[w] = NONE;
    if (m->done[task]) {
        m->duplicates++;
        return;
    }
    m->done[task] = 1;
    m->ndone++;
    m->sum += value;
}

static int master(int size, int ntasks)
{
    struct master m = {.size = size, .ntasks = ntasks};
    m.held = malloc(sizeof(int) * (size_t)size);
    m.restarts = calloc((size_t)size, sizeof(int));
    m.gone = calloc((size_t)size, 1);
    m.done = calloc((size_t)ntasks, 1);
    m.queue = malloc(sizeof(int) * ((size_t)ntasks + (size_t)size));
    m.req = malloc(sizeof(MPI_Request) * 2 * (size_t)size);
    for (int i = 0; i < 2 * size; i++)
        m.req[i] = MPI_REQUEST_NULL;
    for (int t = ntasks - 1; t >= 0; t--)
        m.queue[m.nqueue++] = t;
    for (int w = 1; w < size; w++) {
        m.held[w] = NONE;
        post_receive(&m, w);
        feed(&m, w);
    }
    m.held[0] = NONE;

    while (m.ndone < ntasks) {
        int idx;
        MPI_Status st;
        int rc = MPI_Waitany(2 * size, m.req, &idx, &st);
        if (idx == MPI_UNDEFINED)
            break; /* every worker given up */
        int w = idx % size;
        if (idx < size) { /* an answer, or the worker's death */
            if (rc == MPI_SUCCESS) {
                record(&m, w);
                post_receive(&m, w);
                feed(&m, w);
            } else {
                lost(&m, w);
            }
        } else if (rc == MPI_SUCCESS) { /* a new incarnation passed MPI_Init */
            post_receive(&m, w);
            feed(&m, w);
        } else { /* it died before MPI_Init returned */
            lost(&m, w);
        }
    }
    /* Tasks nobody is left to do (every worker given up): the master does them. */
    int alone = 0;
    for (int t = 0; t < ntasks; t++) {
        if (!m.done[t]) {
            m.done[t] = 1;
            m.ndone++;
            m.sum += work(t);
            alone++;
        }
    }
    /* Restarts still under way end first, so that every incarnation is told to stop. */
    for (int w = 1; w < size; w++)
        if (m.req[size + w] != MPI_REQUEST_NULL)
            MPI_Wait(&m.req[size + w], MPI_STATUS_IGNORE);
    int stop = 0;
    for (int w = 1; w < size; w++) {
        if (m.req[w] != MPI_REQUEST_NULL) {
            MPI_Cancel(&m.req[w]);
            MPI_Wait(&m.req[w], MPI_STATUS_IGNORE);
        }
        MPI_Send(&stop, 1, MPI_INT, w, TAG_STOP, MPI_COMM_WORLD); /* fails only for the dead */
    }
    long n = ntasks;
    long want = (n - 1) * n * (2 * n - 1) / 6 + n;
    printf("sum = %ld (expected %ld), %d tasks; %d re-queued, %d duplicates ignored, "
           "%d done by the master; %d restarts\n",
           m.sum, want, m.ndone, m.requeued, m.duplicates, alone, m.nrestarts);
    int ok = m.sum == want && m.ndone == ntasks;
    free(m.held);
    free(m.restarts);
    free(m.gone);
    free(m.done);
    free(m.queue);
    free(m.req);
    return ok;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int ntasks = argc > 1 ? atoi(argv[1]) : 200;
    if (size > 64 || ntasks < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: at most 64 ranks, at least one task\n");
        MPI_Finalize();
        return 2;
    }
    if (rank == 0) {
        if (master(size, ntasks))
            printf("No Errors\n");
    } else {
        worker();
    }
    MPI_Finalize();
    return 0;
}
