/*
 * io_datarep.c: user data representations (MPI-4.1 §14.5.3). Every rank registers them (the
 * same name at each rank is no duplicate; a second registration at one rank, or of native,
 * internal or external32, is MPI_ERR_DUP_DATAREP). "swap" stores ints and doubles byte-swapped,
 * "scale" stores ints times a factor given as extra_state: the file bytes are checked under the
 * native view and read back through the representation; the conversion functions' arguments
 * (datatype, count, position, extra_state) are recorded, including a transfer the library cuts
 * in chunks and a derived memory type. MPI_CONVERSION_FN_NULL stores native bytes. A conversion
 * or extent function's error is the file operation's error.
 */
#include <string.h>
#include <unistd.h>

#include "mtest.h"

#define N 6
#define BIG (3 << 20) /* ints: more than one chunk of the library's transfers */

static int eclass(int err)
{
    int c;
    MPI_Error_class(err, &c);
    return c;
}

static void swap_bytes(void *p, int size)
{
    unsigned char *b = p;
    for (int i = 0; i < size / 2; i++) {
        unsigned char t = b[i];
        b[i] = b[size - 1 - i];
        b[size - 1 - i] = t;
    }
}

/* What the conversion functions saw last, and in all. */
static MPI_Datatype last_type;
static long calls, items_total;
static MPI_Offset max_position;
static void *last_extra;

static void note(MPI_Datatype t, int count, MPI_Offset position, void *extra)
{
    last_type = t;
    calls++;
    items_total += count;
    if (position > max_position)
        max_position = position;
    last_extra = extra;
}

static int swap_conv(void *userbuf, MPI_Datatype t, int count, void *filebuf,
                     MPI_Offset position, void *extra, int to_file)
{
    int size;
    note(t, count, position, extra);
    if (t != MPI_INT && t != MPI_DOUBLE)
        return MPI_ERR_CONVERSION;
    MPI_Type_size(t, &size);
    char *u = (char *)userbuf + position * size, *f = filebuf;
    for (int i = 0; i < count; i++, u += size, f += size) {
        memcpy(to_file ? f : u, to_file ? u : f, size);
        swap_bytes(to_file ? f : u, size);
    }
    return MPI_SUCCESS;
}

static int swap_write(void *userbuf, MPI_Datatype t, int count, void *filebuf,
                      MPI_Offset position, void *extra)
{
    return swap_conv(userbuf, t, count, filebuf, position, extra, 1);
}

static int swap_read(void *userbuf, MPI_Datatype t, int count, void *filebuf,
                     MPI_Offset position, void *extra)
{
    return swap_conv(userbuf, t, count, filebuf, position, extra, 0);
}

static int scale_write(void *userbuf, MPI_Datatype t, int count, void *filebuf,
                       MPI_Offset position, void *extra)
{
    note(t, count, position, extra);
    int k = *(int *)extra, *u = (int *)userbuf + position, *f = filebuf;
    for (int i = 0; i < count; i++)
        f[i] = u[i] * k;
    return t == MPI_INT ? MPI_SUCCESS : MPI_ERR_CONVERSION;
}

static int scale_read(void *userbuf, MPI_Datatype t, int count, void *filebuf,
                      MPI_Offset position, void *extra)
{
    note(t, count, position, extra);
    int k = *(int *)extra, *u = (int *)userbuf + position, *f = filebuf;
    for (int i = 0; i < count; i++)
        u[i] = f[i] / k;
    return t == MPI_INT ? MPI_SUCCESS : MPI_ERR_CONVERSION;
}

static int fail_conv(void *userbuf, MPI_Datatype t, int count, void *filebuf,
                     MPI_Offset position, void *extra)
{
    return MPI_ERR_CONVERSION;
}

static int native_extent(MPI_Datatype t, MPI_Aint *extent, void *extra)
{
    MPI_Aint lb;
    return MPI_Type_get_extent(t, &lb, extent);
}

static int wide_extent(MPI_Datatype t, MPI_Aint *extent, void *extra)
{
    *extent = 8; /* every item 8 bytes in the file */
    return MPI_SUCCESS;
}

static int failing_extent(MPI_Datatype t, MPI_Aint *extent, void *extra)
{
    return MPI_ERR_TYPE;
}

int main(int argc, char **argv)
{
    int rank, size, factor = 10;
    char name[256], rep[MPI_MAX_DATAREP_STRING];
    MPI_File fh;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Registration: at every rank (not a duplicate), twice at one rank (a duplicate). */
    CHECK(MPI_Register_datarep("swap", swap_read, swap_write, native_extent, NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_Register_datarep("scale", scale_read, scale_write, native_extent, &factor) ==
          MPI_SUCCESS);
    CHECK(MPI_Register_datarep("plain", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                               native_extent, NULL) == MPI_SUCCESS);
    CHECK(MPI_Register_datarep("fail", fail_conv, fail_conv, native_extent, NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_Register_datarep("badext", swap_read, swap_write, failing_extent, NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_Register_datarep("wide", swap_read, swap_write, wide_extent, NULL) ==
          MPI_SUCCESS);
    CHECK(eclass(MPI_Register_datarep("swap", swap_read, swap_write, native_extent, NULL)) ==
          MPI_ERR_DUP_DATAREP);
    CHECK(eclass(MPI_Register_datarep("external32", NULL, NULL, native_extent, NULL)) ==
          MPI_ERR_DUP_DATAREP);
    CHECK(eclass(MPI_Register_datarep("internal", NULL, NULL, native_extent, NULL)) ==
          MPI_ERR_DUP_DATAREP);
    /* Bad arguments: no name, no extent function, a name of MPI_MAX_DATAREP_STRING or more. */
    char long_name[MPI_MAX_DATAREP_STRING + 1];
    memset(long_name, 'x', MPI_MAX_DATAREP_STRING);
    long_name[MPI_MAX_DATAREP_STRING] = '\0';
    CHECK(eclass(MPI_Register_datarep(NULL, swap_read, swap_write, native_extent, NULL)) ==
          MPI_ERR_ARG);
    CHECK(eclass(MPI_Register_datarep("noext", swap_read, swap_write, NULL, NULL)) ==
          MPI_ERR_ARG);
    CHECK(eclass(MPI_Register_datarep(long_name, swap_read, swap_write, native_extent, NULL)) ==
          MPI_ERR_ARG);

    snprintf(name, sizeof name, "%s/mmpi_io_datarep_%d",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    CHECK(MPI_File_open(MPI_COMM_WORLD, name,
                        MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    int buf[N], raw[N], back[N];

    /* 1. "swap", collective: rank r's ints at r*N; the file holds them byte-swapped. */
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "swap", MPI_INFO_NULL) == MPI_SUCCESS);
    MPI_Datatype et, ft;
    CHECK(MPI_File_get_view(fh, &(MPI_Offset){0}, &et, &ft, rep) == MPI_SUCCESS);
    CHECK(!strcmp(rep, "swap"));
    for (int i = 0; i < N; i++)
        buf[i] = 0x01020304 + rank * 0x100000 + i;
    calls = 0;
    CHECK(MPI_File_write_at_all(fh, (MPI_Offset)rank * N, buf, N, MPI_INT, &st) ==
          MPI_SUCCESS);
    CHECK(calls == 1 && last_type == MPI_INT && items_total == N && max_position == 0);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_read_at(fh, (MPI_Offset)rank * N * 4, raw, N, MPI_INT, &st) ==
          MPI_SUCCESS);
    for (int i = 0; i < N; i++) {
        int v = buf[i];
        swap_bytes(&v, 4);
        CHECK(raw[i] == v);
    }
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "swap", MPI_INFO_NULL) == MPI_SUCCESS);
    memset(back, 0, sizeof back);
    CHECK(MPI_File_read_at_all(fh, (MPI_Offset)rank * N, back, N, MPI_INT, &st) ==
          MPI_SUCCESS);
    CHECK(!memcmp(back, buf, sizeof buf));
    int count;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == N);

    /* 2. "scale" with a derived memory type (every other int of 2N) and an individual
     * pointer; extra_state is the factor. Each rank has its own file region via the view. */
    MPI_Datatype every_other;
    MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int sparse[2 * N];
    for (int i = 0; i < 2 * N; i++)
        sparse[i] = (i % 2) ? -1 : rank * 1000 + i;
    MPI_Offset disp = (MPI_Offset)(size + rank) * N * 4;
    CHECK(MPI_File_set_view(fh, disp, MPI_INT, MPI_INT, "scale", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    calls = items_total = 0;
    last_extra = NULL;
    CHECK(MPI_File_write(fh, sparse, 1, every_other, &st) == MPI_SUCCESS);
    CHECK(calls >= 1 && items_total == N && last_type == MPI_INT && last_extra == &factor);
    CHECK(MPI_File_read_at(fh, 0, back, N, MPI_INT, &st) == MPI_SUCCESS);
    for (int i = 0; i < N; i++)
        CHECK(back[i] == rank * 1000 + 2 * i);
    MPI_Aint fext;
    CHECK(MPI_File_get_type_extent(fh, MPI_INT, &fext) == MPI_SUCCESS && fext == 4);
    CHECK(MPI_File_set_view(fh, disp, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_read_at(fh, 0, raw, N, MPI_INT, &st) == MPI_SUCCESS);
    for (int i = 0; i < N; i++)
        CHECK(raw[i] == (rank * 1000 + 2 * i) * factor);
    MPI_Type_free(&every_other);

    /* 3. A transfer the library converts in several calls: counts add up, positions advance
     * through the user's buffer. */
    int *big = malloc(sizeof(int) * BIG), *big2 = malloc(sizeof(int) * BIG);
    for (int i = 0; i < BIG; i++)
        big[i] = i ^ rank;
    MPI_Offset bdisp = (MPI_Offset)(2 * size + rank) * N * 4 + (MPI_Offset)rank * BIG * 4;
    CHECK(MPI_File_set_view(fh, bdisp, MPI_INT, MPI_INT, "swap", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    calls = items_total = max_position = 0;
    CHECK(MPI_File_write(fh, big, BIG, MPI_INT, &st) == MPI_SUCCESS);
    CHECK(calls > 1 && items_total == BIG && max_position > 0 && max_position < BIG);
    CHECK(MPI_File_read_at(fh, 0, big2, BIG, MPI_INT, &st) == MPI_SUCCESS);
    CHECK(!memcmp(big, big2, sizeof(int) * BIG));
    CHECK(MPI_File_set_view(fh, bdisp, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_read_at(fh, (MPI_Offset)(BIG - 1) * 4, raw, 1, MPI_INT, &st) ==
          MPI_SUCCESS);
    int last = big[BIG - 1];
    swap_bytes(&last, 4);
    CHECK(raw[0] == last);
    free(big);
    free(big2);

    /* 4. MPI_CONVERSION_FN_NULL: native bytes; doubles through "swap". */
    double d[3] = {1.5, -2.25, 1e300}, draw[3];
    CHECK(MPI_File_set_view(fh, bdisp, MPI_BYTE, MPI_BYTE, "plain", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_write_at(fh, 0, d, 3, MPI_DOUBLE, &st) == MPI_SUCCESS);
    CHECK(MPI_File_set_view(fh, bdisp, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_read_at(fh, 0, draw, 3, MPI_DOUBLE, &st) == MPI_SUCCESS);
    CHECK(!memcmp(d, draw, sizeof d));
    CHECK(MPI_File_set_view(fh, bdisp, MPI_BYTE, MPI_BYTE, "swap", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_write_at(fh, 0, d, 3, MPI_DOUBLE, &st) == MPI_SUCCESS);
    CHECK(MPI_File_set_view(fh, bdisp, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_read_at(fh, 0, draw, 3, MPI_DOUBLE, &st) == MPI_SUCCESS);
    for (int i = 0; i < 3; i++) {
        double v = d[i];
        swap_bytes(&v, 8);
        CHECK(!memcmp(&v, &draw[i], 8));
    }

    /* 5. Errors: a conversion function's is the access's; an extent function's is set_view's;
     * an unknown name is MPI_ERR_UNSUPPORTED_DATAREP. File sizes unlike the native ones are
     * the representation's (io_ext32.c converts through them). */
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "wide", MPI_INFO_NULL) == MPI_SUCCESS);
    CHECK(MPI_File_get_type_extent(fh, MPI_INT, &fext) == MPI_SUCCESS && fext == 8);
    CHECK(MPI_File_set_view(fh, bdisp, MPI_INT, MPI_INT, "fail", MPI_INFO_NULL) == MPI_SUCCESS);
    CHECK(eclass(MPI_File_write_at(fh, 0, buf, N, MPI_INT, &st)) == MPI_ERR_CONVERSION);
    CHECK(eclass(MPI_File_read_at(fh, 0, buf, N, MPI_INT, &st)) == MPI_ERR_CONVERSION);
    CHECK(eclass(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "badext", MPI_INFO_NULL)) ==
          MPI_ERR_TYPE);
    CHECK(eclass(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "nosuch", MPI_INFO_NULL)) ==
          MPI_ERR_UNSUPPORTED_DATAREP);
    CHECK(MPI_File_get_view(fh, &(MPI_Offset){0}, &et, &ft, rep) == MPI_SUCCESS);
    CHECK(!strcmp(rep, "fail")); /* a refused view leaves the old one */

    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    return mtest_finish();
}
