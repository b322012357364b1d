/* parse.c: see parse.h. */
#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

bool mmpi_parse_long(const char *s, long min, long max, long *out)
{
    char *end;
    if (!s || !*s || isspace((unsigned char)*s))
        return false;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool mmpi_parse_size(const char *s, size_t min, size_t max, size_t *out)
{
    char *end;
    if (!s || !isdigit((unsigned char)*s))
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return false;
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (*end || (shift && v > (~0ull >> shift)))
        return false;
    v <<= shift;
    if (v < min || v > max)
        return false;
    *out = (size_t)v;
    return true;
}
