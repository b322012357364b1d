/*
 * ioft_hang.c: a deadlock in a collective file access (rank 1 waits for a message nobody
 * sends while the others wait for it in MPI_File_write_all). The deadlock report must name
 * each blocked rank's file, the position its access started at and its file pointers.
 */
#include "ioft.h"

int main(int argc, char **argv)
{
    int rank, v = 1;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* In the working directory (the runner's scratch one): the job ends before any close. */
    MPI_File_open(MPI_COMM_WORLD, "ioft_hang.out", MPI_MODE_CREATE | MPI_MODE_RDWR |
                  MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    MPI_File_seek(fh, 8 * rank, MPI_SEEK_SET);
    if (rank == 1)
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        MPI_File_write_all(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
