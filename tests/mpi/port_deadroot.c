/*
 * port_deadroot.c (4 ranks): a connecting root that dies while its connection waits is
 * skipped by MPI_Comm_accept. Rank 1 connects to rank 0's port and is killed by a thread of
 * its own (raise(SIGKILL)) while it waits; rank 2 learns of the death (a barrier with rank 1
 * fails), tells rank 0 and connects in turn; rank 0 then accepts and must get rank 2, with a
 * working intercommunicator. Separate from port_connect.c because a rank dies here: valgrind
 * checks it without leak errors (tests/valgrind-faults.list). Rank 0 prints "No Errors".
 */
#include <mpi.h>
#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> /* Open MPI's MPIX_ names */
#endif
#endif
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static int errors;

#define CHECK(cond, what)                                                                        \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            errors++;                                                                             \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, what);                            \
        }                                                                                         \
    } while (0)

static void *kill_me_later(void *arg)
{
    (void)arg;
    usleep(20000);
    raise(SIGKILL); /* ends this rank (its thread's death is the rank's) */
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, size, value = 0;
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm pair, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 3) {
        fprintf(stderr, "port_deadroot needs at least 3 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0)
        MPI_Open_port(MPI_INFO_NULL, port);
    MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Comm_split(MPI_COMM_WORLD, rank == 1 || rank == 2, rank, &pair);
    MPI_Comm_set_errhandler(pair, MPI_ERRORS_RETURN);
    if (rank == 1) {
        pthread_t t;
        pthread_create(&t, NULL, kill_me_later, NULL);
        pthread_detach(t); /* the rank dies before it could join it */
        MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
        CHECK(0, "rank 1 survived its own death");
    } else if (rank == 2) {
        /* Rank 1 never reaches this barrier: it fails with rank 1's death. */
        int rc = MPI_Barrier(pair);
#ifdef MPIX_ERR_PROC_FAILED
        int cls;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPIX_ERR_PROC_FAILED, "the barrier with the dead rank did not fail");
#else
        CHECK(rc != MPI_SUCCESS, "the barrier with the dead rank succeeded");
#endif
        MPI_Send(&value, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
        MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
        value = 42;
        MPI_Send(&value, 1, MPI_INT, 0, 1, inter);
        MPI_Send(&errors, 1, MPI_INT, 0, 2, inter);
        MPI_Comm_disconnect(&inter);
    } else if (rank == 0) {
        MPI_Recv(&value, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
        MPI_Group remote, world;
        int zero = 0, w = -1, n, theirs = 0;
        MPI_Comm_remote_size(inter, &n);
        MPI_Comm_remote_group(inter, &remote);
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_translate_ranks(remote, 1, &zero, world, &w);
        CHECK(n == 1 && w == 2, "accepted the wrong group (rank 1 died waiting; want rank 2)");
        MPI_Group_free(&remote);
        MPI_Group_free(&world);
        MPI_Recv(&value, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE);
        CHECK(value == 42, "wrong message over the accepted intercommunicator");
        MPI_Recv(&theirs, 1, MPI_INT, 0, 2, inter, MPI_STATUS_IGNORE);
        errors += theirs;
        MPI_Comm_disconnect(&inter);
        MPI_Close_port(port);
        if (errors == 0)
            printf(" No Errors\n");
    }
    MPI_Comm_free(&pair);
    MPI_Finalize();
    return 0;
}
