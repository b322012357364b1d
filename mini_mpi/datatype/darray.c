/*
 * darray.c: MPI_Type_create_darray (MPI-4.1 §5.1.4): the part of a global array that process
 * `rank` of a grid owns under an HPF-style block / cyclic distribution. The process grid is
 * row-major whatever the array order (§5.1.4). As for subarray.c, the type is built one
 * dimension at a time from the fastest-varying one; each dimension keeps the local indices of
 * that dimension (one part per owned block) and is resized to lb 0 and the extent of the whole
 * dimension, so the result's extent is the whole global array's.
 */
#include <stdint.h>
#include <stdlib.h>

#include "datatype/build.h"
#include "mmpi.h"

static int check(int size, int rank, int ndims, struct mmpi_poly_array gsizes, const int *distribs,
                 const int *dargs, const int *psizes, int order)
{
    long long procs = 1;

    if (ndims <= 0)
        return MPI_ERR_DIMS;
    if (size <= 0 || rank < 0 || rank >= size)
        return MPI_ERR_ARG;
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return MPI_ERR_ARG;
    for (int d = 0; d < ndims; d++) {
        int darg = dargs[d];
        int64_t gsize = mmpi_poly_at(gsizes, d);
        if (gsize <= 0 || psizes[d] <= 0)
            return MPI_ERR_ARG;
        procs *= psizes[d];
        if (procs > size)
            return MPI_ERR_ARG;
        if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg <= 0)
            return MPI_ERR_ARG;
        switch (distribs[d]) {
        case MPI_DISTRIBUTE_NONE:
            if (psizes[d] != 1)
                return MPI_ERR_ARG; /* §5.1.4: an undistributed dimension has one process */
            break;
        case MPI_DISTRIBUTE_BLOCK:
            /* §5.1.4: darg * psize must cover the dimension */
            if (darg != MPI_DISTRIBUTE_DFLT_DARG && (long long)darg * psizes[d] < gsize)
                return MPI_ERR_ARG;
            break;
        case MPI_DISTRIBUTE_CYCLIC:
            break;
        default:
            return MPI_ERR_ARG;
        }
    }
    return procs == size ? MPI_SUCCESS : MPI_ERR_ARG;
}

/* The blocks of dimension d that grid coordinate `coord` owns, as parts of `child` spaced by
 * `step` bytes per index. Returns the number of parts (at most gsize). */
static size_t owned_parts(int64_t gsize, int distrib, int darg, int nprocs, int coord,
                          const struct mmpi_datatype *child, MPI_Aint step, struct mmpi_dt_part *p)
{
    long long b, first, stride;
    size_t n = 0;

    switch (distrib) {
    case MPI_DISTRIBUTE_NONE:
        b = gsize, first = 0, stride = gsize;
        break;
    case MPI_DISTRIBUTE_BLOCK:
        b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + nprocs - 1) / nprocs : darg;
        first = coord * b, stride = (long long)gsize; /* one block only */
        break;
    default: /* cyclic(b): blocks of b, dealt round-robin */
        b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        first = coord * b, stride = nprocs * b;
        break;
    }
    for (long long start = first; start < gsize; start += stride) {
        long long len = gsize - start < b ? gsize - start : b;
        p[n++] = (struct mmpi_dt_part){(MPI_Aint)start * step, (size_t)len, child, 1, 0};
        if (distrib != MPI_DISTRIBUTE_CYCLIC)
            break;
    }
    return n;
}

int mmpi_type_create_darray(int size, int rank, int ndims, struct mmpi_poly_array gsizes,
                            const int *distribs, const int *dargs, const int *psizes, int order,
                            const struct mmpi_datatype *old, struct mmpi_datatype **out)
{
    const struct mmpi_datatype *prev = old;
    struct mmpi_datatype *t = NULL;
    struct mmpi_dt_part *parts = NULL;
    MPI_Aint step = old->extent;
    int *coords = NULL;
    size_t maxparts = 1, n = ndims > 0 ? (size_t)ndims : 0;
    bool large = gsizes.wide;
    int err = check(size, rank, ndims, gsizes, distribs, dargs, psizes, order);

    if (err)
        return err;
    /* A dimension has at most min(gsize, blocks dealt to one process) parts. */
    for (size_t d = 0; d < n; d++) {
        int64_t g = mmpi_poly_at(gsizes, d);
        int64_t most = distribs[d] == MPI_DISTRIBUTE_CYCLIC ? g / psizes[d] + 1 : 1;
        maxparts = (size_t)most > maxparts ? (size_t)most : maxparts;
    }
    coords = malloc(n * sizeof(int));
    parts = maxparts <= SIZE_MAX / sizeof(*parts) ? malloc(maxparts * sizeof(*parts)) : NULL;
    if (!coords || !parts) {
        err = MPI_ERR_NO_MEM;
        goto fn_exit;
    }
    /* Row-major grid coordinates of `rank` (§5.1.4), whatever the array order. */
    for (int d = ndims - 1, r = rank; d >= 0; d--) {
        coords[d] = r % psizes[d];
        r /= psizes[d];
    }
    for (int k = 0; k < ndims; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
        int64_t g = mmpi_poly_at(gsizes, d);
        MPI_Aint whole;
        if (__builtin_mul_overflow(g, step, &whole)) {
            err = MPI_ERR_ARG;
        } else {
            size_t np = owned_parts(g, distribs[d], dargs[d], psizes[d], coords[d], prev, step,
                                    parts);
            MPI_Aint bounds[2] = {0, whole};
            err = mmpi_dt_build(parts, np, 0, bounds, &t);
        }
        if (prev != old)
            mmpi_datatype_release(prev);
        if (err)
            goto fn_exit;
        prev = t;
        step = whole;
    }
    /* MPI-4.1 §5.1.13: size, rank, ndims, gsizes, distribs, dargs, psizes, order; in the large
     * form gsizes are the large counts. */
    size_t nd = large ? 0 : n;
    if ((err = mmpi_dt_envelope(t, MPI_COMBINER_DARRAY, 3 * n + nd + 4, 0, large ? n : 0, 1))) {
        mmpi_datatype_release(t);
        goto fn_exit;
    }
    t->ints[0] = size;
    t->ints[1] = rank;
    t->ints[2] = ndims;
    for (size_t d = 0; d < n; d++) {
        if (large)
            t->counts[d] = mmpi_poly_at(gsizes, d);
        else
            t->ints[3 + d] = (int)mmpi_poly_at(gsizes, d);
        t->ints[3 + nd + d] = distribs[d];
        t->ints[3 + nd + n + d] = dargs[d];
        t->ints[3 + nd + 2 * n + d] = psizes[d];
    }
    t->ints[3 + nd + 3 * n] = order;
    mmpi_dt_set_type(t, 0, old);
    *out = t;
fn_exit:
    free(coords);
    free(parts);
    return err;
}
