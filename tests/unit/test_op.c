/*
 * test_op.c: unit tests of the reduction operations (mini_mpi/op/): the op/type validity table
 * of MPI-4.1 §6.9.2 against an independent transcription, every kernel class (integer
 * wrap-around, logical and bitwise ops, floating point including REAL16, complex including
 * COMPLEX32, MINLOC/MAXLOC with ties on padded pairs), applying ops to non-contiguous and
 * mixed layouts (chunked packing, gaps untouched), the packed form, user functions with the
 * caller's datatype handle, the MPI_Op_* / MPI_Reduce_local entry points, and the inline word
 * ops of op/word.h against the kernels.
 *
 * Predefined ops and types need no rank: those tests call the library directly. Derived types
 * and user ops do: their bodies run in a one-rank world and record failures, asserted after.
 */
#include <complex.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "datatype/datatype.h"
#include "op/op.h"
#include "op/word.h"
#include "unit_world.h"

static const struct mmpi_datatype *dtp(MPI_Datatype h)
{
    return mmpi_datatype_get(NULL, h);
}

static struct mmpi_op *opp(MPI_Op h)
{
    return mmpi_op_get(NULL, h);
}

/* inout = in op inout on n elements of a predefined type. */
static void apply(MPI_Op op, const void *in, void *inout, size_t n, MPI_Datatype t)
{
    mmpi_op_apply(opp(op), in, inout, n, dtp(t), t);
}

/* ---- The validity table, transcribed from MPI-4.1 §6.9.2 independently of kernels.c ----- */

enum { CI = 1, FI = 2, ML = 4, FP = 8, CX = 16, LG = 32, BY = 64, PR = 128, NONE = 0 };

static int group_of(MPI_Datatype t)
{
    const MPI_Datatype cint[] = {MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_SHORT,
                                 MPI_UNSIGNED_SHORT, MPI_INT, MPI_UNSIGNED, MPI_LONG,
                                 MPI_UNSIGNED_LONG, MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG,
                                 MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T,
                                 MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T};
    const MPI_Datatype fint[] = {MPI_INTEGER,  MPI_INTEGER1, MPI_INTEGER2,
                                 MPI_INTEGER4, MPI_INTEGER8, MPI_INTEGER16};
    const MPI_Datatype multi[] = {MPI_AINT, MPI_OFFSET, MPI_COUNT};
    const MPI_Datatype fp[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_REAL,
                               MPI_DOUBLE_PRECISION, MPI_REAL4, MPI_REAL8, MPI_REAL16};
    const MPI_Datatype cx[] = {
        MPI_C_COMPLEX, MPI_C_FLOAT_COMPLEX,   MPI_C_DOUBLE_COMPLEX,   MPI_C_LONG_DOUBLE_COMPLEX,
        MPI_COMPLEX,   MPI_DOUBLE_COMPLEX,    MPI_COMPLEX8,           MPI_COMPLEX16,
        MPI_COMPLEX32, MPI_CXX_FLOAT_COMPLEX, MPI_CXX_DOUBLE_COMPLEX, MPI_CXX_LONG_DOUBLE_COMPLEX};
    const MPI_Datatype lg[] = {MPI_C_BOOL, MPI_LOGICAL, MPI_CXX_BOOL};
    const MPI_Datatype pr[] = {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT,
                               MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, MPI_2INTEGER, MPI_2REAL,
                               MPI_2DOUBLE_PRECISION};
#define IN(list, g)                                                  \
    for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); i++)      \
        if (list[i] == t)                                            \
            return g;
    IN(cint, CI) IN(fint, FI) IN(multi, ML) IN(fp, FP) IN(cx, CX) IN(lg, LG) IN(pr, PR)
    if (t == MPI_BYTE)
        return BY;
    return NONE; /* MPI_WCHAR, MPI_PACKED, MPI_CHARACTER */
#undef IN
}

static void validity_table(void **state)
{
    const struct {
        MPI_Op op;
        int groups;
    } table[] = {
        {MPI_MAX, CI | FI | ML | FP},      {MPI_MIN, CI | FI | ML | FP},
        {MPI_SUM, CI | FI | ML | FP | CX}, {MPI_PROD, CI | FI | ML | FP | CX},
        {MPI_LAND, CI | ML | LG},          {MPI_LOR, CI | ML | LG},
        {MPI_LXOR, CI | ML | LG},          {MPI_BAND, CI | FI | ML | BY},
        {MPI_BOR, CI | FI | ML | BY},      {MPI_BXOR, CI | FI | ML | BY},
        {MPI_MINLOC, PR},                  {MPI_MAXLOC, PR},
    };
    for (int i = 1; i < MMPI_DATATYPE_PREDEFINED_COUNT; i++) {
        MPI_Datatype t = MMPI_DATATYPE(i);
        const struct mmpi_datatype *d = dtp(t);
        assert_non_null(d);
        if (d->size == 0)
            continue; /* MPI_LB, MPI_UB: no data, so every op applies (op.h) */
        for (size_t o = 0; o < sizeof(table) / sizeof(table[0]); o++) {
            int want = (table[o].groups & group_of(t)) ? MPI_SUCCESS : MPI_ERR_OP;
            if (mmpi_op_check(opp(table[o].op), d) != want)
                fail_msg("op %d on %s: expected %s", table[o].op & 0xff, d->name,
                         want ? "MPI_ERR_OP" : "MPI_SUCCESS");
        }
        /* RMA's ops take any predefined type. */
        assert_int_equal(mmpi_op_check(opp(MPI_REPLACE), d), MPI_SUCCESS);
        assert_int_equal(mmpi_op_check(opp(MPI_NO_OP), d), MPI_SUCCESS);
    }
    assert_null(opp(MPI_OP_NULL));
    assert_null(opp(MMPI_OP(0)));
    assert_null(opp(MMPI_OP(MMPI_OP_PREDEFINED_COUNT)));
    assert_null(opp(MPI_INT)); /* a handle of another kind */
    assert_true(mmpi_op_is_rma_only(opp(MPI_REPLACE)));
    assert_false(mmpi_op_is_rma_only(opp(MPI_SUM)));
    assert_true(mmpi_op_is_commutative(opp(MPI_MAXLOC)));
    assert_false(mmpi_op_is_commutative(opp(MPI_REPLACE)));
}

/* ---- Kernel classes ------------------------------------------------------------------------ */

static void integer_kernels(void **state)
{
    int8_t a8[3] = {100, -100, 7}, b8[3] = {100, -100, -7};
    apply(MPI_SUM, a8, b8, 3, MPI_INT8_T); /* wraps, as two's complement */
    assert_int_equal(b8[0], -56);
    assert_int_equal(b8[1], 56);
    assert_int_equal(b8[2], 0);
    int ai[2] = {INT_MAX, INT_MIN}, bi[2] = {2, -1};
    apply(MPI_PROD, ai, bi, 2, MPI_INT);
    assert_int_equal(bi[0], -2);
    assert_int_equal(bi[1], INT_MIN);
    unsigned short us[1] = {65535}, us2[1] = {65535};
    apply(MPI_PROD, us, us2, 1, MPI_UNSIGNED_SHORT);
    assert_int_equal(us2[0], 1);
    long long x[4] = {5, -3, 0, 12}, y[4] = {-2, -9, 0, 10};
    apply(MPI_MAX, x, y, 4, MPI_LONG_LONG);
    assert_true(y[0] == 5 && y[1] == -3 && y[2] == 0 && y[3] == 12);
    long long m[2] = {5, -3}, n[2] = {-2, 9};
    apply(MPI_MIN, m, n, 2, MPI_INTEGER8);
    assert_true(n[0] == -2 && n[1] == -3);
    int l1[4] = {0, 0, 5, -3}, l2[4] = {0, 4, 0, 2};
    int t[4];
    memcpy(t, l2, sizeof(t));
    apply(MPI_LAND, l1, t, 4, MPI_INT);
    assert_true(t[0] == 0 && t[1] == 0 && t[2] == 0 && t[3] == 1);
    memcpy(t, l2, sizeof(t));
    apply(MPI_LOR, l1, t, 4, MPI_INT);
    assert_true(t[0] == 0 && t[1] == 1 && t[2] == 1 && t[3] == 1);
    memcpy(t, l2, sizeof(t));
    apply(MPI_LXOR, l1, t, 4, MPI_INT);
    assert_true(t[0] == 0 && t[1] == 1 && t[2] == 1 && t[3] == 0);
    uint32_t b1[1] = {0xf0f0u}, b2[1] = {0xff00u};
    apply(MPI_BXOR, b1, b2, 1, MPI_UINT32_T);
    assert_int_equal(b2[0], 0x0ff0u);
    unsigned char c1[2] = {0x0f, 0xaa}, c2[2] = {0xf1, 0x0f};
    apply(MPI_BAND, c1, c2, 2, MPI_BYTE);
    assert_true(c2[0] == 0x01 && c2[1] == 0x0a);
    MPI_Aint p1[1] = {1 << 20}, p2[1] = {3};
    apply(MPI_BOR, p1, p2, 1, MPI_AINT);
    assert_true(p2[0] == ((1 << 20) | 3));
    char ch1[1] = {3}, ch2[1] = {4};
    apply(MPI_SUM, ch1, ch2, 1, MPI_CHAR); /* an MPICH extension we keep */
    assert_int_equal(ch2[0], 7);
}

static void float_and_logical_kernels(void **state)
{
    double d1[3] = {1.5, -2.0, 3.0}, d2[3] = {2.0, -3.0, 0.5};
    apply(MPI_PROD, d1, d2, 3, MPI_DOUBLE);
    assert_true(d2[0] == 3.0 && d2[1] == 6.0 && d2[2] == 1.5);
    float f1[2] = {1.0f, -5.0f}, f2[2] = {0.5f, 2.0f};
    apply(MPI_MAX, f1, f2, 2, MPI_REAL);
    assert_true(f2[0] == 1.0f && f2[1] == 2.0f);
    long double ld1[2] = {1.25L, 2.0L}, ld2[2] = {0.25L, -1.0L};
    apply(MPI_SUM, ld1, ld2, 2, MPI_LONG_DOUBLE);
    assert_true(ld2[0] == 1.5L && ld2[1] == 1.0L);
    _Bool b1[4] = {0, 0, 1, 1}, b2[4] = {0, 1, 0, 1};
    apply(MPI_LXOR, b1, b2, 4, MPI_C_BOOL);
    assert_true(!b2[0] && b2[1] && b2[2] && !b2[3]);
    int g1[2] = {1, 0}, g2[2] = {7, 0};
    apply(MPI_LOR, g1, g2, 2, MPI_LOGICAL);
    assert_true(g2[0] == 1 && g2[1] == 0);
    double _Complex z1[1] = {1.0 + 2.0 * I}, z2[1] = {3.0 + 4.0 * I};
    apply(MPI_PROD, z1, z2, 1, MPI_C_DOUBLE_COMPLEX);
    assert_true(creal(z2[0]) == -5.0 && cimag(z2[0]) == 10.0);
    float _Complex w1[1] = {1.0f + 1.0f * I}, w2[1] = {2.0f - 1.0f * I};
    apply(MPI_SUM, w1, w2, 1, MPI_COMPLEX);
    assert_true(crealf(w2[0]) == 3.0f && cimagf(w2[0]) == 0.0f);
#ifdef __SIZEOF_FLOAT128__
    __float128 q1[2] = {1.5Q, 4}, q2[2] = {2, -1};
    apply(MPI_PROD, q1, q2, 2, MPI_REAL16);
    assert_true(q2[0] == 3 && q2[1] == -4);
    struct {
        __float128 re, im;
    } c1 = {1, 2}, c2 = {3, 4};
    apply(MPI_PROD, &c1, &c2, 1, MPI_COMPLEX32);
    assert_true(c2.re == -5 && c2.im == 10);
    apply(MPI_SUM, &c1, &c2, 1, MPI_COMPLEX32);
    assert_true(c2.re == -4 && c2.im == 12);
#endif
}

/* MINLOC/MAXLOC: better value wins, a tie keeps the smaller index; on padded pairs too (the
 * kernels see the packed 12-byte form of {double, int}). */
static void pair_kernels(void **state)
{
    struct {
        double v;
        int i;
    } a[5] = {{1, 4}, {2, 1}, {3, 9}, {3, 2}, {-1, 0}}, b[5] = {{1, 3}, {5, 0}, {3, 1},
                                                                {3, 7}, {-2, 8}};
    apply(MPI_MINLOC, a, b, 5, MPI_DOUBLE_INT);
    assert_true(b[0].v == 1 && b[0].i == 3);
    assert_true(b[1].v == 2 && b[1].i == 1);
    assert_true(b[2].v == 3 && b[2].i == 1);
    assert_true(b[3].v == 3 && b[3].i == 2);
    assert_true(b[4].v == -2 && b[4].i == 8);
    int c[4] = {7, 5, 7, 2}, d[4] = {6, 1, 7, 3};
    apply(MPI_MAXLOC, c, d, 2, MPI_2INT);
    assert_true(d[0] == 7 && d[1] == 5 && d[2] == 7 && d[3] == 2);
    struct {
        short v;
        int i;
    } s1[1] = {{-4, 2}}, s2[1] = {{-4, 1}};
    apply(MPI_MAXLOC, s1, s2, 1, MPI_SHORT_INT);
    assert_true(s2[0].v == -4 && s2[0].i == 1);
    float r1[2] = {2.5f, 3.0f}, r2[2] = {2.5f, 1.0f};
    apply(MPI_MINLOC, r1, r2, 1, MPI_2REAL);
    assert_true(r2[0] == 2.5f && r2[1] == 1.0f);
}

/* REPLACE copies, NO_OP leaves inout alone. */
static void rma_ops(void **state)
{
    int a[3] = {1, 2, 3}, b[3] = {9, 9, 9};
    apply(MPI_NO_OP, a, b, 3, MPI_INT);
    assert_true(b[0] == 9 && b[2] == 9);
    apply(MPI_REPLACE, a, b, 3, MPI_INT);
    assert_true(b[0] == 1 && b[1] == 2 && b[2] == 3);
}

/* ---- Derived types and user functions (in a one-rank world) ------------------------------ */

static int nfail;
static char failure[256];
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond) && nfail++ == 0)                                                 \
            snprintf(failure, sizeof(failure), "line %d: %s", __LINE__, #cond);       \
    } while (0)

static void run(unit_rank_body *body)
{
    nfail = 0;
    assert_int_equal(unit_world_run(1, body, NULL), 0);
    if (nfail)
        fail_msg("%d failed checks; first: %s", nfail, failure);
}

#define NV 5000 /* vector elements: more than one pack chunk */

static void derived_body(int rank, int size, void *arg)
{
    MPI_Datatype vec, pair3;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec); /* ints 0 and 3 of every 4 */
    MPI_Type_commit(&vec);
    MPI_Type_contiguous(2, MPI_INT, &pair3);
    MPI_Type_commit(&pair3);
    const struct mmpi_datatype *v = mmpi_datatype_get(mmpi_self, vec);
    const struct mmpi_datatype *c = mmpi_datatype_get(mmpi_self, pair3);
    CHECK(mmpi_op_check(opp(MPI_SUM), v) == MPI_SUCCESS);
    CHECK(mmpi_op_check(opp(MPI_MINLOC), v) == MPI_ERR_OP);
    CHECK(!v->contiguous && c->contiguous);

    int *a = malloc(4 * NV * sizeof(int)), *b = malloc(4 * NV * sizeof(int));
    for (int i = 0; i < 4 * NV; i++)
        a[i] = i, b[i] = -1000000;
    for (int e = 0; e < NV; e++)
        b[4 * e] = 1, b[4 * e + 3] = 2;
    /* Same layout, non-contiguous: chunked pack/kernel/unpack, gaps untouched. */
    mmpi_op_apply(opp(MPI_SUM), a, b, NV, v, vec);
    int ok = 1;
    for (int e = 0; e < NV; e++)
        ok &= b[4 * e] == 4 * e + 1 && b[4 * e + 3] == 4 * e + 5 && b[4 * e + 1] == -1000000 &&
              b[4 * e + 2] == -1000000;
    CHECK(ok);

    /* Mixed layouts: in as the vector, inout as pairs of contiguous ints. */
    int *p = malloc(2 * NV * sizeof(int));
    for (int i = 0; i < 2 * NV; i++)
        p[i] = 10;
    mmpi_op_apply_from(opp(MPI_MAX), a, v, p, NV, c, pair3);
    ok = 1;
    for (int e = 0; e < NV; e++)
        ok &= p[2 * e] == (4 * e > 10 ? 4 * e : 10) && p[2 * e + 1] == (4 * e + 3 > 10 ? 4 * e + 3 : 10);
    CHECK(ok);

    /* Packed inout from a typed (vector) input. */
    int *packed = calloc(2 * NV, sizeof(int));
    mmpi_op_apply_packed(opp(MPI_BOR), a, v, packed, NV, v, vec);
    ok = 1;
    for (int e = 0; e < NV; e++)
        ok &= packed[2 * e] == 4 * e && packed[2 * e + 1] == 4 * e + 3;
    CHECK(ok);
    /* And packed in, packed inout. */
    mmpi_op_apply_packed(opp(MPI_SUM), packed, NULL, packed, NV, v, vec);
    CHECK(packed[2] == 8 && packed[3] == 14);

    free(a), free(b), free(p), free(packed);
    MPI_Type_free(&vec);
    MPI_Type_free(&pair3);
}

static void derived_types(void **state)
{
    run(derived_body);
}

/* A non-commutative user function: inout = in - 2*inout, on the user's vector type (ints 0
 * and 2 of every 3), checking it is called with the caller's own handle. */
static MPI_Datatype user_vec;
static int user_calls, user_bad_type;

static void minus_twice(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    user_calls++;
    if (*dt != user_vec) {
        user_bad_type++;
        return;
    }
    int *a = in, *b = inout;
    for (int e = 0; e < *len; e++) {
        b[3 * e] = a[3 * e] - 2 * b[3 * e];
        b[3 * e + 2] = a[3 * e + 2] - 2 * b[3 * e + 2];
    }
}

static void user_body(int rank, int size, void *arg)
{
    MPI_Op op, op2;
    int commute = -1;
    MPI_Type_vector(2, 1, 2, MPI_INT, &user_vec);
    MPI_Type_commit(&user_vec);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Op_create(minus_twice, 0, &op) == MPI_SUCCESS);
    CHECK(MPI_Op_commutative(op, &commute) == MPI_SUCCESS && commute == 0);
    struct mmpi_op *o = mmpi_op_get(mmpi_self, op);
    CHECK(o && o->index == MMPI_OPI_USER && !mmpi_op_is_commutative(o));
    CHECK(o && !mmpi_op_packed_ok(o, mmpi_datatype_get(mmpi_self, user_vec)));

    int a[6] = {10, 77, 20, 30, 77, 40}, b[6] = {1, -5, 2, 3, -5, 4};
    CHECK(MPI_Reduce_local(a, b, 2, user_vec, op) == MPI_SUCCESS);
    CHECK(b[0] == 8 && b[2] == 16 && b[3] == 24 && b[5] == 32 && b[1] == -5 && b[4] == -5);
    CHECK(user_calls == 1 && user_bad_type == 0);

    /* From another layout (pairs of plain ints): copied into the user's layout first. */
    int plain[4] = {1, 2, 3, 4};
    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_commit(&two);
    o = mmpi_op_get(mmpi_self, op);
    mmpi_op_apply_from(o, plain, mmpi_datatype_get(mmpi_self, two), b, 2,
                       mmpi_datatype_get(mmpi_self, user_vec), user_vec);
    MPI_Type_free(&two);
    CHECK(b[0] == 1 - 16 && b[2] == 2 - 32 && b[3] == 3 - 48 && b[5] == 4 - 64 && b[1] == -5);
    CHECK(user_calls == 2 && user_bad_type == 0);

    /* The reference held by a pending operation keeps a freed op alive. */
    mmpi_op_retain(o);
    op2 = op;
    CHECK(MPI_Op_free(&op) == MPI_SUCCESS && op == MPI_OP_NULL);
    CHECK(MPI_Op_free(&op2) == MPI_ERR_OP);
    CHECK(MPI_Op_commutative(op2, &commute) == MPI_ERR_OP);
    CHECK(o->fn == minus_twice);
    mmpi_op_release(o);

    /* Entry point errors. */
    MPI_Op sum = MPI_SUM;
    CHECK(MPI_Op_free(&sum) == MPI_ERR_OP);
    CHECK(MPI_Op_create(minus_twice, 1, NULL) == MPI_ERR_ARG);
    CHECK(MPI_Reduce_local(a, b, 1, MPI_INT, MPI_MINLOC) == MPI_ERR_OP);
    CHECK(MPI_Reduce_local(a, b, 1, MPI_INT, MPI_REPLACE) == MPI_ERR_OP);
    CHECK(MPI_Reduce_local(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM) == MPI_ERR_BUFFER);
    CHECK(MPI_Reduce_local(NULL, b, 1, MPI_INT, MPI_SUM) == MPI_ERR_BUFFER);
    CHECK(MPI_Reduce_local(NULL, NULL, 0, MPI_INT, MPI_SUM) == MPI_SUCCESS);
    int x = 3, y = 4;
    CHECK(MPI_Reduce_local(&x, &y, 1, MPI_INT, MPI_PROD) == MPI_SUCCESS && y == 12);
    MPI_Type_free(&user_vec);
}

/* ---- Word ops (op/word.h) ------------------------------------------------------------------ */

static bool is_nan(uint64_t w, size_t size)
{
    if (size == 4) {
        float f;
        memcpy(&f, &w, 4);
        return f != f;
    }
    double x;
    memcpy(&x, &w, 8);
    return x != x;
}

/* Every predefined (op, type) pair: a word op exactly for SUM/MAX/MIN on 4- and 8-byte
 * integers, float and double, and then the same bits as the kernel on awkward values (wrap,
 * signs, infinities, NaN, -0.0) in the word's first bytes. */
static void word_ops(void **state)
{
    (void)state;
    static const uint64_t values[] = {
        0, 1, 0x7fffffffULL, 0x80000000ULL, 0xffffffffULL, 0x7fffffffffffffffULL,
        0x8000000000000000ULL, 0xffffffffffffffffULL, 0x3ff0000000000000ULL /* 1.0 */,
        0xbff8000000000000ULL /* -1.5 */, 0x7ff0000000000000ULL /* inf */,
        0x7ff8000000000001ULL /* NaN */, 0x8000000000000000ULL /* -0.0 */,
        0x3f800000ULL /* 1.0f */, 0xff800000ULL /* -inf f */, 0x7fc00001ULL /* NaN f */,
        0x80000000ULL /* -0.0f */, 0x4049000040490000ULL,
    };
    const size_t nv = sizeof(values) / sizeof(values[0]);
    int words = 0;
    for (int o = 1; o < MMPI_OP_PREDEFINED_COUNT; o++) {
        for (int i = 1; i < MMPI_DATATYPE_PREDEFINED_COUNT; i++) {
            MPI_Datatype t = MMPI_DATATYPE(i);
            const struct mmpi_datatype *d = dtp(t);
            int word = mmpi_op_word_for(o, t);
            mmpi_op_kernel *kernel = mmpi_op_kernel_for(o, t);
            bool expect = kernel && d->basic_count == 1 &&
                          (o == MMPI_OPI_SUM || o == MMPI_OPI_MAX || o == MMPI_OPI_MIN) &&
                          (d->size == 4 || d->size == 8) &&
                          (mmpi_op_check(opp(MPI_BAND), d) == MPI_SUCCESS || /* integers */
                           t == MPI_FLOAT || t == MPI_DOUBLE || t == MPI_REAL ||
                           t == MPI_DOUBLE_PRECISION || t == MPI_REAL4 || t == MPI_REAL8);
            if ((word != 0) != expect)
                fail_msg("op %d on %s: word op %d, expected %s", o, d->name, word,
                         expect ? "one" : "none");
            if (!word)
                continue;
            words++;
            /* Which NaN a sum of two NaNs keeps depends on the compiler's operand order (MPI
             * does not say; every member folds with the same code, so they still agree). */
            bool is_float = mmpi_op_check(opp(MPI_BAND), d) != MPI_SUCCESS;
            for (size_t a = 0; a < nv; a++) {
                for (size_t b = 0; b < nv; b++) {
                    /* Only the element's bytes are defined; the rest of the word is zero. */
                    uint64_t in = 0, by_kernel = 0, by_word;
                    memcpy(&in, &values[a], d->size);
                    memcpy(&by_kernel, &values[b], d->size);
                    by_word = by_kernel;
                    kernel(&in, &by_kernel, 1);
                    mmpi_op_word_apply(word, in, &by_word);
                    if (by_word != by_kernel && !(is_float && is_nan(by_word, d->size) &&
                                                  is_nan(by_kernel, d->size)))
                        fail_msg("op %d on %s: %#llx op %#llx gives %#llx, the kernel %#llx", o,
                                 d->name, (unsigned long long)in, (unsigned long long)values[b],
                                 (unsigned long long)by_word, (unsigned long long)by_kernel);
                }
            }
        }
    }
    assert_true(words >= 3 * 12); /* int, long, float, double and their aliases at least */
    assert_int_equal(mmpi_op_word_for(MMPI_OPI_SUM, MPI_DATATYPE_NULL), 0);
    assert_int_equal(mmpi_op_word_for(MMPI_OPI_USER, MPI_INT), 0);
}

static void user_ops(void **state)
{
    run(user_body);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(validity_table),
        cmocka_unit_test(integer_kernels),
        cmocka_unit_test(float_and_logical_kernels),
        cmocka_unit_test(pair_kernels),
        cmocka_unit_test(rma_ops),
        cmocka_unit_test(derived_types),
        cmocka_unit_test(user_ops),
        cmocka_unit_test(word_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
