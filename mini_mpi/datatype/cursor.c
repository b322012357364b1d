/*
 * cursor.c: moving typed data: streaming pack and unpack, and typed-to-typed copy, all through
 * one cursor that walks the packed form of (buf, count, dt) (representation in datatype.h).
 *
 * A cursor names a position as (element, run, copy in run, block in copy, byte in block), and
 * keeps the addresses of its element, copy and block, so that moving on adds a stride.
 * Seeking to a packed offset is a division and a binary search over the runs' packed offsets
 * (and one more division in a run of several copies), so a message moved in segments costs
 * O(log runs) per segment plus the bytes; there is no rescan from the start and no state to
 * keep between calls. A contiguous type short-cuts to one span.
 * Copies use memmove, so a typed copy onto itself (an in-place collective) is harmless.
 * Does not check arguments: the bindings and engines have done so.
 */
#include <stdint.h>
#include <string.h>

#include "datatype/datatype.h"

struct cursor {
    const struct mmpi_datatype *dt;
    char *elem;   /* the current element; for a contiguous type, the position itself */
    char *copy;   /* the current copy of the current run */
    char *at;     /* the current block */
    size_t run;   /* run index in the element */
    size_t rep;   /* copy index in the run */
    size_t block; /* block index in the copy */
    size_t byte;  /* byte in the block */
};

static void seek(struct cursor *c, const struct mmpi_datatype *dt, const void *buf,
                 size_t offset)
{
    c->dt = dt;
    c->elem = (char *)buf;
    if (dt->contiguous) { /* only elem counts */
        c->elem += dt->true_lb + (MPI_Aint)offset;
        return;
    }
    c->elem += (MPI_Aint)(offset / dt->size) * dt->extent;
    size_t rem = offset % dt->size;
    size_t lo = 0, hi = dt->nruns; /* last run whose packed offset is <= rem */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (dt->runs[mid].packed <= rem)
            lo = mid;
        else
            hi = mid;
    }
    const struct mmpi_dt_run *r = &dt->runs[lo];
    size_t in = rem - r->packed, rep = 0;
    char *copy = c->elem + r->off;
    if (__builtin_expect(r->reps > 1, 0)) { /* one-copy runs (the common ones): no division */
        rep = in / (r->count * r->len);
        in %= r->count * r->len;
        copy += (MPI_Aint)rep * r->rstride;
    }
    c->run = lo;
    c->rep = rep;
    c->block = in / r->len;
    c->byte = in % r->len;
    c->copy = copy;
    c->at = copy + (MPI_Aint)c->block * r->stride;
}

/* The contiguous bytes at the cursor: returns their address, *n their length. */
static inline char *span(const struct cursor *c, size_t *n)
{
    if (c->dt->contiguous) {
        *n = SIZE_MAX;
        return c->elem;
    }
    *n = c->dt->runs[c->run].len - c->byte;
    return c->at + c->byte;
}

/* Moves the cursor from the end of a copy of its run to the next copy, run or element. */
static inline void next_copy(struct cursor *c, const struct mmpi_dt_run *r)
{
    c->block = 0;
    if (++c->rep < r->reps) {
        c->copy += r->rstride;
        c->at = c->copy;
        return;
    }
    c->rep = 0;
    if (++c->run == c->dt->nruns) {
        c->run = 0;
        c->elem += c->dt->extent;
    }
    c->copy = c->at = c->elem + c->dt->runs[c->run].off;
}

/* Moves the cursor n bytes on; n never exceeds the current span. */
static inline void advance(struct cursor *c, size_t n)
{
    if (c->dt->contiguous) {
        c->elem += n;
        return;
    }
    const struct mmpi_dt_run *r = &c->dt->runs[c->run];
    c->byte += n;
    if (c->byte < r->len)
        return;
    c->byte = 0;
    if (++c->block < r->count) {
        c->at += r->stride;
        return;
    }
    next_copy(c, r);
}

/* Copies whole blocks of the current copy of the current run between the cursor and a dense
 * stream, as many as fit in len; the common small block sizes get fixed-size copies. Returns
 * bytes moved. */
static size_t whole_blocks(struct cursor *c, char *stream, size_t len, bool pack)
{
    const struct mmpi_dt_run *r = &c->dt->runs[c->run];
    size_t nb = r->count - c->block, n;
    if (len / r->len < nb)
        nb = len / r->len;
    char *p = c->at;
    char *src = pack ? p : stream, *dst = pack ? stream : p;
    MPI_Aint sstride = pack ? r->stride : (MPI_Aint)r->len;
    MPI_Aint dstride = pack ? (MPI_Aint)r->len : r->stride;

#define COPY_BLOCKS(size)                                          \
    for (size_t i = 0; i < nb; i++, src += sstride, dst += dstride) \
        memcpy(dst, src, size);
    switch (r->len) {
    case 4: COPY_BLOCKS(4) break;
    case 8: COPY_BLOCKS(8) break;
    case 16: COPY_BLOCKS(16) break;
    default:
        for (size_t i = 0; i < nb; i++, src += sstride, dst += dstride)
            memmove(dst, src, r->len);
        break;
    }
#undef COPY_BLOCKS
    n = nb * r->len;
    c->block += nb;
    if (c->block == r->count)
        next_copy(c, r);
    else
        c->at += (MPI_Aint)nb * r->stride;
    return n;
}

static void transfer(const struct mmpi_datatype *dt, const void *buf, size_t offset,
                     char *stream, size_t len, bool pack)
{
    struct cursor c;
    seek(&c, dt, buf, offset);
    while (len > 0) {
        size_t n;
        if (!dt->contiguous && c.byte == 0 && len >= dt->runs[c.run].len) {
            n = whole_blocks(&c, stream, len, pack);
        } else {
            char *p = span(&c, &n);
            if (n > len)
                n = len;
            if (pack)
                memmove(stream, p, n);
            else
                memmove(p, stream, n);
            advance(&c, n);
        }
        stream += n;
        len -= n;
    }
}

void mmpi_datatype_pack(const struct mmpi_datatype *dt, const void *buf, size_t count,
                        size_t offset, void *out, size_t len)
{
    (void)count; /* the caller guarantees offset + len <= count * dt->size */
    transfer(dt, buf, offset, out, len, true);
}

void mmpi_datatype_unpack(const struct mmpi_datatype *dt, void *buf, size_t count,
                          size_t offset, const void *in, size_t len)
{
    (void)count;
    transfer(dt, buf, offset, (char *)in, len, false);
}

void mmpi_datatype_copy_part(const void *src, const struct mmpi_datatype *sdt, void *dst,
                             const struct mmpi_datatype *ddt, size_t offset, size_t len)
{
    struct cursor s, d;

    if (len == 0)
        return;
    if (sdt->contiguous && ddt->contiguous) {
        memmove((char *)dst + ddt->true_lb + offset, (const char *)src + sdt->true_lb + offset,
                len);
        return;
    }
    if (sdt->contiguous) {
        transfer(ddt, dst, offset, (char *)src + sdt->true_lb + offset, len, false);
        return;
    }
    if (ddt->contiguous) {
        transfer(sdt, src, offset, (char *)dst + ddt->true_lb + offset, len, true);
        return;
    }
    seek(&s, sdt, src, offset);
    seek(&d, ddt, dst, offset);
    while (len > 0) {
        size_t ns, nd;
        char *ps = span(&s, &ns), *pd = span(&d, &nd);
        size_t n = ns < nd ? ns : nd;
        if (n > len)
            n = len;
        memmove(pd, ps, n);
        advance(&s, n);
        advance(&d, n);
        len -= n;
    }
}

void mmpi_datatype_copy(const void *src, size_t scount, const struct mmpi_datatype *sdt,
                        void *dst, size_t dcount, const struct mmpi_datatype *ddt)
{
    size_t sbytes = scount * sdt->size, dbytes = dcount * ddt->size;
    mmpi_datatype_copy_part(src, sdt, dst, ddt, 0, sbytes < dbytes ? sbytes : dbytes);
}
