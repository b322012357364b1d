/*
 * io_overflow.c: file offsets that do not fit in MPI_Offset are refused with MPI_ERR_ARG (the
 * class ROMIO gives a bad offset or count) and nothing is written: a position of 2^61 etypes
 * of 8 bytes is byte 2^64, which wraps to byte 0 if the product is not checked. Every way of
 * naming a position is tried: explicit offsets (blocking, collective, nonblocking, split),
 * the individual and the shared pointer (seek, then an access that would cross the limit),
 * ordered access, MPI_File_get_byte_offset, seek and seek_shared, a displacement, a strided
 * view whose tiles run past 2^63, and count x size products. The file's first 64 bytes are
 * checked unchanged, and its size too, after all of it.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "mtest.h"

#define HEAD 64

static int cls(int err)
{
    int c = err;
    MPI_Error_class(err, &c);
    return c;
}

#define ARG(call) CHECK(cls(call) == MPI_ERR_ARG)

/* The file still holds its head and nothing more. */
static void check_untouched(MPI_File fh, const char *head)
{
    char back[HEAD];
    MPI_Offset size = -1;
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    CHECK(MPI_File_read_at(fh, 0, back, HEAD, MPI_BYTE, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(memcmp(back, head, HEAD) == 0);
    CHECK(MPI_File_get_size(fh, &size) == MPI_SUCCESS && size == HEAD);
}

static void doubles_view(MPI_File fh)
{
    CHECK(MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_DOUBLE, "native", MPI_INFO_NULL) ==
          MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    int rank;
    char name[256], head[HEAD];
    MPI_File fh;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(name, sizeof name, "%s/mmpi_io_overflow_%d",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    for (int i = 0; i < HEAD; i++)
        head[i] = (char)('A' + i % 26);
    CHECK(MPI_File_write_at_all(fh, 0, head, rank == 0 ? HEAD : 0, MPI_BYTE,
                                MPI_STATUS_IGNORE) == MPI_SUCCESS);

    const MPI_Offset wrap = (MPI_Offset)1 << 61; /* * 8 bytes = 2^64 */
    const MPI_Offset last = INT64_MAX / 8;        /* the last position: one more crosses 2^63 */
    double d[2] = {1.5, 2.5};
    MPI_Offset pos, byte;

    /* 1. Explicit offsets, every form. */
    doubles_view(fh);
    ARG(MPI_File_write_at(fh, wrap, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    ARG(MPI_File_read_at(fh, wrap, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    ARG(MPI_File_write_at_all(fh, wrap, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    ARG(MPI_File_read_at_all(fh, wrap, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    ARG(MPI_File_iwrite_at(fh, wrap, d, 1, MPI_DOUBLE, &req));
    ARG(MPI_File_iwrite_at_all(fh, wrap, d, 1, MPI_DOUBLE, &req));
    ARG(MPI_File_iread_at(fh, wrap, d, 1, MPI_DOUBLE, &req));
    ARG(MPI_File_write_at_all_begin(fh, wrap, d, 1, MPI_DOUBLE));
    ARG(MPI_File_write_at_c(fh, wrap, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    /* An access whose end crosses the limit, from a position just below it. */
    ARG(MPI_File_write_at(fh, last - 1, d, 2, MPI_DOUBLE, MPI_STATUS_IGNORE));
    ARG(MPI_File_get_byte_offset(fh, wrap, &byte));

    /* 2. The individual pointer: seek refuses the position; an access may not cross it. */
    ARG(MPI_File_seek(fh, wrap, MPI_SEEK_SET));
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 0);
    CHECK(MPI_File_seek(fh, last, MPI_SEEK_SET) == MPI_SUCCESS);
    ARG(MPI_File_seek(fh, 1, MPI_SEEK_CUR));
    ARG(MPI_File_seek(fh, INT64_MAX, MPI_SEEK_CUR)); /* last + INT64_MAX overflows */
    ARG(MPI_File_seek(fh, INT64_MAX, MPI_SEEK_END));
    ARG(MPI_File_write(fh, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    ARG(MPI_File_write_all(fh, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    ARG(MPI_File_iwrite(fh, d, 1, MPI_DOUBLE, &req));
    ARG(MPI_File_read(fh, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == last);

    /* 3. The shared pointer: seek_shared refuses it at every member alike; independent and
     * ordered accesses that would cross the limit leave the pointer where it was. */
    ARG(MPI_File_seek_shared(fh, wrap, MPI_SEEK_SET));
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS && pos == 0);
    CHECK(MPI_File_seek_shared(fh, last, MPI_SEEK_SET) == MPI_SUCCESS);
    ARG(MPI_File_write_shared(fh, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    ARG(MPI_File_iwrite_shared(fh, d, 1, MPI_DOUBLE, &req));
    ARG(MPI_File_read_shared(fh, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    ARG(MPI_File_write_ordered(fh, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    CHECK(MPI_File_write_ordered_begin(fh, d, 1, MPI_DOUBLE) == MPI_SUCCESS); /* _end reports */
    ARG(MPI_File_write_ordered_end(fh, d, MPI_STATUS_IGNORE));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS && pos == last);
    ARG(MPI_File_seek_shared(fh, 1, MPI_SEEK_CUR));
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS && pos == last);

    /* 4. A displacement whose first etype has no file offset. */
    ARG(MPI_File_set_view(fh, INT64_MAX - 4, MPI_DOUBLE, MPI_DOUBLE, "native", MPI_INFO_NULL));

    /* 5. A strided view: one double every 2^40 bytes; tile 2^23 starts at byte 2^63. */
    MPI_Datatype sparse;
    MPI_Type_create_resized(MPI_DOUBLE, 0, (MPI_Aint)1 << 40, &sparse);
    MPI_Type_commit(&sparse);
    CHECK(MPI_File_set_view(fh, 0, MPI_DOUBLE, sparse, "native", MPI_INFO_NULL) == MPI_SUCCESS);
    ARG(MPI_File_write_at(fh, (MPI_Offset)1 << 24, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    ARG(MPI_File_write_at(fh, ((MPI_Offset)1 << 23) - 1, d, 2, MPI_DOUBLE, MPI_STATUS_IGNORE));
    ARG(MPI_File_get_byte_offset(fh, (MPI_Offset)1 << 23, &byte));
    CHECK(MPI_File_get_byte_offset(fh, ((MPI_Offset)1 << 23) - 1, &byte) == MPI_SUCCESS &&
          byte == (((MPI_Offset)1 << 23) - 1) << 40);
    MPI_Type_free(&sparse);

    /* 6. count x size: 2^30 elements of 2^34 bytes is 2^64 bytes (0 once wrapped). */
    MPI_Datatype big, huge;
    MPI_Type_contiguous(1 << 30, MPI_DOUBLE, &big);
    MPI_Type_contiguous(2, big, &huge);
    MPI_Type_commit(&huge);
    MPI_Type_free(&big);
    doubles_view(fh);
    ARG(MPI_File_write_at(fh, 0, d, 1 << 30, huge, MPI_STATUS_IGNORE));
    ARG(MPI_File_read_at_all(fh, 0, d, 1 << 30, huge, MPI_STATUS_IGNORE));
    ARG(MPI_File_write_shared(fh, d, 1 << 30, huge, MPI_STATUS_IGNORE));
    ARG(MPI_File_write_ordered(fh, d, 1 << 30, huge, MPI_STATUS_IGNORE));
    ARG(MPI_File_write_at_c(fh, 0, d, (MPI_Count)1 << 61, MPI_DOUBLE, MPI_STATUS_IGNORE));
    MPI_Type_free(&huge);

    /* 7. Nothing was written anywhere, and what fits still works. */
    MPI_Barrier(MPI_COMM_WORLD);
    check_untouched(fh, head);
    doubles_view(fh);
    CHECK(MPI_File_read_at(fh, 1, d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(memcmp(d, head + 8, 8) == 0);
    MPI_File_close(&fh);
    return mtest_finish();
}
