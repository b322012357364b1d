/* coll_ops.c: every predefined reduction operation on every type MPI-4.1 §6.9.2 defines it for
 * (C and Fortran integers, multi-language types, floating point, logical, complex, byte;
 * MINLOC/MAXLOC on every pair type; the logical operations on the multi-language types too, as
 * in MPICH), through MPI_Allreduce, MPI_Reduce_local and MPI_Ireduce, against a sequential
 * reference; every undefined pair, MPI_REPLACE/MPI_NO_OP in a collective, and a mixed struct
 * type give MPI_ERR_OP, aliased MPI_Reduce_local buffers MPI_ERR_BUFFER; user ops:
 * MPI_Op_create, MPI_Op_commutative, MPI_Op_free (a freed or predefined op cannot be freed), a
 * user op on a struct type. */
#include <complex.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mtest.h"

#define N 3

static int rank, size;

enum { CINT = 1, FINT = 2, MULTI = 4, FLT = 8, CPLX = 16, LOGIC = 32, BYTE = 64, PAIR = 128 };

static const struct {
    MPI_Op op;
    const char *name;
    int groups;
} ops[] = {
    {MPI_MAX, "MAX", CINT | FINT | MULTI | FLT},
    {MPI_MIN, "MIN", CINT | FINT | MULTI | FLT},
    {MPI_SUM, "SUM", CINT | FINT | MULTI | FLT | CPLX},
    {MPI_PROD, "PROD", CINT | FINT | MULTI | FLT | CPLX},
    {MPI_LAND, "LAND", CINT | MULTI | LOGIC},
    {MPI_LOR, "LOR", CINT | MULTI | LOGIC},
    {MPI_LXOR, "LXOR", CINT | MULTI | LOGIC},
    {MPI_BAND, "BAND", CINT | FINT | MULTI | BYTE},
    {MPI_BOR, "BOR", CINT | FINT | MULTI | BYTE},
    {MPI_BXOR, "BXOR", CINT | FINT | MULTI | BYTE},
    {MPI_MINLOC, "MINLOC", PAIR},
    {MPI_MAXLOC, "MAXLOC", PAIR},
};
#define NOPS (int)(sizeof(ops) / sizeof(ops[0]))

/* Runs op on N elements: Allreduce into out, and Ireduce to the last rank into out2 (left
 * untouched elsewhere). Returns the error class of the Allreduce. */
static int run(const void *in, void *out, void *out2, MPI_Datatype dt, MPI_Op op)
{
    MPI_Request req;
    int err = MPI_Allreduce(in, out, N, dt, op, MPI_COMM_WORLD);
    if (err != MPI_SUCCESS)
        return err;
    CHECK(MPI_Ireduce(in, out2, N, dt, op, size - 1, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    return err;
}

/* ---- integer, floating, logical and byte types: one test function per C type ----------- */

/* Input element k of rank r; small positive values so that every op is interesting. */
static int ival(int r, int k)
{
    return ((r + 2 * k) % 5) + (k == 2 ? 0 : 1);
}
/* Floating point: powers of two, so that products are exact in any order. */
static double fval(int r, int k)
{
    return (double)(1 << ((r + 2 * k) % 3)) * 0.5;
}
/* The reference for a op b (a from the lower rank), in the type's own arithmetic. */
#define REF(op, a, b, ct)                                                                     \
    ((op) == MPI_MAX    ? ((a) > (b) ? (a) : (b))                                             \
     : (op) == MPI_MIN  ? ((a) < (b) ? (a) : (b))                                             \
     : (op) == MPI_SUM  ? (ct)((a) + (b))                                                     \
     : (op) == MPI_PROD ? (ct)((a) * (b))                                                     \
     : (op) == MPI_LAND ? (ct)((a) && (b))                                                    \
     : (op) == MPI_LOR  ? (ct)((a) || (b))                                                    \
     : (ct)(!(a) != !(b)))
#define LREF(op, a, b, ct)                                                                    \
    ((op) == MPI_LAND ? (ct)((a) && (b)) : (op) == MPI_LOR ? (ct)((a) || (b))                 \
     : (ct)(!(a) != !(b)))
#define IREF(op, a, b, ct)                                                                    \
    ((op) == MPI_BAND ? (ct)((a) & (b)) : (op) == MPI_BOR ? (ct)((a) | (b))                   \
     : (op) == MPI_BXOR ? (ct)((a) ^ (b)) : REF(op, a, b, ct))

#define TYPE_TEST(h, ct, tag, group, refm, VAL)                                                    \
    static void test_##tag(void)                                                              \
    {                                                                                         \
        for (int o = 0; o < NOPS; o++) {                                                      \
            ct in[N], out[N], out2[N], want[N], l0[N], l1[N];                                 \
            MPI_Op op = ops[o].op;                                                            \
            for (int k = 0; k < N; k++) {                                                     \
                in[k] = (ct)VAL(rank, k);                                                    \
                want[k] = (ct)VAL(0, k);                                                     \
                for (int r = 1; r < size; r++)                                                \
                    want[k] = refm(op, want[k], (ct)VAL(r, k), ct);                          \
                l0[k] = (ct)VAL(0, k);                                                       \
                l1[k] = (ct)VAL(1, k);                                                       \
            }                                                                                 \
            int valid = (ops[o].groups & (group)) != 0;                                       \
            int err = run(in, out, out2, h, op);                                              \
            if (!valid) {                                                                     \
                if (err != MPI_ERR_OP)                                                        \
                    fprintf(stderr, "%s on %s: %d, want MPI_ERR_OP\n", ops[o].name, #h, err);  \
                CHECK(err == MPI_ERR_OP);                                                     \
                CHECK(MPI_Reduce_local(l0, l1, N, h, op) == MPI_ERR_OP);                      \
                continue;                                                                     \
            }                                                                                 \
            CHECK(err == MPI_SUCCESS);                                                        \
            for (int k = 0; k < N; k++)                                                       \
                if (out[k] != want[k] || (rank == size - 1 && out2[k] != want[k])) {          \
                    fprintf(stderr, "rank %d: %s on %s wrong\n", rank, ops[o].name, #h);      \
                    CHECK(0);                                                                 \
                    break;                                                                    \
                }                                                                             \
            CHECK(MPI_Reduce_local(l0, l1, N, h, op) == MPI_SUCCESS);                         \
            for (int k = 0; k < N; k++)                                                       \
                CHECK(l1[k] == refm(op, (ct)VAL(0, k), (ct)VAL(1, k), ct));                 \
        }                                                                                     \
    }

#define TYPES(X)                                                                              \
    X(MPI_CHAR, char, char, CINT, IREF, ival)                                                 \
    X(MPI_SIGNED_CHAR, signed char, schar, CINT, IREF, ival)                                  \
    X(MPI_UNSIGNED_CHAR, unsigned char, uchar, CINT, IREF, ival)                              \
    X(MPI_SHORT, short, short, CINT, IREF, ival)                                              \
    X(MPI_UNSIGNED_SHORT, unsigned short, ushort, CINT, IREF, ival)                           \
    X(MPI_INT, int, int, CINT, IREF, ival)                                                    \
    X(MPI_UNSIGNED, unsigned, uint, CINT, IREF, ival)                                         \
    X(MPI_LONG, long, long, CINT, IREF, ival)                                                 \
    X(MPI_UNSIGNED_LONG, unsigned long, ulong, CINT, IREF, ival)                              \
    X(MPI_LONG_LONG, long long, llong, CINT, IREF, ival)                                      \
    X(MPI_UNSIGNED_LONG_LONG, unsigned long long, ullong, CINT, IREF, ival)                   \
    X(MPI_INT8_T, int8_t, int8, CINT, IREF, ival)                                             \
    X(MPI_INT16_T, int16_t, int16, CINT, IREF, ival)                                          \
    X(MPI_INT32_T, int32_t, int32, CINT, IREF, ival)                                          \
    X(MPI_INT64_T, int64_t, int64, CINT, IREF, ival)                                          \
    X(MPI_UINT8_T, uint8_t, uint8, CINT, IREF, ival)                                          \
    X(MPI_UINT16_T, uint16_t, uint16, CINT, IREF, ival)                                       \
    X(MPI_UINT32_T, uint32_t, uint32, CINT, IREF, ival)                                       \
    X(MPI_UINT64_T, uint64_t, uint64, CINT, IREF, ival)                                       \
    X(MPI_INTEGER, int, integer, FINT, IREF, ival)                                            \
    X(MPI_INTEGER1, int8_t, integer1, FINT, IREF, ival)                                       \
    X(MPI_INTEGER2, int16_t, integer2, FINT, IREF, ival)                                      \
    X(MPI_INTEGER4, int32_t, integer4, FINT, IREF, ival)                                      \
    X(MPI_INTEGER8, int64_t, integer8, FINT, IREF, ival)                                      \
    X(MPI_AINT, MPI_Aint, aint, MULTI, IREF, ival)                                            \
    X(MPI_OFFSET, MPI_Offset, offset, MULTI, IREF, ival)                                      \
    X(MPI_COUNT, MPI_Count, count, MULTI, IREF, ival)                                         \
    X(MPI_FLOAT, float, float, FLT, REF, fval)                                                \
    X(MPI_DOUBLE, double, double, FLT, REF, fval)                                             \
    X(MPI_LONG_DOUBLE, long double, ldouble, FLT, REF, fval)                                  \
    X(MPI_REAL, float, real, FLT, REF, fval)                                                  \
    X(MPI_DOUBLE_PRECISION, double, dprec, FLT, REF, fval)                                    \
    X(MPI_REAL4, float, real4, FLT, REF, fval)                                                \
    X(MPI_REAL8, double, real8, FLT, REF, fval)                                               \
    X(MPI_C_BOOL, _Bool, cbool, LOGIC, LREF, ival)                                            \
    X(MPI_LOGICAL, int, logical, LOGIC, LREF, ival)                                           \
    X(MPI_BYTE, unsigned char, byte, BYTE, IREF, ival)
TYPES(TYPE_TEST)

/* long double has padding bytes: compare values, not memory, for it. */
static void test_ldouble_values(void)
{
    long double in[N], out[N];
    for (int k = 0; k < N; k++)
        in[k] = ival(rank, k) * 0.5L;
    CHECK(MPI_Allreduce(in, out, N, MPI_LONG_DOUBLE, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int k = 0; k < N; k++) {
        long double want = 0;
        for (int r = 0; r < size; r++)
            want += ival(r, k) * 0.5L;
        CHECK(out[k] == want);
    }
}

/* ---- complex ------------------------------------------------------------------------------ */

/* Gaussian integers: every partial product stays exact. */
#define CVAL(r, k) ((((r) + (k)) % 3 == 0) ? 1.0 + 1.0 * I : (((r) + (k)) % 3 == 1) ? 1.0 * I : 2.0)

#define CTYPE_TEST(h, ct, tag)                                                                \
    static void test_##tag(void)                                                              \
    {                                                                                         \
        for (int o = 0; o < NOPS; o++) {                                                      \
            ct in[N], out[N], out2[N], want[N];                                               \
            MPI_Op op = ops[o].op;                                                            \
            for (int k = 0; k < N; k++) {                                                     \
                in[k] = (ct)CVAL(rank, k);                                                    \
                want[k] = (ct)CVAL(0, k);                                                     \
                for (int r = 1; r < size; r++)                                                \
                    want[k] = op == MPI_SUM ? want[k] + (ct)CVAL(r, k)                        \
                                            : want[k] * (ct)CVAL(r, k);                       \
            }                                                                                 \
            int err = run(in, out, out2, h, op);                                              \
            if (!(ops[o].groups & CPLX)) {                                                    \
                CHECK(err == MPI_ERR_OP);                                                     \
                continue;                                                                     \
            }                                                                                 \
            CHECK(err == MPI_SUCCESS);                                                        \
            for (int k = 0; k < N; k++)                                                       \
                if (out[k] != want[k] || (rank == size - 1 && out2[k] != want[k])) {          \
                    fprintf(stderr, "rank %d: %s on %s wrong\n", rank, ops[o].name, #h);      \
                    CHECK(0);                                                                 \
                    break;                                                                    \
                }                                                                             \
        }                                                                                     \
    }
CTYPE_TEST(MPI_C_COMPLEX, float _Complex, c_complex)
CTYPE_TEST(MPI_C_FLOAT_COMPLEX, float _Complex, c_float_complex)
CTYPE_TEST(MPI_C_DOUBLE_COMPLEX, double _Complex, c_double_complex)
CTYPE_TEST(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex, c_ldouble_complex)
CTYPE_TEST(MPI_COMPLEX, float _Complex, complex)
CTYPE_TEST(MPI_DOUBLE_COMPLEX, double _Complex, double_complex)
CTYPE_TEST(MPI_COMPLEX8, float _Complex, complex8)
CTYPE_TEST(MPI_COMPLEX16, double _Complex, complex16)

/* ---- MINLOC / MAXLOC on every pair type -------------------------------------------------- */

#define PAIR_TEST(h, t1, t2, tag)                                                             \
    static void test_##tag(void)                                                              \
    {                                                                                         \
        struct {                                                                              \
            t1 v;                                                                             \
            t2 i;                                                                             \
        } in[N], out[N], out2[N];                                                             \
        for (int o = 0; o < NOPS; o++) {                                                      \
            MPI_Op op = ops[o].op;                                                            \
            for (int k = 0; k < N; k++) {                                                     \
                memset(&in[k], 0, sizeof(in[k]));                                             \
                in[k].v = (t1)((rank * (k + 2)) % 3); /* ties: the smaller index wins */      \
                in[k].i = (t2)(rank + 10);                                                    \
            }                                                                                 \
            int err = run(in, out, out2, h, op);                                              \
            if (!(ops[o].groups & PAIR)) {                                                    \
                CHECK(err == MPI_ERR_OP);                                                     \
                continue;                                                                     \
            }                                                                                 \
            CHECK(err == MPI_SUCCESS);                                                        \
            for (int k = 0; k < N; k++) {                                                     \
                t1 bv = 0;                                                                    \
                int bi = 0;                                                                   \
                for (int r = 0; r < size; r++) {                                              \
                    t1 v = (t1)((r * (k + 2)) % 3);                                           \
                    if (r == 0 || (op == MPI_MAXLOC ? v > bv : v < bv))                       \
                        bv = v, bi = r + 10;                                                  \
                }                                                                             \
                if (out[k].v != bv || out[k].i != (t2)bi ||                                   \
                    (rank == size - 1 && (out2[k].v != bv || out2[k].i != (t2)bi))) {         \
                    fprintf(stderr, "rank %d: %s on %s wrong\n", rank, ops[o].name, #h);      \
                    CHECK(0);                                                                 \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    }
PAIR_TEST(MPI_FLOAT_INT, float, int, float_int)
PAIR_TEST(MPI_DOUBLE_INT, double, int, double_int)
PAIR_TEST(MPI_LONG_INT, long, int, long_int)
PAIR_TEST(MPI_2INT, int, int, two_int)
PAIR_TEST(MPI_SHORT_INT, short, int, short_int)
PAIR_TEST(MPI_LONG_DOUBLE_INT, long double, int, long_double_int)
PAIR_TEST(MPI_2INTEGER, int, int, two_integer)
PAIR_TEST(MPI_2REAL, float, float, two_real)
PAIR_TEST(MPI_2DOUBLE_PRECISION, double, double, two_double_precision)

/* ---- user ops and bad input -------------------------------------------------------------- */

struct mixed {
    int a;
    double b;
};

static void mixed_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    struct mixed *x = in, *y = inout;
    for (int i = 0; i < *len; i++)
        y[i].a += x[i].a, y[i].b += x[i].b;
}

static void test_user_and_errors(void)
{
    MPI_Op op, copy;
    int commute;
    MPI_Datatype mixed;
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {offsetof(struct mixed, a), offsetof(struct mixed, b)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, disp, types, &mixed);
    MPI_Type_commit(&mixed);

    struct mixed in = {rank, rank * 0.5}, out = {0, 0};
    /* A predefined op on a mixed struct is undefined; a user op is fine. */
    CHECK(MPI_Allreduce(&in, &out, 1, mixed, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_OP);
    CHECK(MPI_Op_create(mixed_sum, 1, &op) == MPI_SUCCESS);
    CHECK(MPI_Op_commutative(op, &commute) == MPI_SUCCESS && commute == 1);
    CHECK(MPI_Allreduce(&in, &out, 1, mixed, op, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(out.a == size * (size - 1) / 2 && out.b == size * (size - 1) / 4.0);
    copy = op;
    CHECK(MPI_Op_free(&op) == MPI_SUCCESS && op == MPI_OP_NULL);
    CHECK(MPI_Op_free(&copy) == MPI_ERR_OP);
    CHECK(MPI_Allreduce(&in, &out, 1, mixed, copy, MPI_COMM_WORLD) == MPI_ERR_OP);
    CHECK(MPI_Op_create(mixed_sum, 0, &op) == MPI_SUCCESS);
    CHECK(MPI_Op_commutative(op, &commute) == MPI_SUCCESS && commute == 0);
    CHECK(MPI_Op_free(&op) == MPI_SUCCESS);

    /* Predefined ops: commutative, not freeable; RMA-only ops refused by collectives. */
    MPI_Op sum = MPI_SUM;
    CHECK(MPI_Op_commutative(MPI_SUM, &commute) == MPI_SUCCESS && commute == 1);
    CHECK(MPI_Op_free(&sum) == MPI_ERR_OP && sum == MPI_SUM);
    int i = rank, o = -1;
    CHECK(MPI_Allreduce(&i, &o, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD) == MPI_ERR_OP);
    CHECK(MPI_Allreduce(&i, &o, 1, MPI_INT, MPI_NO_OP, MPI_COMM_WORLD) == MPI_ERR_OP);
    CHECK(MPI_Allreduce(&i, &o, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD) == MPI_ERR_OP);
    CHECK(MPI_Reduce_local(&i, &o, 1, MPI_INT, MPI_OP_NULL) == MPI_ERR_OP);
    CHECK(MPI_Reduce_local(&i, &o, -1, MPI_INT, MPI_SUM) == MPI_ERR_COUNT);
    CHECK(MPI_Reduce_local(&i, &o, 1, MPI_DATATYPE_NULL, MPI_SUM) == MPI_ERR_TYPE);
    CHECK(MPI_Reduce_local(&o, &o, 1, MPI_INT, MPI_SUM) == MPI_ERR_BUFFER); /* aliased */
    CHECK(MPI_Op_create(NULL, 1, &op) == MPI_ERR_ARG);
    /* Nothing above disturbed the collective sequence. */
    CHECK(MPI_Allreduce(&i, &o, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(o == size * (size - 1) / 2);
    MPI_Type_free(&mixed);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
#define CALL(h, ct, tag, group, refm, VAL) test_##tag();
    TYPES(CALL)
    test_ldouble_values();
    test_c_complex();
    test_c_float_complex();
    test_c_double_complex();
    test_c_ldouble_complex();
    test_complex();
    test_double_complex();
    test_complex8();
    test_complex16();
    test_float_int();
    test_double_int();
    test_long_int();
    test_two_int();
    test_short_int();
    test_long_double_int();
    test_two_integer();
    test_two_real();
    test_two_double_precision();
    test_user_and_errors();
    return mtest_finish();
}
