/*
 * test_datatype_pack.c: unit tests of moving typed data (mini_mpi/datatype/cursor.c,
 * external32.c): MPI_Pack / MPI_Unpack round trips for every constructor, the engines'
 * streaming mmpi_datatype_pack / _unpack in odd and out-of-order segments, typed-to-typed
 * mmpi_datatype_copy between layouts with one signature, types whose components were freed,
 * and "external32" byte for byte.
 *
 * Expected results come from a reference typemap computed here, independently of the
 * library's flattening: it decodes each type through MPI_Type_get_contents and applies the
 * constructor definitions of MPI-4.1 §5.1.2 - §5.1.4 literally, basic element by basic element.
 * Bodies run in rank threads: CHECK records failures, the test thread asserts.
 */
#include <complex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "datatype/datatype.h"
#include "unit_world.h"
#include "unit_check.h"

/* ---- Reference typemap ------------------------------------------------------------------ */

struct ent {
    MPI_Aint off;
    size_t len;
};

struct map {
    struct ent *v;
    size_t n, cap;
};

static void map_add(struct map *m, MPI_Aint off, size_t len)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->v = realloc(m->v, m->cap * sizeof(*m->v));
    }
    m->v[m->n++] = (struct ent){off, len};
}

static MPI_Aint extent_of(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

static void ref_typemap(MPI_Datatype t, MPI_Aint base, struct map *m);

/* count copies of t, the first at base, spaced by t's extent. */
static void ref_copies(MPI_Datatype t, MPI_Aint base, int count, struct map *m)
{
    for (int k = 0; k < count; k++)
        ref_typemap(t, base + k * extent_of(t), m);
}

/* The elements of an n-dimensional array that `pick` selects, in array order. Dimension d's
 * selected indices are sel[d][0..nsel[d]). */
static void ref_array(int ndims, const int *gsizes, int *const *sel, const int *nsel, int order,
                      MPI_Datatype old, MPI_Aint base, struct map *m)
{
    int pos[8] = {0};
    for (int d = 0; d < ndims; d++)
        if (nsel[d] == 0)
            return;
    for (;;) {
        long long lin = 0;
        for (int k = 0; k < ndims; k++) { /* slowest to fastest */
            int d = order == MPI_ORDER_C ? k : ndims - 1 - k;
            lin = lin * gsizes[d] + sel[d][pos[d]];
        }
        ref_typemap(old, base + (MPI_Aint)lin * extent_of(old), m);
        int k = 0; /* advance the fastest dimension first */
        for (; k < ndims; k++) {
            int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
            if (++pos[d] < nsel[d])
                break;
            pos[d] = 0;
        }
        if (k == ndims)
            return;
    }
}

static void ref_pair(MPI_Datatype t, MPI_Aint base, struct map *m)
{
    if (t == MPI_DOUBLE_INT) {
        map_add(m, base, sizeof(double));
        map_add(m, base + 8, sizeof(int));
    } else if (t == MPI_SHORT_INT) {
        map_add(m, base, sizeof(short));
        map_add(m, base + 4, sizeof(int));
    } else if (t == MPI_2INT) {
        map_add(m, base, 4);
        map_add(m, base + 4, 4);
    } else {
        int size;
        MPI_Type_size(t, &size);
        map_add(m, base, (size_t)size);
    }
}

static void ref_typemap(MPI_Datatype t, MPI_Aint base, struct map *m)
{
    int ni, na, nd, comb;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED) {
        ref_pair(t, base, m);
        return;
    }
    int *in = malloc((size_t)(ni + 1) * sizeof(int));
    MPI_Aint *a = malloc((size_t)(na + 1) * sizeof(MPI_Aint));
    MPI_Datatype *d = malloc((size_t)(nd + 1) * sizeof(MPI_Datatype));
    MPI_Type_get_contents(t, ni, na, nd, in, a, d);
    switch (comb) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
        ref_typemap(d[0], base, m);
        break;
    case MPI_COMBINER_CONTIGUOUS:
        ref_copies(d[0], base, in[0], m);
        break;
    case MPI_COMBINER_VECTOR:
        for (int i = 0; i < in[0]; i++)
            ref_copies(d[0], base + (MPI_Aint)i * in[2] * extent_of(d[0]), in[1], m);
        break;
    case MPI_COMBINER_HVECTOR:
        for (int i = 0; i < in[0]; i++)
            ref_copies(d[0], base + i * a[0], in[1], m);
        break;
    case MPI_COMBINER_INDEXED:
        for (int i = 0; i < in[0]; i++)
            ref_copies(d[0], base + in[1 + in[0] + i] * extent_of(d[0]), in[1 + i], m);
        break;
    case MPI_COMBINER_HINDEXED:
        for (int i = 0; i < in[0]; i++)
            ref_copies(d[0], base + a[i], in[1 + i], m);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        for (int i = 0; i < in[0]; i++)
            ref_copies(d[0], base + in[2 + i] * extent_of(d[0]), in[1], m);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (int i = 0; i < in[0]; i++)
            ref_copies(d[0], base + a[i], in[1], m);
        break;
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < in[0]; i++)
            ref_copies(d[i], base + a[i], in[1 + i], m);
        break;
    case MPI_COMBINER_SUBARRAY: {
        int n = in[0], *sel[8] = {0}, nsel[8] = {0};
        for (int k = 0; k < n; k++) {
            nsel[k] = in[1 + n + k];
            sel[k] = malloc((size_t)(nsel[k] + 1) * sizeof(int));
            for (int j = 0; j < nsel[k]; j++)
                sel[k][j] = in[1 + 2 * n + k] + j;
        }
        ref_array(n, in + 1, sel, nsel, in[1 + 3 * n], d[0], base, m);
        for (int k = 0; k < n; k++)
            free(sel[k]);
        break;
    }
    case MPI_COMBINER_DARRAY: {
        int size = in[0], rank = in[1], n = in[2], *g = in + 3, *dist = in + 3 + n,
            *darg = in + 3 + 2 * n, *ps = in + 3 + 3 * n, *sel[8] = {0}, nsel[8] = {0}, coord[8] = {0};
        for (int k = n - 1, r = rank; k >= 0; k--) { /* row-major grid */
            coord[k] = r % ps[k];
            r /= ps[k];
        }
        (void)size;
        for (int k = 0; k < n; k++) {
            sel[k] = malloc((size_t)g[k] * sizeof(int));
            nsel[k] = 0;
            for (int i = 0; i < g[k]; i++) {
                int owner;
                if (dist[k] == MPI_DISTRIBUTE_BLOCK) {
                    int b = darg[k] == MPI_DISTRIBUTE_DFLT_DARG ? (g[k] + ps[k] - 1) / ps[k]
                                                                 : darg[k];
                    owner = i / b;
                } else if (dist[k] == MPI_DISTRIBUTE_CYCLIC) {
                    int b = darg[k] == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg[k];
                    owner = (i / b) % ps[k];
                } else {
                    owner = 0;
                }
                if (owner == coord[k])
                    sel[k][nsel[k]++] = i;
            }
        }
        ref_array(n, g, sel, nsel, in[3 + 4 * n], d[0], base, m);
        for (int k = 0; k < n; k++)
            free(sel[k]);
        break;
    }
    default:
        record(__LINE__, "reference: unknown combiner", comb, 0);
    }
    for (int i = 0; i < nd; i++) {
        int x, c;
        MPI_Type_get_envelope(d[i], &x, &x, &x, &c);
        if (c != MPI_COMBINER_NAMED)
            MPI_Type_free(&d[i]);
    }
    free(in);
    free(a);
    free(d);
}

/* Packs count elements of t from buf by the reference typemap. Returns bytes. */
static size_t ref_pack(MPI_Datatype t, const char *buf, int count, char *out)
{
    struct map m = {0};
    size_t n = 0;
    ref_typemap(t, 0, &m);
    for (int e = 0; e < count; e++)
        for (size_t i = 0; i < m.n; i++) {
            memcpy(out + n, buf + e * extent_of(t) + m.v[i].off, m.v[i].len);
            n += m.v[i].len;
        }
    free(m.v);
    return n;
}

/* Marks in `hit` (indexed like the arena) the bytes count elements of t at buf cover. */
static void ref_cover(MPI_Datatype t, MPI_Aint buf_at, int count, char *hit)
{
    struct map m = {0};
    ref_typemap(t, 0, &m);
    for (int e = 0; e < count; e++)
        for (size_t i = 0; i < m.n; i++)
            memset(hit + buf_at + e * extent_of(t) + m.v[i].off, 1, m.v[i].len);
    free(m.v);
}

/* ---- Round trips ------------------------------------------------------------------------ */

#define ARENA (1 << 16)
#define ORIGIN 16384 /* buf = arena + ORIGIN, so negative displacements stay inside */
#define COUNT 3

static char *arena, *arena2, *hit, *expect, *packed, *streamed;

static void fill_pattern(char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (char)((i * 131 + seed) % 251);
}

/* Everything the engines and the API do with t must agree with the reference. Frees t. */
static void roundtrip(int line, MPI_Datatype t)
{
    static const size_t segs[] = {1, 3, 7, 64, 1000};
    struct mmpi_datatype *dt;
    int size, pos = 0, psize;
    char *buf = arena + ORIGIN, *buf2 = arena2 + ORIGIN;

    if (MPI_Type_commit(&t) != MPI_SUCCESS || !(dt = mmpi_datatype_get(mmpi_self, t))) {
        record(line, "commit", 0, 0);
        return;
    }
    MPI_Type_size(t, &size);
    fill_pattern(arena, ARENA, (unsigned)line);
    size_t n = ref_pack(t, buf, COUNT, expect);
    if (n != (size_t)size * COUNT)
        record(line, "reference size", (long long)n, size * COUNT);

    /* MPI_Pack / MPI_Pack_size, at a non-zero position. */
    pos = 5;
    if (MPI_Pack(buf, COUNT, t, packed, ARENA, &pos, MPI_COMM_WORLD) != MPI_SUCCESS ||
        pos != 5 + (int)n || memcmp(packed + 5, expect, n) != 0)
        record(line, "MPI_Pack differs from the reference", pos, 5 + (long long)n);
    MPI_Pack_size(COUNT, t, MPI_COMM_WORLD, &psize);
    if (psize < (int)n)
        record(line, "MPI_Pack_size", psize, (long long)n);

    /* MPI_Unpack writes exactly the typemap's bytes. */
    memset(arena2, 0, ARENA);
    memset(hit, 0, ARENA);
    ref_cover(t, ORIGIN, COUNT, hit);
    pos = 5;
    if (MPI_Unpack(packed, ARENA, &pos, buf2, COUNT, t, MPI_COMM_WORLD) != MPI_SUCCESS ||
        pos != 5 + (int)n)
        record(line, "MPI_Unpack", pos, 5 + (long long)n);
    for (size_t i = 0; i < ARENA; i++)
        if (arena2[i] != (hit[i] ? arena[i] : 0)) {
            record(line, "MPI_Unpack wrote a wrong byte at", (long long)i - ORIGIN, 0);
            break;
        }

    /* Streaming pack in odd segments, forwards and backwards, equals the one-shot pack. */
    for (size_t s = 0; s < sizeof(segs) / sizeof(segs[0]); s++) {
        size_t seg = segs[s];
        memset(streamed, 0, n);
        for (size_t off = 0; off < n; off += seg)
            mmpi_datatype_pack(dt, buf, COUNT, off, streamed + off, off + seg > n ? n - off : seg);
        if (memcmp(streamed, expect, n) != 0)
            record(line, "streamed pack, segment", (long long)seg, 0);
        memset(streamed, 0, n);
        for (size_t k = (n + seg - 1) / seg; k-- > 0;) {
            size_t off = k * seg;
            mmpi_datatype_pack(dt, buf, COUNT, off, streamed + off, off + seg > n ? n - off : seg);
        }
        if (memcmp(streamed, expect, n) != 0)
            record(line, "backward streamed pack, segment", (long long)seg, 0);
        memset(arena2, 0, ARENA);
        for (size_t off = 0; off < n; off += seg)
            mmpi_datatype_unpack(dt, buf2, COUNT, off, expect + off, off + seg > n ? n - off : seg);
        for (size_t i = 0; i < ARENA; i++)
            if (arena2[i] != (hit[i] ? arena[i] : 0)) {
                record(line, "streamed unpack, segment", (long long)seg, 0);
                break;
            }
    }

    /* Typed-to-typed copies with a dense byte type of the same size, both ways. */
    MPI_Datatype bytes;
    MPI_Type_contiguous(size, MPI_BYTE, &bytes);
    MPI_Type_commit(&bytes);
    struct mmpi_datatype *bdt = mmpi_datatype_get(mmpi_self, bytes);
    memset(streamed, 0, n);
    mmpi_datatype_copy(buf, COUNT, dt, streamed, COUNT, bdt);
    if (memcmp(streamed, expect, n) != 0)
        record(line, "copy to dense", 0, 0);
    memset(arena2, 0, ARENA);
    mmpi_datatype_copy(expect, COUNT, bdt, buf2, COUNT, dt);
    for (size_t i = 0; i < ARENA; i++)
        if (arena2[i] != (hit[i] ? arena[i] : 0)) {
            record(line, "copy from dense", (long long)i - ORIGIN, 0);
            break;
        }
    /* And typed to the same type elsewhere, in segments. */
    memset(arena2, 0, ARENA);
    for (size_t off = 0; off < n; off += 13)
        mmpi_datatype_copy_part(buf, dt, buf2, dt, off, off + 13 > n ? n - off : 13);
    for (size_t i = 0; i < ARENA; i++)
        if (arena2[i] != (hit[i] ? arena[i] : 0)) {
            record(line, "typed copy_part", (long long)i - ORIGIN, 0);
            break;
        }
    MPI_Type_free(&bytes);
    if (!dt->predefined)
        MPI_Type_free(&t);
}
#define ROUNDTRIP(t) roundtrip(__LINE__, t)

static void constructors_body(int rank, int size, void *arg)
{
    MPI_Datatype t, u, s, r;

    OK(MPI_Type_contiguous(3, MPI_INT, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_contiguous(0, MPI_INT, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_vector(3, 2, 4, MPI_INT, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_vector(3, 1, -2, MPI_INT, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_create_hvector(2, 3, 20, MPI_DOUBLE, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_create_hvector(4, 1, 3, MPI_SHORT, &t)); /* unaligned, overlapping extents */
    ROUNDTRIP(t);
    OK(MPI_Type_indexed(3, (int[]){1, 2, 3}, (int[]){5, 0, 10}, MPI_INT, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_indexed(4, (int[]){1, 0, 2, 1}, (int[]){0, 3, 1, 3}, MPI_INT, &t)); /* adjacent */
    ROUNDTRIP(t);
    OK(MPI_Type_create_hindexed(2, (int[]){2, 1}, (MPI_Aint[]){4, 20}, MPI_SHORT, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_create_indexed_block(3, 2, (int[]){0, 4, 9}, MPI_INT, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_create_hindexed_block(3, 1, (MPI_Aint[]){16, 0, 40}, MPI_DOUBLE, &t));
    ROUNDTRIP(t);

    /* Structs, with padding and with a pair type inside. */
    OK(MPI_Type_create_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){0, 8, 16},
                              (MPI_Datatype[]){MPI_CHAR, MPI_DOUBLE, MPI_INT}, &s));
    OK(MPI_Type_dup(s, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_create_struct(3, (int[]){2, 1, 3}, (MPI_Aint[]){24, 0, 40},
                              (MPI_Datatype[]){MPI_DOUBLE_INT, MPI_SHORT_INT, MPI_CHAR}, &t));
    ROUNDTRIP(t);

    /* Resized, and vectors / structs of irregular children. */
    OK(MPI_Type_create_resized(MPI_INT, -4, 16, &r));
    OK(MPI_Type_contiguous(2, r, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_create_resized(s, 0, 13, &t)); /* packed struct: elements 13 bytes apart */
    ROUNDTRIP(t);
    OK(MPI_Type_vector(3, 2, 3, s, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_create_hvector(2, 2, -100, s, &u));
    OK(MPI_Type_create_struct(3, (int[]){1, 2, 1}, (MPI_Aint[]){200, 0, 120},
                              (MPI_Datatype[]){u, r, s}, &t));
    OK(MPI_Type_free(&u));
    ROUNDTRIP(t);
    OK(MPI_Type_indexed(2, (int[]){2, 1}, (int[]){3, 0}, r, &t));
    OK(MPI_Type_free(&r));
    ROUNDTRIP(t);
    /* Two strided runs where the second starts where the first would continue, with another
     * stride: they must not merge. */
    OK(MPI_Type_vector(2, 1, 2, MPI_INT, &u));
    OK(MPI_Type_create_hvector(2, 1, 12, MPI_INT, &r));
    OK(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 16}, (MPI_Datatype[]){u, r}, &t));
    OK(MPI_Type_free(&u));
    OK(MPI_Type_free(&r));
    ROUNDTRIP(t);
    OK(MPI_Type_free(&s));

    /* Two levels of repetition (copies of a strided run): transposes, a vector of a strided
     * vector, copies that continue the stride (one level), copies of copies that continue the
     * copies' stride, a single run then two more copies of its shape, copies too irregular for
     * two levels (one run per copy). */
    for (int n = 1; n <= 5; n++) {
        OK(MPI_Type_vector(n, 1, n, MPI_INT, &u));
        OK(MPI_Type_create_hvector(n, 1, sizeof(int), u, &t));
        OK(MPI_Type_free(&u));
        ROUNDTRIP(t);
    }
    OK(MPI_Type_vector(4, 1, 4, MPI_DOUBLE, &u));
    OK(MPI_Type_create_hvector(4, 1, -8, u, &t)); /* columns right to left */
    ROUNDTRIP(t);
    OK(MPI_Type_create_hvector(3, 2, 8, u, &t)); /* blocks of 2 columns: extent-spaced pairs */
    ROUNDTRIP(t);
    OK(MPI_Type_free(&u));
    OK(MPI_Type_vector(4, 1, 2, MPI_INT, &u));
    OK(MPI_Type_vector(3, 1, 5, u, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_create_resized(u, 0, 32, &r)); /* copies continue the stride: one level */
    OK(MPI_Type_contiguous(3, r, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_free(&r));
    OK(MPI_Type_create_resized(u, -4, 44, &r));
    OK(MPI_Type_contiguous(3, r, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_create_subarray(2, (int[]){4, 5}, (int[]){2, 3}, (int[]){1, 1}, MPI_ORDER_C, r,
                                &t));
    ROUNDTRIP(t);
    OK(MPI_Type_free(&r));
    OK(MPI_Type_create_hvector(2, 1, 100, u, &s)); /* 2 copies, 100 bytes apart */
    OK(MPI_Type_create_resized(s, 0, 200, &r));
    OK(MPI_Type_contiguous(3, r, &t)); /* 6 copies, 100 bytes apart */
    ROUNDTRIP(t);
    OK(MPI_Type_free(&r));
    OK(MPI_Type_create_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){0, 100, 300},
                              (MPI_Datatype[]){u, s, u}, &t)); /* 3 copies 100 apart, 1 more */
    ROUNDTRIP(t);
    OK(MPI_Type_create_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){0, 60, 120},
                              (MPI_Datatype[]){u, u, MPI_INT}, &t)); /* 2 copies, a block */
    ROUNDTRIP(t);
    OK(MPI_Type_create_hvector(3, 1, 1000, s, &t)); /* copies of 2 copies: 3 runs */
    ROUNDTRIP(t);
    OK(MPI_Type_create_hindexed(2, (int[]){2, 1}, (MPI_Aint[]){0, 3000}, s, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_free(&s));
    OK(MPI_Type_free(&u));

    /* Subarrays: 3-D in C order, 2-D in Fortran order, of a struct. */
    OK(MPI_Type_create_subarray(3, (int[]){4, 5, 6}, (int[]){2, 3, 4}, (int[]){1, 2, 1},
                                MPI_ORDER_C, MPI_INT, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_create_subarray(2, (int[]){4, 5}, (int[]){3, 2}, (int[]){1, 3},
                                MPI_ORDER_FORTRAN, MPI_DOUBLE, &t));
    ROUNDTRIP(t);
    OK(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                              (MPI_Datatype[]){MPI_SHORT, MPI_DOUBLE}, &s));
    OK(MPI_Type_create_subarray(2, (int[]){3, 4}, (int[]){2, 2}, (int[]){0, 1}, MPI_ORDER_C, s,
                                &t));
    ROUNDTRIP(t);

    /* Darrays: every rank of a 2 x 3 grid, block x cyclic, both orders. */
    for (int order = 0; order < 2; order++) {
        int ord = order ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
        for (int rk = 0; rk < 6; rk++) {
            OK(MPI_Type_create_darray(6, rk, 2, (int[]){7, 10},
                                      (int[]){MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
                                      (int[]){MPI_DISTRIBUTE_DFLT_DARG, 2}, (int[]){2, 3}, ord,
                                      MPI_INT, &t));
            ROUNDTRIP(t);
            OK(MPI_Type_create_darray(6, rk, 3, (int[]){5, 4, 3},
                                      (int[]){MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE,
                                              MPI_DISTRIBUTE_BLOCK},
                                      (int[]){MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG,
                                              2},
                                      (int[]){3, 1, 2}, ord, s, &t));
            ROUNDTRIP(t);
        }
    }
    OK(MPI_Type_free(&s));

    /* Predefined types, pair types included. */
    ROUNDTRIP(MPI_DOUBLE);
    ROUNDTRIP(MPI_DOUBLE_INT);
    ROUNDTRIP(MPI_SHORT_INT);
}

static void pack_roundtrips(void **state)
{
    arena = malloc(ARENA);
    arena2 = malloc(ARENA);
    hit = malloc(ARENA);
    expect = malloc(ARENA);
    packed = malloc(ARENA);
    streamed = malloc(ARENA);
    run(constructors_body);
    free(arena);
    free(arena2);
    free(hit);
    free(expect);
    free(packed);
    free(streamed);
}

/* ---- Large streaming, copies between layouts -------------------------------------------- */

/* A 4 MiB message moved in 64 KiB segments, as the point-to-point engine does. */
static void large_body(int rank, int size, void *arg)
{
    enum { N = 1 << 20 }; /* ints packed: 4 MiB */
    int *src = malloc(2 * N * sizeof(int)), *dst = calloc(2 * N, sizeof(int));
    char *one = malloc(N * sizeof(int)), *seg = malloc(N * sizeof(int));
    MPI_Datatype v;

    for (int i = 0; i < 2 * N; i++)
        src[i] = i;
    OK(MPI_Type_vector(N / 4, 4, 8, MPI_INT, &v)); /* 4 ints of every 8 */
    OK(MPI_Type_commit(&v));
    struct mmpi_datatype *dt = mmpi_datatype_get(mmpi_self, v);
    memset(one, 0, N * sizeof(int)); /* fault the pages in before timing */
    memset(seg, 0, N * sizeof(int));
    double t0 = MPI_Wtime();
    mmpi_datatype_pack(dt, src, 1, 0, one, N * sizeof(int));
    double t1 = MPI_Wtime();
    for (size_t off = 0; off < N * sizeof(int); off += 65536)
        mmpi_datatype_pack(dt, src, 1, off, seg + off, 65536);
    double t2 = MPI_Wtime();
    CHECK(memcmp(one, seg, N * sizeof(int)) == 0);
    for (size_t off = 0; off < N * sizeof(int); off += 65536)
        mmpi_datatype_unpack(dt, dst, 1, off, seg + off, 65536);
    for (int i = 0; i < 2 * N; i++)
        if (dst[i] != (i % 8 < 4 ? i : 0)) {
            CHECK_EQ(dst[i], i);
            break;
        }
    print_message("4 MiB vector: one-shot pack %.2f ms, in 64 KiB segments %.2f ms\n",
                  (t1 - t0) * 1e3, (t2 - t1) * 1e3);
    OK(MPI_Type_free(&v));
    free(src);
    free(dst);
    free(one);
    free(seg);
}

static void large_streaming(void **state) { run(large_body); }

/* Same signature, different layouts: 12 ints strided vs. indexed; (int, double) structs laid out
 * differently. The copy must equal pack-then-unpack. */
static void copy_body(int rank, int size, void *arg)
{
    int src[24], dst[40], viapack[40], pos;
    char packbuf[512];
    MPI_Datatype a, b;

    for (int i = 0; i < 24; i++)
        src[i] = 100 + i;
    OK(MPI_Type_vector(6, 1, 2, MPI_INT, &a));                         /* 6 ints, count 2 */
    OK(MPI_Type_indexed(2, (int[]){4, 2}, (int[]){7, 0}, MPI_INT, &b)); /* 6 ints, count 2 */
    OK(MPI_Type_commit(&a));
    OK(MPI_Type_commit(&b));
    memset(dst, 0, sizeof(dst));
    memset(viapack, 0, sizeof(viapack));
    mmpi_datatype_copy(src, 2, mmpi_datatype_get(mmpi_self, a), dst, 2,
                       mmpi_datatype_get(mmpi_self, b));
    pos = 0;
    OK(MPI_Pack(src, 2, a, packbuf, sizeof(packbuf), &pos, MPI_COMM_WORLD));
    pos = 0;
    OK(MPI_Unpack(packbuf, sizeof(packbuf), &pos, viapack, 2, b, MPI_COMM_WORLD));
    CHECK(memcmp(dst, viapack, sizeof(dst)) == 0);
    CHECK_EQ(dst[7], 100);  /* first int of a goes to b's first block */
    CHECK_EQ(dst[0], 108);  /* fifth int of a goes to b's second block */
    /* Truncation: the copy stops at the smaller side. */
    memset(dst, 0, sizeof(dst));
    mmpi_datatype_copy(src, 2, mmpi_datatype_get(mmpi_self, a), dst, 1,
                       mmpi_datatype_get(mmpi_self, b));
    CHECK_EQ(dst[7], 100);
    CHECK_EQ(dst[11 + 7], 0); /* the second element of b is not written */
    OK(MPI_Type_free(&a));
    OK(MPI_Type_free(&b));

    struct sa { int i; double d; } sa[3] = {{1, 1.5}, {2, 2.5}, {3, 3.5}};
    struct sb { double d; char pad[4]; int i; } sb[3];
    OK(MPI_Type_create_struct(2, (int[]){1, 1},
                              (MPI_Aint[]){offsetof(struct sa, i), offsetof(struct sa, d)},
                              (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &a));
    OK(MPI_Type_create_struct(2, (int[]){1, 1},
                              (MPI_Aint[]){offsetof(struct sb, i), offsetof(struct sb, d)},
                              (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &b));
    OK(MPI_Type_commit(&a));
    OK(MPI_Type_commit(&b));
    memset(sb, 0, sizeof(sb));
    mmpi_datatype_copy(sa, 3, mmpi_datatype_get(mmpi_self, a), sb, 3,
                       mmpi_datatype_get(mmpi_self, b));
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(sb[k].i, k + 1);
        CHECK(sb[k].d == k + 1.5);
    }
    OK(MPI_Type_free(&a));
    OK(MPI_Type_free(&b));
}

static void typed_copies(void **state) { run(copy_body); }

/* ---- external32 ---------------------------------------------------------------------- */

static void external32_body(int rank, int size, void *arg)
{
    unsigned char out[128];
    MPI_Aint pos, sz;

    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    int ints[2] = {0x01020304, -2}, ints_back[2] = {0, 0};
    pos = 0;
    OK(MPI_Pack_external("external32", ints, 2, MPI_INT, out, sizeof(out), &pos));
    CHECK_EQ(pos, 8);
    CHECK(memcmp(out, "\x01\x02\x03\x04\xff\xff\xff\xfe", 8) == 0);
    pos = 0;
    OK(MPI_Unpack_external("external32", out, 8, &pos, ints_back, 2, MPI_INT));
    CHECK(ints_back[0] == ints[0] && ints_back[1] == ints[1]);

    /* MPI_LONG is 4 bytes in external32 (MPI-4.1 Table 13.2): sign-extended back. */
    long l[2] = {123456, -5}, l_back[2] = {0, 0};
    OK(MPI_Pack_external_size("external32", 2, MPI_LONG, &sz));
    CHECK_EQ(sz, 8);
    pos = 0;
    OK(MPI_Pack_external("external32", l, 2, MPI_LONG, out, sizeof(out), &pos));
    CHECK(memcmp(out, "\x00\x01\xe2\x40\xff\xff\xff\xfb", 8) == 0);
    pos = 0;
    OK(MPI_Unpack_external("external32", out, sizeof(out), &pos, l_back, 2, MPI_LONG));
    CHECK(l_back[0] == 123456 && l_back[1] == -5);
    unsigned long ul = 0xfffffffful, ul_back = 0;
    pos = 0;
    OK(MPI_Pack_external("external32", &ul, 1, MPI_UNSIGNED_LONG, out, sizeof(out), &pos));
    pos = 0;
    OK(MPI_Unpack_external("external32", out, 4, &pos, &ul_back, 1, MPI_UNSIGNED_LONG));
    CHECK(ul_back == 0xfffffffful);

    double dv = 1.0;
    pos = 0;
    OK(MPI_Pack_external("external32", &dv, 1, MPI_DOUBLE, out, sizeof(out), &pos));
    CHECK(memcmp(out, "\x3f\xf0\0\0\0\0\0\0", 8) == 0);

    /* long double as IEEE binary128: 1.5 = 0x3fff 8000 ... */
    long double ld = 1.5L, ld_back = 0;
    OK(MPI_Pack_external_size("external32", 1, MPI_LONG_DOUBLE, &sz));
    CHECK_EQ(sz, 16);
    pos = 0;
    OK(MPI_Pack_external("external32", &ld, 1, MPI_LONG_DOUBLE, out, sizeof(out), &pos));
    CHECK(memcmp(out, "\x3f\xff\x80\0\0\0\0\0\0\0\0\0\0\0\0\0", 16) == 0);
    pos = 0;
    OK(MPI_Unpack_external("external32", out, 16, &pos, &ld_back, 1, MPI_LONG_DOUBLE));
    CHECK(ld_back == 1.5L);

    double _Complex z = CMPLX(1.0, 2.0);
    pos = 0;
    OK(MPI_Pack_external("external32", &z, 1, MPI_C_DOUBLE_COMPLEX, out, sizeof(out), &pos));
    CHECK(memcmp(out, "\x3f\xf0\0\0\0\0\0\0\x40\0\0\0\0\0\0\0", 16) == 0);

    /* A struct and a pair type go value by value, without padding. */
    struct { char c; double d; int i; } s = {'A', 2.0, 7}, s_back;
    MPI_Datatype st;
    OK(MPI_Type_create_struct(3, (int[]){1, 1, 1},
                              (MPI_Aint[]){offsetof(__typeof__(s), c), offsetof(__typeof__(s), d),
                                           offsetof(__typeof__(s), i)},
                              (MPI_Datatype[]){MPI_CHAR, MPI_DOUBLE, MPI_INT}, &st));
    OK(MPI_Type_commit(&st));
    OK(MPI_Pack_external_size("external32", 1, st, &sz));
    CHECK_EQ(sz, 13);
    pos = 0;
    OK(MPI_Pack_external("external32", &s, 1, st, out, sizeof(out), &pos));
    CHECK(memcmp(out, "A\x40\0\0\0\0\0\0\0\0\0\0\x07", 13) == 0);
    memset(&s_back, 0, sizeof(s_back));
    pos = 0;
    OK(MPI_Unpack_external("external32", out, 13, &pos, &s_back, 1, st));
    CHECK(s_back.c == 'A' && s_back.d == 2.0 && s_back.i == 7);
    OK(MPI_Type_free(&st));
    struct { double d; int i; } di = {-1.0, 3};
    pos = 0;
    OK(MPI_Pack_external("external32", &di, 1, MPI_DOUBLE_INT, out, sizeof(out), &pos));
    CHECK_EQ(pos, 12);
    CHECK(memcmp(out, "\xbf\xf0\0\0\0\0\0\0\0\0\0\x03", 12) == 0);

    /* Too small an output buffer. */
    pos = 0;
    CHECK_EQ(MPI_Pack_external("external32", ints, 2, MPI_INT, out, 7, &pos), MPI_ERR_TRUNCATE);
    CHECK_EQ(pos, 0);
}

static void external32(void **state) { run(external32_body); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pack_roundtrips),
        cmocka_unit_test(large_streaming),
        cmocka_unit_test(typed_copies),
        cmocka_unit_test(external32),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
