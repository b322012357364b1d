/*
 * copy.h: moving typed data between buffers for the matching engine: whole-message packing for
 * eager envelopes, and typed-to-typed copies for rendezvous and posted receives, contiguous
 * cases as one memcpy. Truncation copies the prefix that fits and reports MPI_ERR_TRUNCATE.
 */
#ifndef MMPI_PT2PT_COPY_H
#define MMPI_PT2PT_COPY_H

#include <stddef.h>

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

#endif
