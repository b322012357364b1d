/*
 * external32.c: conversion between the native packed form and "external32" (MPI-4.1 §14.5.2):
 * every basic value big-endian, IEEE formats, the sizes of that section's table (MPI_LONG is
 * 4 bytes there: narrowed on the way out, sign-extended on the way in). Walks the signature in
 * order; the packing itself is cursor.c's. x87 long doubles become IEEE binary128 through
 * GCC's __float128.
 *
 * A value that does not fit its external size (an MPI_LONG above INT32_MAX, a wchar_t beyond
 * U+FFFF) is MPI_ERR_CONVERSION, not a truncated value. §14.5.2 advises moving only the least
 * significant bytes of an integer narrowed to its external size, which is exact while the value
 * lies in the smaller type's range; outside it the value cannot be represented, and
 * MPI_ERR_CONVERSION is the class for a failed conversion. MPICH (its dataloop's
 * external32_basic_convert) keeps the low bytes silently instead, so a program that relied on
 * that truncation gets an error here; the bytes of values converted before the bad one are
 * already in the output.
 */
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "datatype/build.h"

static void reverse(unsigned char *dst, const unsigned char *src, size_t n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (size_t i = 0; i < n; i++)
        dst[i] = src[n - 1 - i];
#else
    memcpy(dst, src, n);
#endif
}

/* Whether v (sign-extended from its native size when is_signed) fits m bytes. */
static bool fits(uint64_t v, size_t m, bool is_signed)
{
    if (m >= 8)
        return true;
    if (!is_signed)
        return v >> (8 * m) == 0;
    int64_t s = (int64_t)v, lim = (int64_t)1 << (8 * m - 1);
    return s >= -lim && s < lim;
}

/* Native integer of n bytes -> m big-endian bytes, and back (sign-extending if is_signed).
 * false when the value does not fit the destination's size. */
static bool int_out(unsigned char *ext, size_t m, const unsigned char *nat, size_t n,
                    bool is_signed)
{
    uint64_t v = 0;
    if (n == 16 && m == 16) { /* MPI_INTEGER16: the bytes in big-endian order */
        reverse(ext, nat, n);
        return true;
    }
    switch (n) {
    case 1: v = is_signed ? (uint64_t)(int64_t)*(const int8_t *)nat : *nat; break;
    case 2: { int16_t s; uint16_t u; memcpy(&s, nat, 2); memcpy(&u, nat, 2);
              v = is_signed ? (uint64_t)(int64_t)s : u; break; }
    case 4: { int32_t s; uint32_t u; memcpy(&s, nat, 4); memcpy(&u, nat, 4);
              v = is_signed ? (uint64_t)(int64_t)s : u; break; }
    default: memcpy(&v, nat, 8); break;
    }
    if (m < n && !fits(v, m, is_signed))
        return false;
    for (size_t i = 0; i < m; i++)
        ext[i] = (unsigned char)(v >> (8 * (m - 1 - i)));
    return true;
}

static bool int_in(unsigned char *nat, size_t n, const unsigned char *ext, size_t m,
                   bool is_signed)
{
    uint64_t v = 0;
    if (n == 16 && m == 16) {
        reverse(nat, ext, n);
        return true;
    }
    for (size_t i = 0; i < m; i++)
        v = v << 8 | ext[i];
    if (is_signed && m < 8 && (v >> (8 * m - 1)) & 1)
        v |= ~(uint64_t)0 << (8 * m);
    if (n < m && !fits(v, n, is_signed))
        return false;
    switch (n) {
    case 1: *nat = (unsigned char)v; break;
    case 2: { uint16_t u = (uint16_t)v; memcpy(nat, &u, 2); break; }
    case 4: { uint32_t u = (uint32_t)v; memcpy(nat, &u, 4); break; }
    default: memcpy(nat, &v, 8); break;
    }
    return true;
}

static void ldouble(unsigned char *nat, unsigned char *ext, bool out)
{
#if LDBL_MANT_DIG == 64 && defined(__SIZEOF_FLOAT128__)
    long double x;
    __float128 q;
    if (out) {
        memcpy(&x, nat, sizeof(x));
        q = (__float128)x;
        reverse(ext, (const unsigned char *)&q, 16);
    } else {
        reverse((unsigned char *)&q, ext, 16);
        x = (long double)q;
        memset(nat, 0, sizeof(x));
        memcpy(nat, &x, 10); /* the x87 value; the padding stays zero */
    }
#else /* long double is binary128 already (or an untested format, copied as it is) */
    if (out)
        reverse(ext, nat, 16);
    else
        reverse(nat, ext, 16);
#endif
}

/* count values of the leaf type t: MPI_SUCCESS or MPI_ERR_CONVERSION. */
static int leaf(const struct mmpi_datatype *t, size_t count, unsigned char *nat,
                 unsigned char *ext, bool out)
{
    size_t n = t->size / (size_t)t->units, m = t->ext_size / (size_t)t->units;
    for (size_t i = 0; i < count * (size_t)t->units; i++, nat += n, ext += m) {
        switch (t->conv) {
        case MMPI_DT_CONV_SINT:
        case MMPI_DT_CONV_UINT:
            if (!(out ? int_out(ext, m, nat, n, t->conv == MMPI_DT_CONV_SINT)
                      : int_in(nat, n, ext, m, t->conv == MMPI_DT_CONV_SINT)))
                return MPI_ERR_CONVERSION;
            break;
        case MMPI_DT_CONV_FLOAT:
            if (out)
                reverse(ext, nat, n);
            else
                reverse(nat, ext, n);
            break;
        case MMPI_DT_CONV_LDOUBLE:
            ldouble(nat, ext, out);
            break;
        default:
            memcpy(out ? ext : nat, out ? nat : ext, n);
            break;
        }
    }
    return MPI_SUCCESS;
}

static int walk(const struct mmpi_datatype *dt, size_t count, unsigned char **nat,
                unsigned char **ext, bool out)
{
    if (dt->nsig == 0) {
        int err = leaf(dt, count, *nat, *ext, out);
        *nat += count * dt->size;
        *ext += count * dt->ext_size;
        return err;
    }
    for (size_t k = 0; k < count; k++)
        for (size_t i = 0; i < dt->nsig; i++) {
            int err = walk(dt->sig[i].type, dt->sig[i].count, nat, ext, out);
            if (err != MPI_SUCCESS)
                return err;
        }
    return MPI_SUCCESS;
}

int mmpi_dt_external32(const struct mmpi_datatype *dt, size_t count, void *native,
                       void *external, bool to_external)
{
    unsigned char *nat = native, *ext = external;
    return walk(dt, count, &nat, &ext, to_external);
}
