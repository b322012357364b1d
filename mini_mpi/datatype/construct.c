/*
 * construct.c: the implementations of the MPI-4.1 §5.1.2 constructors (contiguous, vector,
 * hvector, indexed, hindexed, indexed_block, hindexed_block, struct), MPI_Type_create_resized
 * (§5.1.7) and MPI_Type_dup (§5.1.10). Each maps its arguments to parts for mmpi_dt_build and
 * records its envelope (§5.1.13). Subarray and darray are in their own files; argument checks
 * are the bindings' (construct_api.c).
 */
#include <stdlib.h>

#include "datatype/build.h"
#include "mmpi.h"

/* Builds from parts and gives the result its envelope; frees parts. */
static int build(struct mmpi_dt_part *parts, size_t nparts, int flags, const MPI_Aint *resize,
                 int combiner, int ni, int na, int nd, struct mmpi_datatype **out)
{
    int err = mmpi_dt_build(parts, nparts, flags, resize, out);
    free(parts);
    if (err == MPI_SUCCESS && (err = mmpi_dt_envelope(*out, combiner, ni, na, nd))) {
        mmpi_datatype_release(*out);
        *out = NULL;
    }
    return err;
}

static struct mmpi_dt_part *parts_new(int n)
{
    return malloc((n > 0 ? (size_t)n : 1) * sizeof(struct mmpi_dt_part));
}

int mmpi_type_contiguous(int count, const struct mmpi_datatype *old, struct mmpi_datatype **out)
{
    struct mmpi_dt_part *p = parts_new(1);
    if (!p)
        return MPI_ERR_NO_MEM;
    p[0] = (struct mmpi_dt_part){0, (size_t)count, old};
    int err = build(p, 1, 0, NULL, MPI_COMBINER_CONTIGUOUS, 1, 0, 1, out);
    if (err == MPI_SUCCESS) {
        (*out)->ints[0] = count;
        mmpi_dt_set_type(*out, 0, old);
    }
    return err;
}

/* count blocks of blocklength copies of old, block i at i*stride bytes. */
static int strided(int count, int blocklength, MPI_Aint stride, const struct mmpi_datatype *old,
                   int combiner, int ni, int na, struct mmpi_datatype **out)
{
    struct mmpi_dt_part *p = parts_new(count);
    if (!p)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < count; i++)
        p[i] = (struct mmpi_dt_part){(MPI_Aint)i * stride, (size_t)blocklength, old};
    int err = build(p, (size_t)count, 0, NULL, combiner, ni, na, 1, out);
    if (err == MPI_SUCCESS) {
        (*out)->ints[0] = count;
        (*out)->ints[1] = blocklength;
        mmpi_dt_set_type(*out, 0, old);
    }
    return err;
}

int mmpi_type_vector(int count, int blocklength, int stride, const struct mmpi_datatype *old,
                     struct mmpi_datatype **out)
{
    int err = strided(count, blocklength, (MPI_Aint)stride * old->extent, old,
                      MPI_COMBINER_VECTOR, 3, 0, out);
    if (err == MPI_SUCCESS)
        (*out)->ints[2] = stride;
    return err;
}

int mmpi_type_create_hvector(int count, int blocklength, MPI_Aint stride,
                             const struct mmpi_datatype *old, struct mmpi_datatype **out)
{
    int err = strided(count, blocklength, stride, old, MPI_COMBINER_HVECTOR, 2, 1, out);
    if (err == MPI_SUCCESS)
        (*out)->aints[0] = stride;
    return err;
}

/* Blocks of blocklengths[i] (or `blocklength` when blocklengths is NULL) copies of old at
 * idisp[i] * old->extent or adisp[i] bytes. Envelope: ints = count, then the block length(s),
 * then integer displacements; aints = byte displacements. */
static int indexed(int count, const int *blocklengths, int blocklength, const int *idisp,
                   const MPI_Aint *adisp, const struct mmpi_datatype *old, int combiner,
                   struct mmpi_datatype **out)
{
    int nbl = blocklengths ? count : 1;
    int ni = 1 + nbl + (idisp ? count : 0);
    int na = adisp ? count : 0;
    struct mmpi_dt_part *p = parts_new(count);
    if (!p)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < count; i++) {
        MPI_Aint disp = idisp ? (MPI_Aint)idisp[i] * old->extent : adisp[i];
        p[i] = (struct mmpi_dt_part){disp, (size_t)(blocklengths ? blocklengths[i] : blocklength),
                                     old};
    }
    int err = build(p, (size_t)count, 0, NULL, combiner, ni, na, 1, out);
    if (err == MPI_SUCCESS) {
        int *ints = (*out)->ints;
        ints[0] = count;
        for (int i = 0; i < nbl; i++)
            ints[1 + i] = blocklengths ? blocklengths[i] : blocklength;
        for (int i = 0; idisp && i < count; i++)
            ints[1 + nbl + i] = idisp[i];
        for (int i = 0; i < na; i++)
            (*out)->aints[i] = adisp[i];
        mmpi_dt_set_type(*out, 0, old);
    }
    return err;
}

int mmpi_type_indexed(int count, const int *blocklengths, const int *displacements,
                      const struct mmpi_datatype *old, struct mmpi_datatype **out)
{
    return indexed(count, blocklengths, 0, displacements, NULL, old, MPI_COMBINER_INDEXED, out);
}

int mmpi_type_create_hindexed(int count, const int *blocklengths, const MPI_Aint *displacements,
                              const struct mmpi_datatype *old, struct mmpi_datatype **out)
{
    return indexed(count, blocklengths, 0, NULL, displacements, old, MPI_COMBINER_HINDEXED, out);
}

int mmpi_type_create_indexed_block(int count, int blocklength, const int *displacements,
                                   const struct mmpi_datatype *old, struct mmpi_datatype **out)
{
    return indexed(count, NULL, blocklength, displacements, NULL, old,
                   MPI_COMBINER_INDEXED_BLOCK, out);
}

int mmpi_type_create_hindexed_block(int count, int blocklength, const MPI_Aint *displacements,
                                    const struct mmpi_datatype *old, struct mmpi_datatype **out)
{
    return indexed(count, NULL, blocklength, NULL, displacements, old,
                   MPI_COMBINER_HINDEXED_BLOCK, out);
}

int mmpi_type_create_struct(int count, const int *blocklengths, const MPI_Aint *displacements,
                            struct mmpi_datatype *const *types, struct mmpi_datatype **out)
{
    struct mmpi_dt_part *p = parts_new(count);
    if (!p)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < count; i++)
        p[i] = (struct mmpi_dt_part){displacements[i], (size_t)blocklengths[i], types[i]};
    int err = build(p, (size_t)count, MMPI_DT_BUILD_PAD, NULL, MPI_COMBINER_STRUCT, count + 1,
                    count, count, out);
    if (err == MPI_SUCCESS) {
        (*out)->ints[0] = count;
        for (int i = 0; i < count; i++) {
            (*out)->ints[1 + i] = blocklengths[i];
            (*out)->aints[i] = displacements[i];
            mmpi_dt_set_type(*out, i, types[i]);
        }
    }
    return err;
}

int mmpi_type_create_resized(const struct mmpi_datatype *old, MPI_Aint lb, MPI_Aint extent,
                             struct mmpi_datatype **out)
{
    struct mmpi_dt_part *p = parts_new(1);
    MPI_Aint bounds[2] = {lb, extent};
    if (!p)
        return MPI_ERR_NO_MEM;
    p[0] = (struct mmpi_dt_part){0, 1, old};
    int err = build(p, 1, 0, bounds, MPI_COMBINER_RESIZED, 0, 2, 1, out);
    if (err == MPI_SUCCESS) {
        (*out)->aints[0] = lb;
        (*out)->aints[1] = extent;
        mmpi_dt_set_type(*out, 0, old);
    }
    return err;
}

/* MPI-4.1 §5.1.10: same typemap, same committed state; a new object with its own name. */
int mmpi_type_dup(const struct mmpi_datatype *old, struct mmpi_datatype **out)
{
    struct mmpi_dt_part *p = parts_new(1);
    if (!p)
        return MPI_ERR_NO_MEM;
    p[0] = (struct mmpi_dt_part){0, 1, old};
    int err = build(p, 1, 0, NULL, MPI_COMBINER_DUP, 0, 0, 1, out);
    if (err == MPI_SUCCESS) {
        (*out)->align = old->align;
        (*out)->committed = __atomic_load_n(&old->committed, __ATOMIC_ACQUIRE);
        mmpi_dt_set_type(*out, 0, old);
    }
    return err;
}
