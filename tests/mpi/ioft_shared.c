/*
 * ioft_shared.c: the shared file pointer after a process-failure error, with
 * MINI_MPI_POISON=1 (MINI_MPI_FAULTS=kill 2 at MPI_File_read_ordered). The rules checked
 * (fault-tolerance chapter, I/O): "Once an MPI implementation has raised an MPI exception of
 * class MPI_ERR_PROC_FAILED, the state of the file pointer involved in the operation that
 * raised the exception is undefined." and "Users should also call [...] MPI_FILE_SEEK_SHARED
 * on the shared file pointer to restore a defined state." After the failed ordered read the
 * shared pointer is at the documented poisoned position; MPI_File_seek_shared is collective,
 * so while the dead member belongs to the file it fails too (the pointer stays undefined); on
 * the file reopened on the survivors it restores a defined state, and the survivors'
 * write_shared calls then fill exactly the range after it.
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
    ioft_name(name, sizeof name, "ioft_shared");
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL) == MPI_SUCCESS);
    int v = rank, err = MPI_File_read_ordered(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    CHECK(ioft_class(err) == MPI_ERR_PROC_FAILED);
    MPI_Offset pos = -1;
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS && pos == IOFT_POISON);
    /* Everyone sees the error before anyone restores (agree over the survivors). */
    MPI_Comm alive;
    MPIX_Comm_shrink(MPI_COMM_WORLD, &alive);
    MPI_Barrier(alive);
    CHECK(ioft_class(MPI_File_seek_shared(fh, 100, MPI_SEEK_SET)) == MPI_ERR_PROC_FAILED);
    MPI_File_close(&fh);
    MPI_Barrier(alive); /* the last survivor's close removes the file: not the new one */
    CHECK(MPI_File_open(alive, name, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL) == MPI_SUCCESS);
    CHECK(MPI_File_seek_shared(fh, 100, MPI_SEEK_SET) == MPI_SUCCESS);
    CHECK(MPI_File_write_shared(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    MPI_Barrier(alive);
    int nalive;
    MPI_Comm_size(alive, &nalive);
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS && pos == 100 + nalive);
    /* Each survivor's value is in 100 .. 100 + nalive - 1, once. */
    int seen = 0;
    for (int i = 0; i < nalive; i++) {
        int back = -1;
        CHECK(MPI_File_read_at(fh, 100 + i, &back, 1, MPI_INT, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        if (back >= 0 && back < size)
            seen |= 1 << back;
    }
    CHECK(seen == ((1 << size) - 1) - (1 << 2));
    MPI_Barrier(alive);
    MPI_Comm_free(&alive);
    MPI_File_close(&fh);
    return ioft_finish();
}
