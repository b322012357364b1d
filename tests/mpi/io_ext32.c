/*
 * io_ext32.c: data representations whose file sizes differ from memory's (MPI-4.1 §14.5):
 * "external32" views of MPI_LONG (4 bytes in the file, 8 in memory), long double, structs
 * mixing int, long and double, strided filetypes; registered representations whose extent
 * functions halve and double MPI_INT. Every write is checked in the file's bytes, read natively
 * and compared with big-endian bytes computed here by hand, then read back through the view.
 * Positions, MPI_File_get_byte_offset, MPI_File_get_type_extent and MPI_SEEK_END count the
 * file's sizes; individual, explicit, shared, ordered, collective, split and nonblocking
 * accesses all convert.
 * Values that do not fit external32 (an MPI_LONG above INT32_MAX) are MPI_ERR_CONVERSION, for
 * MPI_Pack_external and for file writes; sizes that make no whole etype are MPI_ERR_TYPE.
 */
#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "mtest.h"

#define REGION 4096 /* bytes of the file each rank owns in a per-rank section */

static int eclass(int err)
{
    int c;
    MPI_Error_class(err, &c);
    return c;
}

/* v as n big-endian bytes at p (two's complement for negative values). */
static unsigned char *be(unsigned char *p, int64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)((uint64_t)v >> (8 * (n - 1 - i)));
    return p + n;
}

/* An IEEE double's bytes, big-endian. */
static unsigned char *be_double(unsigned char *p, double d)
{
    int64_t bits;
    memcpy(&bits, &d, 8);
    return be(p, bits, 8);
}

/* The file bytes [off, off + n) under a native byte view (the view is left native). */
static void raw(MPI_File fh, MPI_Offset off, void *out, int n)
{
    MPI_Status st;
    int got = -1;
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL) == MPI_SUCCESS);
    memset(out, 0x5a, (size_t)n);
    CHECK(MPI_File_read_at(fh, off, out, n, MPI_BYTE, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_BYTE, &got);
    CHECK(got == n);
}

/* Fills [off, off + n) with 0xee (so that holes the views skip are recognisable). */
static void fill(MPI_File fh, MPI_Offset off, int n)
{
    unsigned char *b = malloc((size_t)n);
    memset(b, 0xee, (size_t)n);
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL) == MPI_SUCCESS);
    CHECK(MPI_File_write_at(fh, off, b, n, MPI_BYTE, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    free(b);
}

static int same(const void *a, const void *b, size_t n, int line)
{
    if (!memcmp(a, b, n))
        return 1;
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i]) {
            fprintf(stderr, "line %d: byte %zu is %02x, expected %02x\n", line, i, x[i], y[i]);
            break;
        }
    return 0;
}
#define SAME(a, b, n) CHECK(same(a, b, n, __LINE__))

/* ---- sizes and conversion errors of MPI_Pack_external ---------------------------------- */

static void pack_external(void)
{
    MPI_Aint sz, pos;
    struct { MPI_Datatype t; MPI_Aint size; } sizes[] = {
        {MPI_LONG, 4}, {MPI_UNSIGNED_LONG, 4}, {MPI_LONG_DOUBLE, 16}, {MPI_AINT, 8},
        {MPI_OFFSET, 8}, {MPI_COUNT, 8}, {MPI_C_BOOL, 1}, {MPI_WCHAR, 2}, {MPI_INT, 4},
        {MPI_LONG_LONG, 8}, {MPI_DOUBLE, 8}, {MPI_LONG_INT, 8}, {MPI_SHORT_INT, 6},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        CHECK(MPI_Pack_external_size("external32", 3, sizes[i].t, &sz) == MPI_SUCCESS);
        CHECK(sz == 3 * sizes[i].size);
    }

    unsigned char out[16], want[16];
    long l;
    /* In range: the low four bytes, big-endian. */
    l = INT32_MIN;
    pos = 0;
    CHECK(MPI_Pack_external("external32", &l, 1, MPI_LONG, out, sizeof out, &pos) ==
          MPI_SUCCESS);
    CHECK(pos == 4);
    be(want, INT32_MIN, 4);
    SAME(out, want, 4);
    /* Out of range either way: MPI_ERR_CONVERSION, the position unchanged. */
    long too_big[2] = {1, (long)INT32_MAX + 1}, too_small = (long)INT32_MIN - 1;
    pos = 0;
    CHECK(eclass(MPI_Pack_external("external32", too_big, 2, MPI_LONG, out, sizeof out, &pos)) ==
          MPI_ERR_CONVERSION);
    CHECK(pos == 0);
    CHECK(eclass(MPI_Pack_external("external32", &too_small, 1, MPI_LONG, out, sizeof out,
                                   &pos)) == MPI_ERR_CONVERSION);
    unsigned long ul = 0xffffffffUL, ul_big = 0x100000000UL;
    CHECK(MPI_Pack_external("external32", &ul, 1, MPI_UNSIGNED_LONG, out, sizeof out, &pos) ==
          MPI_SUCCESS);
    CHECK(pos == 4 && out[0] == 0xff && out[3] == 0xff);
    pos = 0;
    CHECK(eclass(MPI_Pack_external("external32", &ul_big, 1, MPI_UNSIGNED_LONG, out, sizeof out,
                                   &pos)) == MPI_ERR_CONVERSION);
    /* wchar_t: two bytes, U+FFFD fits, U+10000 does not. */
    wchar_t w[2] = {0xfffd, 0x41};
    pos = 0;
    CHECK(MPI_Pack_external("external32", w, 2, MPI_WCHAR, out, sizeof out, &pos) ==
          MPI_SUCCESS);
    CHECK(pos == 4 && out[0] == 0xff && out[1] == 0xfd && out[2] == 0 && out[3] == 0x41);
    wchar_t wide = 0x10000, wback[2];
    pos = 0;
    CHECK(MPI_Unpack_external("external32", out, 4, &pos, wback, 2, MPI_WCHAR) == MPI_SUCCESS);
    CHECK(wback[0] == 0xfffd && wback[1] == 0x41);
    pos = 0;
    CHECK(eclass(MPI_Pack_external("external32", &wide, 1, MPI_WCHAR, out, sizeof out, &pos)) ==
          MPI_ERR_CONVERSION);
    /* Unpacking widens: signed ones sign-extend, unsigned ones do not. */
    unsigned char ff[4] = {0xff, 0xff, 0xff, 0xfe};
    pos = 0;
    CHECK(MPI_Unpack_external("external32", ff, 4, &pos, &l, 1, MPI_LONG) == MPI_SUCCESS);
    CHECK(l == -2);
    pos = 0;
    CHECK(MPI_Unpack_external("external32", ff, 4, &pos, &ul, 1, MPI_UNSIGNED_LONG) ==
          MPI_SUCCESS);
    CHECK(ul == 0xfffffffeUL);
}

/* ---- external32 views: individual pointer, explicit offsets ------------------------------ */

static void long_view(MPI_File fh, MPI_Offset base)
{
    MPI_Status st;
    MPI_Offset pos, off;
    MPI_Aint ext;
    int count;
    long v[4] = {1, -2, INT32_MAX, INT32_MIN}, back[4];
    unsigned char want[16], got[16], *p = want;

    fill(fh, base, 64);
    CHECK(MPI_File_set_view(fh, base, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_write(fh, v, 4, MPI_LONG, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_LONG, &count);
    CHECK(count == 4);
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 4);
    CHECK(MPI_File_get_byte_offset(fh, 3, &off) == MPI_SUCCESS && off == base + 12);
    CHECK(MPI_File_get_type_extent(fh, MPI_LONG, &ext) == MPI_SUCCESS && ext == 4);
    CHECK(MPI_File_get_type_extent(fh, MPI_LONG_DOUBLE, &ext) == MPI_SUCCESS && ext == 16);
    CHECK(MPI_File_get_type_extent(fh, MPI_C_BOOL, &ext) == MPI_SUCCESS && ext == 1);
    CHECK(MPI_File_get_type_extent(fh, MPI_LONG_INT, &ext) == MPI_SUCCESS && ext == 8);
    for (int i = 0; i < 4; i++)
        p = be(p, v[i], 4);
    raw(fh, base, got, 16);
    SAME(got, want, 16);
    CHECK(got[16 - 1] == 0x00 && got[12] == 0x80);

    /* Back through the view: explicit offset, then the individual pointer after a seek. */
    CHECK(MPI_File_set_view(fh, base, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    memset(back, 0, sizeof back);
    CHECK(MPI_File_read_at(fh, 1, back, 3, MPI_LONG, &st) == MPI_SUCCESS);
    CHECK(back[0] == -2 && back[1] == INT32_MAX && back[2] == INT32_MIN);
    CHECK(MPI_File_seek(fh, 2, MPI_SEEK_SET) == MPI_SUCCESS);
    memset(back, 0, sizeof back);
    CHECK(MPI_File_read(fh, back, 1, MPI_LONG, &st) == MPI_SUCCESS && back[0] == INT32_MAX);
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 3);

    /* A value too wide for four bytes: MPI_ERR_CONVERSION, nothing of it in the file. */
    long wide[2] = {7, (long)1 << 40};
    CHECK(eclass(MPI_File_write_at(fh, 4, wide, 2, MPI_LONG, &st)) == MPI_ERR_CONVERSION);
    raw(fh, base + 16, got, 8);
    memset(want, 0xee, 8);
    SAME(got, want, 8);

    /* The same with a derived memory type (every other long of 8) and an explicit offset. */
    CHECK(MPI_File_set_view(fh, base, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    MPI_Datatype every_other;
    MPI_Type_vector(4, 1, 2, MPI_LONG, &every_other);
    MPI_Type_commit(&every_other);
    long sparse[8] = {10, -1, -20, -1, 30, -1, -40, -1}, sback[8];
    CHECK(MPI_File_write_at(fh, 4, sparse, 1, every_other, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, every_other, &count);
    CHECK(count == 1);
    p = want;
    for (int i = 0; i < 4; i++)
        p = be(p, sparse[2 * i], 4);
    raw(fh, base + 16, got, 16);
    SAME(got, want, 16);
    CHECK(MPI_File_set_view(fh, base, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    memset(sback, 0, sizeof sback);
    CHECK(MPI_File_read_at(fh, 4, sback, 1, every_other, &st) == MPI_SUCCESS);
    for (int i = 0; i < 4; i++)
        CHECK(sback[2 * i] == sparse[2 * i] && sback[2 * i + 1] == 0);
    MPI_Type_free(&every_other);
}

/* A strided filetype: portable (a vector of MPI_LONG), so scaled to the file's 4-byte longs. */
static void strided_view(MPI_File fh, MPI_Offset base)
{
    MPI_Status st;
    MPI_Offset off, pos;
    MPI_Aint ext, lb;
    MPI_Datatype ft;
    long v[4] = {1, -2, INT32_MAX, INT32_MIN}, back[4];
    unsigned char want[32], got[32];

    MPI_Type_vector(2, 1, 3, MPI_LONG, &ft); /* longs 0 and 3 of a 4-long tile */
    MPI_Type_commit(&ft);
    fill(fh, base, 64);
    CHECK(MPI_File_set_view(fh, base, MPI_LONG, ft, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    MPI_Type_get_extent(ft, &lb, &ext);
    CHECK(ext == 32); /* in memory */
    CHECK(MPI_File_get_type_extent(fh, ft, &ext) == MPI_SUCCESS && ext == 16); /* in the file */
    CHECK(MPI_File_write(fh, v, 4, MPI_LONG, &st) == MPI_SUCCESS);
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 4);
    CHECK(MPI_File_get_byte_offset(fh, 1, &off) == MPI_SUCCESS && off == base + 12);
    CHECK(MPI_File_get_byte_offset(fh, 3, &off) == MPI_SUCCESS && off == base + 28);
    memset(want, 0xee, sizeof want);
    be(want + 0, v[0], 4);
    be(want + 12, v[1], 4);
    be(want + 16, v[2], 4);
    be(want + 28, v[3], 4);
    raw(fh, base, got, 32);
    SAME(got, want, 32);
    CHECK(MPI_File_set_view(fh, base, MPI_LONG, ft, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    memset(back, 0, sizeof back);
    CHECK(MPI_File_read_at(fh, 0, back, 4, MPI_LONG, &st) == MPI_SUCCESS);
    CHECK(!memcmp(back, v, sizeof v));
    MPI_Type_free(&ft);
}

struct mixed {
    int i;
    long l;
    double d;
};

/* A struct of int, long and double: packed to 4 + 4 + 8 bytes; as a filetype its byte
 * displacements are kept as they are (§14.5), so the file has holes where memory had them. */
static void struct_view(MPI_File fh, MPI_Offset base)
{
    MPI_Status st;
    MPI_Aint ext;
    MPI_Datatype t, types[3] = {MPI_INT, MPI_LONG, MPI_DOUBLE};
    int bl[3] = {1, 1, 1}, count;
    MPI_Aint disp[3] = {offsetof(struct mixed, i), offsetof(struct mixed, l),
                        offsetof(struct mixed, d)};
    MPI_Type_create_struct(3, bl, disp, types, &t);
    MPI_Type_commit(&t);
    struct mixed s[2] = {{-3, -70000, 0.5}, {0x01020304, 0x05060708, -1e300}}, back[2];
    unsigned char want[64], got[64], *p = want;

    /* Dense stream: 16 bytes per element. */
    fill(fh, base, 64);
    CHECK(MPI_File_set_view(fh, base, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_write(fh, s, 2, t, &st) == MPI_SUCCESS);
    MPI_Offset pos;
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 32);
    for (int k = 0; k < 2; k++) {
        p = be(p, s[k].i, 4);
        p = be(p, s[k].l, 4);
        p = be_double(p, s[k].d);
    }
    raw(fh, base, got, 36);
    SAME(got, want, 32);
    CHECK(got[32] == 0xee);
    CHECK(MPI_File_set_view(fh, base, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    memset(back, 0, sizeof back);
    CHECK(MPI_File_read(fh, back, 2, t, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, t, &count);
    CHECK(count == 2);
    for (int k = 0; k < 2; k++)
        CHECK(back[k].i == s[k].i && back[k].l == s[k].l && back[k].d == s[k].d);

    /* The struct as filetype: int at 0, long (4 bytes) at 8, double at 16, tiles of 24. */
    fill(fh, base, 64);
    CHECK(MPI_File_set_view(fh, base, MPI_BYTE, t, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_get_type_extent(fh, t, &ext) == MPI_SUCCESS && ext == 24);
    CHECK(MPI_File_write(fh, s, 2, t, &st) == MPI_SUCCESS);
    memset(want, 0xee, sizeof want);
    for (int k = 0; k < 2; k++) {
        be(want + 24 * k, s[k].i, 4);
        be(want + 24 * k + 8, s[k].l, 4);
        be_double(want + 24 * k + 16, s[k].d);
    }
    raw(fh, base, got, 52);
    SAME(got, want, 52);
    CHECK(MPI_File_set_view(fh, base, MPI_BYTE, t, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    memset(back, 0, sizeof back);
    CHECK(MPI_File_read(fh, back, 2, t, &st) == MPI_SUCCESS);
    for (int k = 0; k < 2; k++)
        CHECK(back[k].i == s[k].i && back[k].l == s[k].l && back[k].d == s[k].d);
    MPI_Type_free(&t);

    /* Extents in the file: a struct {long; int} keeps its memory padding (4 + hole + 4, then
     * up to long's alignment: 16), a contiguous type of 3 longs scales to 12 bytes. */
    struct li {
        long l;
        int i;
    };
    MPI_Datatype t2, types2[2] = {MPI_LONG, MPI_INT}, c3;
    MPI_Aint disp2[2] = {offsetof(struct li, l), offsetof(struct li, i)};
    MPI_Type_create_struct(2, bl, disp2, types2, &t2);
    MPI_Type_contiguous(3, MPI_LONG, &c3);
    CHECK(MPI_File_set_view(fh, base, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_get_type_extent(fh, t2, &ext) == MPI_SUCCESS &&
          ext == (MPI_Aint)sizeof(struct li));
    CHECK(MPI_File_get_type_extent(fh, c3, &ext) == MPI_SUCCESS && ext == 12);
    MPI_Type_free(&t2);
    MPI_Type_free(&c3);
}

/* MPI_File_get_type_extent under external32 for every constructor: element-counting ones
 * scale with MPI_LONG's 4 bytes, byte displacements and resized bounds stay as they are. */
static void constructor_extents(MPI_File fh, MPI_Offset base)
{
    MPI_Datatype t;
    MPI_Aint ext;
    int bl[2] = {1, 2}, idx[2] = {0, 3}, blk[2] = {1, 4};
    MPI_Aint hd[2] = {0, 40}, hb[2] = {0, 16};
    CHECK(MPI_File_set_view(fh, base, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
#define EXTENT(make, want) \
    do { \
        make; \
        CHECK(MPI_File_get_type_extent(fh, t, &ext) == MPI_SUCCESS && ext == (want)); \
        MPI_Type_free(&t); \
    } while (0)
    EXTENT(MPI_Type_dup(MPI_LONG, &t), 4);
    EXTENT(MPI_Type_contiguous(5, MPI_LONG, &t), 20);
    EXTENT(MPI_Type_create_hvector(2, 1, 100, MPI_LONG, &t), 104);
    EXTENT(MPI_Type_indexed(2, bl, idx, MPI_LONG, &t), 20);
    EXTENT(MPI_Type_create_hindexed(2, bl, hd, MPI_LONG, &t), 48);
    EXTENT(MPI_Type_create_indexed_block(2, 1, blk, MPI_LONG, &t), 16); /* [4, 20) */
    EXTENT(MPI_Type_create_hindexed_block(2, 1, hb, MPI_LONG, &t), 20);
    EXTENT(MPI_Type_create_resized(MPI_LONG, 0, 32, &t), 32);
    int gs[1] = {8}, dist[1] = {MPI_DISTRIBUTE_BLOCK}, darg[1] = {MPI_DISTRIBUTE_DFLT_DARG},
        ps[1] = {2};
    EXTENT(MPI_Type_create_darray(2, 1, 1, gs, dist, darg, ps, MPI_ORDER_C, MPI_LONG, &t), 32);
    /* A vector of hvectors: the inner byte stride kept, the outer count of inner extents. */
    MPI_Datatype inner;
    MPI_Type_create_hvector(2, 1, 12, MPI_LONG, &inner); /* 16 bytes in the file */
    EXTENT(MPI_Type_vector(2, 1, 2, inner, &t), 48);
    MPI_Type_free(&inner);
#undef EXTENT
}

/* long double: IEEE binary128 in the file, 16 bytes either way. */
static void long_double_view(MPI_File fh, MPI_Offset base)
{
#if LDBL_MANT_DIG == 64 || LDBL_MANT_DIG == 113
    MPI_Status st;
    long double v[2] = {1.5L, -3.25L}, back[2];
    unsigned char want[32] = {0}, got[32];
    want[0] = 0x3f, want[1] = 0xff, want[2] = 0x80;         /* +1.1b x 2^0 */
    want[16] = 0xc0, want[17] = 0x00, want[18] = 0xa0;      /* -1.101b x 2^1 */
    CHECK(MPI_File_set_view(fh, base, MPI_LONG_DOUBLE, MPI_LONG_DOUBLE, "external32",
                            MPI_INFO_NULL) == MPI_SUCCESS);
    CHECK(MPI_File_write(fh, v, 2, MPI_LONG_DOUBLE, &st) == MPI_SUCCESS);
    raw(fh, base, got, 32);
    SAME(got, want, 32);
    CHECK(MPI_File_set_view(fh, base, MPI_LONG_DOUBLE, MPI_LONG_DOUBLE, "external32",
                            MPI_INFO_NULL) == MPI_SUCCESS);
    CHECK(MPI_File_read(fh, back, 2, MPI_LONG_DOUBLE, &st) == MPI_SUCCESS);
    CHECK(back[0] == 1.5L && back[1] == -3.25L);
#else
    (void)fh, (void)base;
#endif
}

/* Short reads and MPI_SEEK_END count 4-byte longs; whole etypes only. */
static void end_of_file(const char *dir, int rank)
{
    char name[300];
    MPI_File fh;
    MPI_Status st;
    MPI_Offset pos;
    int count;
    snprintf(name, sizeof name, "%s/mmpi_io_ext32_eof_%d_%d", dir, (int)getpid(), rank);
    CHECK(MPI_File_open(MPI_COMM_SELF, name,
                        MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    unsigned char bytes[10] = {0, 0, 0, 5, 0xff, 0xff, 0xff, 0xfa, 1, 2};
    CHECK(MPI_File_write_at(fh, 0, bytes, 10, MPI_BYTE, &st) == MPI_SUCCESS);
    CHECK(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    long v[5] = {0};
    CHECK(MPI_File_read(fh, v, 5, MPI_LONG, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_LONG, &count);
    CHECK(count == 2 && v[0] == 5 && v[1] == -6 && v[2] == 0);
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 2);
    CHECK(MPI_File_seek(fh, 0, MPI_SEEK_END) == MPI_SUCCESS);
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 3); /* ceil(10 / 4) */

    /* Whole etypes (in the file's sizes): etype MPI_DOUBLE, filetype MPI_LONG (4 bytes) is
     * MPI_ERR_TYPE here although natively fine; a memory type of two shorts fills one 4-byte
     * long here although natively it is half of one. */
    CHECK(eclass(MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_LONG, "external32", MPI_INFO_NULL)) ==
          MPI_ERR_TYPE);
    CHECK(MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_LONG, "native", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    MPI_Datatype two_shorts;
    MPI_Type_contiguous(2, MPI_SHORT, &two_shorts);
    MPI_Type_commit(&two_shorts);
    short sh[2] = {0, 0};
    CHECK(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "native", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(eclass(MPI_File_read_at(fh, 0, sh, 1, two_shorts, &st)) == MPI_ERR_TYPE);
    CHECK(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_read_at(fh, 1, sh, 1, two_shorts, &st) == MPI_SUCCESS);
    CHECK(sh[0] == -1 && sh[1] == -6);
    CHECK(eclass(MPI_File_read_at(fh, 0, sh, 1, MPI_SHORT, &st)) == MPI_ERR_TYPE);
    CHECK(eclass(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "nosuch", MPI_INFO_NULL)) ==
          MPI_ERR_UNSUPPORTED_DATAREP);
    MPI_Aint ext;
    CHECK(eclass(MPI_File_get_type_extent(fh, MPI_DATATYPE_NULL, &ext)) == MPI_ERR_TYPE);
    MPI_Type_free(&two_shorts);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
}

/* ---- shared, ordered, collective, split and nonblocking accesses (all ranks) ------------ */

static void shared_pointer(MPI_File fh, MPI_Offset base, int rank, int size)
{
    MPI_Status st;
    MPI_Offset pos;
    int total = size * (size + 1) / 2;
    long mine[64], back[64];
    for (int i = 0; i <= rank; i++)
        mine[i] = -(long)(rank * 100 + i);
    CHECK(MPI_File_set_view(fh, base, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_File_write_ordered(fh, mine, rank + 1, MPI_LONG, &st) == MPI_SUCCESS);
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS && pos == total);
    MPI_Barrier(MPI_COMM_WORLD); /* everyone saw it before anyone appends */
    long one = 1000 + rank;
    CHECK(MPI_File_write_shared(fh, &one, 1, MPI_LONG, &st) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS && pos == total + size);

    /* The bytes: rank order, 4 each; then one 4-byte long per rank in some order. */
    unsigned char *got = malloc((size_t)(total + size) * 4), want[4];
    raw(fh, base, got, (total + size) * 4);
    for (int r = 0, k = 0; r < size; r++)
        for (int i = 0; i <= r; i++, k++) {
            be(want, -(long)(r * 100 + i), 4);
            SAME(got + 4 * k, want, 4);
        }
    int seen = 0;
    for (int k = 0; k < size; k++) {
        const unsigned char *q = got + 4 * (total + k);
        long v = (long)q[0] << 24 | q[1] << 16 | q[2] << 8 | q[3];
        if (v >= 1000 && v < 1000 + size)
            seen |= 1 << (v - 1000);
    }
    CHECK(seen == (1 << size) - 1);
    free(got);

    /* Back in rank order through the view, then the shared appends. */
    CHECK(MPI_File_set_view(fh, base, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    memset(back, 0, sizeof back);
    CHECK(MPI_File_read_ordered(fh, back, rank + 1, MPI_LONG, &st) == MPI_SUCCESS);
    CHECK(!memcmp(back, mine, (size_t)(rank + 1) * sizeof(long)));
    CHECK(MPI_File_seek_shared(fh, total, MPI_SEEK_SET) == MPI_SUCCESS);
    long app = -1;
    CHECK(MPI_File_read_shared(fh, &app, 1, MPI_LONG, &st) == MPI_SUCCESS);
    CHECK(app >= 1000 && app < 1000 + size);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS && pos == total + size);
    /* Nonblocking shared access. */
    MPI_Request req;
    CHECK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET) == MPI_SUCCESS);
    CHECK(MPI_File_iread_shared(fh, &app, 1, MPI_LONG, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    CHECK(app <= 0 && app > -(long)(size * 100));
}

/* Each rank owns every size-th long (a subarray filetype: portable, so scaled). */
static void collective(MPI_File fh, MPI_Offset base, int rank, int size)
{
    enum { K = 6 };
    MPI_Status st;
    MPI_Request req;
    MPI_Datatype ft;
    int sizes[1] = {size}, sub[1] = {1}, start[1] = {rank}, count;
    MPI_Type_create_subarray(1, sizes, sub, start, MPI_ORDER_C, MPI_LONG, &ft);
    MPI_Type_commit(&ft);
    long v[3 * K], back[3 * K];
    for (int k = 0; k < 3 * K; k++)
        v[k] = (k % 2 ? -1L : 1L) * (rank * 1000 + k);
    CHECK(MPI_File_set_view(fh, base, MPI_LONG, ft, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    MPI_Aint ext;
    CHECK(MPI_File_get_type_extent(fh, ft, &ext) == MPI_SUCCESS && ext == 4 * size);
    /* K longs with write_at_all, K with a split write_all after them, K with iwrite_at_all. */
    CHECK(MPI_File_write_at_all(fh, 0, v, K, MPI_LONG, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_LONG, &count);
    CHECK(count == K);
    CHECK(MPI_File_seek(fh, K, MPI_SEEK_SET) == MPI_SUCCESS);
    CHECK(MPI_File_write_all_begin(fh, v + K, K, MPI_LONG) == MPI_SUCCESS);
    CHECK(MPI_File_write_all_end(fh, v + K, &st) == MPI_SUCCESS);
    MPI_Offset pos;
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 2 * K);
    CHECK(MPI_File_iwrite_at_all(fh, 2 * K, v + 2 * K, K, MPI_LONG, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);

    int n = 3 * K * size * 4;
    unsigned char *got = malloc((size_t)n), want[4];
    raw(fh, base, got, n);
    for (int r = 0; r < size; r++)
        for (int k = 0; k < 3 * K; k++) {
            be(want, (k % 2 ? -1L : 1L) * (r * 1000 + k), 4);
            SAME(got + 4 * ((size_t)k * size + r), want, 4);
        }
    free(got);

    CHECK(MPI_File_set_view(fh, base, MPI_LONG, ft, "external32", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    memset(back, 0, sizeof back);
    CHECK(MPI_File_read_at_all(fh, 0, back, K, MPI_LONG, &st) == MPI_SUCCESS);
    CHECK(MPI_File_read_at_all_begin(fh, K, back + K, K, MPI_LONG) == MPI_SUCCESS);
    CHECK(MPI_File_read_at_all_end(fh, back + K, &st) == MPI_SUCCESS);
    CHECK(MPI_File_seek(fh, 2 * K, MPI_SEEK_SET) == MPI_SUCCESS);
    CHECK(MPI_File_iread_all(fh, back + 2 * K, K, MPI_LONG, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_LONG, &count);
    CHECK(count == K);
    CHECK(!memcmp(back, v, sizeof v));
    /* Independent nonblocking forms too. */
    long x = -7, y = 0;
    CHECK(MPI_File_iwrite_at(fh, 3 * K, &x, 1, MPI_LONG, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    CHECK(MPI_File_seek(fh, 3 * K, MPI_SEEK_SET) == MPI_SUCCESS);
    CHECK(MPI_File_iread(fh, &y, 1, MPI_LONG, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    CHECK(y == -7);
    MPI_Type_free(&ft);
}

/* ---- a registered representation that halves MPI_INT ----------------------------------- */

/* "half": MPI_INT as 2 big-endian bytes in the file (MPI_ERR_CONVERSION when it does not fit),
 * every other type at its native extent and bytes. */
static int half_extent(MPI_Datatype t, MPI_Aint *extent, void *extra)
{
    MPI_Aint lb;
    if (t == MPI_INT) {
        *extent = 2;
        return MPI_SUCCESS;
    }
    return MPI_Type_get_extent(t, &lb, extent);
}

static int half_write(void *userbuf, MPI_Datatype t, int count, void *filebuf,
                      MPI_Offset position, void *extra)
{
    if (t != MPI_INT)
        return MPI_ERR_CONVERSION;
    const int *u = (const int *)userbuf + position;
    unsigned char *f = filebuf;
    for (int i = 0; i < count; i++) {
        if (u[i] < INT16_MIN || u[i] > INT16_MAX)
            return MPI_ERR_CONVERSION;
        be(f + 2 * i, u[i], 2);
    }
    return MPI_SUCCESS;
}

static int half_read(void *userbuf, MPI_Datatype t, int count, void *filebuf,
                     MPI_Offset position, void *extra)
{
    if (t != MPI_INT)
        return MPI_ERR_CONVERSION;
    int *u = (int *)userbuf + position;
    const unsigned char *f = filebuf;
    for (int i = 0; i < count; i++)
        u[i] = (int16_t)(f[2 * i] << 8 | f[2 * i + 1]);
    return MPI_SUCCESS;
}

static void half_view(MPI_File fh, MPI_Offset base)
{
    MPI_Status st;
    MPI_Offset off, pos;
    MPI_Aint ext;
    MPI_Datatype ft, every_other;
    int v[4] = {1, -2, 32767, -32768}, back[4], count;
    unsigned char want[16], got[16];

    MPI_Type_vector(2, 1, 2, MPI_INT, &ft); /* ints 0 and 2 of a 3-int tile */
    MPI_Type_commit(&ft);
    fill(fh, base, 64);
    CHECK(MPI_File_set_view(fh, base, MPI_INT, ft, "half", MPI_INFO_NULL) == MPI_SUCCESS);
    CHECK(MPI_File_get_type_extent(fh, MPI_INT, &ext) == MPI_SUCCESS && ext == 2);
    CHECK(MPI_File_get_type_extent(fh, ft, &ext) == MPI_SUCCESS && ext == 6);
    CHECK(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext) == MPI_SUCCESS && ext == 8);
    CHECK(MPI_File_write(fh, v, 4, MPI_INT, &st) == MPI_SUCCESS);
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 4);
    CHECK(MPI_File_get_byte_offset(fh, 3, &off) == MPI_SUCCESS && off == base + 10);
    memset(want, 0xee, sizeof want);
    be(want + 0, v[0], 2);
    be(want + 4, v[1], 2);
    be(want + 6, v[2], 2);
    be(want + 10, v[3], 2);
    raw(fh, base, got, 16);
    SAME(got, want, 16);

    /* Back with a derived memory type (converted one leaf run at a time). */
    MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int sparse[8];
    memset(sparse, 0, sizeof sparse);
    CHECK(MPI_File_set_view(fh, base, MPI_INT, ft, "half", MPI_INFO_NULL) == MPI_SUCCESS);
    CHECK(MPI_File_read(fh, sparse, 1, every_other, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, every_other, &count);
    CHECK(count == 1);
    for (int i = 0; i < 4; i++)
        CHECK(sparse[2 * i] == v[i] && sparse[2 * i + 1] == 0);
    memset(back, 0, sizeof back);
    CHECK(MPI_File_read_at(fh, 1, back, 3, MPI_INT, &st) == MPI_SUCCESS);
    CHECK(back[0] == v[1] && back[1] == v[2] && back[2] == v[3]);

    /* The representation's own refusal is the access's error. */
    int big = 40000;
    CHECK(eclass(MPI_File_write_at(fh, 0, &big, 1, MPI_INT, &st)) == MPI_ERR_CONVERSION);
    /* No conversion function but halved sizes: nothing can convert. */
    CHECK(MPI_File_set_view(fh, base, MPI_INT, MPI_INT, "halfnull", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    CHECK(eclass(MPI_File_write_at(fh, 0, v, 1, MPI_INT, &st)) == MPI_ERR_CONVERSION);
    raw(fh, base, got, 2);
    SAME(got, want, 2);
    MPI_Type_free(&every_other);
    MPI_Type_free(&ft);
}

/* "wide": MPI_INT as 8 big-endian bytes (the file wider than memory). */
static int wide_extent(MPI_Datatype t, MPI_Aint *extent, void *extra)
{
    MPI_Aint lb;
    if (t == MPI_INT) {
        *extent = 8;
        return MPI_SUCCESS;
    }
    return MPI_Type_get_extent(t, &lb, extent);
}

static int wide_write(void *userbuf, MPI_Datatype t, int count, void *filebuf,
                      MPI_Offset position, void *extra)
{
    const int *u = (const int *)userbuf + position;
    for (int i = 0; i < count; i++)
        be((unsigned char *)filebuf + 8 * i, u[i], 8);
    return t == MPI_INT ? MPI_SUCCESS : MPI_ERR_CONVERSION;
}

static int wide_read(void *userbuf, MPI_Datatype t, int count, void *filebuf,
                     MPI_Offset position, void *extra)
{
    int *u = (int *)userbuf + position;
    const unsigned char *f = filebuf;
    for (int i = 0; i < count; i++) {
        int64_t v = 0;
        for (int k = 0; k < 8; k++)
            v = (int64_t)((uint64_t)v << 8 | f[8 * i + k]);
        u[i] = (int)v;
    }
    return t == MPI_INT ? MPI_SUCCESS : MPI_ERR_CONVERSION;
}

static void wide_view(MPI_File fh, MPI_Offset base)
{
    MPI_Status st;
    MPI_Offset off, pos;
    int v[3] = {-1, 7, INT32_MIN}, back[3] = {0, 0, 0}, count;
    unsigned char want[24], got[24], *p = want;
    CHECK(MPI_File_set_view(fh, base, MPI_INT, MPI_INT, "wide", MPI_INFO_NULL) == MPI_SUCCESS);
    CHECK(MPI_File_write(fh, v, 3, MPI_INT, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 3);
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 3);
    CHECK(MPI_File_get_byte_offset(fh, 2, &off) == MPI_SUCCESS && off == base + 16);
    for (int i = 0; i < 3; i++)
        p = be(p, v[i], 8);
    raw(fh, base, got, 24);
    SAME(got, want, 24);
    CHECK(MPI_File_set_view(fh, base, MPI_INT, MPI_INT, "wide", MPI_INFO_NULL) == MPI_SUCCESS);
    CHECK(MPI_File_read(fh, back, 3, MPI_INT, &st) == MPI_SUCCESS);
    CHECK(!memcmp(back, v, sizeof v));
}

int main(int argc, char **argv)
{
    int rank, size;
    char name[256];
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(size <= 16);
    CHECK(MPI_Register_datarep("half", half_read, half_write, half_extent, NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_Register_datarep("wide", wide_read, wide_write, wide_extent, NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_Register_datarep("halfnull", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                               half_extent, NULL) == MPI_SUCCESS);

    pack_external();

    snprintf(name, sizeof name, "%s/mmpi_io_ext32_%d", dir, (int)getpid());
    CHECK(MPI_File_open(MPI_COMM_WORLD, name,
                        MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    /* Per-rank sections: section s of rank r at (s * size + r) * REGION. Views are set by
     * every rank at once (MPI_File_set_view is collective), in the same order. */
#define SECTION(s) ((MPI_Offset)((s) * size + rank) * REGION)
    long_view(fh, SECTION(0));
    strided_view(fh, SECTION(1));
    struct_view(fh, SECTION(2));
    long_double_view(fh, SECTION(3));
    constructor_extents(fh, SECTION(3));
    half_view(fh, SECTION(4));
    wide_view(fh, SECTION(4) + 256);
    shared_pointer(fh, (MPI_Offset)5 * size * REGION, rank, size);
    collective(fh, (MPI_Offset)6 * size * REGION, rank, size);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);

    end_of_file(dir, rank);
    return mtest_finish();
}
