/*
 * ioft_seek.c: the individual file pointer after a process-failure error, with
 * MINI_MPI_POISON=1 (MINI_MPI_FAULTS=kill V during MPI_File_write_all#1; argument V). The
 * rules checked (fault-tolerance chapter, I/O): "Once an MPI implementation has raised an MPI
 * exception of class MPI_ERR_PROC_FAILED, the state of the file pointer involved in the
 * operation that raised the exception is undefined." and "Users should also call
 * MPI_FILE_SEEK on individual file pointers [...] to restore a defined state." A member that
 * got the error finds its pointer at the documented poisoned position; MPI_File_seek with
 * MPI_SEEK_SET restores it and the next write lands exactly there.
 */
#include <string.h>

#include "ioft.h"

int main(int argc, char **argv)
{
    int rank, victim = argc > 1 ? atoi(argv[1]) : 1;
    char name[256];
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ioft_name(name, sizeof name, "ioft_seek");
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    int v = rank, err;
    CHECK(MPI_File_seek(fh, rank * 4, MPI_SEEK_SET) == MPI_SUCCESS);
    err = MPI_File_write_all(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_Offset pos = -1;
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS);
    if (rank < victim) {
        CHECK(err == MPI_SUCCESS);
        CHECK(pos == rank * 4 + 4);
    } else {
        CHECK(ioft_class(err) == MPI_ERR_PROC_FAILED);
        CHECK(pos == IOFT_POISON);
    }
    /* Restore and write: the value lands exactly at the new position. */
    MPI_Offset at = 1000 + rank * 4;
    CHECK(MPI_File_seek(fh, at, MPI_SEEK_SET) == MPI_SUCCESS);
    v = 7000 + rank;
    CHECK(MPI_File_write(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == at + 4);
    int back = -1;
    CHECK(MPI_File_read_at(fh, at, &back, 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(back == v);
    MPI_Offset size = 0;
    CHECK(MPI_File_get_size(fh, &size) == MPI_SUCCESS && size < IOFT_POISON);
    MPI_File_close(&fh);
    CHECK(fh == MPI_FILE_NULL);
    return ioft_finish();
}
