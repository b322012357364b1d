/* A buffered send on a communicator derived from a session uses the session's buffer
 * (MPI_Session_attach_buffer, MPI-4.1 §3.6) when the communicator has none: on a
 * communicator made from the session's group, from a group derived from it, and on their
 * duplicates. Without MPI_Init. With the session's buffer detached and no other attached,
 * the send fails with MPI_ERR_BUFFER on the communicator; the _c forms and the flushes work. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int errs;

static void check(int err, int want, const char *what)
{
    int cls = MPI_SUCCESS;
    if (err != MPI_SUCCESS)
        MPI_Error_class(err, &cls);
    if (cls != want) {
        printf("%s: class %d, expected %d\n", what, cls, want);
        errs++;
    }
}

/* Rank 0 bsends one int to the last rank, which receives it. */
static void exchange(MPI_Comm comm, int want, const char *what)
{
    int rank, size, v = 42;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0) {
        check(MPI_Bsend(&v, 1, MPI_INT, size - 1, 7, comm), want, what);
        if (want == MPI_SUCCESS)
            check(MPI_Comm_flush_buffer(comm), MPI_SUCCESS, "comm flush");
    }
    if (rank == size - 1 && want == MPI_SUCCESS) {
        int got = 0;
        MPI_Recv(&got, 1, MPI_INT, 0, 7, comm, MPI_STATUS_IGNORE);
        if (got != 42) {
            printf("%s: received %d\n", what, got);
            errs++;
        }
    }
}

int main(void)
{
    MPI_Session session;
    MPI_Group world, some;
    MPI_Comm comm, sub, dup;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session);
    MPI_Group_from_session_pset(session, "mpi://WORLD", &world);
    MPI_Comm_create_from_group(world, "session_bsend", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm);
    int size;
    MPI_Comm_size(comm, &size);
    int first[2] = {0, size - 1};
    MPI_Group_incl(world, size > 1 ? 2 : 1, first, &some);
    int rank;
    MPI_Comm_rank(comm, &rank);
    sub = MPI_COMM_NULL;
    if (rank == 0 || rank == size - 1)
        MPI_Comm_create_from_group(some, "session_bsend_sub", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                   &sub);
    MPI_Comm_dup(comm, &dup);

    char *mem = malloc(4096);
    check(MPI_Session_attach_buffer(session, mem, 4096), MPI_SUCCESS, "session attach");
    exchange(comm, MPI_SUCCESS, "bsend on the session's communicator");
    exchange(dup, MPI_SUCCESS, "bsend on a duplicate");
    if (sub != MPI_COMM_NULL)
        exchange(sub, MPI_SUCCESS, "bsend on a communicator of a derived group");
    check(MPI_Session_flush_buffer(session), MPI_SUCCESS, "session flush");
    MPI_Request rq;
    check(MPI_Session_iflush_buffer(session, &rq), MPI_SUCCESS, "session iflush");
    check(MPI_Wait(&rq, MPI_STATUS_IGNORE), MPI_SUCCESS, "session iflush wait");
    void *addr;
    MPI_Count n = -1;
    check(MPI_Session_detach_buffer_c(session, &addr, &n), MPI_SUCCESS, "session detach");
    if (addr != mem || n != 4096) {
        printf("session detach: %p %lld\n", addr, (long long)n);
        errs++;
    }
    exchange(comm, MPI_ERR_BUFFER, "bsend with no buffer");
    check(MPI_Session_attach_buffer_c(session, MPI_BUFFER_AUTOMATIC, 0), MPI_SUCCESS,
          "session attach automatic");
    exchange(comm, MPI_SUCCESS, "bsend into an automatic buffer");
    MPI_Barrier(comm);
    check(MPI_Session_attach_buffer(session, mem, 4096), MPI_ERR_BUFFER, "second attach");

    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    MPI_Comm_free(&dup);
    MPI_Group_free(&some);
    MPI_Group_free(&world);
    int all = 0;
    MPI_Reduce(&errs, &all, 1, MPI_INT, MPI_SUM, 0, comm);
    if (rank == 0 && all == 0)
        printf(" No Errors\n");
    MPI_Comm_free(&comm);
    MPI_Session_finalize(&session); /* its automatic buffer goes with it */
    free(mem);
    return 0;
}
