/* req_null.c: completion calls with nothing to complete (MPI-4.1 §3.7.3, §3.7.5).
 * MPI_Request_get_status, MPI_Wait and MPI_Test of MPI_REQUEST_NULL, and of an inactive
 * persistent request, give an empty status: source MPI_ANY_SOURCE, tag MPI_ANY_TAG, error
 * MPI_SUCCESS, count 0, not cancelled. The multiple-completion calls with a count of 0 take
 * NULL arrays and succeed (flag true, index and outcount MPI_UNDEFINED). */
#include "mtest.h"

/* A status full of values no empty status has. */
static MPI_Status dirty(void)
{
    MPI_Status st;
    st.MPI_SOURCE = 77;
    st.MPI_TAG = 78;
    st.MPI_ERROR = MPI_ERR_OTHER;
    MPI_Status_set_elements(&st, MPI_INT, 5);
    MPI_Status_set_cancelled(&st, 1);
    return st;
}

static void check_empty(const MPI_Status *st)
{
    int count = -1, cancelled = -1;
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE);
    CHECK(st->MPI_TAG == MPI_ANY_TAG);
    CHECK(st->MPI_ERROR == MPI_SUCCESS);
    MPI_Get_count(st, MPI_INT, &count);
    CHECK(count == 0);
    MPI_Test_cancelled(st, &cancelled);
    CHECK(cancelled == 0);
}

/* Every single-request call that reports a status, on request r (left as it is). */
static void check_single(MPI_Request r)
{
    MPI_Status st;
    MPI_Request keep = r;
    int flag = 0;
    st = dirty();
    CHECK(MPI_Request_get_status(r, &flag, &st) == MPI_SUCCESS && flag);
    check_empty(&st);
    flag = 0;
    CHECK(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag);
    st = dirty();
    CHECK(MPI_Wait(&r, &st) == MPI_SUCCESS && r == keep);
    check_empty(&st);
    st = dirty();
    flag = 0;
    CHECK(MPI_Test(&r, &flag, &st) == MPI_SUCCESS && flag && r == keep);
    check_empty(&st);
}

int main(int argc, char **argv)
{
    int flag, index, outcount, buf = 0;
    MPI_Status st;
    MPI_Request persistent;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    check_single(MPI_REQUEST_NULL);
    MPI_Recv_init(&buf, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &persistent);
    check_single(persistent); /* inactive */
    MPI_Request_free(&persistent);

    CHECK(MPI_Waitall(0, NULL, NULL) == MPI_SUCCESS);
    CHECK(MPI_Waitall(0, NULL, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    flag = 0;
    CHECK(MPI_Testall(0, NULL, &flag, NULL) == MPI_SUCCESS && flag);
    index = 5;
    st = dirty();
    CHECK(MPI_Waitany(0, NULL, &index, &st) == MPI_SUCCESS && index == MPI_UNDEFINED);
    check_empty(&st);
    index = 5;
    flag = 0;
    CHECK(MPI_Testany(0, NULL, &index, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag &&
          index == MPI_UNDEFINED);
    outcount = 5;
    CHECK(MPI_Waitsome(0, NULL, &outcount, NULL, NULL) == MPI_SUCCESS &&
          outcount == MPI_UNDEFINED);
    outcount = 5;
    CHECK(MPI_Testsome(0, NULL, &outcount, NULL, NULL) == MPI_SUCCESS &&
          outcount == MPI_UNDEFINED);
    return mtest_finish();
}
