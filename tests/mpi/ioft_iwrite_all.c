/*
 * ioft_iwrite_all.c: a nonblocking collective write whose failure appears only at its wait
 * (MINI_MPI_FAULTS=kill 1 at MPI_File_iwrite_all), and a split collective whose member died
 * before its _begin (argument "split": kill 1 at MPI_File_write_all_begin). The rule checked
 * (fault-tolerance chapter, I/O): "If an MPI process failure prevents a file operation from
 * completing, an MPI exception of class MPI_ERR_PROC_FAILED is raised." The start call
 * succeeds (it waits for nobody); MPI_Wait, or MPI_File_write_all_end, raises
 * MPI_ERR_PROC_FAILED on the file, in finite time. With "split_end" (kill 1 at
 * MPI_File_write_all_end) the victim took part in the _begin and died before its _end: every
 * member had arrived, so the survivors' _end complete (the chapter's advice: "process failures
 * may not be reported during a collective I/O operation"), their data in the file, and the
 * victim's block, never written, reads as zeros (the file is new).
 */
#include <string.h>

#include "ioft.h"

int main(int argc, char **argv)
{
    int rank, size, split = argc > 1 && !strncmp(argv[1], "split", 5);
    int split_end = argc > 1 && !strcmp(argv[1], "split_end");
    char name[256];
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ioft_name(name, sizeof name, "ioft_iwrite_all");
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    int v = 100 + rank, err;
    CHECK(MPI_File_seek(fh, rank * 4, MPI_SEEK_SET) == MPI_SUCCESS);
    if (split) {
        CHECK(MPI_File_write_all_begin(fh, &v, 1, MPI_INT) == MPI_SUCCESS);
        err = MPI_File_write_all_end(fh, &v, MPI_STATUS_IGNORE);
    } else {
        MPI_Request req;
        CHECK(MPI_File_iwrite_all(fh, &v, 1, MPI_INT, &req) == MPI_SUCCESS);
        err = MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(req == MPI_REQUEST_NULL);
    }
    if (!split_end) {
        CHECK(ioft_class(err) == MPI_ERR_PROC_FAILED);
    } else {
        CHECK(err == MPI_SUCCESS);
        MPI_Comm alive;
        MPIX_Comm_shrink(MPI_COMM_WORLD, &alive);
        MPI_Barrier(alive);
        for (int r = 0; r < size; r++) {
            int back = -1;
            CHECK(MPI_File_read_at(fh, r * 4, &back, 1, MPI_INT, MPI_STATUS_IGNORE) ==
                  MPI_SUCCESS);
            CHECK(back == (r == 1 ? 0 : 100 + r));
        }
        MPI_Barrier(alive);
        MPI_Comm_free(&alive);
    }
    MPI_File_close(&fh);
    return ioft_finish();
}
