/*
 * resilient_ring.c: the flagship example. A ring of ranks passes a token around for a number of
 * rounds. When a rank dies (here: chosen by MINI_MPI_FAULTS), the survivors notice through
 * error codes, agree that something failed, revoke and shrink the communicator, and carry on
 * with the survivors, the classic ULFM recovery loop. It builds unchanged against Open MPI 5
 * with ULFM.
 *
 *   MINI_MPI_FAULTS="kill 2 at MPI_Sendrecv#5" bin/mpiexec -n 6 build/examples/resilient_ring
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>

#define ROUNDS 10

/* One round: every rank passes its token to the right and receives from the left. */
static int ring_round(MPI_Comm comm, int *token)
{
    int rank, size, in = -1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int rc = MPI_Sendrecv(token, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT,
                          (rank + size - 1) % size, 0, comm, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        *token = in + 1;
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Comm comm;
    int world_rank, token = 0, recoveries = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);

    for (int round = 0; round < ROUNDS;) {
        int rc = ring_round(comm, &token);
        /* Everyone must take the same decision: agree on whether the round worked. */
        int ok = rc == MPI_SUCCESS;
        MPIX_Comm_failure_ack(comm);
        MPIX_Comm_agree(comm, &ok);
        if (ok) {
            round++;
            continue;
        }
        /* Recovery: make sure nobody is still waiting on the old communicator, then continue
         * with the survivors and redo the round. */
        MPI_Comm survivors;
        MPIX_Comm_revoke(comm);
        MPIX_Comm_shrink(comm, &survivors);
        MPI_Comm_free(&comm);
        comm = survivors;
        recoveries++;
        int size;
        MPI_Comm_size(comm, &size);
        if (world_rank == 0)
            printf("round %d: a rank failed; continuing with %d ranks\n", round, size);
    }
    int size;
    MPI_Comm_size(comm, &size);
    if (world_rank == 0)
        printf("done: %d rounds, %d recoveries, %d ranks left\n", ROUNDS, recoveries, size);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
