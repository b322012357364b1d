/*
 * comm_limit.c: a rank holds at most MINI_MPI_MAX_COMMS communicators (the testlist sets 100):
 * the creation that would exceed it fails with MPI_ERR_OTHER at every member (whichever way it
 * creates: dup, idup, split), and freeing makes room again.
 */
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

#define LIMIT 100

static int create(const char *how, MPI_Comm *out)
{
    if (!strcmp(how, "idup")) {
        MPI_Request req;
        int err = MPI_Comm_idup(MPI_COMM_WORLD, out, &req);
        return err != MPI_SUCCESS ? err : MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    if (!strcmp(how, "split"))
        return MPI_Comm_split(MPI_COMM_WORLD, 0, 0, out);
    return MPI_Comm_dup(MPI_COMM_WORLD, out);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    static const char *const hows[] = {"dup", "idup", "split"};
    MPI_Comm comms[LIMIT + 1];
    for (int h = 0; h < 3; h++) {
        int n = 0, err = MPI_SUCCESS, cls;
        while (n <= LIMIT && (err = create(hows[h], &comms[n])) == MPI_SUCCESS)
            n++;
        MPI_Error_class(err, &cls);
        CHECK(n == LIMIT);
        CHECK(cls == MPI_ERR_OTHER);
        MPI_Comm_free(&comms[0]);
        CHECK(create(hows[h], &comms[0]) == MPI_SUCCESS); /* room again */
        for (int i = 0; i < n; i++)
            MPI_Comm_free(&comms[i]);
    }
    return mtest_finish();
}
