/*
 * io/view.c: file views (MPI-4.1 §14.3) and the one mapping from a view's data stream to file
 * bytes. A view is a displacement, an etype and a filetype tiled from the displacement on: tile
 * k starts at disp + k * extent(filetype), and its data bytes are the filetype's typemap, in
 * typemap order (holes are skipped). The data stream of the view is those bytes, tile after
 * tile; byte b of the stream belongs to tile b / size(filetype). Positions (file pointers,
 * explicit offsets) count etypes of that stream. The flattened runs of datatype.h (run.packed
 * gives where a run starts in the packed element) make finding a byte a binary search.
 */
#include <stdio.h>
#include <string.h>

#include "datatype/datatype.h"
#include "io/io.h"

void mmpi_file_view_default(struct mmpi_file_view *v)
{
    v->disp = 0;
    v->etype = mmpi_datatype_get(NULL, MPI_BYTE);
    v->filetype = v->etype;
    strcpy(v->datarep, "native");
    v->external32 = false;
    v->user = NULL;
}

void mmpi_file_view_copy(struct mmpi_file_view *to, const struct mmpi_file_view *v)
{
    *to = *v;
    mmpi_datatype_retain(to->etype);
    mmpi_datatype_retain(to->filetype);
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
        if (run->off < start || (run->count > 1 && run->stride < 0))
            return 2;
        if (run->off < end || (run->count > 1 && run->stride < (MPI_Aint)run->len))
            verdict = 1;
        start = run->off + (MPI_Aint)(run->count - 1) * run->stride;
        end = start + (MPI_Aint)run->len;
    }
    return verdict;
}

void mmpi_file_view_release(struct mmpi_file_view *v)
{
    mmpi_datatype_release(v->etype);
    mmpi_datatype_release(v->filetype);
    v->etype = v->filetype = NULL;
}

int mmpi_file_set_view(struct mmpi_file *f, MPI_Offset disp, struct mmpi_datatype *etype,
                       struct mmpi_datatype *filetype, const char *datarep,
                       const struct mmpi_datarep *user)
{
    /* §14.5.2: "native", "internal" (ours is native) and "external32" (converted by
     * access.c; only for types whose external32 size is their native size, so that the file
     * layout is the memory layout); registered representations (§14.5.3, datarep.c) under
     * the same condition, checked by the caller with their extent function. */
    bool external32 = !strcmp(datarep, "external32");
    if (strcmp(datarep, "native") && strcmp(datarep, "internal") && !external32 && !user)
        return MPI_ERR_UNSUPPORTED_DATAREP;
    if (external32 && (etype->ext_size != etype->size || filetype->ext_size != filetype->size))
        return MPI_ERR_UNSUPPORTED_DATAREP;
    /* §14.3: the filetype is built of etypes; etype and filetype displacements must be
     * non-negative (monotonically nondecreasing typemaps are what ROMIO also demands). */
    int order = typemap_order(etype) > typemap_order(filetype) ? typemap_order(etype)
                                                              : typemap_order(filetype);
    if (order == 2 || (order == 1 && !(f->core->amode & MPI_MODE_RDONLY)))
        return MPI_ERR_IO;
    if (etype->size == 0 || filetype->size % etype->size != 0)
        return MPI_ERR_TYPE;
    if (disp == MPI_DISPLACEMENT_CURRENT) {
        /* Only with MPI_MODE_SEQUENTIAL (§14.3): the view starts where the shared pointer is. */
        if (!(f->core->amode & MPI_MODE_SEQUENTIAL))
            return MPI_ERR_ARG;
        MPI_Offset pos = __atomic_load_n(&f->core->shared_fp, __ATOMIC_ACQUIRE);
        uint64_t contig;
        if (f->view.filetype->size == 0)
            disp = f->view.disp;
        else
            mmpi_file_view_map(&f->view, (uint64_t)pos * f->view.etype->size, &disp, &contig);
    } else if (disp < 0)
        return MPI_ERR_ARG;
    mmpi_datatype_retain(etype);
    mmpi_datatype_retain(filetype);
    mmpi_file_view_release(&f->view);
    f->view.disp = disp;
    f->view.etype = etype;
    f->view.filetype = filetype;
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
    const struct mmpi_datatype *ft = v->filetype;
    if (ft->contiguous && ft->extent == (MPI_Aint)ft->size) {
        /* Dense tiles back to back: the stream is the file from disp + true_lb on. */
        *off = v->disp + ft->true_lb + (MPI_Offset)b;
        *contig = UINT64_MAX / 2;
        return;
    }
    uint64_t k = b / ft->size, r = b % ft->size;
    const struct mmpi_dt_run *run = find_run(ft, r);
    uint64_t q = r - run->packed, j = q / run->len, in = q % run->len;
    *off = v->disp + (MPI_Offset)k * ft->extent + run->off + (MPI_Offset)j * run->stride +
           (MPI_Offset)in;
    *contig = run->len - in;
}

MPI_Offset mmpi_file_view_position_of(const struct mmpi_file_view *v, MPI_Offset off)
{
    const struct mmpi_datatype *ft = v->filetype;
    size_t esize = v->etype->size;
    if (off <= v->disp || ft->size == 0)
        return 0;
    MPI_Offset rel = off - v->disp;
    if (ft->contiguous && ft->extent == (MPI_Aint)ft->size) {
        MPI_Offset data = rel - ft->true_lb;
        return data <= 0 ? 0 : (data + (MPI_Offset)esize - 1) / (MPI_Offset)esize;
    }
    MPI_Offset k = ft->extent > 0 ? rel / ft->extent : 0;
    MPI_Offset in_tile = rel - k * ft->extent;
    uint64_t bytes = (uint64_t)k * ft->size;
    /* Data bytes of tile k lying before in_tile. */
    for (size_t i = 0; i < ft->nruns; i++) {
        const struct mmpi_dt_run *run = &ft->runs[i];
        for (size_t j = 0; j < run->count; j++) {
            MPI_Offset start = run->off + (MPI_Offset)j * run->stride;
            if (start >= in_tile)
                continue;
            MPI_Offset end = start + (MPI_Offset)run->len;
            bytes += (uint64_t)((end <= in_tile ? end : in_tile) - start);
        }
    }
    return (MPI_Offset)((bytes + esize - 1) / esize);
}
