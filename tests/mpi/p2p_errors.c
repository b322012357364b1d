/* p2p_errors.c: invalid arguments to point-to-point calls return their error class under
 * MPI_ERRORS_RETURN (MPI-4.1 §9.4), checked only through MPI_Error_class: MPI_COMM_NULL →
 * MPI_ERR_COMM; destination/source out of range or negative (not MPI_PROC_NULL/ANY_SOURCE) →
 * MPI_ERR_RANK; negative count → MPI_ERR_COUNT; send tag < 0, receive tag < 0 other than
 * MPI_ANY_TAG, and tag > the MPI_TAG_UB attribute → MPI_ERR_TAG; MPI_DATATYPE_NULL and an
 * uncommitted derived type → MPI_ERR_TYPE; NULL buffer with count > 0 of MPI_INT →
 * MPI_ERR_BUFFER; an invalid request handle in MPI_Wait → MPI_ERR_REQUEST (only where handles
 * are integers). MPI_ERRORS_RETURN is set on MPI_COMM_SELF too, for errors on no communicator.
 * Each erroneous send targets the calling rank; a valid exchange with self runs at the end. */
#include <limits.h>

#include "mtest.h"

static void expect(int rc, int cls_expected, const char *what)
{
    int cls = -1;
    if (rc == MPI_SUCCESS) {
        fprintf(stderr, "%s: succeeded, expected class %d\n", what, cls_expected);
        CHECK(rc != MPI_SUCCESS);
        return;
    }
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS);
    if (cls != cls_expected)
        fprintf(stderr, "%s: class %d, expected %d\n", what, cls, cls_expected);
    CHECK(cls == cls_expected);
}

/* A receive that wrongly succeeded in being posted is cancelled so that nothing stays pending. */
static void expect_irecv(int rc, MPI_Request *req, int cls_expected, const char *what)
{
    expect(rc, cls_expected, what);
    if (rc == MPI_SUCCESS && *req != MPI_REQUEST_NULL) {
        MPI_Cancel(req);
        MPI_Wait(req, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    int rank, size, buf[4] = {0, 1, 2, 3};
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm w = MPI_COMM_WORLD;

    /* Communicator. */
    expect(MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM, "Send comm null");
    expect(MPI_Isend(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &req), MPI_ERR_COMM,
           "Isend comm null");
    expect_irecv(MPI_Irecv(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &req), &req, MPI_ERR_COMM,
                 "Irecv comm null");

    /* Rank. */
    expect(MPI_Send(buf, 1, MPI_INT, size, 0, w), MPI_ERR_RANK, "Send dest size");
    expect(MPI_Send(buf, 1, MPI_INT, -5, 0, w), MPI_ERR_RANK, "Send dest -5");
    expect(MPI_Isend(buf, 1, MPI_INT, size + 10, 0, w, &req), MPI_ERR_RANK, "Isend dest");
    expect(MPI_Ssend(buf, 1, MPI_INT, size, 0, w), MPI_ERR_RANK, "Ssend dest size");
    expect_irecv(MPI_Irecv(buf, 1, MPI_INT, size, 0, w, &req), &req, MPI_ERR_RANK,
                 "Irecv source size");
    expect_irecv(MPI_Irecv(buf, 1, MPI_INT, -7, 0, w, &req), &req, MPI_ERR_RANK,
                 "Irecv source -7");

    /* Count. */
    expect(MPI_Send(buf, -1, MPI_INT, rank, 0, w), MPI_ERR_COUNT, "Send count -1");
    expect_irecv(MPI_Irecv(buf, -3, MPI_INT, rank, 0, w, &req), &req, MPI_ERR_COUNT,
                 "Irecv count -3");

    /* Tag: MPI_ANY_TAG is not a valid send tag; negative receive tags other than it. */
    expect(MPI_Send(buf, 1, MPI_INT, rank, -1, w), MPI_ERR_TAG, "Send tag -1");
    expect(MPI_Send(buf, 1, MPI_INT, rank, MPI_ANY_TAG, w), MPI_ERR_TAG, "Send tag ANY");
    expect(MPI_Isend(buf, 1, MPI_INT, rank, -100, w, &req), MPI_ERR_TAG, "Isend tag -100");
    expect_irecv(MPI_Irecv(buf, 1, MPI_INT, rank, MPI_ANY_TAG == -5 ? -6 : -5, w, &req), &req,
                 MPI_ERR_TAG, "Irecv tag -5");
#if !defined(MINI_MPI) || defined(MPI_TAG_UB)
    {
        int *ub = NULL, flag = 0;
        CHECK(MPI_Comm_get_attr(w, MPI_TAG_UB, &ub, &flag) == MPI_SUCCESS && flag);
        if (flag) {
            CHECK(*ub >= 32767);
            if (*ub < INT_MAX)
                expect(MPI_Send(buf, 1, MPI_INT, rank, *ub + 1, w), MPI_ERR_TAG,
                       "Send tag > MPI_TAG_UB");
            /* The bound itself is a valid tag. */
            MPI_Request s;
            int in = -1;
            CHECK(MPI_Isend(&buf[2], 1, MPI_INT, rank, *ub, w, &s) == MPI_SUCCESS);
            CHECK(MPI_Recv(&in, 1, MPI_INT, rank, *ub, w, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            CHECK(MPI_Wait(&s, MPI_STATUS_IGNORE) == MPI_SUCCESS && in == 2);
        }
    }
#endif

    /* Datatype. */
    expect(MPI_Send(buf, 1, MPI_DATATYPE_NULL, rank, 0, w), MPI_ERR_TYPE, "Send type null");
    expect_irecv(MPI_Irecv(buf, 1, MPI_DATATYPE_NULL, rank, 0, w, &req), &req, MPI_ERR_TYPE,
                 "Irecv type null");
    {
        MPI_Datatype vec;
        CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &vec) == MPI_SUCCESS);
        expect(MPI_Send(buf, 1, vec, rank, 0, w), MPI_ERR_TYPE, "Send uncommitted");
        expect_irecv(MPI_Irecv(buf, 1, vec, rank, 0, w, &req), &req, MPI_ERR_TYPE,
                     "Irecv uncommitted");
        MPI_Type_free(&vec);
    }

    /* Buffer. */
    expect(MPI_Send(NULL, 2, MPI_INT, rank, 0, w), MPI_ERR_BUFFER, "Send NULL buffer");
    expect_irecv(MPI_Irecv(NULL, 2, MPI_INT, rank, 0, w, &req), &req, MPI_ERR_BUFFER,
                 "Irecv NULL buffer");

    /* Request: only detectable where a handle is an integer that can be validated. */
#if defined(MINI_MPI) || defined(MPICH)
    {
        MPI_Request bad = (MPI_Request)12345;
        expect(MPI_Wait(&bad, MPI_STATUS_IGNORE), MPI_ERR_REQUEST, "Wait bad request");
    }
#endif

    /* Nothing was sent or posted by the calls above: a message to self gets through cleanly. */
    {
        int flag = 1, in = -1;
        CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, w, &flag, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        CHECK(!flag);
        CHECK(MPI_Isend(&buf[3], 1, MPI_INT, rank, 0, w, &req) == MPI_SUCCESS);
        CHECK(MPI_Recv(&in, 1, MPI_INT, rank, 0, w, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && in == 3);
    }
    return mtest_finish();
}
