/*
 * ioft_revoke.c: MPIX_File_revoke (and its MPI_File_revoke spelling). The rule checked
 * (fault-tolerance chapter, MPI_FILE_REVOKE): "This function notifies all MPI processes in the
 * group associated with the file handle fh that this file handle is revoked. The revocation of
 * a file handle by any process completes non-local MPI operations on fh at all processes by
 * raising an error of class MPI_ERR_REVOKED." The call is local and non-collective; pending
 * and later operations on the file at every process complete with MPI_ERR_REVOKED.
 * Rank 0 revokes while the others are in (or about to enter) MPI_File_write_at_all, which it
 * never joins: they complete with MPI_ERR_REVOKED. Afterwards every access, collective or
 * independent, raises MPI_ERR_REVOKED everywhere, and close releases the file locally.
 */
#include "ioft.h"

int main(int argc, char **argv)
{
    int rank, size, v;
    char name[256];
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ioft_name(name, sizeof name, "ioft_revoke");
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    v = rank;
    CHECK(MPI_File_write_at_all(fh, rank * 4, &v, 1, MPI_INT, MPI_STATUS_IGNORE) ==
          MPI_SUCCESS);
    if (rank == 0) {
        usleep(20000); /* most often the others are blocked by then: the pending case */
        CHECK((argc > 1 ? MPI_File_revoke(fh) : MPIX_File_revoke(fh)) == MPI_SUCCESS);
    } else {
        int err = MPI_File_write_at_all(fh, rank * 4, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
        CHECK(ioft_class(err) == MPI_ERR_REVOKED);
    }
    MPI_Request req;
    CHECK(ioft_class(MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE)) ==
          MPI_ERR_REVOKED);
    CHECK(ioft_class(MPI_File_iwrite_at_all(fh, 0, &v, 1, MPI_INT, &req)) == MPI_ERR_REVOKED);
    CHECK(ioft_class(MPI_File_read_shared(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE)) ==
          MPI_ERR_REVOKED);
    CHECK(ioft_class(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET)) == MPI_ERR_REVOKED);
    CHECK(ioft_class(MPI_File_sync(fh)) == MPI_ERR_REVOKED);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    CHECK(fh == MPI_FILE_NULL);
    /* The program's own communicator is not revoked. */
    int errs = mtest_errors, total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return total ? 1 : 0;
}
