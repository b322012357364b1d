/*
 * copy.h: moving typed data between buffers for the matching engine: whole-message packing for
 * eager envelopes, and typed-to-typed copies for rendezvous and posted receives, contiguous
 * cases as one memcpy. Truncation copies the prefix that fits and reports MPI_ERR_TRUNCATE.
 */
#ifndef MMPI_PT2PT_COPY_H
#define MMPI_PT2PT_COPY_H

#include <stdbool.h>
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

/* MPI_SUCCESS, or MPI_ERR_TYPE when `bytes` received into (rcount, rdt) end inside one of rdt's
 * basic elements: the send's type signature cannot match the receive's then (MPI-4.1 §3.3.1),
 * an erroneous program that MPICH reports with the same class. `bytes` that fill every element
 * (the common case, checked first by the callers) or a whole number of copies of rdt always
 * end on an element. */
int mmpi_typed_signature_check(size_t bytes, size_t rcount, const struct mmpi_datatype *rdt);
static inline bool mmpi_typed_fills(size_t bytes, size_t rcount, size_t rsize)
{
    return bytes == rsize * rcount;
}

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

/* A channel cell's payload (pt2pt/chan.h) as words accessed with relaxed atomics. A receive
 * taking without the lock copies a cell and then claims its message; when the sender's drain
 * claimed it first, the sender may already be rewriting the cell while the receive copies, and
 * the receive's failed claim discards what it read. C11 allows such overlapping accesses only
 * on atomics, and ThreadSanitizer can check the pattern only then. A relaxed 8-byte atomic load
 * or store is a plain move on x86-64 and AArch64; the payload passes through a small stack
 * buffer so that the words can be whole (the cell holds a multiple of 8 bytes). */
#define MMPI_CELL_WORDS 6 /* words of the largest payload: MMPI_CHAN_MAX bytes */

/* Writes n <= 8 * MMPI_CELL_WORDS bytes of src into the cell payload `cell`. */
static inline void mmpi_cell_put(uint64_t *cell, const void *src, size_t n)
{
    uint64_t tmp[MMPI_CELL_WORDS];
    size_t words = (n + 7) / 8;
    if (words)
        tmp[words - 1] = 0; /* the bytes past n: defined, though nobody reads them */
    mmpi_copy_small(tmp, src, n);
    for (size_t i = 0; i < words; i++)
        __atomic_store_n(&cell[i], tmp[i], __ATOMIC_RELAXED);
}

/* Reads n <= 8 * MMPI_CELL_WORDS bytes of the cell payload `cell` into dst. */
static inline void mmpi_cell_get(void *dst, const uint64_t *cell, size_t n)
{
    uint64_t tmp[MMPI_CELL_WORDS];
    size_t words = (n + 7) / 8;
    for (size_t i = 0; i < words; i++)
        tmp[i] = __atomic_load_n(&cell[i], __ATOMIC_RELAXED);
    mmpi_copy_small(dst, tmp, n);
}

#endif
