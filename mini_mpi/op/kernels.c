/*
 * op/kernels.c: the predefined reduction kernels, generated from types.def with X-macros, and
 * the table that says which (operation, type) pairs MPI-4.1 §6.9.2 defines; also the element
 * class behind op/word.h's inline word ops.
 *
 * Every kernel works on the packed form of its basic type: n elements of sizeof(ctype) bytes
 * for a leaf type, n records of sizeof(value) + sizeof(index) bytes for a MINLOC/MAXLOC pair
 * (the packed pair has no padding, so pairs are read and written with memcpy). Each class of
 * type gets every kernel of its class (all ten integer operations for every integer type);
 * whether a kernel may be used is decided by group masks, not by its existence, so the
 * Fortran integers keep their integer kernels but not the logical operations.
 *
 * Integer sums and products are computed in an unsigned type at least as wide as int, so that
 * overflow wraps instead of being undefined behaviour (MPI says nothing about overflow; every
 * implementation wraps). MPI_REPLACE and MPI_NO_OP have no kernel: apply.c copies or skips.
 */
#include <stdint.h>
#include <string.h>

#include "mmpi.h"
#include "op/op.h"
#include "op/word.h"

/* gfortran's REAL(16) is IEEE binary128 (as in datatype/predefined.c). */
#ifdef __SIZEOF_FLOAT128__
#define MMPI_OP_REAL16 __float128
#else
#define MMPI_OP_REAL16 long double
#endif

enum {
    G_CINT = 1 << 0,
    G_FINT = 1 << 1,
    G_MULTI = 1 << 2,
    G_FLOAT = 1 << 3,
    G_COMPLEX = 1 << 4,
    G_LOGICAL = 1 << 5,
    G_BYTE = 1 << 6,
    G_PAIR = 1 << 7,
};

#define IDX(h) ((h) & 0x007fffff)
#define NTYPES MMPI_DATATYPE_PREDEFINED_COUNT
#define NOPS MMPI_OP_PREDEFINED_COUNT

/* MPI-4.1 §6.9.2: which groups each predefined operation is defined on. The logical operations
 * are also allowed on the multi-language types (MPI_AINT, MPI_OFFSET, MPI_COUNT), which the
 * standard lists only under "C integer, Logical": in C they are integer types, and MPICH and
 * MPICH's own test suite (coll/allred) use them so. */
static const uint8_t op_groups[NOPS] = {
    [MMPI_OPI_MAX] = G_CINT | G_FINT | G_MULTI | G_FLOAT,
    [MMPI_OPI_MIN] = G_CINT | G_FINT | G_MULTI | G_FLOAT,
    [MMPI_OPI_SUM] = G_CINT | G_FINT | G_MULTI | G_FLOAT | G_COMPLEX,
    [MMPI_OPI_PROD] = G_CINT | G_FINT | G_MULTI | G_FLOAT | G_COMPLEX,
    [MMPI_OPI_LAND] = G_CINT | G_MULTI | G_LOGICAL,
    [MMPI_OPI_LOR] = G_CINT | G_MULTI | G_LOGICAL,
    [MMPI_OPI_LXOR] = G_CINT | G_MULTI | G_LOGICAL,
    [MMPI_OPI_BAND] = G_CINT | G_FINT | G_MULTI | G_BYTE,
    [MMPI_OPI_BOR] = G_CINT | G_FINT | G_MULTI | G_BYTE,
    [MMPI_OPI_BXOR] = G_CINT | G_FINT | G_MULTI | G_BYTE,
    [MMPI_OPI_MINLOC] = G_PAIR,
    [MMPI_OPI_MAXLOC] = G_PAIR,
};

/* The kernels are vectorized whatever the optimization level of the build: GCC's -O2 (before
 * GCC 12: no vectorizer; from 12: the "very cheap" cost model) leaves a loop whose count is
 * unknown and whose two buffers may overlap scalar, one element per iteration (a 1 MiB
 * MPI_CHAR sum: 1 M iterations). The dynamic cost model vectorizes it behind a run-time
 * overlap check, so overlapping buffers still take the scalar order. The expressions give the
 * same bits either way: each element is combined on its own (no reassociation), and SSE's
 * max/min return their second operand on a NaN exactly as `a > b ? a : b` does. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__) && \
    !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
/* And with the widest vectors the CPU has: a clone per instruction set, chosen once when the
 * library is loaded (an ifunc), as Open MPI's op/avx component does. The build's baseline
 * (x86-64: SSE2, 16 bytes) moves a quarter of what AVX-512 does per instruction. Not in a
 * sanitizer build: the loader runs the ifunc resolvers while it relocates the library, before
 * the sanitizer's runtime is there for their instrumented code. */
#define KERNEL_OPTIMIZE                                                        \
    __attribute__((optimize("tree-loop-vectorize", "vect-cost-model=dynamic"), \
                   target_clones("default", "avx2", "arch=x86-64-v4")))
#else
#define KERNEL_OPTIMIZE __attribute__((optimize("tree-loop-vectorize", "vect-cost-model=dynamic")))
#endif

/* One elementwise loop: a is the in element, b the inout element. */
#define LOOP(name, tag, ctype, expr)                                 \
    KERNEL_OPTIMIZE                                                  \
    static void name##_##tag(const void *vin, void *vio, size_t n)   \
    {                                                                \
        const ctype *in = vin;                                       \
        ctype *io = vio;                                             \
        for (size_t i = 0; i < n; i++) {                             \
            ctype a = in[i], b = io[i];                              \
            io[i] = (expr);                                          \
        }                                                            \
    }

/* MINLOC/MAXLOC (MPI-4.1 §6.9.4): the better value wins; on a tie, the smaller index. */
#define PAIR_LOOP(name, tag, t1, t2, better)                                          \
    static void name##_##tag(const void *vin, void *vio, size_t n)                    \
    {                                                                                 \
        const unsigned char *in = vin;                                                \
        unsigned char *io = vio;                                                      \
        enum { STEP = sizeof(t1) + sizeof(t2) };                                      \
        for (size_t i = 0; i < n; i++, in += STEP, io += STEP) {                      \
            t1 av, bv;                                                                \
            t2 ai, bi;                                                                \
            memcpy(&av, in, sizeof(av));                                              \
            memcpy(&bv, io, sizeof(bv));                                              \
            memcpy(&ai, in + sizeof(t1), sizeof(ai));                                 \
            memcpy(&bi, io + sizeof(t1), sizeof(bi));                                 \
            if (av better bv)                                                         \
                memcpy(io, in, STEP);                                                 \
            else if (av == bv && ai < bi)                                             \
                memcpy(io + sizeof(t1), &ai, sizeof(ai));                             \
        }                                                                             \
    }

/* ---- The kernels ------------------------------------------------------------------------ */
#define MMPI_OP_INT(h, tag, ct, ut, g)                  \
    LOOP(max, tag, ct, a > b ? a : b)                   \
    LOOP(min, tag, ct, a < b ? a : b)                   \
    LOOP(sum, tag, ct, (ct)((ut)a + (ut)b))             \
    LOOP(prod, tag, ct, (ct)((ut)a * (ut)b))            \
    LOOP(land, tag, ct, (ct)(a && b))                   \
    LOOP(lor, tag, ct, (ct)(a || b))                    \
    LOOP(lxor, tag, ct, (ct)(!a != !b))                 \
    LOOP(band, tag, ct, (ct)(a & b))                    \
    LOOP(bor, tag, ct, (ct)(a | b))                     \
    LOOP(bxor, tag, ct, (ct)(a ^ b))
#define MMPI_OP_FLOAT(h, tag, ct)                       \
    LOOP(max, tag, ct, a > b ? a : b)                   \
    LOOP(min, tag, ct, a < b ? a : b)                   \
    LOOP(sum, tag, ct, a + b)                           \
    LOOP(prod, tag, ct, a * b)
#define MMPI_OP_COMPLEX(h, tag, ct)                     \
    LOOP(sum, tag, ct, a + b)                           \
    LOOP(prod, tag, ct, a * b)
#define MMPI_OP_COMPLEX_STRUCT(h, tag, rt)                                              \
    struct cx_##tag {                                                                   \
        rt re, im;                                                                      \
    };                                                                                  \
    LOOP(sum, tag, struct cx_##tag, ((struct cx_##tag){a.re + b.re, a.im + b.im}))      \
    LOOP(prod, tag, struct cx_##tag,                                                    \
         ((struct cx_##tag){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}))
#define MMPI_OP_LOGICAL(h, tag, ct)                     \
    LOOP(land, tag, ct, (ct)(a && b))                   \
    LOOP(lor, tag, ct, (ct)(a || b))                    \
    LOOP(lxor, tag, ct, (ct)(!a != !b))
#define MMPI_OP_BYTE(h, tag, ct)                        \
    LOOP(band, tag, ct, (ct)(a & b))                    \
    LOOP(bor, tag, ct, (ct)(a | b))                     \
    LOOP(bxor, tag, ct, (ct)(a ^ b))
#define MMPI_OP_PAIR(h, tag, t1, t2)                    \
    PAIR_LOOP(minloc, tag, t1, t2, <)                   \
    PAIR_LOOP(maxloc, tag, t1, t2, >)
#include "op/types.def"
#include "op/types_undef.h"

/* ---- The group of each type ---------------------------------------------------------------- */
#define MMPI_OP_INT(h, tag, ct, ut, g) [IDX(h)] = G_##g,
#define MMPI_OP_FLOAT(h, tag, ct) [IDX(h)] = G_FLOAT,
#define MMPI_OP_COMPLEX(h, tag, ct) [IDX(h)] = G_COMPLEX,
#define MMPI_OP_COMPLEX_STRUCT(h, tag, rt) [IDX(h)] = G_COMPLEX,
#define MMPI_OP_LOGICAL(h, tag, ct) [IDX(h)] = G_LOGICAL,
#define MMPI_OP_BYTE(h, tag, ct) [IDX(h)] = G_BYTE,
#define MMPI_OP_PAIR(h, tag, t1, t2) [IDX(h)] = G_PAIR,
static const uint8_t type_group[NTYPES] = {
#include "op/types.def"
};
#include "op/types_undef.h"

/* ---- The dispatch table ------------------------------------------------------------------- */
#define E(OP, op, tag, h) [MMPI_OPI_##OP][IDX(h)] = op##_##tag,
#define MMPI_OP_INT(h, tag, ct, ut, g)                                             \
    E(MAX, max, tag, h) E(MIN, min, tag, h) E(SUM, sum, tag, h) E(PROD, prod, tag, h) \
    E(LAND, land, tag, h) E(LOR, lor, tag, h) E(LXOR, lxor, tag, h)                 \
    E(BAND, band, tag, h) E(BOR, bor, tag, h) E(BXOR, bxor, tag, h)
#define MMPI_OP_FLOAT(h, tag, ct) \
    E(MAX, max, tag, h) E(MIN, min, tag, h) E(SUM, sum, tag, h) E(PROD, prod, tag, h)
#define MMPI_OP_COMPLEX(h, tag, ct) E(SUM, sum, tag, h) E(PROD, prod, tag, h)
#define MMPI_OP_COMPLEX_STRUCT(h, tag, rt) E(SUM, sum, tag, h) E(PROD, prod, tag, h)
#define MMPI_OP_LOGICAL(h, tag, ct) E(LAND, land, tag, h) E(LOR, lor, tag, h) E(LXOR, lxor, tag, h)
#define MMPI_OP_BYTE(h, tag, ct) E(BAND, band, tag, h) E(BOR, bor, tag, h) E(BXOR, bxor, tag, h)
#define MMPI_OP_PAIR(h, tag, t1, t2) E(MINLOC, minloc, tag, h) E(MAXLOC, maxloc, tag, h)
static mmpi_op_kernel *const kernels[NOPS][NTYPES] = {
#include "op/types.def"
};
#undef E
#include "op/types_undef.h"

mmpi_op_kernel *mmpi_op_kernel_for(int index, MPI_Datatype basic)
{
    if (index <= 0 || index >= NOPS || !mmpi_handle_is_predefined(basic) ||
        mmpi_handle_kind(basic) != MMPI_HANDLE_KIND_DATATYPE || IDX(basic) >= NTYPES)
        return NULL;
    if (!(op_groups[index] & type_group[IDX(basic)]))
        return NULL;
    return kernels[index][IDX(basic)];
}

/* ---- Word ops (op/word.h) ----------------------------------------------------------------- */
/* The element class of each basic type, from its C type: integers of 4 or 8 bytes, float,
 * double; 0 for the rest. */
#define INT_CLASS(ct)                                                                      \
    ((ct)-1 < 0 ? (sizeof(ct) == 4 ? MMPI_OP_WORD_I32 : sizeof(ct) == 8 ? MMPI_OP_WORD_I64 : 0) \
                : (sizeof(ct) == 4 ? MMPI_OP_WORD_U32 : sizeof(ct) == 8 ? MMPI_OP_WORD_U64 : 0))
#define MMPI_OP_INT(h, tag, ct, ut, g) [IDX(h)] = INT_CLASS(ct),
#define MMPI_OP_FLOAT(h, tag, ct)                                                          \
    [IDX(h)] = __builtin_types_compatible_p(ct, float)    ? MMPI_OP_WORD_F32               \
               : __builtin_types_compatible_p(ct, double) ? MMPI_OP_WORD_F64               \
                                                          : 0,
#define MMPI_OP_COMPLEX(h, tag, ct)
#define MMPI_OP_COMPLEX_STRUCT(h, tag, rt)
#define MMPI_OP_LOGICAL(h, tag, ct)
#define MMPI_OP_BYTE(h, tag, ct)
#define MMPI_OP_PAIR(h, tag, t1, t2)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtype-limits" /* INT_CLASS's sign test on unsigned types */
static const uint8_t word_class[NTYPES] = {
#include "op/types.def"
};
#pragma GCC diagnostic pop
#include "op/types_undef.h"
#undef INT_CLASS

int mmpi_op_word_for(int index, MPI_Datatype basic)
{
    if (!mmpi_op_kernel_for(index, basic) || !word_class[IDX(basic)])
        return 0;
    switch (index) {
    case MMPI_OPI_SUM:
        return MMPI_OP_WORD_SUM | word_class[IDX(basic)];
    case MMPI_OPI_MAX:
        return MMPI_OP_WORD_MAX | word_class[IDX(basic)];
    case MMPI_OPI_MIN:
        return MMPI_OP_WORD_MIN | word_class[IDX(basic)];
    default:
        return 0;
    }
}
