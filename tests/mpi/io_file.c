/*
 * io_file.c: file manipulation and file error handlers (MPI-4.1 §14.2, §9.3.4): every amode's
 * errors, DELETE_ON_CLOSE, sizes, hints, atomicity, datarep registration, and that written
 * bytes are in the real file (read back with plain read(2)).
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mtest.h"

static int eclass(int err)
{
    int c;
    MPI_Error_class(err, &c);
    return c;
}

static int handler_calls, handler_last;
static MPI_File handler_file;
static void file_handler(MPI_File *fh, int *err, ...)
{
    handler_calls++;
    handler_last = *err;
    handler_file = *fh;
}

int main(int argc, char **argv)
{
    int rank, size;
    char name[256], dir[256];
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(name, sizeof name, "%s/mmpi_io_file_%d", tmp, (int)getpid());
    snprintf(dir, sizeof dir, "%s/mmpi_io_dir_%d", tmp, (int)getpid());
    if (rank == 0) {
        unlink(name);
        mkdir(dir, 0700);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* amode errors: local checks, MPI_ERRORS_RETURN on MPI_FILE_NULL by default */
    CHECK(eclass(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_CREATE,
                               MPI_INFO_NULL, &fh)) == MPI_ERR_AMODE);
    CHECK(fh == MPI_FILE_NULL);
    CHECK(eclass(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_WRONLY,
                               MPI_INFO_NULL, &fh)) == MPI_ERR_AMODE);
    CHECK(eclass(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE, MPI_INFO_NULL, &fh)) ==
          MPI_ERR_AMODE);
    CHECK(eclass(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL,
                               MPI_INFO_NULL, &fh)) == MPI_ERR_AMODE);
    CHECK(eclass(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh)) ==
          MPI_ERR_NO_SUCH_FILE);
    CHECK(eclass(MPI_File_open(MPI_COMM_WORLD, dir, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh)) ==
          MPI_ERR_BAD_FILE);
    CHECK(eclass(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR, 12345, &fh)) ==
          MPI_ERR_INFO);
    CHECK(eclass(MPI_File_delete(name, MPI_INFO_NULL)) == MPI_ERR_NO_SUCH_FILE);

    /* create with hints, write, check sizes and hints */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "1048576");
    MPI_Info_set(info, "my_own_key", "kept");
    char prefixed[300];
    snprintf(prefixed, sizeof prefixed, "ufs:%s", name);
    CHECK(MPI_File_open(MPI_COMM_WORLD, prefixed, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh) ==
          MPI_SUCCESS);
    MPI_Info_free(&info);
    int amode;
    MPI_File_get_amode(fh, &amode);
    CHECK(amode == (MPI_MODE_RDWR | MPI_MODE_CREATE));
    MPI_Info used;
    char value[MPI_MAX_INFO_VAL];
    int flag;
    MPI_File_get_info(fh, &used);
    MPI_Info_get(used, "cb_buffer_size", sizeof value - 1, value, &flag);
    CHECK(flag && !strcmp(value, "1048576"));
    MPI_Info_get(used, "my_own_key", sizeof value - 1, value, &flag);
    CHECK(flag && !strcmp(value, "kept"));
    MPI_Info_free(&used);
    MPI_Group g, wg;
    int cmp;
    MPI_File_get_group(fh, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    CHECK(cmp == MPI_IDENT);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    int v = 1000 + rank;
    MPI_Status st;
    CHECK(MPI_File_write_at(fh, (MPI_Offset)rank * 4, &v, 1, MPI_INT, &st) == MPI_SUCCESS);
    int count;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 1);
    MPI_File_sync(fh);
    MPI_Offset sz;
    MPI_File_get_size(fh, &sz);
    CHECK(sz == (MPI_Offset)size * 4);
    /* visible to any other tool: plain read(2) */
    if (rank == 0) {
        int fd = open(name, O_RDONLY), got[64];
        CHECK(fd >= 0 && read(fd, got, (size_t)size * 4) == (ssize_t)size * 4);
        for (int i = 0; i < size && i < 64; i++)
            CHECK(got[i] == 1000 + i);
        close(fd);
    }
    CHECK(MPI_File_set_size(fh, 1000) == MPI_SUCCESS);
    MPI_File_get_size(fh, &sz);
    CHECK(sz == 1000);
    CHECK(MPI_File_preallocate(fh, 500) == MPI_SUCCESS); /* never shrinks */
    MPI_File_get_size(fh, &sz);
    CHECK(sz == 1000);
    CHECK(MPI_File_preallocate(fh, 4096) == MPI_SUCCESS);
    MPI_File_get_size(fh, &sz);
    CHECK(sz == 4096);
    CHECK(eclass(MPI_File_set_size(fh, -1)) == MPI_ERR_ARG);
    MPI_File_get_atomicity(fh, &flag);
    CHECK(flag == 0);
    MPI_File_set_atomicity(fh, 1);
    MPI_File_get_atomicity(fh, &flag);
    CHECK(flag == 1);
    MPI_Aint ext;
    MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext);
    CHECK(ext == sizeof(double));

    /* file error handlers: default return; a user one gets the file's handle */
    MPI_Errhandler eh, got_eh;
    MPI_File_get_errhandler(fh, &got_eh);
    CHECK(got_eh == MPI_ERRORS_RETURN);
    MPI_File_create_errhandler(file_handler, &eh);
    MPI_File_set_errhandler(fh, eh);
    CHECK(eclass(MPI_File_read_at(fh, -5, &v, 1, MPI_INT, &st)) == MPI_ERR_ARG);
    CHECK(handler_calls == 1 && handler_last == MPI_ERR_ARG && handler_file == fh);
    MPI_File_call_errhandler(fh, MPI_ERR_IO);
    CHECK(handler_calls == 2 && handler_last == MPI_ERR_IO);
    MPI_File_get_errhandler(fh, &got_eh);
    CHECK(got_eh == eh);
    MPI_Errhandler_free(&got_eh);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS && fh == MPI_FILE_NULL);

    /* MPI_FILE_NULL's handler covers open and delete */
    MPI_File_set_errhandler(MPI_FILE_NULL, eh);
    handler_calls = 0;
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL,
                  MPI_INFO_NULL, &fh);
    CHECK(handler_calls == 1 && handler_last == MPI_ERR_FILE_EXISTS &&
          handler_file == MPI_FILE_NULL);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);

    /* access mode errors */
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(eclass(MPI_File_write_at(fh, 0, &v, 1, MPI_INT, &st)) == MPI_ERR_READ_ONLY);
    MPI_File_close(&fh);
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    CHECK(eclass(MPI_File_read_at(fh, 0, &v, 1, MPI_INT, &st)) == MPI_ERR_ACCESS);
    MPI_File_close(&fh);
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL,
                  &fh);
    CHECK(eclass(MPI_File_write_at(fh, 0, &v, 1, MPI_INT, &st)) ==
          MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK(eclass(MPI_File_seek(fh, 0, MPI_SEEK_SET)) == MPI_ERR_UNSUPPORTED_OPERATION);
    MPI_File_close(&fh);

    /* UNIQUE_OPEN: a second open of the file anywhere in the job is MPI_ERR_FILE_IN_USE; two
     * ordinary opens coexist */
    MPI_File other;
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_UNIQUE_OPEN, MPI_INFO_NULL, &fh);
    CHECK(eclass(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &other)) ==
          MPI_ERR_FILE_IN_USE);
    MPI_File_close(&fh);
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    CHECK(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &other) ==
          MPI_SUCCESS);
    CHECK(eclass(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY | MPI_MODE_UNIQUE_OPEN,
                               MPI_INFO_NULL, &other)) == MPI_ERR_FILE_IN_USE);
    MPI_File_close(&other);
    MPI_File_close(&fh);

    /* datareps */
    CHECK(eclass(MPI_Register_datarep("native", NULL, NULL, (MPI_Datarep_extent_function *)1,
                                      NULL)) == MPI_ERR_DUP_DATAREP);

    /* DELETE_ON_CLOSE removes it once the last member closes */
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                  &fh);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(access(name, F_OK) != 0);
    if (rank == 0)
        rmdir(dir);
    return mtest_finish();
}
