/*
 * parse.h: strict parsing of numbers and sizes from strings (environment variables, launch
 * options). Strict means the whole string must be consumed: "8x", "", " 8" and overflow fail.
 */
#ifndef MMPI_UTIL_PARSE_H
#define MMPI_UTIL_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* Decimal integer in [min, max]. Returns false on anything else. */
bool mmpi_parse_long(const char *s, long min, long max, long *out);
/* Byte size with optional k/K, m/M, g/G suffix (powers of 1024), in [min, max]. */
bool mmpi_parse_size(const char *s, size_t min, size_t max, size_t *out);

#endif
