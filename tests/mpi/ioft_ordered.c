/*
 * ioft_ordered.c: MPI_File_write_ordered whose predecessor in rank order died
 * (MINI_MPI_FAULTS=kill 1 at MPI_File_write_ordered#2). The rule checked (fault-tolerance
 * chapter, I/O): "If an MPI process failure prevents a file operation from completing, an MPI
 * exception of class MPI_ERR_PROC_FAILED is raised." Rank 1 never writes its piece, so no
 * member's ordered write can complete as specified: every survivor raises
 * MPI_ERR_PROC_FAILED, in finite time (none waits for a token from its dead predecessor), and
 * what the first ordered write put in the file is intact.
 */
#include "ioft.h"

int main(int argc, char **argv)
{
    int rank, size;
    char name[256];
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ioft_name(name, sizeof name, "ioft_ordered");
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    int v[2] = {rank, -rank};
    CHECK(MPI_File_write_ordered(fh, v, 2, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    int err = MPI_File_write_ordered(fh, v, 2, MPI_INT, MPI_STATUS_IGNORE);
    CHECK(ioft_class(err) == MPI_ERR_PROC_FAILED);
    for (int r = 0; r < size; r++) {
        int back[2] = {-1, -1};
        CHECK(MPI_File_read_at(fh, r * 8, back, 2, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(back[0] == r && back[1] == -r);
    }
    MPI_File_close(&fh);
    return ioft_finish();
}
