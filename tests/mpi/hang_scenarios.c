/*
 * hang_scenarios.c: programs that cannot finish, for the hang detector and the watchdog
 * (runtime/hang.c). argv[1] picks one:
 *   recv-recv      ranks 0 and 1 both MPI_Recv from each other (a user-code deadlock)
 *   coll-missing   every rank but the last enters MPI_Barrier; the last waits in MPI_Recv
 *   agree-missing  as coll-missing with MPIX_Comm_agree (the second one on the communicator,
 *                  after a barrier): the report numbers it "fault-tolerant collective #2"
 *   wait-any       rank 0 waits in MPI_Waitall on two receives nobody sends, the rest in Barrier
 *   after-finalize rank 1 finalizes; rank 0 waits for a message rank 1 never sent
 *   threads        rank 0's main thread and two threads it created each block in MPI_Recv
 *                  (MPI_THREAD_MULTIPLE)
 *   join           like threads, but the main thread waits in pthread_join: not blocked in
 *                  MPI, so only the watchdog can report it
 *   compute        rank 0 computes forever; the others wait in MPI_Barrier (watchdog only)
 *   slow-ok        rank 0 sleeps 50 ms before the barrier: must NOT be reported
 *   accept         rank 0 waits in MPI_Comm_accept on a port nobody connects to; the others
 *                  finalize
 * Each prints nothing on success of the detector: the test checks the report on stderr and the
 * exit status.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void *blocked_receiver(void *arg)
{
    int v, tag = *(int *)arg;
    MPI_Recv(&v, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, size, v = 0;
    const char *mode = argc > 1 ? argv[1] : "recv-recv";
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (!strcmp(mode, "recv-recv")) {
        if (rank < 2)
            MPI_Recv(&v, 1, MPI_INT, 1 - rank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (!strcmp(mode, "coll-missing")) {
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_set_name(dup, "solver_comm");
        if (rank == size - 1)
            MPI_Recv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Barrier(dup);
    } else if (!strcmp(mode, "agree-missing")) {
        int flag = 1;
        MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == size - 1)
            MPI_Recv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    } else if (!strcmp(mode, "wait-any")) {
        if (rank == 0) {
            MPI_Request r[2];
            int w[2];
            MPI_Irecv(&w[0], 1, MPI_INT, 1, 11, MPI_COMM_WORLD, &r[0]);
            MPI_Irecv(&w[1], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r[1]);
            MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (!strcmp(mode, "after-finalize")) {
        if (rank == 0)
            MPI_Recv(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (!strcmp(mode, "threads") || !strcmp(mode, "join")) {
        if (rank == 0) {
            pthread_t t[2];
            int tags[2] = {21, 22};
            for (int i = 0; i < 2; i++)
                pthread_create(&t[i], NULL, blocked_receiver, &tags[i]);
            if (!strcmp(mode, "threads"))
                MPI_Recv(&v, 1, MPI_INT, 1, 23, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < 2; i++)
                pthread_join(t[i], NULL);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (!strcmp(mode, "compute")) {
        /* Rank 0 starts computing only once every other rank is about to enter the barrier:
         * under valgrind (one thread at a time) a rank could otherwise still be starting when
         * the watchdog fires, and the report would not show it in MPI_Barrier. */
        if (rank == 0) {
            for (int r = 1; r < size; r++)
                MPI_Recv(&v, 1, MPI_INT, r, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (volatile unsigned long i = 0;; i++)
                ;
        }
        MPI_Send(&v, 1, MPI_INT, 0, 31, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (!strcmp(mode, "accept")) {
        if (rank == 0) {
            char port[MPI_MAX_PORT_NAME];
            MPI_Comm inter;
            MPI_Open_port(MPI_INFO_NULL, port);
            MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
        }
    } else if (!strcmp(mode, "slow-ok")) {
        if (rank == 0)
            usleep(50000);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            printf(" No Errors\n");
    }
    MPI_Finalize();
    return 0;
}
