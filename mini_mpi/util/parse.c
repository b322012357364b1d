/* parse.c: see parse.h. */
#include "util/parse.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Reads the decimal digits at *s (at least one; no leading zero unless the number is 0) into
 * *v, advancing *s; false on none, a leading zero or overflow of UINT64. */
static bool digits(const char **s, uint64_t *v)
{
    const char *p = *s;
    uint64_t x = 0;
    if (*p < '0' || *p > '9')
        return false;
    if (p[0] == '0' && p[1] >= '0' && p[1] <= '9')
        return false; /* "010": octal to C, decimal to a shell; refused as ambiguous */
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (x > (UINT64_MAX - d) / 10)
            return false;
        x = x * 10 + d;
    }
    *s = p;
    *v = x;
    return true;
}

bool mmpi_parse_long(const char *s, long min, long max, long *out)
{
    uint64_t v;
    if (!s || !digits(&s, &v) || *s || v > (uint64_t)max || (long)v < min)
        return false;
    *out = (long)v;
    return true;
}

bool mmpi_parse_size(const char *s, size_t min, size_t max, size_t *out)
{
    uint64_t v;
    if (!s || !digits(&s, &v))
        return false;
    unsigned shift = 0;
    switch (*s) {
    case 'k': shift = 10; s++; break;
    case 'm': shift = 20; s++; break;
    case 'g': shift = 30; s++; break;
    default: break;
    }
    if (*s || (shift && v > (UINT64_MAX >> shift)))
        return false;
    v <<= shift;
    if (v < min || v > max)
        return false;
    *out = (size_t)v;
    return true;
}

bool mmpi_parse_seconds(const char *s, double max, double *out)
{
    uint64_t whole, frac = 0;
    double scale = 1;
    if (!s || !digits(&s, &whole))
        return false;
    if (*s == '.') {
        s++;
        if (*s < '0' || *s > '9')
            return false; /* "3." */
        for (; *s >= '0' && *s <= '9'; s++)
            if (scale < 1e15) { /* finer than a femtosecond: ignored */
                frac = frac * 10 + (uint64_t)(*s - '0');
                scale *= 10;
            }
    }
    double d = (double)whole + (double)frac / scale;
    if (*s || !(d > 0) || d > max)
        return false;
    *out = d;
    return true;
}

int mmpi_parse_word(const char *s, const char *const *words, int n)
{
    for (int i = 0; s && i < n; i++)
        if (!strcmp(s, words[i]))
            return i;
    return -1;
}

const char *mmpi_parse_escape(const char *s, char *buf, size_t len)
{
    size_t o = 0;
    if (!len)
        return buf;
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        char one[8];
        if (c == '\\' || c == '\'')
            snprintf(one, sizeof one, "\\%c", c);
        else if (c == '\n')
            strcpy(one, "\\n");
        else if (c == '\t')
            strcpy(one, "\\t");
        else if (c == '\r')
            strcpy(one, "\\r");
        else if (c < 0x20 || c >= 0x7f)
            snprintf(one, sizeof one, "\\x%02x", c);
        else
            one[0] = (char)c, one[1] = 0;
        size_t k = strlen(one);
        if (o + k + 4 > len) { /* room for "..." and the terminator */
            if (o + 4 <= len)
                memcpy(buf + o, "...", 3), o += 3;
            break;
        }
        memcpy(buf + o, one, k);
        o += k;
    }
    buf[o] = 0;
    return buf;
}
