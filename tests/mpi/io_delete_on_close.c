/*
 * io_delete_on_close.c: MPI_MODE_DELETE_ON_CLOSE whose removal fails is an error of
 * MPI_File_close (MPI_ERR_IO, at every member), not a success with the file left on disk.
 * The file is opened as DIR/file; rank 0 then moves DIR away and puts a regular file in its
 * place, so that removing DIR/file fails (ENOTDIR) whatever the user's privileges, while the
 * file itself stays in the moved directory. A file whose removal works is gone after close,
 * which succeeds; on a revoked file the member whose release ends the file reports it.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mtest.h"

static int cls(int err)
{
    int c = err;
    MPI_Error_class(err, &c);
    return c;
}

int main(int argc, char **argv)
{
    int rank;
    char dir[256], moved[300], path[300], left[320];
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(dir, sizeof dir, "%s/mmpi_io_doc_%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid());
    snprintf(moved, sizeof moved, "%s.moved", dir);
    snprintf(path, sizeof path, "%s/file", dir);
    snprintf(left, sizeof left, "%s/file", moved);
    if (rank == 0)
        CHECK(mkdir(dir, 0700) == 0);
    MPI_Barrier(MPI_COMM_WORLD);
    int amode = MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE;

    /* 1. The removal works: success, and the file is gone. */
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    CHECK(access(path, F_OK) != 0);

    /* 2. The removal fails: MPI_ERR_IO at every member, the handle released all the same. */
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK(rename(dir, moved) == 0);
        int fd = open(dir, O_CREAT | O_WRONLY, 0600);
        CHECK(fd >= 0);
        close(fd);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(cls(MPI_File_close(&fh)) == MPI_ERR_IO);
    CHECK(fh == MPI_FILE_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(access(left, F_OK) == 0);
    MPI_Barrier(MPI_COMM_WORLD);

    /* 3. Revoked: each member releases on its own; the last one's removal fails. */
    if (rank == 0) {
        unlink(dir);
        CHECK(rename(moved, dir) == 0);
        unlink(path);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK(rename(dir, moved) == 0);
        int fd = open(dir, O_CREAT | O_WRONLY, 0600);
        close(fd);
        MPIX_File_revoke(fh);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int err = MPI_File_close(&fh), errs = cls(err) == MPI_ERR_IO, total = 0;
    CHECK(err == MPI_SUCCESS || cls(err) == MPI_ERR_IO);
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(total == 1);
    CHECK(access(left, F_OK) == 0);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        unlink(left);
        rmdir(moved);
        unlink(dir);
    }
    return mtest_finish();
}
