/*
 * handle_convert.c: the C/Fortran conversions of MPI-4.1 §19.3.4-19.3.5. Every kind of handle
 * (communicator, error handler, group, info, message, operation, request, session, datatype,
 * window) survives c2f then f2c, null handles included, and a Fortran value that names no
 * handle of the kind converts to a handle every call refuses with the kind's class (never to
 * the null handle). Statuses convert between C, Fortran and Fortran 2008 with MPI_SOURCE,
 * MPI_TAG and MPI_ERROR at MPI_F_SOURCE, MPI_F_TAG and MPI_F_ERROR and the count kept; the
 * ignore sentinels and NULL are MPI_ERR_ARG through MPI_COMM_SELF's handler.
 */
#include <string.h>

#include "mtest.h"

static int self_calls, self_class;

static void on_self(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    self_calls++;
    MPI_Error_class(*code, &self_class);
}

#define expect_class(rc, cls) expect_class_at(rc, cls, __LINE__)
static void expect_class_at(int rc, int cls, int line)
{
    int got = rc;
    MPI_Error_class(rc, &got);
    if (got != cls)
        fprintf(stderr, "line %d: error class %d, expected %d\n", line, got, cls);
    CHECK(got == cls);
}

static void handles(void)
{
    int rank, size, v = 0, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_COMM_WORLD);
    CHECK(MPI_Comm_f2c(MPI_Comm_c2f(dup)) == dup);
    CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_NULL)) == MPI_COMM_NULL);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(dup, &eh);
    CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(eh)) == eh);
    CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRHANDLER_NULL)) == MPI_ERRHANDLER_NULL);
    MPI_Errhandler_free(&eh);
    MPI_Group g;
    MPI_Comm_group(dup, &g);
    CHECK(MPI_Group_f2c(MPI_Group_c2f(g)) == g);
    CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_NULL)) == MPI_GROUP_NULL);
    MPI_Info info;
    MPI_Info_create(&info);
    CHECK(MPI_Info_f2c(MPI_Info_c2f(info)) == info);
    CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL);
    CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)) == MPI_SUM);
    CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_OP_NULL)) == MPI_OP_NULL);
    MPI_Datatype t;
    MPI_Type_contiguous(3, MPI_INT, &t);
    CHECK(MPI_Type_f2c(MPI_Type_c2f(t)) == t && MPI_Type_f2c(MPI_Type_c2f(MPI_INT)) == MPI_INT);
    CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DATATYPE_NULL)) == MPI_DATATYPE_NULL);
    MPI_Win win;
    MPI_Win_create(&v, sizeof v, sizeof v, MPI_INFO_NULL, dup, &win);
    CHECK(MPI_Win_f2c(MPI_Win_c2f(win)) == win);
    CHECK(MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL);
    CHECK(MPI_Session_f2c(MPI_Session_c2f(MPI_SESSION_NULL)) == MPI_SESSION_NULL);

    /* A request and a message, converted while pending. */
    MPI_Request req;
    MPI_Irecv(&v, 1, MPI_INT, (rank + size - 1) % size, 3, dup, &req);
    MPI_Fint freq = MPI_Request_c2f(req);
    CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL);
    MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, 3, dup);
    MPI_Request back = MPI_Request_f2c(freq);
    CHECK(back == req);
    CHECK(MPI_Wait(&back, MPI_STATUS_IGNORE) == MPI_SUCCESS && v == (rank + size - 1) % size);
    MPI_Message msg;
    MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, 4, dup);
    MPI_Mprobe(MPI_ANY_SOURCE, 4, dup, &msg, MPI_STATUS_IGNORE);
    MPI_Message mback = MPI_Message_f2c(MPI_Message_c2f(msg));
    CHECK(mback == msg);
    CHECK(MPI_Mrecv(&v, 1, MPI_INT, &mback, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL);
    CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC);

    /* Values that are no handle of the kind: refused by every call, never taken as null. */
    MPI_Fint junk[] = {12345, -7, MPI_Type_c2f(MPI_INT), MPI_Comm_c2f(MPI_COMM_WORLD) + 1000};
    for (unsigned i = 0; i < sizeof junk / sizeof junk[0]; i++) {
        int n = 0;
        MPI_Comm c = MPI_Comm_f2c(junk[i]);
        if (i != 3)
            CHECK(c != MPI_COMM_NULL);
        expect_class(MPI_Comm_size(c, &n), MPI_ERR_COMM);
        MPI_Request r = MPI_Request_f2c(junk[i]);
        CHECK(r != MPI_REQUEST_NULL);
        expect_class(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
        if (i != 2) {
            MPI_Datatype d = MPI_Type_f2c(junk[i]);
            expect_class(MPI_Type_size(d, &n), MPI_ERR_TYPE);
        }
        MPI_Group gg = MPI_Group_f2c(junk[i]);
        expect_class(MPI_Group_size(gg, &n), MPI_ERR_GROUP);
        MPI_Info ii = MPI_Info_f2c(junk[i]);
        expect_class(MPI_Info_get_nkeys(ii, &n), MPI_ERR_INFO);
        MPI_Win ww = MPI_Win_f2c(junk[i]);
        expect_class(MPI_Win_get_group(ww, &gg), MPI_ERR_WIN);
        MPI_Op oo = MPI_Op_f2c(junk[i]);
        expect_class(MPI_Op_commutative(oo, &flag), MPI_ERR_OP);
        MPI_Errhandler ee = MPI_Errhandler_f2c(junk[i]);
        expect_class(MPI_Errhandler_free(&ee), MPI_ERR_ERRHANDLER);
        MPI_Message mm = MPI_Message_f2c(junk[i]);
        expect_class(MPI_Mrecv(&v, 1, MPI_INT, &mm, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    }
    MPI_Win_free(&win);
    MPI_Type_free(&t);
    MPI_Info_free(&info);
    MPI_Group_free(&g);
    MPI_Comm_free(&dup);
}

static void statuses(void)
{
    int rank, size, out[5] = {1, 2, 3, 4, 5}, in[5], count = -1;
    MPI_Status st, back;
    MPI_Fint f[MPI_F_STATUS_SIZE], f2[MPI_F_STATUS_SIZE];
    MPI_F08_status f08;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Sendrecv(out, 5, MPI_INT, (rank + 1) % size, 11, in, 5, MPI_INT,
                 (rank + size - 1) % size, 11, MPI_COMM_WORLD, &st);
    st.MPI_ERROR = MPI_ERR_TAG; /* any value travels */
    CHECK(MPI_Status_c2f(&st, f) == MPI_SUCCESS);
    CHECK(f[MPI_F_SOURCE] == (rank + size - 1) % size && f[MPI_F_TAG] == 11);
    CHECK(f[MPI_F_ERROR] == MPI_ERR_TAG);
    memset(&back, 0, sizeof back);
    CHECK(MPI_Status_f2c(f, &back) == MPI_SUCCESS);
    CHECK(back.MPI_SOURCE == st.MPI_SOURCE && back.MPI_TAG == 11 && back.MPI_ERROR == MPI_ERR_TAG);
    MPI_Get_count(&back, MPI_INT, &count);
    CHECK(count == 5);
    CHECK(MPI_Status_c2f08(&st, &f08) == MPI_SUCCESS);
    CHECK(f08.MPI_SOURCE == st.MPI_SOURCE && f08.MPI_TAG == 11 && f08.MPI_ERROR == MPI_ERR_TAG);
    memset(&back, 0, sizeof back);
    CHECK(MPI_Status_f082c(&f08, &back) == MPI_SUCCESS);
    count = -1;
    MPI_Get_count(&back, MPI_INT, &count);
    CHECK(count == 5 && back.MPI_TAG == 11);
    memset(&f08, 0, sizeof f08);
    CHECK(MPI_Status_f2f08(f, &f08) == MPI_SUCCESS && f08.MPI_TAG == 11);
    CHECK(MPI_Status_f082f(&f08, f2) == MPI_SUCCESS && !memcmp(f, f2, sizeof f));

    /* Sentinels and NULL are not statuses. */
    int rc[] = {MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_Status_c2f(&st, MPI_F_STATUS_IGNORE),
                MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back), MPI_Status_f2c(f, NULL),
                MPI_Status_c2f08(&st, MPI_F08_STATUS_IGNORE),
                MPI_Status_f082c(MPI_F08_STATUSES_IGNORE, &back),
                MPI_Status_f2f08(MPI_F_STATUSES_IGNORE, &f08), MPI_Status_f082f(NULL, f)};
    for (unsigned i = 0; i < sizeof rc / sizeof rc[0]; i++)
        expect_class(rc[i], MPI_ERR_ARG);
    CHECK(self_calls == (int)(sizeof rc / sizeof rc[0]) && self_class == MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_create_errhandler(on_self, &eh);
    handles();
    MPI_Comm_set_errhandler(MPI_COMM_SELF, eh);
    statuses();
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    return mtest_finish();
}
