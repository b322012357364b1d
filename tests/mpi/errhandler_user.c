/* errhandler_user.c: a user error handler is called with the communicator and the error code,
 * may return (the call then returns the code), and handlers are reference counted. */
#include "mtest.h"

static int calls, last_code;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    last_code = *code;
    last_comm = *comm;
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh, got;
    int size;
    MPI_Init(&argc, &argv);
    CHECK(MPI_Comm_create_errhandler(handler, &eh) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh) == MPI_SUCCESS);
    CHECK(MPI_Errhandler_free(&eh) == MPI_SUCCESS && eh == MPI_ERRHANDLER_NULL);
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, NULL) == MPI_ERR_ARG);
    CHECK(calls == 1 && last_code == MPI_ERR_ARG && last_comm == MPI_COMM_WORLD);
    CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_TAG) == MPI_SUCCESS);
    CHECK(calls == 2 && last_code == MPI_ERR_TAG);
    /* Still usable though its handle was freed: the communicator holds a reference. */
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got) == MPI_SUCCESS);
    CHECK(MPI_Errhandler_free(&got) == MPI_SUCCESS);
    /* Invalid arguments to the errhandler calls themselves. */
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL) == MPI_ERR_ERRHANDLER);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, 77) == MPI_ERR_ERRHANDLER);
    /* Freeing a predefined handler's handle is allowed, as in MPICH: it only nulls the handle. */
    eh = MPI_ERRORS_RETURN;
    CHECK(MPI_Errhandler_free(&eh) == MPI_SUCCESS && eh == MPI_ERRHANDLER_NULL);
    CHECK(MPI_Comm_size(MPI_COMM_NULL, &size) == MPI_ERR_COMM);
    CHECK(MPI_Comm_size((MPI_Comm)0x7fffffff, &size) == MPI_ERR_COMM);
    CHECK(MPI_Comm_size((MPI_Comm)-1, &size) == MPI_ERR_COMM);
    return mtest_finish();
}
