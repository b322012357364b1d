/* rmaft_hang.c: the deadlock report names what window waits are about (tests/mpi/testlist.rmaft
 * checks the lines). 4 ranks, window "grid": rank 0 locks target 1 exclusively and then waits
 * for a message nobody sends; rank 1 waits for an exclusive lock of target 1 (held by 0); ranks
 * 2 and 3 wait in a fence (0 and 1 never arrive), their line naming the window, the member and
 * its epoch, and rank 0 gets a line for the lock it holds. The hang detector ends the job with
 * status 123. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long mem[2] = {0};
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_name(win, "grid");
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Barrier(MPI_COMM_SELF);
        MPI_Send(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_INT, 3, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    } else {
        MPI_Win_fence(0, win);
    }
    MPI_Finalize();
    return 0;
}
