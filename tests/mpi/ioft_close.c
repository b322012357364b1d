/*
 * ioft_close.c: MPI_File_close after a member failed (MINI_MPI_FAULTS=kill 1 at
 * MPI_File_write_at_all). The rule checked (fault-tolerance chapter, I/O): "If an MPI process
 * failure prevents a file operation from completing, an MPI exception of class
 * MPI_ERR_PROC_FAILED is raised." Close is collective: it raises MPI_ERR_PROC_FAILED, yet
 * releases the file at each survivor and sets the handle to MPI_FILE_NULL, in finite time; the
 * handle is no longer usable, and once every survivor closed, MPI_MODE_DELETE_ON_CLOSE removed
 * the file (the dead member never closes: the survivors release for it).
 */
#include "ioft.h"

int main(int argc, char **argv)
{
    int rank;
    char name[256];
    MPI_File fh, copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ioft_name(name, sizeof name, "ioft_close");
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    int v = rank;
    int err = MPI_File_write_at_all(fh, rank * 4, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    CHECK(ioft_class(err) == MPI_ERR_PROC_FAILED);
    copy = fh;
    err = MPI_File_close(&fh);
    CHECK(ioft_class(err) == MPI_ERR_PROC_FAILED);
    CHECK(fh == MPI_FILE_NULL);
    MPI_Offset size;
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    CHECK(ioft_class(MPI_File_get_size(copy, &size)) == MPI_ERR_FILE);
    MPI_Comm alive;
    MPIX_Comm_shrink(MPI_COMM_WORLD, &alive);
    MPI_Barrier(alive);
    CHECK(access(name, F_OK) != 0);
    MPI_Comm_free(&alive);
    return ioft_finish();
}
