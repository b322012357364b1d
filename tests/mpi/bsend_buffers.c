/*
 * bsend_buffers.c: the buffers of buffered sends (MPI-4.1 §3.6): the process's and a
 * communicator's (which its sends use first), both forms of attach and detach, MPI_Buffer_flush
 * and _iflush and their communicator twins, MPI_BUFFER_AUTOMATIC. A large message stays in the
 * buffer until it is received, so a second one does not fit (MPI_ERR_BUFFER through the
 * communicator's handler) until a flush saw the first received; small ones leave at once.
 * Bad arguments go to the right handler with the right class. Argument `dead`: a large
 * buffered message to a rank that dies unreceived makes the flush return MPI_ERR_PROC_FAILED
 * (never hang) and frees its room; `revoke`: to a rank on a communicator revoked meanwhile, the
 * communicator's flush returns MPI_ERR_REVOKED.
 */
#include <signal.h>
#include <string.h>

#include "mtest.h"

#define BIG 100000

static int calls, last_class;

static void record(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    calls++;
    MPI_Error_class(*code, &last_class);
}

#define expect_raised(rc, cls) expect_raised_at(rc, cls, __LINE__)
static void expect_raised_at(int rc, int cls, int line)
{
    int got = rc;
    MPI_Error_class(rc, &got);
    if (got != cls || calls != 1 || last_class != cls)
        fprintf(stderr, "line %d: class %d (handler: %d calls, class %d), expected %d\n", line, got,
                calls, last_class, cls);
    CHECK(got == cls && calls == 1 && last_class == cls);
    calls = 0;
}

static char sbuf[BIG], sbuf2[BIG], rbuf[BIG];

/* The sequence of MPICH's bsend_iflush on comm, flushing the process's buffer or comm's. */
static void one_large(MPI_Comm comm, int use_comm)
{
    int rank;
    MPI_Request req;
    MPI_Comm_rank(comm, &rank);
    memset(sbuf, 'a' + rank % 20, BIG);
    CHECK(MPI_Bsend(sbuf, BIG, MPI_BYTE, rank, 0, comm) == MPI_SUCCESS);
    expect_raised(MPI_Bsend(sbuf2, BIG, MPI_BYTE, rank, 0, comm), MPI_ERR_BUFFER);
    if (use_comm)
        CHECK(MPI_Comm_iflush_buffer(comm, &req) == MPI_SUCCESS);
    else
        CHECK(MPI_Buffer_iflush(&req) == MPI_SUCCESS);
    CHECK(MPI_Recv(rbuf, BIG, MPI_BYTE, rank, 0, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(rbuf[0] == 'a' + rank % 20 && rbuf[BIG - 1] == 'a' + rank % 20);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Bsend(sbuf2, BIG, MPI_BYTE, rank, 1, comm) == MPI_SUCCESS); /* room again */
    CHECK(MPI_Recv(rbuf, BIG, MPI_BYTE, rank, 1, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS);
}

static void process_buffer(MPI_Comm comm)
{
    int size = BIG + MPI_BSEND_OVERHEAD, n = -1, rank, nprocs;
    MPI_Count nc = -1;
    void *buf = malloc((size_t)size), *back = NULL;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    CHECK(MPI_Buffer_attach(buf, size) == MPI_SUCCESS);
    expect_raised(MPI_Buffer_attach(buf, size), MPI_ERR_BUFFER);
    one_large(comm, 0);
    /* Small messages leave the buffer at once: many fit in room for one large one. */
    for (int i = 0; i < 20; i++)
        CHECK(MPI_Bsend(&i, 1, MPI_INT, (rank + 1) % nprocs, 2, comm) == MPI_SUCCESS);
    for (int i = 0, v; i < 20; i++) {
        MPI_Recv(&v, 1, MPI_INT, (rank + nprocs - 1) % nprocs, 2, comm, MPI_STATUS_IGNORE);
        CHECK(v == i);
    }
    /* A pending large message: the blocking flush returns once it is received. */
    CHECK(MPI_Bsend(sbuf, BIG, MPI_BYTE, (rank + 1) % nprocs, 3, comm) == MPI_SUCCESS);
    CHECK(MPI_Recv(rbuf, BIG, MPI_BYTE, (rank + nprocs - 1) % nprocs, 3, comm, MPI_STATUS_IGNORE) ==
          MPI_SUCCESS);
    CHECK(MPI_Buffer_flush() == MPI_SUCCESS);
    CHECK(MPI_Buffer_detach(&back, &n) == MPI_SUCCESS && back == buf && n == size);
    expect_raised(MPI_Bsend(sbuf, 10, MPI_BYTE, rank, 0, comm), MPI_ERR_BUFFER); /* none */
    CHECK(MPI_Buffer_attach_c(buf, (MPI_Count)size) == MPI_SUCCESS);
    CHECK(MPI_Buffer_detach_c(&back, &nc) == MPI_SUCCESS && back == buf && nc == size);
    free(buf);
}

static void automatic(MPI_Comm comm)
{
    int rank, n = -1;
    void *back = NULL;
    MPI_Comm_rank(comm, &rank);
    CHECK(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0) == MPI_SUCCESS);
    for (int i = 0; i < 3; i++)
        CHECK(MPI_Bsend(sbuf, BIG, MPI_BYTE, rank, 4, comm) == MPI_SUCCESS);
    for (int i = 0; i < 3; i++)
        CHECK(MPI_Recv(rbuf, BIG, MPI_BYTE, rank, 4, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Buffer_detach(&back, &n) == MPI_SUCCESS);
    CHECK(back == MPI_BUFFER_AUTOMATIC && n == 0);
}

static void comm_buffer(MPI_Comm comm)
{
    int size = BIG + MPI_BSEND_OVERHEAD, n = -1;
    MPI_Count nc = -1;
    void *buf = malloc((size_t)size), *back = NULL;
    MPI_Request req;
    CHECK(MPI_Comm_attach_buffer(comm, buf, size) == MPI_SUCCESS);
    expect_raised(MPI_Comm_attach_buffer(comm, buf, size), MPI_ERR_BUFFER);
    /* The communicator's buffer serves its sends; MPI_COMM_WORLD has none. */
    one_large(comm, 1);
    expect_raised(MPI_Bsend(sbuf, 10, MPI_BYTE, 0, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK(MPI_Comm_flush_buffer(comm) == MPI_SUCCESS);
    CHECK(MPI_Comm_iflush_buffer(comm, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Comm_detach_buffer(comm, &back, &n) == MPI_SUCCESS && back == buf && n == size);
    CHECK(MPI_Comm_attach_buffer_c(comm, MPI_BUFFER_AUTOMATIC, 0) == MPI_SUCCESS);
    CHECK(MPI_Comm_detach_buffer_c(comm, &back, &nc) == MPI_SUCCESS);
    CHECK(back == MPI_BUFFER_AUTOMATIC && nc == 0);
    free(buf);
}

static void bad_args(MPI_Comm comm)
{
    void *back;
    int n;
    MPI_Count nc;
    char b[8];
    expect_raised(MPI_Buffer_attach(NULL, 10), MPI_ERR_BUFFER);
    expect_raised(MPI_Buffer_attach(b, -1), MPI_ERR_ARG);
    expect_raised(MPI_Buffer_attach_c(b, -1), MPI_ERR_ARG);
    expect_raised(MPI_Buffer_detach(NULL, &n), MPI_ERR_ARG);
    expect_raised(MPI_Buffer_detach_c(&back, NULL), MPI_ERR_ARG);
    expect_raised(MPI_Buffer_iflush(NULL), MPI_ERR_ARG);
    expect_raised(MPI_Comm_attach_buffer(comm, NULL, 10), MPI_ERR_BUFFER);
    expect_raised(MPI_Comm_attach_buffer_c(comm, b, -5), MPI_ERR_ARG);
    expect_raised(MPI_Comm_detach_buffer(comm, NULL, &n), MPI_ERR_ARG);
    expect_raised(MPI_Comm_iflush_buffer(comm, NULL), MPI_ERR_ARG);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls;
    MPI_Error_class(MPI_Comm_flush_buffer(MPI_COMM_NULL), &cls);
    CHECK(cls == MPI_ERR_COMM);
    MPI_Error_class(MPI_Comm_detach_buffer_c(MPI_COMM_NULL, &back, &nc), &cls);
    CHECK(cls == MPI_ERR_COMM);
}

/* A large message to a rank that dies before receiving it. */
static void dead(MPI_Comm comm, int use_comm)
{
    int rank, nprocs, size = BIG + MPI_BSEND_OVERHEAD;
    void *buf = malloc((size_t)size);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    int victim = nprocs - 1;
    if (rank == 0) {
        if (use_comm)
            MPI_Comm_attach_buffer(comm, buf, size);
        else
            MPI_Buffer_attach(buf, size);
        CHECK(MPI_Bsend(sbuf, BIG, MPI_BYTE, victim, 5, comm) == MPI_SUCCESS);
    }
    MPI_Barrier(comm);
    if (rank == victim)
        raise(SIGKILL);
    if (rank == 0) {
        if (use_comm) {
            MPI_Request req;
            CHECK(MPI_Comm_iflush_buffer(comm, &req) == MPI_SUCCESS);
            expect_raised(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_ERR_PROC_FAILED);
        } else {
            expect_raised(MPI_Buffer_flush(), MPI_ERR_PROC_FAILED);
        }
        /* Its room is free again: a large message to a live rank fits. */
        if (nprocs > 2) {
            CHECK(MPI_Bsend(sbuf, BIG, MPI_BYTE, 1, 6, comm) == MPI_SUCCESS);
        }
        void *back;
        int n;
        if (use_comm)
            MPI_Comm_detach_buffer(comm, &back, &n);
        else
            MPI_Buffer_detach(&back, &n);
        CHECK(back == buf && n == size);
    } else if (rank == 1 && nprocs > 2) {
        CHECK(MPI_Recv(rbuf, BIG, MPI_BYTE, 0, 6, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    }
    free(buf);
}

static void revoked(MPI_Comm parent)
{
    int rank, size = BIG + MPI_BSEND_OVERHEAD;
    void *buf = malloc((size_t)size), *back;
    MPI_Comm comm;
    MPI_Errhandler eh;
    MPI_Comm_dup(parent, &comm);
    MPI_Comm_get_errhandler(parent, &eh);
    MPI_Comm_set_errhandler(comm, eh);
    MPI_Errhandler_free(&eh);
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
        MPI_Comm_attach_buffer(comm, buf, size);
        CHECK(MPI_Bsend(sbuf, BIG, MPI_BYTE, 1, 7, comm) == MPI_SUCCESS); /* never received */
    }
    MPI_Barrier(parent);
    if (rank == 1)
        MPIX_Comm_revoke(comm);
    MPI_Barrier(parent);
    if (rank == 0) {
        int n;
        expect_raised(MPI_Comm_flush_buffer(comm), MPI_ERR_REVOKED);
        CHECK(MPI_Comm_detach_buffer(comm, &back, &n) == MPI_SUCCESS && back == buf);
    }
    MPI_Comm_free(&comm);
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;
    MPI_Comm comm;
    const char *mode = argc > 1 ? argv[1] : "";
    MPI_Init(&argc, &argv);
    MPI_Comm_create_errhandler(record, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    if (!strcmp(mode, "dead")) {
        dead(comm, 0);
    } else if (!strcmp(mode, "dead-comm")) {
        dead(comm, 1);
    } else if (!strcmp(mode, "revoke")) {
        revoked(MPI_COMM_WORLD);
    } else {
        process_buffer(comm);
        automatic(comm);
        comm_buffer(comm);
        bad_args(comm);
    }
    if (strncmp(mode, "dead", 4))
        MPI_Comm_free(&comm);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    return mtest_finish();
}
