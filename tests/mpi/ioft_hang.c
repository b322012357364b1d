/*
 * ioft_hang.c: a deadlock in a meeting of a file's members (rank 1 waits for a message nobody
 * sends while the others wait for it in a collective file call). The deadlock report must name
 * each blocked rank's file and its file pointers, whatever the call: argument "write_all"
 * (default; the report also gives the position the access started at), "ordered"
 * (MPI_File_write_ordered), "seek_shared", "close", or "open" (no file yet: the open is
 * reported as the collective on the opening communicator it is).
 */
#include <string.h>

#include "ioft.h"

int main(int argc, char **argv)
{
    int rank, v = 1;
    const char *what = argc > 1 ? argv[1] : "write_all";
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int amode = MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE;
    if (!strcmp(what, "open")) {
        if (rank == 1)
            MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_File_open(MPI_COMM_WORLD, "ioft_hang.out", amode, MPI_INFO_NULL, &fh);
        MPI_Finalize();
        return 0;
    }
    /* In the working directory (the runner's scratch one): the job ends before any close. */
    MPI_File_open(MPI_COMM_WORLD, "ioft_hang.out", amode, MPI_INFO_NULL, &fh);
    MPI_File_seek(fh, 8 * rank, MPI_SEEK_SET);
    MPI_File_write_shared(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE); /* shared pointer: 4 x ranks */
    if (rank == 1)
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else if (!strcmp(what, "ordered"))
        MPI_File_write_ordered(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    else if (!strcmp(what, "seek_shared"))
        MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    else if (!strcmp(what, "close"))
        MPI_File_close(&fh);
    else
        MPI_File_write_all(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
