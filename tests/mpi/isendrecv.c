/*
 * isendrecv.c: MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.1 §3.10), both forms of each.
 * Every rank exchanges with its neighbours on a ring, small (eager) and large (rendezvous)
 * messages, completed by Wait and by a Test loop; MPI_PROC_NULL; the status is the receive's.
 * Bad arguments are raised at once through the communicator's handler with the right class; a
 * revoked communicator completes the request with MPI_ERR_REVOKED. Argument `dead`: the last
 * rank dies, and an exchange with it completes with MPI_ERR_PROC_FAILED (also receiving from
 * MPI_ANY_SOURCE, as MPI_Sendrecv does), raised on the communicator at MPI_Wait.
 */
#include <signal.h>
#include <string.h>

#include "mtest.h"

#define BIG 100000 /* ints: well above any eager limit */

static int handler_calls, handler_class;

static void record(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    MPI_Error_class(*code, &handler_class);
}

/* The class the call returned and that the communicator's handler saw, once. */
static void expect_raised(int rc, int cls)
{
    int got = MPI_SUCCESS;
    MPI_Error_class(rc, &got);
    CHECK(got == cls);
    CHECK(handler_calls == 1 && handler_class == cls);
    handler_calls = 0;
}

static void ring(MPI_Comm comm, int n, int use_c, int use_test)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int *out = malloc(sizeof(int) * (size_t)n), *in = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        out[i] = rank * 7 + i;
        in[i] = -1;
    }
    MPI_Request req;
    MPI_Status st;
    if (use_c)
        CHECK(MPI_Isendrecv_c(out, (MPI_Count)n, MPI_INT, next, 5, in, (MPI_Count)n, MPI_INT,
                              prev, 5, comm, &req) == MPI_SUCCESS);
    else
        CHECK(MPI_Isendrecv(out, n, MPI_INT, next, 5, in, n, MPI_INT, prev, 5, comm, &req) ==
              MPI_SUCCESS);
    if (use_test) {
        int flag = 0;
        while (!flag)
            CHECK(MPI_Test(&req, &flag, &st) == MPI_SUCCESS);
    } else {
        CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    }
    CHECK(req == MPI_REQUEST_NULL);
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 5);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == n);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += in[i] != prev * 7 + i;
    CHECK(bad == 0);

    /* In place: the buffer goes to next and comes back from prev. */
    if (use_c)
        CHECK(MPI_Isendrecv_replace_c(out, (MPI_Count)n, MPI_INT, next, 6, prev, 6, comm, &req) ==
              MPI_SUCCESS);
    else
        CHECK(MPI_Isendrecv_replace(out, n, MPI_INT, next, 6, prev, 6, comm, &req) ==
              MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 6);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += out[i] != prev * 7 + i;
    CHECK(bad == 0);
    free(out);
    free(in);
}

static void proc_null(MPI_Comm comm)
{
    int v = 3, w = 9;
    MPI_Request req;
    MPI_Status st;
    CHECK(MPI_Isendrecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, &w, 1, MPI_INT, MPI_PROC_NULL, 0, comm,
                        &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && w == 9);
    CHECK(MPI_Isendrecv_replace(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_PROC_NULL, 0, comm, &req) ==
          MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && v == 3);
}

static void bad_args(MPI_Comm comm)
{
    int size, v = 0, w = 0;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm_size(comm, &size);
    expect_raised(MPI_Isendrecv(&v, 1, MPI_INT, size, 0, &w, 1, MPI_INT, 0, 0, comm, &req),
                  MPI_ERR_RANK);
    expect_raised(MPI_Isendrecv(&v, 1, MPI_INT, 0, 0, &w, 1, MPI_INT, size, 0, comm, &req),
                  MPI_ERR_RANK);
    expect_raised(MPI_Isendrecv(&v, 1, MPI_INT, 0, -2, &w, 1, MPI_INT, 0, 0, comm, &req),
                  MPI_ERR_TAG);
    expect_raised(MPI_Isendrecv(&v, -1, MPI_INT, 0, 0, &w, 1, MPI_INT, 0, 0, comm, &req),
                  MPI_ERR_COUNT);
    expect_raised(MPI_Isendrecv_c(&v, 1, MPI_DATATYPE_NULL, 0, 0, &w, 1, MPI_INT, 0, 0, comm,
                                  &req),
                  MPI_ERR_TYPE);
    expect_raised(MPI_Isendrecv(&v, 1, MPI_INT, 0, 0, &w, 1, MPI_INT, 0, 0, comm, NULL),
                  MPI_ERR_ARG);
    expect_raised(MPI_Isendrecv_replace(&v, 1, MPI_INT, 0, 0, 0, MPI_ANY_TAG - 1, comm, &req),
                  MPI_ERR_TAG);
    expect_raised(MPI_Isendrecv_replace(NULL, 1, MPI_INT, 0, 0, 0, 0, comm, &req),
                  MPI_ERR_BUFFER);
    expect_raised(MPI_Isendrecv_replace_c(&v, 1, MPI_INT, 0, 0, 0, 0, comm, NULL), MPI_ERR_ARG);
    CHECK(req == MPI_REQUEST_NULL);
    /* No communicator: raised on MPI_COMM_WORLD's handler here (returns). */
    int rc = MPI_Isendrecv(&v, 1, MPI_INT, 0, 0, &w, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &req), cls;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM);
}

static void revoked(MPI_Comm parent)
{
    int rank, size, v = 1, w = 0;
    MPI_Comm comm;
    MPI_Request req[2];
    MPI_Comm_dup(parent, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0)
        MPIX_Comm_revoke(comm);
    MPI_Barrier(parent);
    CHECK(MPI_Isendrecv(&v, 1, MPI_INT, (rank + 1) % size, 0, &w, 1, MPI_INT,
                        (rank + size - 1) % size, 0, comm, &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Isendrecv_replace(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_PROC_NULL, 0, comm,
                                &req[1]) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE) == MPI_ERR_REVOKED);
    CHECK(MPI_Wait(&req[1], MPI_STATUS_IGNORE) == MPI_ERR_REVOKED);
    MPI_Comm_free(&comm);
}

/* A receive posted before the revoke completes with MPI_ERR_REVOKED too. */
static void revoked_pending(MPI_Comm parent)
{
    int rank, size, w = 0;
    MPI_Comm comm;
    MPI_Request req;
    MPI_Comm_dup(parent, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0) {
        /* Nobody sends to rank 0 with this tag: only the revoke can end it. */
        CHECK(MPI_Isendrecv(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, &w, 1, MPI_INT, size - 1, 77,
                            comm, &req) == MPI_SUCCESS);
        MPI_Barrier(parent);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_ERR_REVOKED);
    } else {
        MPI_Barrier(parent);
        if (rank == size - 1)
            MPIX_Comm_revoke(comm);
    }
    MPI_Comm_free(&comm);
}

static void dead_peer(void)
{
    int rank, size, v = 1, w = 0;
    MPI_Request req;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int victim = size - 1;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim)
        raise(SIGKILL);
    if (rank == 0) {
        handler_calls = 0;
        CHECK(MPI_Isendrecv(&v, 1, MPI_INT, victim, 0, &w, 1, MPI_INT, victim, 0,
                            MPI_COMM_WORLD, &req) == MPI_SUCCESS);
        expect_raised(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_ERR_PROC_FAILED);
        int buf[100] = {0};
        CHECK(MPI_Isendrecv_replace(buf, 100, MPI_INT, MPI_PROC_NULL, 0, MPI_ANY_SOURCE, 0,
                                    MPI_COMM_WORLD, &req) == MPI_SUCCESS);
        expect_raised(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_ERR_PROC_FAILED);
    }
}

int main(int argc, char **argv)
{
    MPI_Comm comm;
    MPI_Errhandler eh;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_create_errhandler(record, &eh);
    if (argc > 1 && !strcmp(argv[1], "dead")) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
        dead_peer();
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Errhandler_free(&eh);
        return mtest_finish();
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, eh);
    for (int use_c = 0; use_c < 2; use_c++) {
        ring(comm, 10, use_c, 0);
        ring(comm, BIG, use_c, use_c);
    }
    proc_null(comm);
    bad_args(comm);
    revoked(MPI_COMM_WORLD);
    revoked_pending(MPI_COMM_WORLD);
    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);
    return mtest_finish();
}
