/*
 * errhandler_multi.c: what the error handler sees when one request of a multiple completion
 * (MPI_Waitall, MPI_Testall, MPI_Waitsome, MPI_Testsome) fails, with statuses and with
 * MPI_STATUSES_IGNORE. Every call returns MPI_ERR_IN_STATUS and the statuses hold each
 * request's error; the handler, called once, gets the failed request's own code under Open
 * MPI's conventions (default) and MPI_ERR_IN_STATUS under MPICH's (-disable-auto-cleanup), as
 * Debian's Open MPI 4.1 and MPICH 4.0 do. The failure is a truncated receive, then (3 ranks
 * or more) a receive from a rank that died, the case a ULFM handler must recognise.
 *
 * Argument: "ompi" or "mpich", the convention the job runs under.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static int rank, errors, calls, seen_class;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            errors++;                                                                     \
            printf("rank %d: line %d: %s\n", rank, __LINE__, #cond);                       \
        }                                                                                 \
    } while (0)

static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    calls++;
    MPI_Error_class(*code, &seen_class);
}

static int complete(int call, MPI_Request *rq, MPI_Status *st)
{
    int rc, flag = 0, outcount = 0, idx[2];
    switch (call) {
    case 0: return MPI_Waitall(2, rq, st);
    case 1:
        do
            rc = MPI_Testall(2, rq, &flag, st);
        while (!flag && rc == MPI_SUCCESS);
        return rc;
    case 2:
        /* One call may complete the good request alone: go on until the failed one is in. */
        do
            rc = MPI_Waitsome(2, rq, &outcount, idx, st);
        while (rc == MPI_SUCCESS && outcount != MPI_UNDEFINED);
        return rc;
    default:
        do
            rc = MPI_Testsome(2, rq, &outcount, idx, st);
        while (rc == MPI_SUCCESS && outcount != MPI_UNDEFINED);
        return rc;
    }
}

int main(int argc, char **argv)
{
    int size;
    MPI_Errhandler eh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int mpich = argc > 1 && !strcmp(argv[1], "mpich");
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);

    for (int call = 0; call < 4; call++)
        for (int ignore = 0; ignore < 2; ignore++) {
            int ok[2] = {1, 2}, big[2] = {3, 4}, small[1];
            if (rank == 1) {
                MPI_Send(ok, 2, MPI_INT, 0, 1, MPI_COMM_WORLD);
                MPI_Send(big, 2, MPI_INT, 0, 0, MPI_COMM_WORLD);
            } else if (rank == 0) {
                MPI_Request rq[2];
                MPI_Status st[2];
                MPI_Irecv(ok, 2, MPI_INT, 1, 1, MPI_COMM_WORLD, &rq[0]);
                MPI_Irecv(small, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &rq[1]);
                calls = 0;
                int rc = complete(call, rq, ignore ? MPI_STATUSES_IGNORE : st);
                CHECK(rc == MPI_ERR_IN_STATUS);
                CHECK(calls == 1);
                CHECK(seen_class == (mpich ? MPI_ERR_IN_STATUS : MPI_ERR_TRUNCATE));
                if (!ignore && call < 2) { /* the all-forms fill both statuses */
                    CHECK(st[0].MPI_ERROR == MPI_SUCCESS);
                    int cls;
                    MPI_Error_class(st[1].MPI_ERROR, &cls);
                    CHECK(cls == MPI_ERR_TRUNCATE);
                }
                CHECK(rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL);
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }

    if (size >= 3) {
        /* A receive from a rank that died, next to one that succeeds. */
        if (rank == 2)
            raise(SIGKILL);
        if (rank == 1) {
            int v = 5;
            MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
        }
        if (rank == 0) {
            int a, b;
            MPI_Request rq[2];
            MPI_Status st[2];
            MPI_Irecv(&a, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &rq[0]);
            MPI_Irecv(&b, 1, MPI_INT, 2, 7, MPI_COMM_WORLD, &rq[1]);
            calls = 0;
            CHECK(MPI_Waitall(2, rq, st) == MPI_ERR_IN_STATUS);
            CHECK(calls == 1 && seen_class == (mpich ? MPI_ERR_IN_STATUS : MPIX_ERR_PROC_FAILED));
            CHECK(a == 5 && st[0].MPI_ERROR == MPI_SUCCESS);
            int cls;
            MPI_Error_class(st[1].MPI_ERROR, &cls);
            CHECK(cls == MPIX_ERR_PROC_FAILED);
        }
    }

    if (rank == 0 && errors == 0)
        printf(" No Errors\n");
    MPI_Errhandler_free(&eh);
    MPI_Finalize();
    return 0;
}
