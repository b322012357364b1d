/*
 * io/access.c: the transfer engine: moves typed memory to and from the data stream of a view
 * with pread/pwrite. Memory is packed (datatype/cursor.c) into a bounce buffer unless it is
 * contiguous; the view is walked with mmpi_file_view_map, one system call per contiguous file
 * piece. Reads stop at end of file (the count in the status says how much arrived, §14.4.1).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "datatype/build.h"
#include "datatype/datatype.h"
#include "io/io.h"

/* Bounce buffers are filled and drained in pieces of at most this many bytes. */
#define CHUNK ((size_t)4 << 20)

static int write_piece(int fd, const char *p, size_t n, MPI_Offset off)
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
static int move_stream(struct mmpi_file *f, const struct mmpi_file_view *v, bool write, uint64_t start, char *mem, size_t n,
                       size_t *done)
{
    int err = MPI_SUCCESS;
    *done = 0;
    while (*done < n) {
        MPI_Offset off;
        uint64_t contig;
        mmpi_file_view_map(v, start + *done, &off, &contig);
        size_t len = n - *done < contig ? n - *done : (size_t)contig, got = len;
        if (write)
            err = write_piece(f->core->fd, mem + *done, len, off);
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

int mmpi_file_transfer(struct mmpi_file *f, const struct mmpi_file_view *v, bool write,
                       MPI_Offset pos, void *buf, size_t count, const struct mmpi_datatype *dt,
                       size_t *bytes)
{
    size_t total = count * dt->size, done = 0;
    uint64_t start = (uint64_t)pos * v->etype->size;
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
    if (v->external32 && dt->ext_size != dt->size) {
        err = MPI_ERR_UNSUPPORTED_DATAREP; /* see view.c: layouts must agree */
        goto out;
    }
    /* A registered representation: same condition, its extent function decides. */
    size_t fsize = 0, items = 0;
    if (v->user && (err = mmpi_datarep_measure(v->user, dt, &fsize, &items)) == MPI_SUCCESS &&
        fsize != dt->size)
        err = MPI_ERR_UNSUPPORTED_DATAREP;
    if (err != MPI_SUCCESS)
        goto out;
    bool conv = v->external32 || v->user;
    /* A predefined memory type with a conversion function: converted straight from / into
     * the user's buffer, as §14.5.3 describes (position: items from the buffer's start). */
    MPI_Datatype handle = v->user && dt->predefined ? dt->handle : MPI_DATATYPE_NULL;
    bool direct = handle != MPI_DATATYPE_NULL && (write ? v->user->write_fn : v->user->read_fn);
    if (dt->contiguous && !conv) {
        err = move_stream(f, v, write, start, (char *)buf + dt->true_lb, total, &done);
    } else {
        /* Whole elements per chunk, so that external32 converts elements. */
        size_t chunk = total < CHUNK ? total : CHUNK;
        chunk = chunk < dt->size ? dt->size : chunk - chunk % dt->size;
        char *tmp = malloc(chunk), *ext = conv ? malloc(chunk) : tmp;
        if (!tmp || !ext) {
            free(tmp);
            if (ext != tmp)
                free(ext);
            err = MPI_ERR_NO_MEM;
            goto out;
        }
        while (done < total) {
            size_t n = total - done < chunk ? total - done : chunk, moved;
            if (write) {
                if (!direct)
                    mmpi_datatype_pack(dt, buf, count, done, tmp, n);
                if (v->external32)
                    mmpi_dt_external32(dt, n / dt->size, tmp, ext, true);
                else if (v->user && (err = mmpi_datarep_convert(v->user, true, buf, handle, dt,
                                                                done / dt->size, n / dt->size,
                                                                items, tmp, ext)))
                    break; /* the conversion function's error is the access's */
            }
            err = move_stream(f, v, write, start + done, ext, n, &moved);
            if (!write && conv)
                moved -= moved % dt->size; /* a partial element at end of file is not data */
            if (!write && v->external32 && moved > 0)
                mmpi_dt_external32(dt, moved / dt->size, tmp, ext, false);
            if (!write && v->user && moved > 0 && err == MPI_SUCCESS &&
                (err = mmpi_datarep_convert(v->user, false, buf, handle, dt, done / dt->size,
                                            moved / dt->size, items, tmp, ext)))
                break;
            if (!write && moved > 0 && !direct)
                mmpi_datatype_unpack(dt, buf, count, done, tmp, moved);
            done += moved;
            if (err != MPI_SUCCESS || moved < n)
                break;
        }
        if (ext != tmp)
            free(ext);
        free(tmp);
    }
out:
    if (f->atomic)
        pthread_rwlock_unlock(&f->core->atomic_lock);
    *bytes = done;
    return err;
}
