/*
 * copy.c: typed copies for the matching engine (copy.h). Contiguous layouts are one memcpy;
 * otherwise the datatype engine packs, unpacks or copies typed-to-typed, never through a full
 * intermediate buffer.
 */
#include "pt2pt/copy.h"

#include <string.h>

#include "datatype/datatype.h"
#include "mmpi.h"

int mmpi_typed_signature_check(size_t bytes, size_t rcount, const struct mmpi_datatype *rdt)
{
    size_t elements;
    if (mmpi_typed_fills(bytes, rcount, rdt->size) || rdt->size == 0 || bytes % rdt->size == 0)
        return MPI_SUCCESS;
    return mmpi_datatype_elements(rdt, bytes, &elements) ? MPI_SUCCESS : MPI_ERR_TYPE;
}

size_t mmpi_typed_bytes(const struct mmpi_datatype *dt, size_t count)
{
    return (size_t)dt->size * count;
}

static const char *contig_start(const void *buf, const struct mmpi_datatype *dt)
{
    return (const char *)buf + dt->true_lb;
}

void mmpi_typed_pack(const void *buf, size_t count, const struct mmpi_datatype *dt, void *out)
{
    size_t bytes = mmpi_typed_bytes(dt, count);
    if (bytes == 0)
        return;
    if (dt->contiguous)
        memcpy(out, contig_start(buf, dt), bytes);
    else
        mmpi_datatype_pack(dt, buf, count, 0, out, bytes);
}

int mmpi_typed_unpack(const void *packed, size_t bytes, void *rbuf, size_t rcount,
                      const struct mmpi_datatype *rdt, size_t *copied)
{
    size_t room = mmpi_typed_bytes(rdt, rcount);
    size_t n = bytes < room ? bytes : room;
    if (n) {
        if (rdt->contiguous)
            memcpy((char *)contig_start(rbuf, rdt), packed, n);
        else
            mmpi_datatype_unpack(rdt, rbuf, rcount, 0, packed, n);
    }
    *copied = n;
    return bytes > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

int mmpi_typed_copy(const void *sbuf, size_t scount, const struct mmpi_datatype *sdt, void *rbuf,
                    size_t rcount, const struct mmpi_datatype *rdt, size_t *copied)
{
    size_t bytes = mmpi_typed_bytes(sdt, scount);
    size_t room = mmpi_typed_bytes(rdt, rcount);
    size_t n = bytes < room ? bytes : room;

    *copied = n;
    if (n == 0)
        return bytes > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    if (sdt->contiguous && rdt->contiguous) {
        memcpy((char *)contig_start(rbuf, rdt), contig_start(sbuf, sdt), n);
    } else if (sdt->contiguous) {
        mmpi_datatype_unpack(rdt, rbuf, rcount, 0, contig_start(sbuf, sdt), n);
    } else if (rdt->contiguous) {
        mmpi_datatype_pack(sdt, sbuf, scount, 0, (char *)contig_start(rbuf, rdt), n);
    } else {
        mmpi_datatype_copy_part(sbuf, sdt, rbuf, rdt, 0, n);
    }
    return bytes > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}
