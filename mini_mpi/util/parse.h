/*
 * parse.h: the one strict syntax of every value mini_mpi reads from a string (MINI_MPI_*
 * variables, the fault plan; bin/mpiexec applies the same rules to its options). Strict means:
 * the whole string is consumed; numbers are plain decimal digits (no sign, no blank, no base
 * prefix, no leading zero but in "0" itself, no exponent), so "+4", "-0", " 4", "4 ", "0x10",
 * "010", "1e3" and overflow are refused; keywords and suffixes are lower case, as documented.
 */
#ifndef MMPI_UTIL_PARSE_H
#define MMPI_UTIL_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* Decimal integer in [min, max] (min >= 0). Returns false on anything else. */
bool mmpi_parse_long(const char *s, long min, long max, long *out);
/* Byte size: a decimal integer with an optional k, m or g suffix (powers of 1024), in
 * [min, max]. */
bool mmpi_parse_size(const char *s, size_t min, size_t max, size_t *out);
/* A positive number of seconds: digits, optionally a point and digits ("30", "0.5"), greater
 * than 0 and at most max. */
bool mmpi_parse_seconds(const char *s, double max, double *out);
/* The index of s among the n words (exact, case-sensitive match), or -1. */
int mmpi_parse_word(const char *s, const char *const *words, int n);
/* s made safe for one line of a message: printable ASCII as is, except \ and ' (escaped), and
 * everything else as \n, \t, \r or \xHH; cut with "..." when it does not fit. Returns buf. */
const char *mmpi_parse_escape(const char *s, char *buf, size_t len);

#endif
