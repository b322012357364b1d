/*
 * ft_error_rules.c: where a process failure is reported, and where it is not (the error
 * reporting rules of the MPI standard's "Process Fault Tolerance" chapter, ULFM). One scenario
 * per run, chosen by argv[1]; the last rank (the victim) dies with raise(SIGKILL) at a fixed
 * point, rank 0 observes, rank 1 helps, other ranks only take part in collectives:
 *
 *   e1  a receive posted from the victim before it died reports the failure when it completes
 *       (MPI_Wait: MPIX_ERR_PROC_FAILED), not through unrelated calls made meanwhile
 *       (a receive, a send, a probe with rank 1 all succeed)
 *   e2  starting a nonblocking operation with a dead peer succeeds; its completion reports:
 *       MPI_Irecv/MPI_Isend return MPI_SUCCESS, MPI_Wait on the receive MPIX_ERR_PROC_FAILED
 *       (the send may complete either way: it can finish locally)
 *   e3  point-to-point between live ranks is unaffected by a third rank's failure, before and
 *       after the failure is known (blocking, nonblocking, synchronous, sendrecv; data checked)
 *   e4  wildcard receives: a nonblocking MPI_ANY_SOURCE receive reports
 *       MPIX_ERR_PROC_FAILED_PENDING and stays pending, a blocking one MPIX_ERR_PROC_FAILED;
 *       after MPIX_Comm_failure_ack both match a live sender normally
 *   e5  MPI_Waitall over a receive from rank 1 and one from the victim returns
 *       MPI_ERR_IN_STATUS, with MPI_SUCCESS and the data in the first status and
 *       MPIX_ERR_PROC_FAILED in the second
 *   v1  a collective with a dead member completes (no hang) with MPIX_ERR_PROC_FAILED at one
 *       rank at least; MPIX_Comm_agree raises it at every survivor alike and still computes
 *       the AND; after MPIX_Comm_failure_ack agree succeeds, collectives still fail, and
 *       MPIX_Comm_shrink gives a communicator where they work
 *   v2  revoke: rank 1 revokes after seeing the failure; rank 0, blocked in a receive from
 *       rank 1, gets MPIX_ERR_REVOKED (other ranks' barrier may report the failure first, then
 *       their receive from rank 1 the revocation); every later send fails with it;
 *       MPIX_Comm_agree and MPIX_Comm_shrink still work on the revoked communicator
 * Each rank counts the checks that failed; the counts are combined with MPIX_Comm_agree and
 * rank 0 prints "No Errors" when none failed. Needs 3 ranks or more.
 *
 *   bin/mpiexec -n 4 build/examples/ft_error_rules e4
 */
#include <mpi.h>
#if defined(OPEN_MPI) || defined(MINI_MPI) /* MPICH declares MPIX_ in mpi.h, has no mpi-ext.h */
#include <mpi-ext.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <string.h>

static int errors;
static int wrank;

static int error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

/* One check: the call's error class must be `want`. */
#define EXPECT(call, want)                                                                   \
    do {                                                                                     \
        int cls_ = error_class(call);                                                        \
        if (cls_ != (want)) {                                                                \
            printf("rank %d, line %d: %s gave class %d, expected %s (%d)\n", wrank, __LINE__, \
                   #call, cls_, #want, (want));                                              \
            errors++;                                                                        \
        }                                                                                    \
    } while (0)

#define CHECK(cond)                                                                          \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            printf("rank %d, line %d: check failed: %s\n", wrank, __LINE__, #cond);          \
            errors++;                                                                        \
        }                                                                                    \
    } while (0)

/* Rank 0 makes sure the victim is dead, the portable way: a receive from it fails. */
static void known_dead(MPI_Comm comm, int victim)
{
    int x;
    EXPECT(MPI_Recv(&x, 1, MPI_INT, victim, 99, comm, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
}

static void e1(MPI_Comm comm, int rank, int victim)
{
    int x = -1, y = 0;
    MPI_Request req = MPI_REQUEST_NULL;
    if (rank == 0) {
        EXPECT(MPI_Irecv(&x, 1, MPI_INT, victim, 1, comm, &req), MPI_SUCCESS);
        EXPECT(MPI_Send(&y, 1, MPI_INT, 1, 2, comm), MPI_SUCCESS); /* "posted" */
        /* Rank 1 reports the death; meanwhile our pending receive must stay silent. */
        EXPECT(MPI_Recv(&y, 1, MPI_INT, 1, 5, comm, MPI_STATUS_IGNORE), MPI_SUCCESS);
        CHECK(y == 55);
        EXPECT(MPI_Send(&y, 1, MPI_INT, 1, 6, comm), MPI_SUCCESS);
        int flag = 1;
        EXPECT(MPI_Iprobe(1, 7, comm, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
        CHECK(flag == 0);
        /* The request itself reports. */
        EXPECT(MPI_Wait(&req, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
        CHECK(x == -1);
    } else if (rank == 1) {
        EXPECT(MPI_Recv(&y, 1, MPI_INT, 0, 2, comm, MPI_STATUS_IGNORE), MPI_SUCCESS);
        EXPECT(MPI_Send(&y, 1, MPI_INT, victim, 3, comm), MPI_SUCCESS); /* "die" */
        EXPECT(MPI_Recv(&y, 1, MPI_INT, victim, 4, comm, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
        y = 55;
        EXPECT(MPI_Send(&y, 1, MPI_INT, 0, 5, comm), MPI_SUCCESS);
        EXPECT(MPI_Recv(&y, 1, MPI_INT, 0, 6, comm, MPI_STATUS_IGNORE), MPI_SUCCESS);
    } else if (rank == victim) {
        MPI_Recv(&y, 1, MPI_INT, 1, 3, comm, MPI_STATUS_IGNORE);
        raise(SIGKILL);
    }
}

static void e2(MPI_Comm comm, int rank, int victim)
{
    if (rank == victim)
        raise(SIGKILL);
    if (rank != 0)
        return;
    known_dead(comm, victim);
    int in = -1, out = 7;
    MPI_Request rreq, sreq;
    EXPECT(MPI_Irecv(&in, 1, MPI_INT, victim, 1, comm, &rreq), MPI_SUCCESS);
    EXPECT(MPI_Isend(&out, 1, MPI_INT, victim, 1, comm, &sreq), MPI_SUCCESS);
    EXPECT(MPI_Wait(&rreq, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    int cls = error_class(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    CHECK(cls == MPI_SUCCESS || cls == MPIX_ERR_PROC_FAILED);
    CHECK(in == -1);
}

static void e3(MPI_Comm comm, int rank, int victim)
{
    if (rank == victim)
        raise(SIGKILL);
    if (rank > 1)
        return;
    if (rank == 0)
        known_dead(comm, victim);
    int peer = 1 - rank;
    for (int i = 0; i < 50; i++) {
        int out = 1000 * rank + i, in = -1;
        MPI_Request r[2];
        if (rank == 0) {
            EXPECT(MPI_Send(&out, 1, MPI_INT, peer, 1, comm), MPI_SUCCESS);
            EXPECT(MPI_Ssend(&out, 1, MPI_INT, peer, 2, comm), MPI_SUCCESS);
            EXPECT(MPI_Recv(&in, 1, MPI_INT, peer, 3, comm, MPI_STATUS_IGNORE), MPI_SUCCESS);
            CHECK(in == 1000 * peer + i);
        } else {
            EXPECT(MPI_Recv(&in, 1, MPI_INT, peer, 1, comm, MPI_STATUS_IGNORE), MPI_SUCCESS);
            CHECK(in == i);
            EXPECT(MPI_Recv(&in, 1, MPI_INT, peer, 2, comm, MPI_STATUS_IGNORE), MPI_SUCCESS);
            EXPECT(MPI_Send(&out, 1, MPI_INT, peer, 3, comm), MPI_SUCCESS);
        }
        in = -1;
        EXPECT(MPI_Sendrecv(&out, 1, MPI_INT, peer, 4, &in, 1, MPI_INT, peer, 4, comm,
                            MPI_STATUS_IGNORE), MPI_SUCCESS);
        CHECK(in == 1000 * peer + i);
        in = -1;
        EXPECT(MPI_Irecv(&in, 1, MPI_INT, peer, 5, comm, &r[0]), MPI_SUCCESS);
        EXPECT(MPI_Isend(&out, 1, MPI_INT, peer, 5, comm, &r[1]), MPI_SUCCESS);
        EXPECT(MPI_Waitall(2, r, MPI_STATUSES_IGNORE), MPI_SUCCESS);
        CHECK(in == 1000 * peer + i);
    }
}

static void e4(MPI_Comm comm, int rank, int victim)
{
    if (rank == victim)
        raise(SIGKILL);
    int x = -1, go = 1;
    if (rank == 0) {
        known_dead(comm, victim);
        MPI_Request req;
        EXPECT(MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 9, comm, &req), MPI_SUCCESS);
        EXPECT(MPI_Wait(&req, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED_PENDING);
        CHECK(req != MPI_REQUEST_NULL); /* still pending */
        int y;
        EXPECT(MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 10, comm, MPI_STATUS_IGNORE),
               MPIX_ERR_PROC_FAILED);
        EXPECT(MPIX_Comm_failure_ack(comm), MPI_SUCCESS);
        EXPECT(MPI_Send(&go, 1, MPI_INT, 1, 8, comm), MPI_SUCCESS);
        MPI_Status st;
        EXPECT(MPI_Wait(&req, &st), MPI_SUCCESS);
        CHECK(x == 91 && st.MPI_SOURCE == 1);
        y = -1;
        EXPECT(MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 10, comm, &st), MPI_SUCCESS);
        CHECK(y == 101 && st.MPI_SOURCE == 1);
    } else if (rank == 1) {
        EXPECT(MPI_Recv(&go, 1, MPI_INT, 0, 8, comm, MPI_STATUS_IGNORE), MPI_SUCCESS);
        x = 91;
        EXPECT(MPI_Send(&x, 1, MPI_INT, 0, 9, comm), MPI_SUCCESS);
        x = 101;
        EXPECT(MPI_Send(&x, 1, MPI_INT, 0, 10, comm), MPI_SUCCESS);
    }
}

static void e5(MPI_Comm comm, int rank, int victim)
{
    if (rank == victim)
        raise(SIGKILL);
    int v = 42;
    if (rank == 0) {
        known_dead(comm, victim);
        int in[2] = {-1, -1};
        MPI_Request r[2];
        MPI_Status st[2];
        EXPECT(MPI_Irecv(&in[0], 1, MPI_INT, 1, 12, comm, &r[0]), MPI_SUCCESS);
        EXPECT(MPI_Irecv(&in[1], 1, MPI_INT, victim, 12, comm, &r[1]), MPI_SUCCESS);
        EXPECT(MPI_Waitall(2, r, st), MPI_ERR_IN_STATUS);
        CHECK(st[0].MPI_ERROR == MPI_SUCCESS && in[0] == 42 && st[0].MPI_SOURCE == 1);
        CHECK(error_class(st[1].MPI_ERROR) == MPIX_ERR_PROC_FAILED);
        CHECK(in[1] == -1);
    } else if (rank == 1) {
        EXPECT(MPI_Send(&v, 1, MPI_INT, 0, 12, comm), MPI_SUCCESS);
    }
}

static void v1(MPI_Comm comm, int rank, int victim)
{
    if (rank == victim)
        raise(SIGKILL);
    int cls = error_class(MPI_Barrier(comm));
    CHECK(cls == MPI_SUCCESS || cls == MPIX_ERR_PROC_FAILED);
    /* Agree: MPIX_ERR_PROC_FAILED everywhere (the failure is not acknowledged), AND computed. */
    int flag = cls == MPI_SUCCESS ? 3 : 1;
    EXPECT(MPIX_Comm_agree(comm, &flag), MPIX_ERR_PROC_FAILED);
    CHECK(flag == 1); /* bit 1 cleared: some rank's barrier failed */
    EXPECT(MPIX_Comm_failure_ack(comm), MPI_SUCCESS);
    flag = rank == 0 ? 6 : 7;
    EXPECT(MPIX_Comm_agree(comm, &flag), MPI_SUCCESS);
    CHECK(flag == 6);
    /* Acknowledging does not make collectives work again... */
    int one = 1, sum = 0, size;
    cls = error_class(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(cls == MPIX_ERR_PROC_FAILED || cls == MPI_SUCCESS);
    flag = cls == MPIX_ERR_PROC_FAILED;
    EXPECT(MPIX_Comm_agree(comm, &one), MPI_SUCCESS);
    /* ... shrinking does. */
    MPI_Comm small;
    EXPECT(MPIX_Comm_shrink(comm, &small), MPI_SUCCESS);
    MPI_Comm_size(comm, &size);
    int ssize = -1;
    MPI_Comm_size(small, &ssize);
    CHECK(ssize == size - 1);
    sum = 0;
    one = 1;
    EXPECT(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, small), MPI_SUCCESS);
    CHECK(sum == size - 1);
    int failed_somewhere = flag ? 0 : 1; /* AND of "it succeeded here" */
    MPIX_Comm_agree(small, &failed_somewhere);
    CHECK(failed_somewhere == 0); /* the allreduce with a dead member failed at some rank */
    MPI_Comm_free(&small);
}

static void v2(MPI_Comm comm, int rank, int victim)
{
    if (rank == victim)
        raise(SIGKILL);
    int x = 0;
    if (rank == 1) {
        EXPECT(MPI_Recv(&x, 1, MPI_INT, victim, 1, comm, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
        EXPECT(MPIX_Comm_revoke(comm), MPI_SUCCESS);
    } else if (rank == 0) {
        /* Rank 1 never sends this: only the revocation can end the wait. */
        EXPECT(MPI_Recv(&x, 1, MPI_INT, 1, 2, comm, MPI_STATUS_IGNORE), MPIX_ERR_REVOKED);
    } else {
        /* The barrier may see the failure before the revocation lands; a receive that nobody
         * will match then waits for the revocation. */
        int cls = error_class(MPI_Barrier(comm));
        CHECK(cls == MPIX_ERR_REVOKED || cls == MPIX_ERR_PROC_FAILED);
        if (cls == MPIX_ERR_PROC_FAILED)
            EXPECT(MPI_Recv(&x, 1, MPI_INT, 1, 2, comm, MPI_STATUS_IGNORE), MPIX_ERR_REVOKED);
    }
    int flag = 0;
    EXPECT(MPIX_Comm_is_revoked(comm, &flag), MPI_SUCCESS);
    CHECK(flag == 1);
    EXPECT(MPI_Send(&x, 1, MPI_INT, rank == 0 ? 1 : 0, 3, comm), MPIX_ERR_REVOKED);
    MPI_Request req;
    int rc = MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 3, comm, &req);
    if (rc == MPI_SUCCESS)
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(error_class(rc) == MPIX_ERR_REVOKED);
    /* Agree and shrink are exempt from revocation. */
    flag = 5;
    int cls = error_class(MPIX_Comm_agree(comm, &flag));
    CHECK(cls == MPI_SUCCESS || cls == MPIX_ERR_PROC_FAILED);
    CHECK(flag == 5);
    MPI_Comm small;
    EXPECT(MPIX_Comm_shrink(comm, &small), MPI_SUCCESS);
    int size, ssize, sum = 0, one = 1;
    MPI_Comm_size(comm, &size);
    MPI_Comm_size(small, &ssize);
    CHECK(ssize == size - 1);
    EXPECT(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, small), MPI_SUCCESS);
    CHECK(sum == size - 1);
    MPI_Comm_free(&small);
}

static const struct {
    const char *name;
    void (*run)(MPI_Comm, int, int);
} scenarios[] = {{"e1", e1}, {"e2", e2}, {"e3", e3}, {"e4", e4},
                 {"e5", e5}, {"v1", v1}, {"v2", v2}};

int main(int argc, char **argv)
{
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int which = -1;
    for (int i = 0; argc > 1 && i < (int)(sizeof scenarios / sizeof *scenarios); i++)
        if (strcmp(argv[1], scenarios[i].name) == 0)
            which = i;
    if (which < 0 || size < 3) {
        if (wrank == 0)
            fprintf(stderr, "usage: mpiexec -n N (N >= 3) ft_error_rules e1|e2|e3|e4|e5|v1|v2\n");
        MPI_Finalize();
        return 2;
    }
    /* A communicator of its own, so that a revocation leaves MPI_COMM_WORLD alone. */
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    scenarios[which].run(comm, wrank, size - 1);

    /* The verdict of every survivor (the victim has failed: agree reports it, still ANDs). */
    int good = errors == 0;
    MPIX_Comm_agree(MPI_COMM_WORLD, &good);
    if (wrank == 0) {
        printf("%s: %s\n", scenarios[which].name, good ? "every check passed" : "checks failed");
        if (good)
            printf("No Errors\n");
    }
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
