/*
 * io/access.c: the transfer engine: moves typed memory to and from the data stream of a view
 * with pread/pwrite. Memory is packed (datatype/cursor.c) into a bounce buffer unless it is
 * contiguous; the view is walked with mmpi_file_view_map, one system call per contiguous file
 * piece. Reads stop at end of file (the count in the status says how much arrived, §14.4.1).
 * A converting representation (external32, registered ones, §14.5) converts each chunk of
 * whole elements between its memory size and its file size on the way (transfer_converted).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "datatype/build.h"
#include "datatype/datatype.h"
#include "io/io.h"
#include "mpit/mpit.h"

/* Bounce buffers are filled and drained in pieces of at most this many bytes. */
#define CHUNK ((size_t)4 << 20)

int mmpi_file_pwrite_all(int fd, const char *p, size_t n, MPI_Offset off)
{
    while (n > 0) {
        ssize_t w = pwrite(fd, p, n, off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? mmpi_file_errno_class(errno) : MPI_ERR_IO;
        p += w, n -= (size_t)w, off += w;
    }
    return MPI_SUCCESS;
}

/* Reads up to n bytes; *got < n only at end of file. */
static int read_piece(int fd, char *p, size_t n, MPI_Offset off, size_t *got)
{
    *got = 0;
    while (n > 0) {
        ssize_t r = pread(fd, p, n, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return mmpi_file_errno_class(errno);
        if (r == 0)
            break;
        p += r, n -= (size_t)r, off += r, *got += (size_t)r;
    }
    return MPI_SUCCESS;
}

/* Moves stream bytes [start, start + n) of the view to or from mem. *done: bytes moved. */
static int move_stream(struct mmpi_file *f, const struct mmpi_file_view *v, bool write,
                       uint64_t start, char *mem, size_t n, size_t *done)
{
    int err = MPI_SUCCESS;
    *done = 0;
    while (*done < n) {
        MPI_Offset off;
        uint64_t contig;
        mmpi_file_view_map(v, start + *done, &off, &contig);
        size_t len = n - *done < contig ? n - *done : (size_t)contig, got = len;
        if (write)
            err = mmpi_file_pwrite_all(f->core->fd, mem + *done, len, off);
        else
            err = read_piece(f->core->fd, mem + *done, len, off, &got);
        if (err != MPI_SUCCESS)
            return err;
        *done += got;
        if (got < len)
            break; /* end of file */
    }
    return MPI_SUCCESS;
}

/* A view whose representation converts (external32, or a registered one): elements of dt are
 * packed, converted to their file form (fsize bytes each, the sizes of the view's layout) and
 * written, or read, converted back and unpacked, a chunk of whole elements at a time. Starts
 * at stream byte `start`; *done: memory bytes moved (whole elements). */
static int transfer_converted(struct mmpi_file *f, const struct mmpi_file_view *v, bool write,
                              uint64_t start, void *buf, size_t count,
                              const struct mmpi_datatype *dt, size_t *done)
{
    size_t fsize = 0, items = 0;
    int err = v->external32 ? MPI_SUCCESS : mmpi_datarep_measure(v->user, dt, &fsize, &items);
    if (v->external32)
        fsize = dt->ext_size;
    if (err != MPI_SUCCESS)
        return err;
    if (fsize == 0)
        return MPI_ERR_CONVERSION; /* data with no bytes in the file cannot be stored */
    /* A predefined memory type with a conversion function: converted straight from / into
     * the user's buffer, as §14.5.3 describes (position: items from the buffer's start). */
    MPI_Datatype handle = v->user && dt->predefined ? dt->handle : MPI_DATATYPE_NULL;
    bool direct = handle != MPI_DATATYPE_NULL && mmpi_datarep_converts(v->user, write);
    size_t widest = dt->size > fsize ? dt->size : fsize;
    size_t per = CHUNK / widest ? CHUNK / widest : 1;
    per = per < count ? per : count;
    char *tmp = malloc(per * dt->size), *ext = malloc(per * fsize);
    if (!tmp || !ext) {
        free(tmp);
        free(ext);
        return MPI_ERR_NO_MEM;
    }
    size_t el = 0; /* elements moved */
    while (el < count) {
        size_t n = count - el < per ? count - el : per, moved, got = n;
        if (write) {
            if (!direct)
                mmpi_datatype_pack(dt, buf, count, el * dt->size, tmp, n * dt->size);
            /* MPI_ERR_CONVERSION (a value too wide for external32), or the conversion
             * function's error: the access's, and nothing of this chunk is written. */
            err = v->external32 ? mmpi_dt_external32(dt, n, tmp, ext, true)
                                : mmpi_datarep_convert(v->user, true, buf, handle, dt, el, n,
                                                       items, fsize, tmp, ext);
            if (err != MPI_SUCCESS)
                break;
        }
        err = move_stream(f, v, write, start + el * fsize, ext, n * fsize, &moved);
        if (!write) /* a partial element at end of file is not data */
            got = moved / fsize;
        if (!write && got > 0 && err == MPI_SUCCESS) {
            err = v->external32 ? mmpi_dt_external32(dt, got, tmp, ext, false)
                                : mmpi_datarep_convert(v->user, false, buf, handle, dt, el, got,
                                                       items, fsize, tmp, ext);
            if (err != MPI_SUCCESS)
                break;
            if (!direct)
                mmpi_datatype_unpack(dt, buf, count, el * dt->size, tmp, got * dt->size);
        }
        if (err != MPI_SUCCESS)
            break;
        el += got;
        if (got < n)
            break;
    }
    free(ext);
    free(tmp);
    *done = el * dt->size;
    return err;
}

int mmpi_file_transfer(struct mmpi_file *f, const struct mmpi_file_view *v, bool write,
                       MPI_Offset pos, void *buf, size_t count, const struct mmpi_datatype *dt,
                       size_t *bytes)
{
    size_t total = count * dt->size, done = 0;
    uint64_t start = (uint64_t)pos * v->esize;
    int err = MPI_SUCCESS;

    *bytes = 0;
    if (total == 0)
        return MPI_SUCCESS;
    if (f->atomic) {
        if (write)
            pthread_rwlock_wrlock(&f->core->atomic_lock);
        else
            pthread_rwlock_rdlock(&f->core->atomic_lock);
    }
    if (v->external32 || v->user) {
        err = transfer_converted(f, v, write, start, buf, count, dt, &done);
    } else if (dt->contiguous) {
        err = move_stream(f, v, write, start, (char *)buf + dt->true_lb, total, &done);
    } else {
        /* Packed through a bounce buffer, a chunk at a time. */
        size_t chunk = total < CHUNK ? total : CHUNK;
        char *tmp = malloc(chunk);
        if (!tmp) {
            err = MPI_ERR_NO_MEM;
            goto out;
        }
        while (done < total) {
            size_t n = total - done < chunk ? total - done : chunk, moved;
            if (write)
                mmpi_datatype_pack(dt, buf, count, done, tmp, n);
            err = move_stream(f, v, write, start + done, tmp, n, &moved);
            if (!write && moved > 0)
                mmpi_datatype_unpack(dt, buf, count, done, tmp, moved);
            done += moved;
            if (err != MPI_SUCCESS || moved < n)
                break;
        }
        free(tmp);
    }
out:
    if (f->atomic)
        pthread_rwlock_unlock(&f->core->atomic_lock);
    *bytes = done;
    mmpi_pvar_add(write ? MMPI_PVAR_FILE_BYTES_WRITTEN : MMPI_PVAR_FILE_BYTES_READ, done);
    return err;
}
