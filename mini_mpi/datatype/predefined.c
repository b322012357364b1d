/*
 * predefined.c: the predefined datatype objects (MPI-4.1 §3.2.2, §5.1.3, §19.1), built at
 * compile time from predefined.def (mmpi_dt_predefined_table, which the inline resolution of
 * datatype.h tries before the rank's handle table), mmpi_datatype_check, and
 * MPI_Type_match_size's choice.
 * Predefined objects are shared by all ranks and never change: no reference counts, no names
 * set by the program.
 */
#include <stddef.h>
#include <stdint.h>

#include "datatype/build.h"
#include "mmpi.h"

#ifdef __SIZEOF_FLOAT128__
#define MMPI_REAL16_CTYPE __float128
#define MMPI_REAL16_CONV FLOAT
struct mmpi_complex32 {
    __float128 re, im;
};
#else
#define MMPI_REAL16_CTYPE long double
#define MMPI_REAL16_CONV LDOUBLE
struct mmpi_complex32 {
    long double re, im;
};
#endif
#define MMPI_COMPLEX32_CTYPE struct mmpi_complex32

/* One level of indirection so that MMPI_REAL16_CONV expands first. */
#define DT_CONV(cv) MMPI_DT_CONV_##cv
#define IDX(h) ((h) & 0x007fffff)
#define COUNT MMPI_DATATYPE_PREDEFINED_COUNT

/* The layout struct of each pair type. */
#define MMPI_DT_LEAF(h, ctype, ext, conv, units)
#define MMPI_DT_MARKER(h, lb, ub)
#define MMPI_DT_PAIR(h, tag, t1, t2, l1, l2) \
    struct pair_##tag {                      \
        t1 a;                                \
        t2 b;                                \
    };
#include "datatype/predefined.def"
#undef MMPI_DT_LEAF
#undef MMPI_DT_PAIR

#define table mmpi_dt_predefined_table
struct mmpi_datatype table[COUNT]; /* tentative: the signatures below point into it */

/* Runs of each type: one block for a leaf; one or two for a pair (two when padded). */
#define PAIR_DENSE(tag, t1) (offsetof(struct pair_##tag, b) == sizeof(t1))
#define MMPI_DT_MARKER(h, lb, ub)
#define BLOCK(at, bytes, packed_at)                                               \
    {                                                                             \
        .off = (at), .len = (bytes), .count = 1, .reps = 1, .packed = (packed_at) \
    }
#define MMPI_DT_LEAF(h, ctype, ext, conv, units) [IDX(h)] = {BLOCK(0, sizeof(ctype), 0)},
#define MMPI_DT_PAIR(h, tag, t1, t2, l1, l2)                                             \
    [IDX(h)] = {BLOCK(0, PAIR_DENSE(tag, t1) ? sizeof(t1) + sizeof(t2) : sizeof(t1), 0), \
                BLOCK(offsetof(struct pair_##tag, b), sizeof(t2), sizeof(t1))},
static const struct mmpi_dt_run runs[COUNT][2] = {
#include "datatype/predefined.def"
};
#undef MMPI_DT_LEAF
#undef MMPI_DT_PAIR
#undef MMPI_DT_MARKER
#undef BLOCK

#define MMPI_DT_LEAF(h, ctype, ext, conv, units)
#define MMPI_DT_MARKER(h, lb, ub)
#define MMPI_DT_PAIR(h, tag, t1, t2, l1, l2) \
    [IDX(h)] = {{&table[IDX(l1)], 1}, {&table[IDX(l2)], 1}},
static const struct mmpi_dt_sig sigs[COUNT][2] = {
#include "datatype/predefined.def"
};
#undef MMPI_DT_LEAF
#undef MMPI_DT_PAIR
#undef MMPI_DT_MARKER

#define MMPI_DT_LEAF(h, ctype, ext, cv, nunits)                                            \
    [IDX(h)] = {.predefined = true,                                                        \
                .committed = true,                                                         \
                .contiguous = true,                                                        \
                .size = sizeof(ctype),                                                     \
                .extent = sizeof(ctype),                                                   \
                .true_extent = sizeof(ctype),                                              \
                .align = _Alignof(ctype),                                                  \
                .basic = h,                                                                \
                .basic_count = 1,                                                          \
                .nelements = 1,                                                            \
                .ext_size = ext,                                                           \
                .nruns = 1,                                                                \
                .runs = runs[IDX(h)],                                                      \
                .combiner = MPI_COMBINER_NAMED,                                            \
                .handle = h,                                                               \
                .conv = DT_CONV(cv),                                                       \
                .units = nunits,                                                           \
                .name = #h},
#define MMPI_DT_PAIR(h, tag, t1, t2, l1, l2)                                               \
    [IDX(h)] = {.predefined = true,                                                        \
                .committed = true,                                                         \
                .contiguous = PAIR_DENSE(tag, t1) &&                                       \
                              sizeof(struct pair_##tag) == sizeof(t1) + sizeof(t2),        \
                .size = sizeof(t1) + sizeof(t2),                                           \
                .extent = sizeof(struct pair_##tag),                                       \
                .true_extent = offsetof(struct pair_##tag, b) + sizeof(t2),                \
                .align = _Alignof(struct pair_##tag),                                      \
                .basic = h,                                                                \
                .basic_count = 1,                                                          \
                .nelements = 2,                                                            \
                .nruns = PAIR_DENSE(tag, t1) ? 1 : 2,                                      \
                .runs = runs[IDX(h)],                                                      \
                .nsig = 2,                                                                 \
                .sig = sigs[IDX(h)],                                                       \
                .combiner = MPI_COMBINER_NAMED,                                            \
                .handle = h,                                                               \
                .conv = MMPI_DT_CONV_NONE,                                                 \
                .units = 1,                                                                \
                .name = #h},
/* A marker has no data and no extent; only its sticky bound counts in a constructor
 * (build.c's bounds_add). */
#define MMPI_DT_MARKER(h, lb, ub)               \
    [IDX(h)] = {.predefined = true,             \
                .committed = true,              \
                .contiguous = true,             \
                .sticky_lb = lb,                \
                .sticky_ub = ub,                \
                .align = 1,                     \
                .basic = MPI_DATATYPE_NULL,     \
                .combiner = MPI_COMBINER_NAMED, \
                .handle = h,                    \
                .units = 1,                     \
                .name = #h},
struct mmpi_datatype table[COUNT] = {
#include "datatype/predefined.def"
};
#undef MMPI_DT_LEAF
#undef MMPI_DT_PAIR
#undef MMPI_DT_MARKER

/* external32 size of a pair: the sum of its leaves'. Computed once, before any rank runs. */
__attribute__((constructor)) static void pair_ext_sizes(void)
{
    for (int i = 0; i < COUNT; i++)
        if (table[i].nsig == 2)
            table[i].ext_size = table[i].sig[0].type->ext_size + table[i].sig[1].type->ext_size;
}

int mmpi_datatype_check(struct mmpi_rank *self, MPI_Datatype h, struct mmpi_datatype **out)
{
    struct mmpi_datatype *dt = mmpi_datatype_get(self, h);
    if (!dt || !__atomic_load_n(&dt->committed, __ATOMIC_ACQUIRE))
        return MPI_ERR_TYPE;
    *out = dt;
    return MPI_SUCCESS;
}

/* MPI-4.1 §19.1.9: like MPICH, the sized Fortran names first. */
int mmpi_type_match_size(int typeclass, int size, MPI_Datatype *out)
{
    static const MPI_Datatype reals[] = {MPI_REAL4, MPI_REAL8, MPI_REAL16};
    static const MPI_Datatype ints[] = {MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8,
                                        MPI_INTEGER16};
    static const MPI_Datatype complexes[] = {MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32};
    const MPI_Datatype *list;
    size_t n;

    switch (typeclass) {
    case MPI_TYPECLASS_REAL: list = reals, n = 3; break;
    case MPI_TYPECLASS_INTEGER: list = ints, n = 5; break;
    case MPI_TYPECLASS_COMPLEX: list = complexes, n = 3; break;
    default: return MPI_ERR_ARG;
    }
    for (size_t i = 0; i < n; i++) {
        if (size >= 0 && table[IDX(list[i])].size == (size_t)size) {
            *out = list[i];
            return MPI_SUCCESS;
        }
    }
    return MPI_ERR_ARG;
}
