/* coll_reduce.c: MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter_block, MPI_Reduce_scatter,
 * MPI_Scan and MPI_Exscan, blocking and nonblocking, in place and not, checked against a
 * sequential reference computed locally: every predefined op on MPI_INT, on a non-contiguous
 * vector of MPI_INT (whose gaps must stay untouched) and on MPI_DOUBLE; MINLOC/MAXLOC on pair
 * types; a user-defined non-commutative op (2x2 matrix product mod P, which checks the rank
 * order of §6.9.1) on a contiguous and a non-contiguous matrix type. Small and large counts
 * (the library switches algorithms with size), on MPI_COMM_WORLD, a dup and a reordering
 * split. */
#include <string.h>

#include "mtest.h"

#define GAP 0x5a5a5a5a
#define P 1009

static int wrank;

/* ---- int data in two layouts ------------------------------------------------------------ */

/* A layout of int data: `per` ints per element, element e at ints [e*stride, ...), data int j
 * of an element at offs[j]; other ints are gaps. */
struct layout {
    const char *name;
    MPI_Datatype dt;
    int per, stride;
    int offs[2];
};

static int pos(const struct layout *l, int k)
{
    return (k / l->per) * l->stride + l->offs[k % l->per];
}

/* Input value k of comm rank r (all ops give interesting results: signs, zeros, bits). */
static int ival(int r, int k)
{
    return ((r * 7 + k * 3) % 11) - 5 + ((k % 4 == 0) ? r : 0);
}

static int ref_op(MPI_Op op, int a, int b)
{
    if (op == MPI_SUM) return (int)((unsigned)a + (unsigned)b);
    if (op == MPI_PROD) return (int)((unsigned)a * (unsigned)b);
    if (op == MPI_MAX) return a > b ? a : b;
    if (op == MPI_MIN) return a < b ? a : b;
    if (op == MPI_LAND) return a && b;
    if (op == MPI_LOR) return a || b;
    if (op == MPI_LXOR) return !a != !b;
    if (op == MPI_BAND) return a & b;
    if (op == MPI_BOR) return a | b;
    return a ^ b; /* MPI_BXOR */
}

/* Reduction of value k over ranks [lo, hi). */
static int ref_range(MPI_Op op, int lo, int hi, int k)
{
    int acc = ival(lo, k);
    for (int r = lo + 1; r < hi; r++)
        acc = ref_op(op, acc, ival(r, k));
    return acc;
}

static int *alloc_layout(const struct layout *l, int count)
{
    int n = count * l->stride + 1;
    int *b = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        b[i] = GAP;
    return b;
}

static void fill(const struct layout *l, int *b, int first, int count, int r)
{
    for (int k = 0; k < count * l->per; k++)
        b[pos(l, k)] = ival(r, first * l->per + k);
}

/* Checks every gap of b (count elements) still holds GAP. */
static int gaps_ok(const struct layout *l, const int *b, int count)
{
    int n = count * l->stride + 1;
    char *data = calloc((size_t)n, 1);
    int ok = 1;
    for (int k = 0; k < count * l->per; k++)
        data[pos(l, k)] = 1;
    for (int i = 0; i < n; i++)
        if (!data[i] && b[i] != GAP)
            ok = 0;
    free(data);
    return ok;
}

enum coll { REDUCE, ALLREDUCE, RSB, RS, SCAN, EXSCAN, NCOLL };
static const char *coll_name[] = {"Reduce", "Allreduce", "Reduce_scatter_block",
                                  "Reduce_scatter", "Scan", "Exscan"};

/* One collective call, blocking or nonblocking + wait. */
static int call(enum coll which, const void *s, void *r, int count, const int *rcounts,
                MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm, int nb)
{
    MPI_Request req;
    int err;
    switch (which) {
    case REDUCE:
        err = nb ? MPI_Ireduce(s, r, count, dt, op, root, comm, &req)
                 : MPI_Reduce(s, r, count, dt, op, root, comm);
        break;
    case ALLREDUCE:
        err = nb ? MPI_Iallreduce(s, r, count, dt, op, comm, &req)
                 : MPI_Allreduce(s, r, count, dt, op, comm);
        break;
    case RSB:
        err = nb ? MPI_Ireduce_scatter_block(s, r, count, dt, op, comm, &req)
                 : MPI_Reduce_scatter_block(s, r, count, dt, op, comm);
        break;
    case RS:
        err = nb ? MPI_Ireduce_scatter(s, r, rcounts, dt, op, comm, &req)
                 : MPI_Reduce_scatter(s, r, rcounts, dt, op, comm);
        break;
    case SCAN:
        err = nb ? MPI_Iscan(s, r, count, dt, op, comm, &req)
                 : MPI_Scan(s, r, count, dt, op, comm);
        break;
    default:
        err = nb ? MPI_Iexscan(s, r, count, dt, op, comm, &req)
                 : MPI_Exscan(s, r, count, dt, op, comm);
        break;
    }
    if (err == MPI_SUCCESS && nb)
        err = MPI_Wait(&req, MPI_STATUS_IGNORE);
    return err;
}

/* What rank `me` of `n` receives in `which`: output elements [ofirst, ofirst + ocount) of the
 * reduction over ranks [lo, hi); ocount 0 = nothing to check. The input has icount elements. */
static void shape(enum coll which, int me, int n, int count, int root, const int *rcounts,
                  int *icount, int *ofirst, int *ocount, int *lo, int *hi)
{
    *icount = count;
    *ofirst = 0;
    *ocount = count;
    *lo = 0;
    *hi = n;
    switch (which) {
    case REDUCE:
        if (me != root)
            *ocount = 0;
        break;
    case RSB:
        *icount = count * n;
        *ofirst = me * count;
        break;
    case RS:
        *icount = 0;
        for (int i = 0; i < n; i++) {
            if (i < me)
                *ofirst += rcounts[i];
            *icount += rcounts[i];
        }
        *ocount = rcounts[me];
        break;
    case SCAN:
        *hi = me + 1;
        break;
    case EXSCAN:
        *hi = me;
        if (me == 0)
            *ocount = 0; /* undefined at rank 0 (§6.11.2) */
        break;
    default:
        break;
    }
}

static void test_int(const struct layout *l, enum coll which, MPI_Op op, int count, int nb,
                     int in_place, MPI_Comm comm)
{
    int me, n, icount, ofirst, ocount, lo, hi, root = 0, err;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int *rcounts = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        rcounts[i] = (i % 3) * count / 2 + (i == n - 1);
    if (which == REDUCE)
        root = (count + n - 1) % n;
    shape(which, me, n, count, root, rcounts, &icount, &ofirst, &ocount, &lo, &hi);
    /* In place: the input sits in the receive buffer (at the root only, for Reduce). */
    int place = in_place && (which != REDUCE || me == root);
    int rsize = which == RSB || which == RS ? (place ? icount : ocount) : count;
    int *sbuf = alloc_layout(l, icount), *rbuf = alloc_layout(l, rsize > 0 ? rsize : 1);
    fill(l, place ? rbuf : sbuf, 0, icount, me);
    err = call(which, place ? MPI_IN_PLACE : sbuf, rbuf, count, rcounts,
               l->dt, op, root, comm, nb);
    CHECK(err == MPI_SUCCESS);
    int bad = -1;
    for (int k = 0; k < ocount * l->per && hi > lo; k++) {
        int want = ref_range(op, lo, hi, ofirst * l->per + k);
        if (rbuf[pos(l, k)] != want) {
            bad = k;
            break;
        }
    }
    if (bad >= 0)
        fprintf(stderr, "rank %d: %s %s op %d count %d nb %d in_place %d: value %d wrong\n",
                wrank, coll_name[which], l->name, op & 0xff, count, nb, in_place, bad);
    CHECK(bad < 0);
    CHECK(gaps_ok(l, rbuf, rsize > 0 ? rsize : 1));
    if (!place)
        CHECK(gaps_ok(l, sbuf, icount));
    free(sbuf);
    free(rbuf);
    free(rcounts);
}

/* ---- doubles (values exact in binary, so any evaluation order gives the same result) ---- */

static double dval(MPI_Op op, int r, int k)
{
    if (op == MPI_PROD)
        return (r + k) % 3 == 0 ? 2.0 : (r + k) % 3 == 1 ? 0.5 : -1.0;
    return (r % 5) * 0.25 - (k % 7) * 0.5 + r;
}

static void test_double(enum coll which, MPI_Op op, int count, int nb, int in_place,
                        MPI_Comm comm)
{
    int me, n, icount, ofirst, ocount, lo, hi, root = 0, err;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int *rcounts = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        rcounts[i] = count;
    if (which == RS)
        which = RSB; /* the int tests cover irregular counts */
    shape(which, me, n, count, root, rcounts, &icount, &ofirst, &ocount, &lo, &hi);
    int place = in_place && (which != REDUCE || me == root);
    int rsize = which == RSB ? (place ? icount : ocount) : count;
    double *sbuf = malloc((size_t)(icount + 1) * sizeof(double));
    double *rbuf = malloc((size_t)(rsize + 1) * sizeof(double));
    for (int k = 0; k < icount; k++)
        (place ? rbuf : sbuf)[k] = dval(op, me, k);
    err = call(which, place ? MPI_IN_PLACE : sbuf, rbuf, count, rcounts, MPI_DOUBLE, op, root,
               comm, nb);
    CHECK(err == MPI_SUCCESS);
    for (int k = 0; k < ocount && hi > lo; k++) {
        double want = dval(op, lo, ofirst + k);
        for (int r = lo + 1; r < hi; r++) {
            double v = dval(op, r, ofirst + k);
            want = op == MPI_SUM ? want + v : op == MPI_PROD ? want * v
                 : op == MPI_MAX ? (v > want ? v : want) : (v < want ? v : want);
        }
        if (rbuf[k] != want) {
            fprintf(stderr, "rank %d: %s double op %d: [%d] = %g, want %g\n", wrank,
                    coll_name[which], op & 0xff, k, rbuf[k], want);
            CHECK(rbuf[k] == want);
            break;
        }
    }
    free(sbuf);
    free(rbuf);
    free(rcounts);
}

/* ---- MINLOC / MAXLOC ------------------------------------------------------------------- */

struct dint {
    double v;
    int i;
};

static void test_loc(int nb, MPI_Comm comm)
{
    int me, n, count = 5;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int si[10], ri[10];
    struct dint sd[5], rd[5];
    for (int k = 0; k < count; k++) {
        si[2 * k] = (me * (k + 1)) % 3; /* ties across ranks: the smallest index must win */
        si[2 * k + 1] = me;
        sd[k].v = (double)((me + k) % 4);
        sd[k].i = me;
    }
    for (int pass = 0; pass < 2; pass++) {
        MPI_Op op = pass ? MPI_MAXLOC : MPI_MINLOC;
        CHECK(call(ALLREDUCE, si, ri, count, NULL, MPI_2INT, op, 0, comm, nb) == MPI_SUCCESS);
        CHECK(call(ALLREDUCE, sd, rd, count, NULL, MPI_DOUBLE_INT, op, 0, comm, nb) ==
              MPI_SUCCESS);
        for (int k = 0; k < count; k++) {
            int bi = 0, bv = 0;
            double dv = 0;
            int di = 0;
            for (int r = 0; r < n; r++) {
                int v = (r * (k + 1)) % 3;
                double w = (double)((r + k) % 4);
                if (r == 0 || (pass ? v > bv : v < bv))
                    bv = v, bi = r;
                if (r == 0 || (pass ? w > dv : w < dv))
                    dv = w, di = r;
            }
            CHECK(ri[2 * k] == bv && ri[2 * k + 1] == bi);
            CHECK(rd[k].v == dv && rd[k].i == di);
        }
    }
}

/* ---- a user-defined non-commutative op: 2x2 matrix product mod P ----------------------- */

static MPI_Datatype mat_c, mat_v; /* contiguous: 4 long long; vector: rows 3 apart */

static void matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int v = *dt == mat_v, stride = v ? 5 : 4, r1 = v ? 3 : 2;
    for (int e = 0; e < *len; e++) {
        long long *a = (long long *)in + e * stride, *b = (long long *)inout + e * stride;
        long long c00 = (a[0] * b[0] + a[1] * b[r1]) % P;
        long long c01 = (a[0] * b[1] + a[1] * b[r1 + 1]) % P;
        long long c10 = (a[r1] * b[0] + a[r1 + 1] * b[r1]) % P;
        long long c11 = (a[r1] * b[1] + a[r1 + 1] * b[r1 + 1]) % P;
        b[0] = c00, b[1] = c01, b[r1] = c10, b[r1 + 1] = c11;
    }
}

static void mat_of(int r, int e, long long m[4])
{
    m[0] = (r * 3 + e) % P + 1;
    m[1] = r + 2;
    m[2] = (e + 1) % 5;
    m[3] = (r * r + e) % 7;
}

static void mat_ref(int lo, int hi, int e, long long m[4])
{
    long long a[4], b[4];
    mat_of(lo, e, a);
    for (int r = lo + 1; r < hi; r++) {
        mat_of(r, e, b);
        long long c[4] = {(a[0] * b[0] + a[1] * b[2]) % P, (a[0] * b[1] + a[1] * b[3]) % P,
                          (a[2] * b[0] + a[3] * b[2]) % P, (a[2] * b[1] + a[3] * b[3]) % P};
        memcpy(a, c, sizeof(a));
    }
    memcpy(m, a, sizeof(a));
}

static void test_matrix(MPI_Op op, int vec, enum coll which, int count, int nb, int in_place,
                        MPI_Comm comm)
{
    int me, n, icount, ofirst, ocount, lo, hi, root = 0;
    int stride = vec ? 5 : 4, r1 = vec ? 3 : 2;
    MPI_Datatype dt = vec ? mat_v : mat_c;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int *rcounts = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        rcounts[i] = (i + 1) % 3;
    if (which == REDUCE)
        root = n / 2;
    shape(which, me, n, count, root, rcounts, &icount, &ofirst, &ocount, &lo, &hi);
    int place = in_place && (which != REDUCE || me == root);
    int rsize = which == RSB || which == RS ? (place ? icount : ocount) : count;
    long long *sbuf = calloc((size_t)(icount + 1) * (size_t)stride, sizeof(long long));
    long long *rbuf = calloc((size_t)(rsize + 1) * (size_t)stride, sizeof(long long));
    long long *in = place ? rbuf : sbuf;
    for (int e = 0; e < icount; e++) {
        long long m[4];
        mat_of(me, e, m);
        in[e * stride] = m[0], in[e * stride + 1] = m[1];
        in[e * stride + r1] = m[2], in[e * stride + r1 + 1] = m[3];
        if (vec)
            in[e * stride + 2] = -7; /* gap */
    }
    if (vec)
        for (int e = 0; e < rsize; e++)
            rbuf[e * stride + 2] = -7;
    CHECK(call(which, place ? MPI_IN_PLACE : sbuf, rbuf, count, rcounts, dt, op, root, comm,
               nb) == MPI_SUCCESS);
    for (int e = 0; e < ocount && hi > lo; e++) {
        long long m[4], *got = rbuf + e * stride;
        mat_ref(lo, hi, ofirst + e, m);
        int ok = got[0] == m[0] && got[1] == m[1] && got[r1] == m[2] && got[r1 + 1] == m[3];
        if (!ok || (vec && got[2] != -7)) {
            fprintf(stderr, "rank %d: %s matrix vec %d nb %d in_place %d: element %d wrong\n",
                    wrank, coll_name[which], vec, nb, in_place, e);
            CHECK(0);
            break;
        }
    }
    free(sbuf);
    free(rbuf);
    free(rcounts);
}

static void run_all(MPI_Comm comm, MPI_Op matop, const struct layout *layouts, int nlayouts)
{
    const MPI_Op iops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND,
                           MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
    const MPI_Op big_ops[] = {MPI_SUM, MPI_BXOR};
    const MPI_Op dops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN};
    for (int w = 0; w < NCOLL; w++)
        for (int nb = 0; nb < 2; nb++)
            for (int ip = 0; ip < 2; ip++) {
                for (int li = 0; li < nlayouts; li++) {
                    for (unsigned o = 0; o < sizeof(iops) / sizeof(iops[0]); o++)
                        test_int(&layouts[li], (enum coll)w, iops[o], 7, nb, ip, comm);
                    for (unsigned o = 0; o < sizeof(big_ops) / sizeof(big_ops[0]); o++)
                        test_int(&layouts[li], (enum coll)w, big_ops[o], 12000, nb, ip, comm);
                    test_int(&layouts[li], (enum coll)w, MPI_SUM, 0, nb, ip, comm);
                }
                for (unsigned o = 0; o < sizeof(dops) / sizeof(dops[0]); o++) {
                    test_double((enum coll)w, dops[o], 3, nb, ip, comm);
                    test_double((enum coll)w, dops[o], 9000, nb, ip, comm);
                }
                for (int vec = 0; vec < 2; vec++) {
                    test_matrix(matop, vec, (enum coll)w, 3, nb, ip, comm);
                    test_matrix(matop, vec, (enum coll)w, 3000, nb, ip, comm);
                }
            }
    test_loc(0, comm);
    test_loc(1, comm);
}

int main(int argc, char **argv)
{
    int size;
    MPI_Op matop;
    MPI_Datatype vec;
    MPI_Comm dup, split;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Type_vector(2, 1, 2, MPI_INT, &vec); /* ints 0 and 2 of 3 (extent: 3 ints) */
    MPI_Type_commit(&vec);
    MPI_Type_contiguous(4, MPI_LONG_LONG, &mat_c);
    MPI_Type_commit(&mat_c);
    MPI_Datatype v0;
    MPI_Type_vector(2, 2, 3, MPI_LONG_LONG, &v0); /* rows at 0 and 3; extent 5 */
    MPI_Type_create_resized(v0, 0, 5 * (MPI_Aint)sizeof(long long), &mat_v);
    MPI_Type_commit(&mat_v);
    MPI_Type_free(&v0);
    CHECK(MPI_Op_create(matmul, 0, &matop) == MPI_SUCCESS);

    const struct layout layouts[] = {
        {"int", MPI_INT, 1, 1, {0, 0}},
        {"vector", vec, 2, 3, {0, 2}},
    };
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, size - wrank, &split);
    run_all(MPI_COMM_WORLD, matop, layouts, 2);
    run_all(dup, matop, layouts, 1);
    run_all(split, matop, layouts, 1);

    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
    MPI_Op_free(&matop);
    MPI_Type_free(&vec);
    MPI_Type_free(&mat_c);
    MPI_Type_free(&mat_v);
    return mtest_finish();
}
