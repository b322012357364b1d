/*
 * op/word.h: predefined reductions of one element held in a 64-bit word, applied inline by
 * hot paths (the collective fast path, coll/fast.c) instead of through a kernel call. Only
 * the pairs that small allreduces use most: MPI_SUM, MPI_MAX and MPI_MIN on 32- and 64-bit
 * integers, float and double. The expressions are the kernels' (op/kernels.c), so both give
 * the same bits: integer sums wrap, max/min keep inout unless `in` compares greater/less.
 * The element sits in the word's first bytes (a memcpy of the packed element into it).
 * One exception, as between any two compilations of a + b: which NaN a sum of two NaNs keeps
 * follows the compiler's operand order (MPI leaves NaN payloads unspecified).
 */
#ifndef MMPI_OP_WORD_H
#define MMPI_OP_WORD_H

#include <stdint.h>
#include <string.h>

#include "mpi.h"

/* A word op: an operation (high bits) and an element class (low 3 bits); 0: none. */
enum {
    MMPI_OP_WORD_I32 = 1, MMPI_OP_WORD_U32, MMPI_OP_WORD_I64, MMPI_OP_WORD_U64,
    MMPI_OP_WORD_F32, MMPI_OP_WORD_F64,
    MMPI_OP_WORD_SUM = 1 << 3, MMPI_OP_WORD_MAX = 2 << 3, MMPI_OP_WORD_MIN = 3 << 3,
};

/* The word op of predefined op `index` (op.h) on one element of predefined basic type
 * `basic`, or 0 when the pair has none (kernels.c). */
int mmpi_op_word_for(int index, MPI_Datatype basic);

#define MMPI_OP_WORD_CASE(op, cls, ct, expr)                                               \
    case MMPI_OP_WORD_##op | MMPI_OP_WORD_##cls: {                                         \
        ct a, b;                                                                           \
        memcpy(&a, &in, sizeof(a));                                                        \
        memcpy(&b, inout, sizeof(b));                                                      \
        b = (expr);                                                                        \
        memcpy(inout, &b, sizeof(b));                                                      \
        return;                                                                            \
    }
#define MMPI_OP_WORD_CLASS(cls, ct, sum)                                                   \
    MMPI_OP_WORD_CASE(SUM, cls, ct, sum)                                                   \
    MMPI_OP_WORD_CASE(MAX, cls, ct, a > b ? a : b)                                         \
    MMPI_OP_WORD_CASE(MIN, cls, ct, a < b ? a : b)

/* *inout = in op *inout for word op `word` (not 0). */
static inline __attribute__((always_inline)) void mmpi_op_word_apply(int word, uint64_t in,
                                                                     uint64_t *inout)
{
    switch (word) {
    MMPI_OP_WORD_CLASS(I32, int32_t, (int32_t)((uint32_t)a + (uint32_t)b))
    MMPI_OP_WORD_CLASS(U32, uint32_t, a + b)
    MMPI_OP_WORD_CLASS(I64, int64_t, (int64_t)((uint64_t)a + (uint64_t)b))
    MMPI_OP_WORD_CLASS(U64, uint64_t, a + b)
    MMPI_OP_WORD_CLASS(F32, float, a + b)
    MMPI_OP_WORD_CLASS(F64, double, a + b)
    default:
        __builtin_unreachable();
    }
}

#undef MMPI_OP_WORD_CLASS
#undef MMPI_OP_WORD_CASE

#endif
