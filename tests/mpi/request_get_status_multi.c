/*
 * request_get_status_multi.c: MPI_Request_get_status_any, _all and _some (MPI-4.1 §3.7.5).
 * Each rank receives from its predecessor a message sent only after a barrier: before it, no
 * call sees the receive complete; after, each reports it (index, status) and leaves the
 * handle as it was, so a second look sees it again and MPI_Wait still completes it. Null
 * handles and inactive persistent requests count as inactive. A receive from a dead rank
 * (argument `dead`) is reported with MPI_ERR_PROC_FAILED (_any) or MPI_ERR_IN_STATUS (_all,
 * _some), through the communicator's handler, and stays to be completed by MPI_Wait. Bad
 * arguments go to MPI_COMM_SELF's handler (no object).
 */
#include <signal.h>
#include <string.h>

#include "mtest.h"

static int self_calls, self_class, comm_calls, comm_class;

static void on_self(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    self_calls++;
    MPI_Error_class(*code, &self_class);
}

static void on_comm(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    comm_calls++;
    MPI_Error_class(*code, &comm_class);
}

static void expect_self(int rc, int cls)
{
    int got;
    MPI_Error_class(rc, &got);
    CHECK(got == cls && self_calls == 1 && self_class == cls);
    self_calls = 0;
}

static void normal(MPI_Comm comm)
{
    int rank, size, in = -1, out, idx, flag, n, indices[3];
    MPI_Request reqs[3];
    MPI_Status st, sts[3];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    out = rank;

    MPI_Irecv(&in, 1, MPI_INT, prev, 9, comm, &reqs[0]);
    reqs[1] = MPI_REQUEST_NULL;
    MPI_Recv_init(&in, 1, MPI_INT, prev, 10, comm, &reqs[2]); /* never started: inactive */
    MPI_Request keep = reqs[0];

    /* Nothing sent yet. */
    CHECK(MPI_Request_get_status_any(3, reqs, &idx, &flag, &st) == MPI_SUCCESS);
    CHECK(flag == 0 && idx == MPI_UNDEFINED);
    CHECK(MPI_Request_get_status_all(3, reqs, &flag, sts) == MPI_SUCCESS && flag == 0);
    CHECK(MPI_Request_get_status_some(3, reqs, &n, indices, sts) == MPI_SUCCESS && n == 0);
    MPI_Barrier(comm);
    MPI_Send(&out, 1, MPI_INT, next, 9, comm);

    flag = 0;
    while (!flag)
        CHECK(MPI_Request_get_status_any(3, reqs, &idx, &flag, &st) == MPI_SUCCESS);
    CHECK(idx == 0 && st.MPI_SOURCE == prev && st.MPI_TAG == 9 && in == prev);
    CHECK(reqs[0] == keep); /* not freed, not made null */
    CHECK(MPI_Request_get_status_any(3, reqs, &idx, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(flag == 1 && idx == 0);
    CHECK(MPI_Request_get_status_all(3, reqs, &flag, sts) == MPI_SUCCESS && flag == 1);
    CHECK(sts[0].MPI_SOURCE == prev && sts[0].MPI_TAG == 9 && sts[0].MPI_ERROR == MPI_SUCCESS);
    CHECK(sts[1].MPI_SOURCE == MPI_ANY_SOURCE && sts[1].MPI_TAG == MPI_ANY_TAG);
    CHECK(sts[2].MPI_SOURCE == MPI_ANY_SOURCE && sts[2].MPI_ERROR == MPI_SUCCESS);
    MPI_Status *volatile ignore = MPI_STATUSES_IGNORE; /* a constant (MPI_Status *)1 warns */
    CHECK(MPI_Request_get_status_all(3, reqs, &flag, ignore) == MPI_SUCCESS);
    CHECK(MPI_Request_get_status_some(3, reqs, &n, indices, sts) == MPI_SUCCESS);
    CHECK(n == 1 && indices[0] == 0 && sts[0].MPI_SOURCE == prev);
    CHECK(reqs[0] == keep);
    CHECK(MPI_Wait(&reqs[0], &st) == MPI_SUCCESS && reqs[0] == MPI_REQUEST_NULL);
    CHECK(st.MPI_SOURCE == prev);

    /* Only inactive requests left. */
    CHECK(MPI_Request_get_status_any(3, reqs, &idx, &flag, &st) == MPI_SUCCESS);
    CHECK(flag == 1 && idx == MPI_UNDEFINED && st.MPI_SOURCE == MPI_ANY_SOURCE);
    CHECK(MPI_Request_get_status_some(3, reqs, &n, indices, sts) == MPI_SUCCESS);
    CHECK(n == MPI_UNDEFINED);
    CHECK(MPI_Request_get_status_all(3, reqs, &flag, sts) == MPI_SUCCESS && flag == 1);
    CHECK(MPI_Request_get_status_any(0, NULL, &idx, &flag, &st) == MPI_SUCCESS && flag == 1);
    CHECK(MPI_Request_get_status_all(0, NULL, &flag, NULL) == MPI_SUCCESS && flag == 1);
    CHECK(MPI_Request_get_status_some(0, NULL, &n, NULL, NULL) == MPI_SUCCESS);
    CHECK(n == MPI_UNDEFINED);
    MPI_Request_free(&reqs[2]);
}

static void bad_args(void)
{
    int idx, flag, n, indices[1];
    MPI_Status st;
    MPI_Request bogus = 12345, r = MPI_REQUEST_NULL;
    expect_self(MPI_Request_get_status_any(-1, &r, &idx, &flag, &st), MPI_ERR_COUNT);
    expect_self(MPI_Request_get_status_any(1, &bogus, &idx, &flag, &st), MPI_ERR_REQUEST);
    expect_self(MPI_Request_get_status_any(1, &r, NULL, &flag, &st), MPI_ERR_ARG);
    expect_self(MPI_Request_get_status_any(1, NULL, &idx, &flag, &st), MPI_ERR_ARG);
    expect_self(MPI_Request_get_status_all(-2, &r, &flag, &st), MPI_ERR_COUNT);
    expect_self(MPI_Request_get_status_all(1, &bogus, &flag, &st), MPI_ERR_REQUEST);
    expect_self(MPI_Request_get_status_all(1, &r, NULL, &st), MPI_ERR_ARG);
    expect_self(MPI_Request_get_status_some(-1, &r, &n, indices, &st), MPI_ERR_COUNT);
    expect_self(MPI_Request_get_status_some(1, &bogus, &n, indices, &st), MPI_ERR_REQUEST);
    expect_self(MPI_Request_get_status_some(1, &r, NULL, indices, &st), MPI_ERR_ARG);
    expect_self(MPI_Request_get_status_some(1, &r, &n, NULL, &st), MPI_ERR_ARG);
}

static void dead(MPI_Comm comm)
{
    int rank, size, in, idx, flag, n, indices[2];
    MPI_Request reqs[2];
    MPI_Status st, sts[2];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int victim = size - 1;
    MPI_Barrier(comm);
    if (rank == victim)
        raise(SIGKILL);
    if (rank != 0)
        return;
    MPI_Irecv(&in, 1, MPI_INT, victim, 1, comm, &reqs[0]);
    reqs[1] = MPI_REQUEST_NULL;
    int rc = MPI_SUCCESS;
    flag = 0;
    while (!flag)
        rc = MPI_Request_get_status_any(2, reqs, &idx, &flag, &st);
    CHECK(rc == MPI_ERR_PROC_FAILED && idx == 0);
    CHECK(comm_calls == 1 && comm_class == MPI_ERR_PROC_FAILED);
    comm_calls = 0;
    CHECK(MPI_Request_get_status_all(2, reqs, &flag, sts) == MPI_ERR_IN_STATUS && flag == 1);
    CHECK(sts[0].MPI_ERROR == MPI_ERR_PROC_FAILED && sts[1].MPI_ERROR == MPI_SUCCESS);
    CHECK(comm_calls == 1);
    comm_calls = 0;
    CHECK(MPI_Request_get_status_some(2, reqs, &n, indices, sts) == MPI_ERR_IN_STATUS);
    CHECK(n == 1 && indices[0] == 0 && sts[0].MPI_ERROR == MPI_ERR_PROC_FAILED);
    comm_calls = 0;
    CHECK(reqs[0] != MPI_REQUEST_NULL);
    CHECK(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE) == MPI_ERR_PROC_FAILED);
    CHECK(reqs[0] == MPI_REQUEST_NULL);
}

int main(int argc, char **argv)
{
    MPI_Errhandler self_eh, comm_eh;
    MPI_Init(&argc, &argv);
    MPI_Comm_create_errhandler(on_self, &self_eh);
    MPI_Comm_create_errhandler(on_comm, &comm_eh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, self_eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, comm_eh);
    if (argc > 1 && !strcmp(argv[1], "dead")) {
        dead(MPI_COMM_WORLD);
    } else {
        normal(MPI_COMM_WORLD);
        bad_args();
        CHECK(comm_calls == 0);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&self_eh);
    MPI_Errhandler_free(&comm_eh);
    return mtest_finish();
}
