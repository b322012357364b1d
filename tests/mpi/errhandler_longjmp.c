/* errhandler_longjmp.c: a user error handler may longjmp out of the failed call (ULFM recovery
 * code does): no internal lock is held, so MPI keeps working afterwards, many times over. */
#include <setjmp.h>

#include "mtest.h"

static jmp_buf recover;
static int jumps;

static void jump_out(MPI_Comm *comm, int *code, ...)
{
    jumps++;
    longjmp(recover, *code);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;
    int size, rank, v = 1, in = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_create_errhandler(jump_out, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    for (int i = 0; i < 100; i++) {
        volatile int code = setjmp(recover);
        if (code == 0) {
            if (i % 2)
                MPI_Comm_size(MPI_COMM_NULL, &size);          /* MPI_ERR_COMM */
            else
                MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD); /* MPI_ERR_COUNT */
            CHECK(!"the handler should have jumped");
        } else {
            CHECK(code == (i % 2 ? MPI_ERR_COMM : MPI_ERR_COUNT));
        }
        /* Everything still works after the jump. */
        CHECK(MPI_Sendrecv(&v, 1, MPI_INT, rank, 0, &in, 1, MPI_INT, rank, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE) == MPI_SUCCESS && in == 1);
        CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
    }
    CHECK(jumps == 100);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    return mtest_finish();
}
