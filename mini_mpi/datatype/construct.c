/*
 * construct.c: the implementations of the MPI-4.1 §5.1.2 constructors (contiguous, vector,
 * hvector, indexed, hindexed, indexed_block, hindexed_block, struct), MPI_Type_create_resized
 * (§5.1.7) and MPI_Type_dup (§5.1.10). Each maps its arguments to parts for mmpi_dt_build and
 * records its envelope (§5.1.13). Subarray and darray are in their own files; argument checks
 * are the bindings' (construct_api.c).
 */
#include <stdint.h>
#include <stdlib.h>

#include "datatype/build.h"
#include "mmpi.h"

/* Builds from parts and gives the result its envelope; frees parts. */
static int build(struct mmpi_dt_part *parts, size_t nparts, int flags, const MPI_Aint *resize,
                 int combiner, size_t ni, size_t na, size_t nc, size_t nd,
                 struct mmpi_datatype **out)
{
    int err = mmpi_dt_build(parts, nparts, flags, resize, out);
    free(parts);
    if (err == MPI_SUCCESS && (err = mmpi_dt_envelope(*out, combiner, ni, na, nc, nd))) {
        mmpi_datatype_release(*out);
        *out = NULL;
    }
    return err;
}

static struct mmpi_dt_part *parts_new(MPI_Count n)
{
    if ((uint64_t)n > SIZE_MAX / sizeof(struct mmpi_dt_part))
        return NULL;
    return calloc(n > 0 ? (size_t)n : 1, sizeof(struct mmpi_dt_part));
}

/* Writes the envelope's arguments in order: the constructor's integer arguments go to ints[]
 * (int form) or counts[] (large form), its byte displacements to aints[] or counts[]
 * (MPI-4.1 §5.1.13: the _c constructors record every count and displacement as a large
 * count). Integer arguments that are not counts (an order, a rank) always go to ints[]. */
struct env {
    struct mmpi_datatype *dt;
    bool large;
    size_t ki, ka, kc;
};

static void put_count(struct env *e, MPI_Count v)
{
    if (e->large)
        e->dt->counts[e->kc++] = v;
    else
        e->dt->ints[e->ki++] = (int)v; /* the int form's arguments were ints */
}

static void put_aint(struct env *e, MPI_Aint v)
{
    if (e->large)
        e->dt->counts[e->kc++] = v;
    else
        e->dt->aints[e->ka++] = v;
}

int mmpi_type_contiguous(MPI_Count count, const struct mmpi_datatype *old, bool large,
                         struct mmpi_datatype **out)
{
    struct mmpi_dt_part *p = parts_new(1);
    if (!p)
        return MPI_ERR_NO_MEM;
    p[0] = (struct mmpi_dt_part){.count = (size_t)count, .child = old};
    int err = build(p, 1, 0, NULL, MPI_COMBINER_CONTIGUOUS, !large, 0, large, 1, out);
    if (err == MPI_SUCCESS) {
        struct env e = {*out, large, 0, 0, 0};
        put_count(&e, count);
        mmpi_dt_set_type(*out, 0, old);
    }
    return err;
}

/* count blocks of blocklength copies of old, block i at i*stride bytes: one repeated part. */
static int strided(MPI_Count count, MPI_Count blocklength, MPI_Aint stride,
                   const struct mmpi_datatype *old, int combiner, bool large,
                   struct mmpi_datatype **out)
{
    struct mmpi_dt_part *p = parts_new(1);
    if (!p)
        return MPI_ERR_NO_MEM;
    p[0] = (struct mmpi_dt_part){0, (size_t)blocklength, old, (size_t)count, stride};
    bool bytes = combiner == MPI_COMBINER_HVECTOR;
    int err = build(p, count > 0 ? 1 : 0, 0, NULL, combiner,
                    large   ? 0
                    : bytes ? 2
                            : 3,
                    large ? 0 : bytes, large ? 3 : 0, 1, out);
    if (err == MPI_SUCCESS)
        mmpi_dt_set_type(*out, 0, old);
    return err;
}

int mmpi_type_vector(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                     const struct mmpi_datatype *old, bool large, struct mmpi_datatype **out)
{
    MPI_Aint bytes;
    if (__builtin_mul_overflow(stride, old->extent, &bytes))
        return MPI_ERR_ARG;
    int err = strided(count, blocklength, bytes, old, MPI_COMBINER_VECTOR, large, out);
    if (err == MPI_SUCCESS) {
        struct env e = {*out, large, 0, 0, 0};
        put_count(&e, count);
        put_count(&e, blocklength);
        put_count(&e, stride);
    }
    return err;
}

int mmpi_type_create_hvector(MPI_Count count, MPI_Count blocklength, MPI_Aint stride,
                             const struct mmpi_datatype *old, bool large,
                             struct mmpi_datatype **out)
{
    int err = strided(count, blocklength, stride, old, MPI_COMBINER_HVECTOR, large, out);
    if (err == MPI_SUCCESS) {
        struct env e = {*out, large, 0, 0, 0};
        put_count(&e, count);
        put_count(&e, blocklength);
        put_aint(&e, stride);
    }
    return err;
}

static const struct mmpi_poly_array no_array = {NULL, false};

/* Blocks of blocklengths[i] (or `blocklength` when blocklengths is NULL) copies of old at
 * idisp[i] * old->extent or adisp[i] bytes. Envelope: count, then the block length(s), then
 * integer displacements; byte displacements after them (aints[] in the int form). */
static int indexed(MPI_Count count, struct mmpi_poly_array blocklengths, MPI_Count blocklength,
                   struct mmpi_poly_array idisp, struct mmpi_poly_array adisp,
                   const struct mmpi_datatype *old, int combiner, bool large,
                   struct mmpi_datatype **out)
{
    bool per_block = !mmpi_poly_null(blocklengths), bytes = !mmpi_poly_null(adisp);
    size_t n = (size_t)count, nbl = per_block ? n : 1;
    size_t ni = 1 + nbl + (bytes ? 0 : n), na = bytes ? n : 0;
    struct mmpi_dt_part *p = parts_new(count);
    if (!p)
        return MPI_ERR_NO_MEM;
    for (size_t i = 0; i < n; i++) {
        MPI_Aint disp;
        if (bytes)
            disp = mmpi_poly_at(adisp, i);
        else if (__builtin_mul_overflow(mmpi_poly_at(idisp, i), old->extent, &disp)) {
            free(p);
            return MPI_ERR_ARG;
        }
        p[i] = (struct mmpi_dt_part){
            .disp = disp,
            .count = (size_t)(per_block ? mmpi_poly_at(blocklengths, i) : blocklength),
            .child = old};
    }
    int err = build(p, n, 0, NULL, combiner, large ? 0 : ni, large ? 0 : na, large ? ni + na : 0, 1,
                    out);
    if (err == MPI_SUCCESS) {
        struct env e = {*out, large, 0, 0, 0};
        put_count(&e, count);
        for (size_t i = 0; i < nbl; i++)
            put_count(&e, per_block ? mmpi_poly_at(blocklengths, i) : blocklength);
        for (size_t i = 0; i < n; i++) {
            if (bytes)
                put_aint(&e, mmpi_poly_at(adisp, i));
            else
                put_count(&e, mmpi_poly_at(idisp, i));
        }
        mmpi_dt_set_type(*out, 0, old);
    }
    return err;
}

int mmpi_type_indexed(MPI_Count count, struct mmpi_poly_array blocklengths,
                      struct mmpi_poly_array displacements, const struct mmpi_datatype *old,
                      bool large, struct mmpi_datatype **out)
{
    return indexed(count, blocklengths, 0, displacements, no_array, old, MPI_COMBINER_INDEXED,
                   large, out);
}

int mmpi_type_create_hindexed(MPI_Count count, struct mmpi_poly_array blocklengths,
                              struct mmpi_poly_array displacements, const struct mmpi_datatype *old,
                              bool large, struct mmpi_datatype **out)
{
    return indexed(count, blocklengths, 0, no_array, displacements, old, MPI_COMBINER_HINDEXED,
                   large, out);
}

int mmpi_type_create_indexed_block(MPI_Count count, MPI_Count blocklength,
                                   struct mmpi_poly_array displacements,
                                   const struct mmpi_datatype *old, bool large,
                                   struct mmpi_datatype **out)
{
    return indexed(count, no_array, blocklength, displacements, no_array, old,
                   MPI_COMBINER_INDEXED_BLOCK, large, out);
}

int mmpi_type_create_hindexed_block(MPI_Count count, MPI_Count blocklength,
                                    struct mmpi_poly_array displacements,
                                    const struct mmpi_datatype *old, bool large,
                                    struct mmpi_datatype **out)
{
    return indexed(count, no_array, blocklength, no_array, displacements, old,
                   MPI_COMBINER_HINDEXED_BLOCK, large, out);
}

int mmpi_type_create_struct(MPI_Count count, struct mmpi_poly_array blocklengths,
                            struct mmpi_poly_array displacements,
                            struct mmpi_datatype *const *types, bool large,
                            struct mmpi_datatype **out)
{
    size_t n = (size_t)count;
    struct mmpi_dt_part *p = parts_new(count);
    if (!p)
        return MPI_ERR_NO_MEM;
    for (size_t i = 0; i < n; i++)
        p[i] = (struct mmpi_dt_part){.disp = mmpi_poly_at(displacements, i),
                                     .count = (size_t)mmpi_poly_at(blocklengths, i),
                                     .child = types[i]};
    int err = build(p, n, MMPI_DT_BUILD_PAD, NULL, MPI_COMBINER_STRUCT, large ? 0 : n + 1,
                    large ? 0 : n, large ? 2 * n + 1 : 0, n, out);
    if (err == MPI_SUCCESS) {
        struct env e = {*out, large, 0, 0, 0};
        put_count(&e, count);
        for (size_t i = 0; i < n; i++)
            put_count(&e, mmpi_poly_at(blocklengths, i));
        for (size_t i = 0; i < n; i++) {
            put_aint(&e, mmpi_poly_at(displacements, i));
            mmpi_dt_set_type(*out, i, types[i]);
        }
    }
    return err;
}

int mmpi_type_create_resized(const struct mmpi_datatype *old, MPI_Aint lb, MPI_Aint extent,
                             bool large, struct mmpi_datatype **out)
{
    struct mmpi_dt_part *p = parts_new(1);
    MPI_Aint bounds[2] = {lb, extent};
    if (!p)
        return MPI_ERR_NO_MEM;
    p[0] = (struct mmpi_dt_part){.count = 1, .child = old};
    int err = build(p, 1, 0, bounds, MPI_COMBINER_RESIZED, 0, large ? 0 : 2, large ? 2 : 0, 1, out);
    if (err == MPI_SUCCESS) {
        struct env e = {*out, large, 0, 0, 0};
        put_aint(&e, lb);
        put_aint(&e, extent);
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
    p[0] = (struct mmpi_dt_part){.count = 1, .child = old};
    int err = build(p, 1, 0, NULL, MPI_COMBINER_DUP, 0, 0, 0, 1, out);
    if (err == MPI_SUCCESS) {
        (*out)->align = old->align;
        (*out)->committed = __atomic_load_n(&old->committed, __ATOMIC_ACQUIRE);
        mmpi_dt_set_type(*out, 0, old);
    }
    return err;
}
