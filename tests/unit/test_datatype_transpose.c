/*
 * test_datatype_transpose.c: unit tests of runs with two levels of repetition (datatype.h): the
 * matrix transpose of MPICH's perf/twovec, MPI_Type_create_hvector(n, 1, sizeof(int),
 * MPI_Type_vector(n, 1, n, MPI_INT)), is one run of n copies of a strided column, and every
 * walker of runs must read it as the transpose. Expected data is the transpose computed here by
 * hand: MPI_Pack, streaming pack and unpack in segments that end inside blocks and inside
 * copies, several elements, point-to-point copies to and from it (truncated and short
 * messages included), a typed-to-typed copy in partial segments onto blocks of another size,
 * and a file view whose filetype is a two-level run (mapping, MPI_SEEK_END, the typemap order
 * checks of MPI_File_set_view).
 * Bodies run in rank threads: CHECK records failures, the test thread asserts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "datatype/datatype.h"
#include "unit_world.h"
#include "unit_check.h"

/* The transpose type of an n x n matrix of ints (perf/twovec's). */
static MPI_Datatype transpose_type(int n)
{
    MPI_Datatype column, xpose;
    OK(MPI_Type_vector(n, 1, n, MPI_INT, &column));
    OK(MPI_Type_create_hvector(n, 1, sizeof(int), column, &xpose));
    OK(MPI_Type_free(&column));
    OK(MPI_Type_commit(&xpose));
    return xpose;
}

/* m matrices a[k][i][j] = k*1e6 + i*1000 + j + 1, and their transposes by hand:
 * t[k][j][i] = a[k][i][j] (the packed order of the transpose type: column j, then row i). */
static void matrices(int n, int m, int *a, int *t)
{
    for (int k = 0; k < m; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                a[(k * n + i) * n + j] = k * 1000000 + i * 1000 + j + 1;
                t[(k * n + j) * n + i] = a[(k * n + i) * n + j];
            }
}

/* Packed bytes [0, total) of `count` elements of dt at buf, moved in segments of seg bytes in
 * the given direction, must equal want; unpacking want the same way must give back `buf`. */
static void streaming(int line, const struct mmpi_datatype *dt, const int *buf, int count,
                      const int *want, size_t seg)
{
    size_t total = (size_t)count * dt->size, nseg = (total + seg - 1) / seg;
    char *out = calloc(total, 1);
    int *back = calloc(total, 1);
    for (size_t s = 0; s < nseg; s++) {
        size_t k = seg % 2 ? s : nseg - 1 - s; /* odd segments forwards, even ones backwards */
        size_t off = k * seg, len = off + seg > total ? total - off : seg;
        mmpi_datatype_pack(dt, buf, (size_t)count, off, out + off, len);
        mmpi_datatype_unpack(dt, back, (size_t)count, off, (const char *)want + off, len);
    }
    if (memcmp(out, want, total) != 0)
        record(line, "streamed pack, segment", (long long)seg, 0);
    if (memcmp(back, buf, total) != 0) /* the matrices fill the elements: no holes */
        record(line, "streamed unpack, segment", (long long)seg, 0);
    free(out);
    free(back);
}

static void transpose_body(int rank, int size, void *arg)
{
    static const int ns[] = {1, 2, 3, 4, 5, 8, 13, 32, 100};
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    for (size_t q = 0; q < sizeof(ns) / sizeof(ns[0]); q++) {
        int n = ns[q], nn = n * n, pos = 0, count;
        MPI_Datatype x = transpose_type(n);
        const struct mmpi_datatype *dt = mmpi_datatype_get(mmpi_self, x);
        int *a = malloc(2 * nn * sizeof(int)), *t = malloc(2 * nn * sizeof(int));
        int *got = malloc(2 * nn * sizeof(int) + 64);
        MPI_Aint lb, extent;
        MPI_Status st;
        matrices(n, 2, a, t);

        /* One run whatever n, and the matrix's bounds. */
        CHECK_EQ(dt->nruns, 1);
        CHECK_EQ(dt->size, nn * sizeof(int));
        OK(MPI_Type_get_extent(x, &lb, &extent));
        CHECK_EQ(lb, 0);
        CHECK_EQ(extent, nn * sizeof(int));
        OK(MPI_Type_get_true_extent(x, &lb, &extent));
        CHECK_EQ(lb, 0);
        CHECK_EQ(extent, nn * sizeof(int));

        /* MPI_Pack of two elements (two matrices) is their transposes. */
        OK(MPI_Pack(a, 2, x, got, 2 * nn * sizeof(int) + 64, &pos, MPI_COMM_SELF));
        CHECK_EQ(pos, 2 * nn * sizeof(int));
        if (memcmp(got, t, 2 * nn * sizeof(int)) != 0)
            record(__LINE__, "MPI_Pack is not the transpose, n", n, 0);

        /* Streaming, in segments that end inside blocks, at a copy's end, inside copies. */
        size_t segs[] = {1, 3, 4, 7, 4 * (size_t)n, 4 * (size_t)n + 2, 4 * (size_t)nn - 1, 1000};
        for (size_t s = 0; s < sizeof(segs) / sizeof(segs[0]); s++)
            streaming(__LINE__, dt, a, 2, t, segs[s]);

        /* Point-to-point: the transpose to and from dense ints. */
        memset(got, 0, 2 * nn * sizeof(int));
        OK(MPI_Sendrecv(a, 2, x, 0, 1, got, 2 * nn, MPI_INT, 0, 1, MPI_COMM_SELF, &st));
        CHECK(memcmp(got, t, 2 * nn * sizeof(int)) == 0);
        memset(got, 0, 2 * nn * sizeof(int));
        OK(MPI_Sendrecv(t, 2 * nn, MPI_INT, 0, 2, got, 2, x, 0, 2, MPI_COMM_SELF, &st));
        CHECK(memcmp(got, a, 2 * nn * sizeof(int)) == 0);
        /* Truncated: 2n^2 + 1 ints into one transpose: the first matrix lands, nothing after. */
        memset(got, 0, 2 * nn * sizeof(int));
        int err = MPI_Sendrecv(t, 2 * nn, MPI_INT, 0, 3, got, 1, x, 0, 3, MPI_COMM_SELF, &st);
        int cls = MPI_SUCCESS;
        MPI_Error_class(err, &cls);
        CHECK_EQ(cls, MPI_ERR_TRUNCATE);
        CHECK(memcmp(got, a, nn * sizeof(int)) == 0);
        for (int i = nn; i < 2 * nn; i++)
            if (got[i] != 0) {
                record(__LINE__, "truncated receive wrote past its element at", i, n);
                break;
            }
        /* Short: k ints end inside a column: exactly t's first k land at their places. */
        int k = nn / 2 + (n > 2);
        memset(got, 0, 2 * nn * sizeof(int));
        OK(MPI_Sendrecv(t, k, MPI_INT, 0, 4, got, 1, x, 0, 4, MPI_COMM_SELF, &st));
        OK(MPI_Get_count(&st, MPI_INT, &count));
        CHECK_EQ(count, k);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                int want = j * n + i < k ? a[i * n + j] : 0; /* packed index of a[i][j] */
                if (got[i * n + j] != want) {
                    record(__LINE__, "short receive, n", n, i * n + j);
                    i = n;
                    break;
                }
            }
        free(a);
        free(t);
        free(got);
        OK(MPI_Type_free(&x));

        /* Columns right to left: the data starts n-1 ints before the first column. */
        MPI_Datatype column;
        OK(MPI_Type_vector(n, 1, n, MPI_INT, &column));
        OK(MPI_Type_create_hvector(n, 1, -(MPI_Aint)sizeof(int), column, &x));
        OK(MPI_Type_commit(&x));
        CHECK_EQ(mmpi_datatype_get(mmpi_self, x)->nruns, 1);
        OK(MPI_Type_get_true_extent(x, &lb, &extent));
        CHECK_EQ(lb, -(n - 1) * (MPI_Aint)sizeof(int));
        CHECK_EQ(extent, nn * sizeof(int));
        OK(MPI_Type_free(&x));
        OK(MPI_Type_free(&column));
    }
}

static void transposes(void **state) { run(transpose_body); }

/* Typed to typed in partial segments: a transpose (4-byte blocks) onto 2-byte blocks 3 bytes
 * apart (MPI_Type_vector(2n^2, 2, 3, MPI_BYTE)), so that no span of one side ends where the
 * other's does, and segments of 5 bytes start inside blocks and inside copies, out of order. */
static void copy_part_body(int rank, int size, void *arg)
{
    static const int ns[] = {2, 3, 7, 16};
    for (size_t q = 0; q < sizeof(ns) / sizeof(ns[0]); q++) {
        int n = ns[q], nn = n * n;
        MPI_Datatype x = transpose_type(n), pairs;
        OK(MPI_Type_vector(2 * nn, 2, 3, MPI_BYTE, &pairs));
        OK(MPI_Type_commit(&pairs));
        const struct mmpi_datatype *xdt = mmpi_datatype_get(mmpi_self, x);
        const struct mmpi_datatype *pdt = mmpi_datatype_get(mmpi_self, pairs);
        int *a = malloc(nn * sizeof(int)), *t = malloc(nn * sizeof(int));
        int *back = calloc(nn, sizeof(int));
        size_t bytes = nn * sizeof(int);
        unsigned char *p = calloc(3 * bytes / 2, 1);
        const unsigned char *tb = (const unsigned char *)t;
        matrices(n, 1, a, t);

        size_t nseg = (bytes + 4) / 5;
        for (size_t s = 0; s < nseg; s++) {
            size_t off = (s * 7 % nseg) * 5; /* 7 and nseg coprime unless 7 divides nseg */
            mmpi_datatype_copy_part(a, xdt, p, pdt, off, off + 5 > bytes ? bytes - off : 5);
        }
        if (nseg % 7 == 0) /* then the permutation above missed some: cover them in order */
            for (size_t off = 0; off < bytes; off += 5)
                mmpi_datatype_copy_part(a, xdt, p, pdt, off, off + 5 > bytes ? bytes - off : 5);
        for (size_t b = 0; b < bytes; b++)
            if (p[b / 2 * 3 + b % 2] != tb[b] || p[b / 2 * 3 + 2] != 0) {
                record(__LINE__, "copy_part onto pairs: packed byte", (long long)b, n);
                break;
            }
        /* And back, onto the transpose: the matrix again. */
        for (size_t off = 0; off < bytes; off += 5)
            mmpi_datatype_copy_part(p, pdt, back, xdt, off, off + 5 > bytes ? bytes - off : 5);
        CHECK(memcmp(back, a, bytes) == 0);
        /* And in one call. */
        memset(back, 0, bytes);
        mmpi_datatype_copy(p, 1, pdt, back, 1, xdt);
        CHECK(memcmp(back, a, bytes) == 0);
        free(a);
        free(t);
        free(back);
        free(p);
        OK(MPI_Type_free(&x));
        OK(MPI_Type_free(&pairs));
    }
}

static void copy_parts(void **state) { run(copy_part_body); }

/* A file view whose filetype is one two-level run: rows of k ints taking every other int,
 * rows rstride bytes apart (a subarray-like hvector of a strided row, monotone). The stream's
 * int s lands at row s / k, column 2 * (s % k). */
static void view_body(int rank, int size, void *arg)
{
    enum { K = 5, ROWS = 7, RSTRIDE = 4 * (2 * K + 3) }; /* 3 ints of gap after each row */
    char path[] = "/tmp/mmpi_transpose_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    MPI_File fh;
    MPI_Datatype row, ft, x;
    int data[K * ROWS], file[ROWS * RSTRIDE / 4], back[K * ROWS];
    MPI_Offset pos, off;

    OK(MPI_Type_vector(K, 1, 2, MPI_INT, &row));
    OK(MPI_Type_create_hvector(ROWS, 1, RSTRIDE, row, &ft));
    OK(MPI_Type_commit(&ft));
    CHECK_EQ(mmpi_datatype_get(mmpi_self, ft)->nruns, 1);
    CHECK_EQ(mmpi_datatype_get(mmpi_self, ft)->runs[0].reps, ROWS);
    for (int i = 0; i < K * ROWS; i++)
        data[i] = 7 * i + 1;
    OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    OK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
    OK(MPI_File_set_view(fh, 0, MPI_INT, ft, "native", MPI_INFO_NULL));
    OK(MPI_File_write_at(fh, 0, data, K * ROWS, MPI_INT, MPI_STATUS_IGNORE));
    /* The byte offset of stream int s. */
    for (int s = 0; s < K * ROWS; s += 3) {
        OK(MPI_File_get_byte_offset(fh, s, &off));
        CHECK_EQ(off, s / K * RSTRIDE + 8 * (s % K));
    }
    /* The end of the file (the last row's last int) is after every int of the view. */
    OK(MPI_File_seek(fh, 0, MPI_SEEK_END));
    OK(MPI_File_get_position(fh, &pos));
    CHECK_EQ(pos, K * ROWS);
    /* Cut inside row 3, just after its column 4: the ints before are 3 rows and 3 of row 3. */
    OK(MPI_File_set_size(fh, 3 * RSTRIDE + 4 * 5));
    OK(MPI_File_seek(fh, 0, MPI_SEEK_END));
    OK(MPI_File_get_position(fh, &pos));
    CHECK_EQ(pos, 3 * K + 3);
    OK(MPI_File_set_size(fh, 0));
    OK(MPI_File_write_at(fh, 0, data, K * ROWS, MPI_INT, MPI_STATUS_IGNORE));
    memset(back, 0, sizeof(back));
    OK(MPI_File_read_at(fh, 0, back, K * ROWS, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(memcmp(back, data, sizeof(back)) == 0);
    /* The file itself, read through the default view. */
    OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    memset(file, 0, sizeof(file));
    OK(MPI_File_read_at(fh, 0, file, (ROWS - 1) * RSTRIDE + 4 * (2 * K - 1), MPI_BYTE,
                        MPI_STATUS_IGNORE));
    for (int i = 0; i < ROWS * RSTRIDE / 4; i++) {
        int r = i / (RSTRIDE / 4), c = i % (RSTRIDE / 4);
        int want = c < 2 * K && c % 2 == 0 ? data[r * K + c / 2] : 0;
        if (file[i] != want) {
            record(__LINE__, "file int", i, file[i]);
            break;
        }
    }
    /* The transpose's columns go back to row 0: a decreasing typemap, refused. Rows that
     * overlap the next one: only for reading. */
    x = transpose_type(4);
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, x, "native", MPI_INFO_NULL) != MPI_SUCCESS);
    OK(MPI_Type_free(&x));
    OK(MPI_Type_create_hvector(ROWS, 1, 4 * (2 * K - 2), row, &x)); /* last int = next first */
    OK(MPI_Type_commit(&x));
    CHECK_EQ(mmpi_datatype_get(mmpi_self, x)->nruns, 1);
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, x, "native", MPI_INFO_NULL) != MPI_SUCCESS);
    OK(MPI_File_close(&fh));
    OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    OK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
    OK(MPI_File_set_view(fh, 0, MPI_INT, x, "native", MPI_INFO_NULL));
    OK(MPI_Type_free(&x));
    x = transpose_type(4); /* decreasing: refused for reading too */
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, x, "native", MPI_INFO_NULL) != MPI_SUCCESS);
    OK(MPI_File_close(&fh));
    OK(MPI_Type_free(&x));
    OK(MPI_Type_free(&row));
    OK(MPI_Type_free(&ft));
    unlink(path);
}

static void file_views(void **state) { run(view_body); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transposes),
        cmocka_unit_test(copy_parts),
        cmocka_unit_test(file_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
