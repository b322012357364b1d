/*
 * copy.h: moving typed data between buffers for the matching engine: whole-message packing for
 * eager envelopes, and typed-to-typed copies for rendezvous and posted receives, contiguous
 * cases as one memcpy. Truncation copies the prefix that fits and reports MPI_ERR_TRUNCATE.
 */
#ifndef MMPI_PT2PT_COPY_H
#define MMPI_PT2PT_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct mmpi_datatype;

/* Packed size of count elements. */
size_t mmpi_typed_bytes(const struct mmpi_datatype *dt, size_t count);
/* Packs the whole of (buf, count, dt) into out (mmpi_typed_bytes bytes). */
void mmpi_typed_pack(const void *buf, size_t count, const struct mmpi_datatype *dt, void *out);
/* Unpacks `bytes` packed bytes into (rbuf, rcount, rdt). Returns MPI_SUCCESS, or
 * MPI_ERR_TRUNCATE when they do not fit (the part that fits is written); *copied = bytes
 * written. */
int mmpi_typed_unpack(const void *packed, size_t bytes, void *rbuf, size_t rcount,
                      const struct mmpi_datatype *rdt, size_t *copied);
/* Copies (sbuf, scount, sdt) into (rbuf, rcount, rdt); same result convention. */
int mmpi_typed_copy(const void *sbuf, size_t scount, const struct mmpi_datatype *sdt, void *rbuf,
                    size_t rcount, const struct mmpi_datatype *rdt, size_t *copied);

/* memcpy of at most 64 bytes without a call: overlapping word copies (channel cells). */
static inline void mmpi_copy_small(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n >= 16) {
        uint64_t a[2], b[2];
        for (size_t i = 0; i + 16 < n; i += 16) {
            memcpy(a, s + i, 16);
            memcpy(d + i, a, 16);
        }
        memcpy(b, s + n - 16, 16);
        memcpy(d + n - 16, b, 16);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

#endif
