/*
 * subarray.c: MPI_Type_create_subarray (MPI-4.1 §5.1.3). Built one dimension at a time, from
 * the fastest-varying (last for MPI_ORDER_C, first for MPI_ORDER_FORTRAN): the type for
 * dimensions d..fastest is subsizes[d] copies of the previous one starting at starts[d], resized
 * to lb 0 and the extent of sizes[d] whole slabs, so the next dimension's copies are spaced by a
 * full slab. The result's lb is 0 and its extent the whole array's, as §5.1.3 requires.
 */
#include "datatype/build.h"
#include "mmpi.h"

static int check(int ndims, const int *sizes, const int *subsizes, const int *starts, int order)
{
    if (ndims <= 0)
        return MPI_ERR_DIMS;
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return MPI_ERR_ARG;
    for (int d = 0; d < ndims; d++) {
        if (sizes[d] <= 0 || subsizes[d] < 0 || subsizes[d] > sizes[d] || starts[d] < 0 ||
            starts[d] > sizes[d] - subsizes[d])
            return MPI_ERR_ARG;
    }
    return MPI_SUCCESS;
}

int mmpi_type_create_subarray(int ndims, const int *sizes, const int *subsizes, const int *starts,
                              int order, const struct mmpi_datatype *old,
                              struct mmpi_datatype **out)
{
    const struct mmpi_datatype *prev = old;
    struct mmpi_datatype *t = NULL;
    MPI_Aint slab = old->extent; /* bytes of one step in the current dimension */
    int err = check(ndims, sizes, subsizes, starts, order);

    if (err)
        return err;
    for (int k = 0; k < ndims; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
        struct mmpi_dt_part part = {starts[d] * slab, (size_t)subsizes[d], prev};
        MPI_Aint bounds[2] = {0, sizes[d] * slab};
        err = mmpi_dt_build(&part, 1, 0, bounds, &t);
        if (prev != old)
            mmpi_datatype_release(prev); /* t keeps what its signature needs */
        if (err)
            return err;
        prev = t;
        slab *= sizes[d];
    }
    if ((err = mmpi_dt_envelope(t, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, 0, 1))) {
        mmpi_datatype_release(t);
        return err;
    }
    t->ints[0] = ndims;
    for (int d = 0; d < ndims; d++) {
        t->ints[1 + d] = sizes[d];
        t->ints[1 + ndims + d] = subsizes[d];
        t->ints[1 + 2 * ndims + d] = starts[d];
    }
    t->ints[1 + 3 * ndims] = order;
    mmpi_dt_set_type(t, 0, old);
    *out = t;
    return MPI_SUCCESS;
}
