/*
 * io_fault.c: a rank killed inside a collective file access (MINI_MPI_FAULTS `kill R during
 * MPI_File_write_at_all#N`, the test list sets it): the access completes everywhere in finite
 * time; with the cut rule, members ranked below R complete (their blocks are in the file),
 * those above get MPI_ERR_PROC_FAILED through the file's handler (MPI_ERRORS_RETURN). Argument:
 * R. Without faults every member succeeds. With one, the survivors then start a nonblocking
 * collective access, which MPI_Wait completes with MPI_ERR_PROC_FAILED raised on the file.
 */
#include <unistd.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, victim = argc > 1 ? atoi(argv[1]) : -1;
    char name[256];
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    snprintf(name, sizeof name, "%s/mmpi_io_fault_%d",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    int v = 100 + rank, err = MPI_File_write_at_all(fh, rank * 4, &v, 1, MPI_INT,
                                                     MPI_STATUS_IGNORE), cls;
    MPI_Error_class(err, &cls);
    if (victim < 0 || rank < victim) {
        CHECK(err == MPI_SUCCESS);
        int back = -1;
        MPI_File_read_at(fh, rank * 4, &back, 1, MPI_INT, MPI_STATUS_IGNORE);
        CHECK(back == v);
    } else
        CHECK(cls == MPI_ERR_PROC_FAILED);
    if (victim >= 0) {
        /* A nonblocking collective access completes with the failure too, and MPI_Wait raises
         * it on the file's handler (MPI_ERRORS_RETURN), not MPI_COMM_WORLD's (fatal here). */
        MPI_Request req;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        CHECK(MPI_File_iwrite_at_all(fh, rank * 4, &v, 1, MPI_INT, &req) == MPI_SUCCESS);
        err = MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Error_class(err, &cls);
        CHECK(cls == MPI_ERR_PROC_FAILED);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    }
    /* Close is collective too: with a dead member it reports the failure, and the handle is
     * gone either way. */
    err = MPI_File_close(&fh);
    MPI_Error_class(err, &cls);
    CHECK(fh == MPI_FILE_NULL);
    CHECK(victim < 0 ? err == MPI_SUCCESS : cls == MPI_ERR_PROC_FAILED);
    if (victim >= 0 && rank == 0)
        unlink(name);
    MPI_Finalize();
    if (rank == (victim == 0 ? 1 : 0) && mtest_errors == 0)
        printf(" No Errors\n");
    return mtest_errors ? 1 : 0;
}
