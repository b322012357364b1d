/*
 * subarray.c: MPI_Type_create_subarray (MPI-4.1 §5.1.3). Built one dimension at a time, from
 * the fastest-varying (last for MPI_ORDER_C, first for MPI_ORDER_FORTRAN): the type for
 * dimensions d..fastest is subsizes[d] copies of the previous one starting at starts[d], resized
 * to lb 0 and the extent of sizes[d] whole slabs, so the next dimension's copies are spaced by a
 * full slab. The result's lb is 0 and its extent the whole array's, as §5.1.3 requires.
 */
#include "datatype/build.h"
#include "mmpi.h"

static int check(int ndims, struct mmpi_poly_array sizes, struct mmpi_poly_array subsizes,
                 struct mmpi_poly_array starts, int order)
{
    if (ndims <= 0)
        return MPI_ERR_DIMS;
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return MPI_ERR_ARG;
    for (int d = 0; d < ndims; d++) {
        int64_t size = mmpi_poly_at(sizes, d), sub = mmpi_poly_at(subsizes, d),
                start = mmpi_poly_at(starts, d);
        if (size <= 0 || sub < 0 || sub > size || start < 0 || start > size - sub)
            return MPI_ERR_ARG;
    }
    return MPI_SUCCESS;
}

int mmpi_type_create_subarray(int ndims, struct mmpi_poly_array sizes,
                              struct mmpi_poly_array subsizes, struct mmpi_poly_array starts,
                              int order, const struct mmpi_datatype *old,
                              struct mmpi_datatype **out)
{
    const struct mmpi_datatype *prev = old;
    struct mmpi_datatype *t = NULL;
    MPI_Aint slab = old->extent; /* bytes of one step in the current dimension */
    bool large = sizes.wide;
    size_t n = ndims > 0 ? (size_t)ndims : 0;
    int err = check(ndims, sizes, subsizes, starts, order);

    if (err)
        return err;
    for (int k = 0; k < ndims; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
        MPI_Aint first, whole;
        if (__builtin_mul_overflow(mmpi_poly_at(starts, d), slab, &first) ||
            __builtin_mul_overflow(mmpi_poly_at(sizes, d), slab, &whole)) {
            err = MPI_ERR_ARG;
        } else {
            struct mmpi_dt_part part = {first, (size_t)mmpi_poly_at(subsizes, d), prev, 1, 0};
            MPI_Aint bounds[2] = {0, whole};
            err = mmpi_dt_build(&part, 1, 0, bounds, &t);
        }
        if (prev != old)
            mmpi_datatype_release(prev); /* t keeps what its signature needs */
        if (err)
            return err;
        prev = t;
        slab = whole;
    }
    /* MPI-4.1 §5.1.13: ndims, the sizes, subsizes and starts, order; in the large form the
     * three arrays are large counts. */
    if ((err = mmpi_dt_envelope(t, MPI_COMBINER_SUBARRAY, large ? 2 : 3 * n + 2, 0,
                                large ? 3 * n : 0, 1))) {
        mmpi_datatype_release(t);
        return err;
    }
    t->ints[0] = ndims;
    for (size_t d = 0; d < n; d++) {
        struct mmpi_poly_array a[3] = {sizes, subsizes, starts};
        for (size_t k = 0; k < 3; k++) {
            if (large)
                t->counts[k * n + d] = mmpi_poly_at(a[k], d);
            else
                t->ints[1 + k * n + d] = (int)mmpi_poly_at(a[k], d);
        }
    }
    t->ints[large ? 1 : 1 + 3 * n] = order;
    mmpi_dt_set_type(t, 0, old);
    *out = t;
    return MPI_SUCCESS;
}
