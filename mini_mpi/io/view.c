/*
 * io/view.c: file views (MPI-4.1 §14.3) and the one mapping from a view's data stream to file
 * bytes. A view is a displacement, an etype and a filetype tiled from the displacement on: tile
 * k starts at disp + k * extent(filetype), and its data bytes are the filetype's typemap, in
 * typemap order (holes are skipped). The data stream of the view is those bytes, tile after
 * tile; byte b of the stream belongs to tile b / size(filetype). Positions (file pointers,
 * explicit offsets) count etypes of that stream. The flattened runs of datatype.h (run.packed
 * gives where a run starts in the packed element; a run is copies of strided blocks) make
 * finding a byte a binary search and a few divisions.
 *
 * Data representations (§14.5): the stream is made of file bytes. When the representation
 * gives basic types other sizes than memory (external32's 4-byte MPI_LONG, a registered
 * representation's extent function), the etype and filetype are taken in the file's sizes:
 * view->layout is the filetype rebuilt that way (datatype/file_layout.c) and view->esize the
 * etype's file size, and everything here maps through those. A native view's layout is its
 * filetype, so the native path is the same code with the same numbers. Converting the data
 * itself is access.c's.
 *
 * File offsets are MPI_Offset (64-bit signed): a position times the etype's size, a tile
 * number times the filetype's extent, plus the displacement, can exceed it and wrap, so that
 * an access far out lands at the start of the file. Each view knows how many positions it can
 * address (view_limit); every access, seek and pointer move is checked against that one limit
 * (mmpi_file_view_range), and every count of the access against MPI_Offset
 * (mmpi_file_view_count), before anything is mapped or written.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "datatype/datatype.h"
#include "io/io.h"

/* Positions addressable in a view of displacement disp, layout ft and etypes of esize bytes:
 * every data byte of positions [0, limit) lies at a file offset below INT64_MAX (so the end
 * of every access is an MPI_Offset too, and position * esize never overflows). Tile k holds
 * the file bytes [disp + k * extent + true_lb, disp + k * extent + true_lb + true_extent);
 * typemaps start at non-negative displacements and increase (typemap_order), so the offsets
 * mmpi_file_view_map computes for a tile grow towards that end. 0 when not even the data of
 * the first tile fits. */
static MPI_Offset view_limit(MPI_Offset disp, const struct mmpi_datatype *ft, size_t esize)
{
    const MPI_Offset max = INT64_MAX;
    MPI_Offset first, last, bytes; /* bytes: data bytes of the stream that are addressable */
    if (ft->size == 0)
        return max / (MPI_Offset)esize;
    if (__builtin_add_overflow(disp, ft->true_lb, &first) ||
        __builtin_add_overflow(first, ft->true_extent, &last) || last > max)
        return 0; /* the first tile's data does not fit */
    if (ft->contiguous && ft->extent == (MPI_Aint)ft->size)
        bytes = max - first; /* the stream is the file from `first` on */
    else {
        MPI_Offset tiles;
        if (ft->extent > 0)
            tiles = (max - last) / ft->extent + 1;
        else if (ft->extent == 0)
            tiles = max; /* every tile at the same place */
        else
            tiles = first / -ft->extent + 1; /* tiles go down to offset 0, not below */
        if (__builtin_mul_overflow(tiles, (MPI_Offset)ft->size, &bytes))
            bytes = max;
    }
    return bytes / (MPI_Offset)esize;
}

int mmpi_file_view_range(const struct mmpi_file_view *v, MPI_Offset pos, MPI_Offset n)
{
    return pos >= 0 && n >= 0 && pos <= v->limit && n <= v->limit - pos ? MPI_SUCCESS
                                                                         : MPI_ERR_ARG;
}

int mmpi_file_view_seek(const struct mmpi_file_view *v, MPI_Offset from, MPI_Offset offset,
                        MPI_Offset *to)
{
    if (__builtin_add_overflow(from, offset, to))
        return MPI_ERR_ARG;
    return mmpi_file_view_range(v, *to, 0);
}

int mmpi_file_view_count(const struct mmpi_file_view *v, const struct mmpi_datatype *dt,
                         size_t fsize, MPI_Count count, MPI_Offset *n)
{
    /* ROMIO's MPIO_CHECK_COUNT_SIZE: count * size must not overflow (MPI_ERR_ARG). Both the
     * memory bytes (the transfer's total) and the file bytes (a converting view's sizes). */
    MPI_Offset mem, file;
    if (__builtin_mul_overflow(count, (MPI_Offset)dt->size, &mem) ||
        __builtin_mul_overflow(count, (MPI_Offset)fsize, &file))
        return MPI_ERR_ARG;
    *n = dt->size ? (MPI_Offset)mmpi_file_view_per_etype(v, (uint64_t)file) : 0;
    return MPI_SUCCESS;
}

void mmpi_file_view_default(struct mmpi_file_view *v)
{
    v->disp = 0;
    v->etype = mmpi_datatype_get(NULL, MPI_BYTE);
    v->filetype = v->etype;
    v->layout = v->etype;
    v->esize = v->etype->size;
    v->limit = view_limit(0, v->layout, v->esize);
    strcpy(v->datarep, "native");
    v->external32 = false;
    v->user = NULL;
}

void mmpi_file_view_copy(struct mmpi_file_view *to, const struct mmpi_file_view *v)
{
    *to = *v;
    mmpi_datatype_retain(to->etype);
    mmpi_datatype_retain(to->filetype);
    mmpi_datatype_retain(to->layout);
}

/* §14.3: "the displacements in the typemap of the filetype [and etype] are required to be
 * non-negative and monotonically nondecreasing", and, for a file opened for writing, the
 * etypes of a filetype must not overlap. Returns 0 when dt is fine, 1 when blocks overlap
 * (allowed read-only), 2 when a displacement is negative or decreases (MPICH reports both
 * as MPI_ERR_IO). */
static int typemap_order(const struct mmpi_datatype *dt)
{
    MPI_Aint start = 0, end = 0;
    int verdict = 0;
    for (size_t i = 0; i < dt->nruns; i++) {
        const struct mmpi_dt_run *run = &dt->runs[i];
        /* A copy's blocks span [off, off + blocks + len); the next copy starts rstride on. */
        MPI_Aint blocks = (MPI_Aint)(run->count - 1) * run->stride;
        if (run->off < start || (run->count > 1 && run->stride < 0) ||
            (run->reps > 1 && run->rstride < blocks))
            return 2;
        if (run->off < end || (run->count > 1 && run->stride < (MPI_Aint)run->len) ||
            (run->reps > 1 && run->rstride < blocks + (MPI_Aint)run->len))
            verdict = 1;
        start = run->off + (MPI_Aint)(run->reps - 1) * run->rstride + blocks;
        end = start + (MPI_Aint)run->len;
    }
    return verdict;
}

void mmpi_file_view_release(struct mmpi_file_view *v)
{
    mmpi_datatype_release(v->etype);
    mmpi_datatype_release(v->filetype);
    mmpi_datatype_release(v->layout);
    v->etype = v->filetype = v->layout = NULL;
}

/* external32's size of a leaf (mmpi_dt_leaf_size_fn). */
static int external32_size(void *arg, const struct mmpi_datatype *leaf, size_t *size)
{
    (void)arg;
    *size = leaf->ext_size;
    return MPI_SUCCESS;
}

/* The layout of dt in a file of representation (external32, user), as set_view and
 * get_type_extent need it. */
static int layout_of(bool external32, const struct mmpi_datarep *user,
                     const struct mmpi_datatype *dt, struct mmpi_datatype **out)
{
    if (external32)
        return mmpi_datatype_file_layout(dt, external32_size, NULL, out);
    if (user)
        return mmpi_datatype_file_layout(dt, mmpi_datarep_leaf_size, (void *)user, out);
    mmpi_datatype_retain(dt);
    *out = (struct mmpi_datatype *)dt;
    return MPI_SUCCESS;
}

int mmpi_file_view_type_layout(const struct mmpi_file_view *v, const struct mmpi_datatype *dt,
                               struct mmpi_datatype **out)
{
    return layout_of(v->external32, v->user, dt, out);
}

int mmpi_file_view_elem_size(const struct mmpi_file_view *v, const struct mmpi_datatype *dt,
                             size_t *size)
{
    size_t items;
    if (v->external32)
        *size = dt->ext_size;
    else if (v->user)
        return mmpi_datarep_measure(v->user, dt, size, &items);
    else
        *size = dt->size;
    return MPI_SUCCESS;
}

MPI_Offset mmpi_file_view_etypes(const struct mmpi_file_view *v, const struct mmpi_datatype *dt,
                                 size_t bytes)
{
    if (!v->external32 && !v->user)
        return (MPI_Offset)mmpi_file_view_per_etype(v, bytes);
    size_t fsize;
    if (dt->size == 0 || v->esize == 0 || mmpi_file_view_elem_size(v, dt, &fsize))
        return 0; /* the access checked the sizes first (access_api.c) */
    return (MPI_Offset)(bytes / dt->size * fsize / v->esize);
}

int mmpi_file_set_view(struct mmpi_file *f, MPI_Offset disp, struct mmpi_datatype *etype,
                       struct mmpi_datatype *filetype, const char *datarep,
                       const struct mmpi_datarep *user)
{
    /* §14.5.2: "native", "internal" (ours is native) and "external32"; registered
     * representations (§14.5.3, datarep.c). Converting ones lay etype and filetype out in
     * the file's sizes. */
    bool external32 = !strcmp(datarep, "external32");
    if (strcmp(datarep, "native") && strcmp(datarep, "internal") && !external32 && !user)
        return MPI_ERR_UNSUPPORTED_DATAREP;
    struct mmpi_datatype *layout = NULL;
    size_t esize = etype->size;
    struct mmpi_file_view probe = {.external32 = external32, .user = user};
    int err = mmpi_file_view_elem_size(&probe, etype, &esize);
    if (err == MPI_SUCCESS)
        err = layout_of(external32, user, filetype, &layout);
    if (err != MPI_SUCCESS)
        return err;
    /* §14.3: the filetype is built of etypes; etype and filetype displacements must be
     * non-negative (monotonically nondecreasing typemaps are what ROMIO also demands). */
    int order = typemap_order(etype) > typemap_order(layout) ? typemap_order(etype)
                                                            : typemap_order(layout);
    if (order == 2 || (order == 1 && !(f->core->amode & MPI_MODE_RDONLY)))
        err = MPI_ERR_IO;
    else if (etype->size == 0 || esize == 0 || layout->size % esize != 0)
        err = MPI_ERR_TYPE;
    else if (disp == MPI_DISPLACEMENT_CURRENT) {
        /* Only with MPI_MODE_SEQUENTIAL (§14.3): the view starts where the shared pointer is. */
        if (!(f->core->amode & MPI_MODE_SEQUENTIAL))
            err = MPI_ERR_ARG;
        else if (f->view.layout->size == 0)
            disp = f->view.disp;
        else {
            MPI_Offset pos = __atomic_load_n(&f->core->shared_fp, __ATOMIC_ACQUIRE);
            uint64_t contig;
            err = mmpi_file_view_range(&f->view, pos, 1); /* beyond the view: no byte offset */
            if (err == MPI_SUCCESS)
                mmpi_file_view_map(&f->view, (uint64_t)pos * f->view.esize, &disp, &contig);
        }
    } else if (disp < 0)
        err = MPI_ERR_ARG;
    MPI_Offset limit = err == MPI_SUCCESS ? view_limit(disp, layout, esize) : 0;
    /* The data of the view's first tile must have file offsets: a displacement so large that
     * it has none is a bad displacement (MPI_ERR_ARG, the class of a negative one). */
    if (err == MPI_SUCCESS && layout->size > 0 &&
        limit * (MPI_Offset)esize < (MPI_Offset)layout->size)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS) {
        mmpi_datatype_release(layout);
        return err;
    }
    mmpi_datatype_retain(etype);
    mmpi_datatype_retain(filetype);
    mmpi_file_view_release(&f->view);
    f->view.disp = disp;
    f->view.etype = etype;
    f->view.filetype = filetype;
    f->view.layout = layout; /* takes layout_of's reference */
    f->view.esize = esize;
    f->view.limit = limit;
    snprintf(f->view.datarep, sizeof(f->view.datarep), "%s", datarep);
    f->view.external32 = external32;
    f->view.user = user;
    /* §14.3: set_view resets both file pointers to zero. */
    f->fp = 0;
    return MPI_SUCCESS;
}

/* The run of ft holding packed byte r of one element (binary search on run.packed). */
static const struct mmpi_dt_run *find_run(const struct mmpi_datatype *ft, uint64_t r)
{
    size_t lo = 0, hi = ft->nruns;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (ft->runs[mid].packed <= r)
            lo = mid;
        else
            hi = mid;
    }
    return &ft->runs[lo];
}

void mmpi_file_view_map(const struct mmpi_file_view *v, uint64_t b, MPI_Offset *off,
                        uint64_t *contig)
{
    const struct mmpi_datatype *ft = v->layout;
    if (ft->contiguous && ft->extent == (MPI_Aint)ft->size) {
        /* Dense tiles back to back: the stream is the file from disp + true_lb on. */
        *off = v->disp + ft->true_lb + (MPI_Offset)b;
        *contig = UINT64_MAX / 2;
        return;
    }
    uint64_t k = b / ft->size, r = b % ft->size;
    const struct mmpi_dt_run *run = find_run(ft, r);
    uint64_t q = r - run->packed, copy = run->count * run->len;
    uint64_t c = q / copy, j = q % copy / run->len, in = q % run->len;
    *off = v->disp + (MPI_Offset)k * ft->extent + run->off + (MPI_Offset)c * run->rstride +
           (MPI_Offset)j * run->stride + (MPI_Offset)in;
    *contig = run->len - in;
}

MPI_Offset mmpi_file_view_position_of(const struct mmpi_file_view *v, MPI_Offset off)
{
    const struct mmpi_datatype *ft = v->layout;
    size_t esize = v->esize;
    if (off <= v->disp || ft->size == 0)
        return 0;
    MPI_Offset rel = off - v->disp;
    if (ft->contiguous && ft->extent == (MPI_Aint)ft->size) {
        MPI_Offset data = rel - ft->true_lb;
        return data <= 0 ? 0 : data / (MPI_Offset)esize + (data % (MPI_Offset)esize != 0);
    }
    MPI_Offset k = ft->extent > 0 ? rel / ft->extent : 0;
    MPI_Offset in_tile = rel - k * ft->extent;
    uint64_t bytes = (uint64_t)k * ft->size;
    /* Data bytes of tile k lying before in_tile. */
    for (size_t i = 0; i < ft->nruns; i++) {
        const struct mmpi_dt_run *run = &ft->runs[i];
        for (size_t c = 0; c < run->reps; c++) {
            for (size_t j = 0; j < run->count; j++) {
                MPI_Offset start = run->off + (MPI_Offset)c * run->rstride +
                                   (MPI_Offset)j * run->stride;
                if (start >= in_tile)
                    continue;
                MPI_Offset end = start + (MPI_Offset)run->len;
                bytes += (uint64_t)((end <= in_tile ? end : in_tile) - start);
            }
        }
    }
    return (MPI_Offset)(bytes / esize + (bytes % esize != 0));
}

int mmpi_file_view_end(struct mmpi_file *f, MPI_Offset *end)
{
    MPI_Offset size;
    int err = mmpi_file_get_size(f, &size);
    if (err == MPI_SUCCESS)
        *end = mmpi_file_view_position_of(&f->view, size);
    return err;
}
