/*
 * op/types_undef.h: ends one expansion of op/types.def (kernels.c expands it several times,
 * each time with its own definitions of these macros). No include guard, on purpose.
 */
#undef MMPI_OP_INT
#undef MMPI_OP_FLOAT
#undef MMPI_OP_COMPLEX
#undef MMPI_OP_COMPLEX_STRUCT
#undef MMPI_OP_LOGICAL
#undef MMPI_OP_BYTE
#undef MMPI_OP_PAIR
