/*
 * test_datatype.c: unit tests of the datatype subsystem's bookkeeping (mini_mpi/datatype/):
 * predefined types, the size / lb / extent / true extent of every constructor, envelopes and
 * contents, names, MPI_Get_count / Get_elements / Status_set_elements, addresses, match_size,
 * reference counting across MPI_Type_free, concurrent creation, and the error class of each
 * kind of bad input. Moving data is test_datatype_pack.c's.
 *
 * Bodies run in rank threads, where cmocka's assertions must not run: CHECK records failures,
 * and the test thread asserts there were none after the world ends.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "datatype/datatype.h"
#include "unit_world.h"
#include "unit_check.h"

/* size, lb, extent, true_lb, true_extent of t, and the _x forms agree. */
static void check_bounds(int line, MPI_Datatype t, long long size, long long lb,
                         long long extent, long long tlb, long long textent)
{
    int s = -1;
    MPI_Aint l = -1, e = -1, tl = -1, te = -1;
    MPI_Count sx = -1, lx = -1, ex = -1, tlx = -1, tex = -1;
    if (MPI_Type_size(t, &s) || MPI_Type_get_extent(t, &l, &e) ||
        MPI_Type_get_true_extent(t, &tl, &te) || MPI_Type_size_x(t, &sx) ||
        MPI_Type_get_extent_x(t, &lx, &ex) || MPI_Type_get_true_extent_x(t, &tlx, &tex)) {
        record(line, "query failed", 0, 0);
        return;
    }
    if (s != size || sx != size)
        record(line, "size", s, size);
    if (l != lb || lx != lb)
        record(line, "lb", l, lb);
    if (e != extent || ex != extent)
        record(line, "extent", e, extent);
    if (tl != tlb || tlx != tlb)
        record(line, "true_lb", tl, tlb);
    if (te != textent || tex != textent)
        record(line, "true_extent", te, textent);
}
#define CHECK_BOUNDS(t, ...) check_bounds(__LINE__, t, __VA_ARGS__)

/* The envelope of t has these counts and combiner. */
static void check_envelope(int line, MPI_Datatype t, int ni, int na, int nd, int combiner)
{
    int i = -1, a = -1, d = -1, c = -1;
    if (MPI_Type_get_envelope(t, &i, &a, &d, &c) != MPI_SUCCESS)
        record(line, "get_envelope failed", 0, 0);
    else if (i != ni || a != na || d != nd || c != combiner)
        record(line, "envelope (ni, na, nd, combiner)", i * 1000000 + a * 10000 + d * 100 + c,
               ni * 1000000 + na * 10000 + nd * 100 + combiner);
}
#define CHECK_ENVELOPE(t, ...) check_envelope(__LINE__, t, __VA_ARGS__)

/* ---- Predefined types ----------------------------------------------------------------- */

static void predefined_body(int rank, int size, void *arg)
{
    static const struct {
        MPI_Datatype t;
        int size;
        const char *name;
    } cases[] = {
        {MPI_CHAR, 1, "MPI_CHAR"}, {MPI_SIGNED_CHAR, 1, "MPI_SIGNED_CHAR"},
        {MPI_UNSIGNED_CHAR, 1, "MPI_UNSIGNED_CHAR"}, {MPI_BYTE, 1, "MPI_BYTE"},
        {MPI_WCHAR, sizeof(wchar_t), "MPI_WCHAR"}, {MPI_SHORT, 2, "MPI_SHORT"},
        {MPI_UNSIGNED_SHORT, 2, "MPI_UNSIGNED_SHORT"}, {MPI_INT, 4, "MPI_INT"},
        {MPI_UNSIGNED, 4, "MPI_UNSIGNED"}, {MPI_LONG, sizeof(long), "MPI_LONG"},
        {MPI_UNSIGNED_LONG, sizeof(long), "MPI_UNSIGNED_LONG"},
        {MPI_LONG_LONG_INT, 8, "MPI_LONG_LONG_INT"}, {MPI_LONG_LONG, 8, "MPI_LONG_LONG_INT"},
        {MPI_UNSIGNED_LONG_LONG, 8, "MPI_UNSIGNED_LONG_LONG"}, {MPI_FLOAT, 4, "MPI_FLOAT"},
        {MPI_DOUBLE, 8, "MPI_DOUBLE"}, {MPI_LONG_DOUBLE, sizeof(long double), "MPI_LONG_DOUBLE"},
        {MPI_INT8_T, 1, "MPI_INT8_T"}, {MPI_INT16_T, 2, "MPI_INT16_T"},
        {MPI_INT32_T, 4, "MPI_INT32_T"}, {MPI_INT64_T, 8, "MPI_INT64_T"},
        {MPI_UINT8_T, 1, "MPI_UINT8_T"}, {MPI_UINT16_T, 2, "MPI_UINT16_T"},
        {MPI_UINT32_T, 4, "MPI_UINT32_T"}, {MPI_UINT64_T, 8, "MPI_UINT64_T"},
        {MPI_C_BOOL, 1, "MPI_C_BOOL"}, {MPI_C_COMPLEX, 8, "MPI_C_COMPLEX"},
        {MPI_C_FLOAT_COMPLEX, 8, "MPI_C_FLOAT_COMPLEX"},
        {MPI_C_DOUBLE_COMPLEX, 16, "MPI_C_DOUBLE_COMPLEX"},
        {MPI_C_LONG_DOUBLE_COMPLEX, 2 * sizeof(long double), "MPI_C_LONG_DOUBLE_COMPLEX"},
        {MPI_AINT, sizeof(MPI_Aint), "MPI_AINT"}, {MPI_OFFSET, 8, "MPI_OFFSET"},
        {MPI_COUNT, 8, "MPI_COUNT"}, {MPI_PACKED, 1, "MPI_PACKED"},
        {MPI_CHARACTER, 1, "MPI_CHARACTER"}, {MPI_LOGICAL, 4, "MPI_LOGICAL"},
        {MPI_INTEGER, 4, "MPI_INTEGER"}, {MPI_REAL, 4, "MPI_REAL"},
        {MPI_DOUBLE_PRECISION, 8, "MPI_DOUBLE_PRECISION"}, {MPI_COMPLEX, 8, "MPI_COMPLEX"},
        {MPI_DOUBLE_COMPLEX, 16, "MPI_DOUBLE_COMPLEX"}, {MPI_INTEGER1, 1, "MPI_INTEGER1"},
        {MPI_INTEGER2, 2, "MPI_INTEGER2"}, {MPI_INTEGER4, 4, "MPI_INTEGER4"},
        {MPI_INTEGER8, 8, "MPI_INTEGER8"}, {MPI_REAL4, 4, "MPI_REAL4"},
        {MPI_REAL8, 8, "MPI_REAL8"}, {MPI_REAL16, 16, "MPI_REAL16"},
        {MPI_COMPLEX8, 8, "MPI_COMPLEX8"}, {MPI_COMPLEX16, 16, "MPI_COMPLEX16"},
        {MPI_COMPLEX32, 32, "MPI_COMPLEX32"}, {MPI_2INT, 8, "MPI_2INT"},
        {MPI_2INTEGER, 8, "MPI_2INTEGER"}, {MPI_2REAL, 8, "MPI_2REAL"},
        {MPI_2DOUBLE_PRECISION, 16, "MPI_2DOUBLE_PRECISION"},
    };
    char name[MPI_MAX_OBJECT_NAME];
    int len;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        CHECK_BOUNDS(cases[i].t, cases[i].size, 0, cases[i].size, 0, cases[i].size);
        OK(MPI_Type_get_name(cases[i].t, name, &len));
        CHECK(strcmp(name, cases[i].name) == 0);
        CHECK_EQ(len, strlen(cases[i].name));
        CHECK_ENVELOPE(cases[i].t, 0, 0, 0, MPI_COMBINER_NAMED);
        MPI_Datatype t = cases[i].t;
        OK(MPI_Type_commit(&t)); /* a no-op on predefined types */
        CHECK_EQ(t, cases[i].t);
    }
    /* Pair types: struct { T a; int b; } layouts (MPI-4.1 §6.9.4). */
    struct { float a; int b; } fi;
    struct { double a; int b; } di;
    struct { long a; int b; } li;
    struct { short a; int b; } si;
    struct { long double a; int b; } ldi;
    CHECK_BOUNDS(MPI_FLOAT_INT, 8, 0, sizeof(fi), 0, 8);
    CHECK_BOUNDS(MPI_DOUBLE_INT, 12, 0, sizeof(di), 0, 12);
    CHECK_BOUNDS(MPI_LONG_INT, sizeof(long) + 4, 0, sizeof(li), 0, offsetof(__typeof__(li), b) + 4);
    CHECK_BOUNDS(MPI_SHORT_INT, 6, 0, sizeof(si), 0, 8);
    CHECK_BOUNDS(MPI_LONG_DOUBLE_INT, sizeof(long double) + 4, 0, sizeof(ldi), 0,
                 sizeof(long double) + 4);
    OK(MPI_Type_get_name(MPI_DOUBLE_INT, name, &len));
    CHECK(strcmp(name, "MPI_DOUBLE_INT") == 0);

    /* The internal view: basic type and contiguity, for the engines. */
    struct mmpi_datatype *dt = mmpi_datatype_get(mmpi_self, MPI_DOUBLE_INT);
    CHECK(dt && !dt->contiguous && dt->basic == MPI_DOUBLE_INT && dt->nelements == 2);
    dt = mmpi_datatype_get(mmpi_self, MPI_2INT);
    CHECK(dt && dt->contiguous);
    CHECK(mmpi_datatype_get(mmpi_self, MPI_DATATYPE_NULL) == NULL);
    CHECK(mmpi_datatype_check(mmpi_self, MPI_INT, &dt) == MPI_SUCCESS && dt->basic == MPI_INT);

    MPI_Datatype m = MPI_DATATYPE_NULL;
    OK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &m));
    CHECK_EQ(m, MPI_INTEGER8);
    OK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &m));
    CHECK_EQ(m, MPI_REAL4);
    OK(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &m));
    CHECK_EQ(m, MPI_COMPLEX16);
}

static void predefined_types(void **state) { run(predefined_body); }

/* ---- Constructors: bounds, envelopes and contents --------------------------------------- */

/* Contents of t equal the given arrays; component handles are freed if derived. */
static void check_contents(int line, MPI_Datatype t, int ni, const int *ints, int na,
                           const MPI_Aint *aints, int nd, const MPI_Datatype *types)
{
    int gi[64];
    MPI_Aint ga[16];
    MPI_Datatype gd[16];
    if (MPI_Type_get_contents(t, 64, 16, 16, gi, ga, gd) != MPI_SUCCESS) {
        record(line, "get_contents failed", 0, 0);
        return;
    }
    for (int i = 0; i < ni; i++)
        if (gi[i] != ints[i])
            record(line, "contents int", gi[i], ints[i]);
    for (int i = 0; i < na; i++)
        if (ga[i] != aints[i])
            record(line, "contents address", ga[i], aints[i]);
    for (int i = 0; i < nd; i++) {
        int c, x;
        MPI_Type_get_envelope(gd[i], &x, &x, &x, &c);
        if (c == MPI_COMBINER_NAMED) {
            if (gd[i] != types[i])
                record(line, "contents type", gd[i], types[i]);
        } else {
            /* A derived component comes back as a new handle to an equivalent type. */
            int s1, s2;
            MPI_Type_size(gd[i], &s1);
            MPI_Type_size(types[i], &s2);
            if (s1 != s2)
                record(line, "contents derived type size", s1, s2);
            if (MPI_Type_free(&gd[i]) != MPI_SUCCESS)
                record(line, "free of a contents handle", 0, 0);
        }
    }
}
#define CHECK_CONTENTS(t, ni, ints, na, aints, nd, types) \
    check_contents(__LINE__, t, ni, ints, na, aints, nd, types)

static void constructors_body(int rank, int size, void *arg)
{
    MPI_Datatype t, u;
    MPI_Datatype int1[] = {MPI_INT}, dbl1[] = {MPI_DOUBLE}, sh1[] = {MPI_SHORT};

    OK(MPI_Type_contiguous(3, MPI_INT, &t));
    CHECK_BOUNDS(t, 12, 0, 12, 0, 12);
    CHECK_ENVELOPE(t, 1, 0, 1, MPI_COMBINER_CONTIGUOUS);
    CHECK_CONTENTS(t, 1, ((int[]){3}), 0, NULL, 1, int1);
    CHECK(mmpi_datatype_get(mmpi_self, t)->contiguous);
    CHECK(mmpi_datatype_get(mmpi_self, t)->basic == MPI_INT);
    CHECK(mmpi_datatype_get(mmpi_self, t)->basic_count == 3);
    OK(MPI_Type_free(&t));
    CHECK_EQ(t, MPI_DATATYPE_NULL);

    OK(MPI_Type_contiguous(0, MPI_INT, &t));
    CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
    OK(MPI_Type_free(&t));

    OK(MPI_Type_vector(3, 2, 4, MPI_INT, &t)); /* blocks at 0, 16, 32 bytes */
    CHECK_BOUNDS(t, 24, 0, 40, 0, 40);
    CHECK_ENVELOPE(t, 3, 0, 1, MPI_COMBINER_VECTOR);
    CHECK_CONTENTS(t, 3, ((int[]){3, 2, 4}), 0, NULL, 1, int1);
    CHECK(!mmpi_datatype_get(mmpi_self, t)->contiguous);
    CHECK_EQ(mmpi_datatype_get(mmpi_self, t)->nruns, 1); /* one strided run */
    CHECK(mmpi_datatype_get(mmpi_self, t)->basic == MPI_INT);
    OK(MPI_Type_free(&t));

    OK(MPI_Type_vector(3, 1, -2, MPI_INT, &t)); /* ints at 0, -8, -16 */
    CHECK_BOUNDS(t, 12, -16, 20, -16, 20);
    OK(MPI_Type_free(&t));

    OK(MPI_Type_vector(4, 2, 2, MPI_INT, &t)); /* stride == blocklength: dense */
    CHECK_BOUNDS(t, 32, 0, 32, 0, 32);
    CHECK(mmpi_datatype_get(mmpi_self, t)->contiguous);
    OK(MPI_Type_free(&t));

    OK(MPI_Type_create_hvector(2, 3, 20, MPI_DOUBLE, &t));
    CHECK_BOUNDS(t, 48, 0, 44, 0, 44);
    CHECK_ENVELOPE(t, 2, 1, 1, MPI_COMBINER_HVECTOR);
    CHECK_CONTENTS(t, 2, ((int[]){2, 3}), 1, ((MPI_Aint[]){20}), 1, dbl1);
    OK(MPI_Type_free(&t));
    OK(MPI_Type_hvector(2, 1, 8, MPI_INT, &t)); /* the MPI-1 name */
    CHECK_BOUNDS(t, 8, 0, 12, 0, 12);
    CHECK_ENVELOPE(t, 2, 1, 1, MPI_COMBINER_HVECTOR);
    OK(MPI_Type_free(&t));

    OK(MPI_Type_indexed(3, (int[]){1, 2, 3}, (int[]){5, 0, 10}, MPI_INT, &t));
    CHECK_BOUNDS(t, 24, 0, 52, 0, 52);
    CHECK_ENVELOPE(t, 7, 0, 1, MPI_COMBINER_INDEXED);
    CHECK_CONTENTS(t, 7, ((int[]){3, 1, 2, 3, 5, 0, 10}), 0, NULL, 1, int1);
    OK(MPI_Type_free(&t));

    OK(MPI_Type_create_hindexed(2, (int[]){2, 1}, (MPI_Aint[]){4, 20}, MPI_SHORT, &t));
    CHECK_BOUNDS(t, 6, 4, 18, 4, 18);
    CHECK_ENVELOPE(t, 3, 2, 1, MPI_COMBINER_HINDEXED);
    CHECK_CONTENTS(t, 3, ((int[]){2, 2, 1}), 2, ((MPI_Aint[]){4, 20}), 1, sh1);
    OK(MPI_Type_free(&t));
    OK(MPI_Type_hindexed(1, (int[]){2}, (MPI_Aint[]){8}, MPI_SHORT, &t));
    CHECK_BOUNDS(t, 4, 8, 4, 8, 4);
    OK(MPI_Type_free(&t));

    OK(MPI_Type_create_indexed_block(3, 2, (int[]){0, 4, 9}, MPI_INT, &t));
    CHECK_BOUNDS(t, 24, 0, 44, 0, 44);
    CHECK_ENVELOPE(t, 5, 0, 1, MPI_COMBINER_INDEXED_BLOCK);
    CHECK_CONTENTS(t, 5, ((int[]){3, 2, 0, 4, 9}), 0, NULL, 1, int1);
    OK(MPI_Type_free(&t));

    OK(MPI_Type_create_hindexed_block(2, 1, (MPI_Aint[]){0, 16}, MPI_DOUBLE, &t));
    CHECK_BOUNDS(t, 16, 0, 24, 0, 24);
    CHECK_ENVELOPE(t, 2, 2, 1, MPI_COMBINER_HINDEXED_BLOCK);
    CHECK_CONTENTS(t, 2, ((int[]){2, 1}), 2, ((MPI_Aint[]){0, 16}), 1, dbl1);
    OK(MPI_Type_free(&t));

    /* struct { char; double at 8; int at 16 }: ub 20, padded to the double's alignment. */
    MPI_Datatype st[] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    OK(MPI_Type_create_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){0, 8, 16}, st, &t));
    CHECK_BOUNDS(t, 13, 0, 24, 0, 20);
    CHECK_ENVELOPE(t, 4, 3, 3, MPI_COMBINER_STRUCT);
    CHECK_CONTENTS(t, 4, ((int[]){3, 1, 1, 1}), 3, ((MPI_Aint[]){0, 8, 16}), 3, st);
    CHECK(mmpi_datatype_get(mmpi_self, t)->basic == MPI_DATATYPE_NULL);
    CHECK_EQ(mmpi_datatype_get(mmpi_self, t)->nelements, 3);
    OK(MPI_Type_free(&t));
    OK(MPI_Type_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 4}, (MPI_Datatype[]){MPI_INT, MPI_CHAR},
                       &t));
    CHECK_BOUNDS(t, 5, 0, 8, 0, 5);
    OK(MPI_Type_free(&t));

    /* Resized: explicit bounds, sticky through later constructors (MPI-4.1 §5.1.7). */
    OK(MPI_Type_create_resized(MPI_INT, -4, 16, &t));
    CHECK_BOUNDS(t, 4, -4, 16, 0, 4);
    CHECK_ENVELOPE(t, 0, 2, 1, MPI_COMBINER_RESIZED);
    CHECK_CONTENTS(t, 0, NULL, 2, ((MPI_Aint[]){-4, 16}), 1, int1);
    OK(MPI_Type_contiguous(2, t, &u)); /* ints at 0 and 16 */
    CHECK_BOUNDS(u, 8, -4, 32, 0, 20);
    OK(MPI_Type_free(&u));
    /* A struct with a resized member takes only the sticky bounds, and is not padded. */
    OK(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 100},
                              (MPI_Datatype[]){t, MPI_DOUBLE}, &u));
    CHECK_BOUNDS(u, 12, -4, 16, 0, 108);
    OK(MPI_Type_free(&u));
    OK(MPI_Type_free(&t));

    /* Dup: same bounds, same committed state, its own envelope. */
    OK(MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &t));
    OK(MPI_Type_commit(&t));
    OK(MPI_Type_dup(t, &u));
    CHECK_BOUNDS(u, 16, 0, 32, 0, 32);
    CHECK_ENVELOPE(u, 0, 0, 1, MPI_COMBINER_DUP);
    CHECK(mmpi_datatype_get(mmpi_self, u)->committed);
    CHECK_CONTENTS(u, 0, NULL, 0, NULL, 1, &t);
    OK(MPI_Type_free(&u));
    OK(MPI_Type_free(&t));
    OK(MPI_Type_dup(MPI_DOUBLE_INT, &u));
    CHECK_BOUNDS(u, 12, 0, 16, 0, 12);
    CHECK(mmpi_datatype_get(mmpi_self, u)->basic == MPI_DOUBLE_INT);
    OK(MPI_Type_free(&u));
}

static void constructors(void **state) { run(constructors_body); }

static void subarray_darray_body(int rank, int size, void *arg)
{
    MPI_Datatype t;
    int sizes[] = {4, 5}, subsizes[] = {2, 3}, starts[] = {1, 1};

    /* C order: element (i, j) at (5i + j) * 4; first (1,1) = 6, last (2,3) = 13. */
    OK(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t));
    CHECK_BOUNDS(t, 24, 0, 80, 24, 32);
    CHECK_ENVELOPE(t, 8, 0, 1, MPI_COMBINER_SUBARRAY);
    CHECK_CONTENTS(t, 8, ((int[]){2, 4, 5, 2, 3, 1, 1, MPI_ORDER_C}), 0, NULL, 1,
                   ((MPI_Datatype[]){MPI_INT}));
    OK(MPI_Type_free(&t));
    /* Fortran order: element (i, j) at (i + 4j) * 4; first 5, last 14. */
    OK(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &t));
    CHECK_BOUNDS(t, 24, 0, 80, 20, 40);
    OK(MPI_Type_free(&t));
    /* An empty subarray still spans the array. */
    OK(MPI_Type_create_subarray(2, sizes, (int[]){0, 3}, starts, MPI_ORDER_C, MPI_INT, &t));
    CHECK_BOUNDS(t, 0, 0, 80, 0, 0);
    OK(MPI_Type_free(&t));

    /* 1-D block over 3 processes: 10 = 4 + 4 + 2; rank 2 owns [8, 10). */
    int g1[] = {10}, blk[] = {MPI_DISTRIBUTE_BLOCK}, dflt[] = {MPI_DISTRIBUTE_DFLT_DARG};
    OK(MPI_Type_create_darray(3, 2, 1, g1, blk, dflt, (int[]){3}, MPI_ORDER_C, MPI_INT, &t));
    CHECK_BOUNDS(t, 8, 0, 40, 32, 8);
    CHECK_ENVELOPE(t, 8, 0, 1, MPI_COMBINER_DARRAY);
    CHECK_CONTENTS(t, 8,
                   ((int[]){3, 2, 1, 10, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_DFLT_DARG, 3,
                            MPI_ORDER_C}),
                   0, NULL, 1, ((MPI_Datatype[]){MPI_INT}));
    OK(MPI_Type_free(&t));
    /* 1-D cyclic(2) over 3: rank 1 owns 2,3 and 8,9. */
    OK(MPI_Type_create_darray(3, 1, 1, g1, (int[]){MPI_DISTRIBUTE_CYCLIC}, (int[]){2}, (int[]){3},
                              MPI_ORDER_C, MPI_INT, &t));
    CHECK_BOUNDS(t, 16, 0, 40, 8, 32);
    OK(MPI_Type_free(&t));
    /* A rank with nothing: block of 4 over 3 processes of 10 elements leaves rank 2 empty
     * when blocks are 5 wide. */
    OK(MPI_Type_create_darray(3, 2, 1, g1, blk, (int[]){5}, (int[]){3}, MPI_ORDER_C, MPI_INT,
                              &t));
    CHECK_BOUNDS(t, 0, 0, 40, 0, 0);
    OK(MPI_Type_free(&t));
    /* Undistributed dimension. */
    OK(MPI_Type_create_darray(1, 0, 1, g1, (int[]){MPI_DISTRIBUTE_NONE}, dflt, (int[]){1},
                              MPI_ORDER_FORTRAN, MPI_DOUBLE, &t));
    CHECK_BOUNDS(t, 80, 0, 80, 0, 80);
    OK(MPI_Type_free(&t));
}

static void subarray_darray(void **state) { run(subarray_darray_body); }

/* ---- Names ---------------------------------------------------------------------------- */

static void names_body(int rank, int size, void *arg)
{
    MPI_Datatype t;
    char name[MPI_MAX_OBJECT_NAME], longname[300];
    int len = -1;

    OK(MPI_Type_contiguous(2, MPI_INT, &t));
    OK(MPI_Type_get_name(t, name, &len));
    CHECK_EQ(len, 0);
    CHECK(name[0] == '\0');
    OK(MPI_Type_set_name(t, "pair of ints"));
    OK(MPI_Type_get_name(t, name, &len));
    CHECK(strcmp(name, "pair of ints") == 0);
    CHECK_EQ(len, 12);
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    OK(MPI_Type_set_name(t, longname)); /* truncated (MPI-4.1 §7.8.4) */
    OK(MPI_Type_get_name(t, name, &len));
    CHECK_EQ(len, MPI_MAX_OBJECT_NAME - 1);
    OK(MPI_Type_free(&t));
}

static void names(void **state) { run(names_body); }

/* ---- Status helpers ------------------------------------------------------------------- */

static void status_body(int rank, int size, void *arg)
{
    MPI_Status st;
    MPI_Datatype s, empty, vec;
    int n = -1;
    MPI_Count nx = -1;

    memset(&st, 0, sizeof(st));
    st.mmpi_count = 12;
    OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK_EQ(n, 3);
    OK(MPI_Get_elements(&st, MPI_INT, &n));
    CHECK_EQ(n, 3);
    st.mmpi_count = 13;
    OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK_EQ(n, MPI_UNDEFINED);
    OK(MPI_Get_elements(&st, MPI_INT, &n));
    CHECK_EQ(n, MPI_UNDEFINED);

    /* struct { int; double } (size 12): elements count basic values, even in a partial one. */
    OK(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                              (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &s));
    st.mmpi_count = 28; /* two whole (24) and the int of a third */
    OK(MPI_Get_count(&st, s, &n));
    CHECK_EQ(n, MPI_UNDEFINED);
    OK(MPI_Get_elements(&st, s, &n));
    CHECK_EQ(n, 5);
    OK(MPI_Get_elements_x(&st, s, &nx));
    CHECK_EQ(nx, 5);
    st.mmpi_count = 30; /* ends inside a double */
    OK(MPI_Get_elements(&st, s, &n));
    CHECK_EQ(n, MPI_UNDEFINED);
    OK(MPI_Status_set_elements(&st, s, 3));
    CHECK_EQ(st.mmpi_count, 16);
    OK(MPI_Status_set_elements_x(&st, s, 4));
    CHECK_EQ(st.mmpi_count, 24);
    OK(MPI_Get_count(&st, s, &n));
    CHECK_EQ(n, 2);

    /* A vector of that struct: the partial element descends into the child. */
    OK(MPI_Type_vector(2, 2, 3, s, &vec)); /* signature: 4 x (int, double) */
    st.mmpi_count = 48 + 12 + 4;       /* one whole vector, one struct, one int */
    OK(MPI_Get_elements(&st, vec, &n));
    CHECK_EQ(n, 8 + 2 + 1);
    OK(MPI_Status_set_elements(&st, vec, 11));
    CHECK_EQ(st.mmpi_count, 64);
    OK(MPI_Type_free(&vec));

    /* Pair types hold two basic elements each. */
    st.mmpi_count = 16;
    OK(MPI_Get_elements(&st, MPI_2INT, &n));
    CHECK_EQ(n, 4);
    OK(MPI_Get_count(&st, MPI_2INT, &n));
    CHECK_EQ(n, 2);
    OK(MPI_Status_set_elements(&st, MPI_DOUBLE_INT, 3)); /* one pair and a double */
    CHECK_EQ(st.mmpi_count, 20);

    /* Size zero: count 0 (MPI-4.1 §3.2.5). */
    OK(MPI_Type_contiguous(0, MPI_INT, &empty));
    st.mmpi_count = 0;
    OK(MPI_Get_count(&st, empty, &n));
    CHECK_EQ(n, 0);
    OK(MPI_Get_elements(&st, empty, &n));
    CHECK_EQ(n, 0);
    OK(MPI_Status_set_elements(&st, empty, 0));
    CHECK_EQ(st.mmpi_count, 0);
    OK(MPI_Type_free(&empty));
    OK(MPI_Type_free(&s));
}

static void status_helpers(void **state) { run(status_body); }

/* ---- Addresses ---------------------------------------------------------------------- */

static void address_body(int rank, int size, void *arg)
{
    double a[4] = {0};
    MPI_Aint p0, p3;

    OK(MPI_Get_address(&a[0], &p0));
    OK(MPI_Address(&a[3], &p3));
    CHECK_EQ(p0, (MPI_Aint)(uintptr_t)&a[0]);
    CHECK_EQ(MPI_Aint_diff(p3, p0), 3 * sizeof(double));
    CHECK_EQ(MPI_Aint_add(p0, 3 * sizeof(double)), p3);
    OK(MPI_Get_address(MPI_BOTTOM, &p0));
    CHECK_EQ(p0, 0);
}

static void addresses(void **state) { run(address_body); }

/* ---- Lifetime ---------------------------------------------------------------------- */

static void lifetime_body(int rank, int size, void *arg)
{
    MPI_Datatype s, c, v, parts[2];
    int ni, na, nd, comb, sz;

    /* A heterogeneous struct, used by a contiguous type, then freed: the contiguous type keeps
     * it (MPI-4.1 §5.1.9), and get_contents still hands it out. */
    OK(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                              (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &s));
    OK(MPI_Type_contiguous(3, s, &c));
    OK(MPI_Type_vector(2, 1, 2, c, &v));
    OK(MPI_Type_free(&s));
    OK(MPI_Type_free(&c));
    OK(MPI_Type_commit(&v));
    CHECK_BOUNDS(v, 72, 0, 144, 0, 144);
    OK(MPI_Type_get_envelope(v, &ni, &na, &nd, &comb));
    OK(MPI_Type_get_contents(v, 3, 0, 1, (int[3]){0}, NULL, &c));
    OK(MPI_Type_get_contents(c, 1, 0, 1, (int[1]){0}, NULL, &s));
    OK(MPI_Type_size(s, &sz));
    CHECK_EQ(sz, 12);
    OK(MPI_Type_get_contents(s, 3, 2, 2, (int[3]){0}, (MPI_Aint[2]){0}, parts));
    CHECK_EQ(parts[0], MPI_INT);
    CHECK_EQ(parts[1], MPI_DOUBLE);
    OK(MPI_Type_free(&s));
    OK(MPI_Type_free(&c));

    /* A pending operation holds a reference of its own. */
    struct mmpi_datatype *dt = mmpi_datatype_get(mmpi_self, v);
    mmpi_datatype_retain(dt);
    OK(MPI_Type_free(&v));
    CHECK_EQ(dt->size, 72);
    mmpi_datatype_release(dt);
    mmpi_datatype_retain(mmpi_datatype_get(mmpi_self, MPI_INT)); /* predefined: no-ops */
    mmpi_datatype_release(mmpi_datatype_get(mmpi_self, MPI_INT));
}

static void lifetime(void **state) { run(lifetime_body); }

/* Several threads of one rank create, commit and free types at once (MPI_THREAD_MULTIPLE):
 * every handle must stay distinct and every type intact. */
static struct mmpi_rank *thread_rank;

static void *churn(void *arg)
{
    mmpi_self = thread_rank; /* a thread of the rank (the launcher's pthread_create does this) */
    for (int i = 0; i < 500; i++) {
        MPI_Datatype a, b;
        int sz = -1;
        OK(MPI_Type_vector(i % 7 + 1, 2, 3, MPI_INT, &a));
        OK(MPI_Type_contiguous(2, a, &b));
        OK(MPI_Type_free(&a));
        OK(MPI_Type_commit(&b));
        OK(MPI_Type_size(b, &sz));
        CHECK_EQ(sz, 16 * (i % 7 + 1));
        OK(MPI_Type_free(&b));
    }
    return NULL;
}

static void threads_body(int rank, int size, void *arg)
{
    pthread_t th[4];
    thread_rank = mmpi_self;
    for (int i = 0; i < 4; i++)
        CHECK(pthread_create(&th[i], NULL, churn, NULL) == 0);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
}

static void concurrent_creation(void **state) { run(threads_body); }

/* ---- Errors: each kind of bad input gets its class, nothing crashes ------------------- */

static void errors_body(int rank, int size, void *arg)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, u, garbage[] = {MPI_DATATYPE_NULL, 12345, -1, 0x7fffffff,
                                                         MPI_COMM_WORLD, MMPI_DATATYPE(0),
                                                         MMPI_DATATYPE(9999)};
    int n, ni, na, nd, comb, pos = 0;
    char buf[64];
    MPI_Status st;
    MPI_Aint a = 0;

    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    for (size_t i = 0; i < sizeof(garbage) / sizeof(garbage[0]); i++) {
        u = garbage[i];
        CHECK_EQ(MPI_Type_contiguous(1, u, &t), MPI_ERR_TYPE);
        CHECK_EQ(MPI_Type_size(u, &n), MPI_ERR_TYPE);
        CHECK_EQ(MPI_Type_get_extent(u, &a, &a), MPI_ERR_TYPE);
        CHECK_EQ(MPI_Type_commit(&u), MPI_ERR_TYPE);
        CHECK_EQ(MPI_Type_free(&u), MPI_ERR_TYPE);
        CHECK_EQ(MPI_Type_get_envelope(u, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
        if (u != MPI_DATATYPE_NULL) /* the null handle has a name (comm_null_names.c) */
            CHECK_EQ(MPI_Type_get_name(u, buf, &n), MPI_ERR_TYPE);
        CHECK_EQ(MPI_Pack(buf, 1, u, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    }
    CHECK_EQ(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_EQ(MPI_Type_vector(-2, 1, 1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_EQ(MPI_Type_vector(2, -1, 1, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_indexed(2, (int[]){1, -1}, (int[]){0, 1}, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_indexed(2, NULL, (int[]){0, 1}, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_create_hindexed(-1, NULL, NULL, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_EQ(MPI_Type_create_indexed_block(1, -3, (int[]){0}, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                                    (MPI_Datatype[]){MPI_INT, 777}, &t),
             MPI_ERR_TYPE);
    CHECK_EQ(MPI_Type_contiguous(1, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_commit(NULL), MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_size(MPI_INT, NULL), MPI_ERR_ARG);

    /* Subarray and darray geometry. */
    int sz[] = {4}, sub[] = {2}, st0[] = {0};
    CHECK_EQ(MPI_Type_create_subarray(1, sz, sub, st0, 99, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_create_subarray(1, sz, sub, (int[]){3}, MPI_ORDER_C, MPI_INT, &t),
             MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_create_subarray(1, sz, (int[]){5}, st0, MPI_ORDER_C, MPI_INT, &t),
             MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_create_subarray(0, sz, sub, st0, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_DIMS);
    int g[] = {8}, d[] = {MPI_DISTRIBUTE_BLOCK}, dd[] = {MPI_DISTRIBUTE_DFLT_DARG}, p[] = {2};
    CHECK_EQ(MPI_Type_create_darray(2, 0, 1, g, (int[]){42}, dd, p, MPI_ORDER_C, MPI_INT, &t),
             MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_create_darray(2, 2, 1, g, d, dd, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_create_darray(3, 0, 1, g, d, dd, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_create_darray(2, 0, 1, g, d, (int[]){3}, p, MPI_ORDER_C, MPI_INT, &t),
             MPI_ERR_ARG); /* 3 * 2 < 8 */
    CHECK_EQ(MPI_Type_create_darray(2, 0, 1, g, d, dd, p, 0, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_create_darray(2, 0, 1, g, (int[]){MPI_DISTRIBUTE_NONE}, dd, p, MPI_ORDER_C,
                                    MPI_INT, &t),
             MPI_ERR_ARG);

    /* Freeing: predefined types, twice, and the handle after a successful free. */
    u = MPI_INT;
    CHECK_EQ(MPI_Type_free(&u), MPI_ERR_TYPE);
    CHECK_EQ(u, MPI_INT);
    OK(MPI_Type_contiguous(2, MPI_INT, &t));
    u = t;
    OK(MPI_Type_free(&t));
    CHECK_EQ(MPI_Type_free(&u), MPI_ERR_TYPE);
    CHECK_EQ(MPI_Type_size(u, &n), MPI_ERR_TYPE);

    /* Communication needs a committed type; constructors do not. */
    OK(MPI_Type_contiguous(2, MPI_INT, &t));
    pos = 0;
    CHECK_EQ(MPI_Pack(buf, 1, t, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK(mmpi_datatype_check(mmpi_self, t, &(struct mmpi_datatype *){NULL}) == MPI_ERR_TYPE);
    OK(MPI_Type_vector(2, 1, 2, t, &u));
    OK(MPI_Type_free(&u));
    OK(MPI_Type_commit(&t));
    OK(MPI_Type_commit(&t)); /* again: no-op */
    CHECK_EQ(MPI_Pack(buf, 1, t, buf, 64, &pos, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_EQ(MPI_Pack(buf, -1, t, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_EQ(MPI_Pack(buf, 9, t, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK_EQ(MPI_Pack(buf, 1, t, buf, 64, NULL, MPI_COMM_WORLD), MPI_ERR_ARG);
    pos = 60;
    CHECK_EQ(MPI_Pack(buf, 1, t, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK_EQ(pos, 60);
    pos = 60;
    CHECK_EQ(MPI_Unpack(buf, 64, &pos, buf, 1, t, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK_EQ(MPI_Pack_size(1, t, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_EQ(MPI_Pack_external("native", buf, 1, t, buf, 64, &a), MPI_ERR_ARG);
    CHECK_EQ(MPI_Pack_external_size("external32", -1, t, &a), MPI_ERR_COUNT);

    /* Decoding. */
    CHECK_EQ(MPI_Type_get_contents(MPI_INT, 0, 0, 0, NULL, NULL, NULL), MPI_ERR_TYPE);
    CHECK_EQ(MPI_Type_get_contents(t, 0, 0, 1, NULL, NULL, &u), MPI_ERR_ARG); /* ints short */
    CHECK_EQ(MPI_Type_get_envelope(t, NULL, &na, &nd, &comb), MPI_ERR_ARG);
    MPI_Datatype f90;
    CHECK_EQ(MPI_Type_create_f90_integer(9, &f90), MPI_SUCCESS);
    CHECK_EQ(MPI_Type_set_name(f90, "mine"), MPI_ERR_TYPE); /* shared by every rank */
    CHECK_EQ(MPI_Type_set_name(t, NULL), MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &u), MPI_ERR_ARG);
    CHECK_EQ(MPI_Type_match_size(77, 4, &u), MPI_ERR_ARG);

    /* Status helpers. */
    memset(&st, 0, sizeof(st));
    CHECK_EQ(MPI_Get_count(MPI_STATUS_IGNORE, MPI_INT, &n), MPI_ERR_ARG);
    CHECK_EQ(MPI_Get_elements(MPI_STATUS_IGNORE, MPI_INT, &n), MPI_ERR_ARG);
    CHECK_EQ(MPI_Get_count(&st, MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE);
    CHECK_EQ(MPI_Status_set_elements(MPI_STATUS_IGNORE, MPI_INT, 1), MPI_ERR_ARG);
    CHECK_EQ(MPI_Status_set_elements(&st, MPI_INT, -1), MPI_ERR_COUNT);
    CHECK_EQ(MPI_Get_address(buf, NULL), MPI_ERR_ARG);
    OK(MPI_Type_free(&t));
}

static void error_classes(void **state) { run(errors_body); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(predefined_types),
        cmocka_unit_test(constructors),
        cmocka_unit_test(subarray_darray),
        cmocka_unit_test(names),
        cmocka_unit_test(status_helpers),
        cmocka_unit_test(addresses),
        cmocka_unit_test(lifetime),
        cmocka_unit_test(concurrent_creation),
        cmocka_unit_test(error_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
