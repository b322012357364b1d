/*
 * datatype/file_layout.c: a datatype's layout in a file whose data representation gives basic
 * types other sizes than memory (MPI-4.1 §14.5: external32, or a registered representation's
 * extent function). The result is a layout-only object: its runs, size, bounds and extent are
 * the type's in the file; its signature is bytes, so it is never used to convert data (the
 * memory type's signature does that, external32.c and io/datarep.c).
 *
 * The rule is §14.5.1's: "for those functions that accept displacements in bytes, the
 * displacements must be specified in terms of their values in the file for the file data
 * representation being used. MPI will interpret these byte displacements as is; no scaling will
 * be done ... For etypes and filetypes that are portable datatypes, MPI will scale any
 * displacements in the datatypes to match the file data representation." So the type is rebuilt
 * from its envelope, each predefined leaf replaced by a dense block of its file size: the
 * constructors counting in elements of their child (contiguous, vector, indexed, indexed_block,
 * subarray, darray, dup) then scale by themselves, and the byte ones (hvector, hindexed,
 * hindexed_block, struct, resized) keep their byte displacements. A leaf keeps its memory
 * alignment, so a struct's extent is rounded up as in memory (§5.1.6) and a type's layout does
 * not depend on whether some other leaf changed size. Where no leaf changes size the type
 * itself is the layout.
 */
#include <stdlib.h>

#include "datatype/build.h"
#include "mmpi.h"

struct ctx {
    mmpi_dt_leaf_size_fn *leaf_size;
    void *arg;
};

/* One leaf as the file holds it: itself when the representation keeps its size, else a dense
 * block of its file size. */
static int leaf(const struct mmpi_datatype *dt, struct ctx *c, struct mmpi_datatype **out)
{
    size_t size;
    int err = c->leaf_size(c->arg, dt, &size);
    if (err != MPI_SUCCESS)
        return err;
    if (size == dt->size) { /* the memory layout, padding of pair types included */
        mmpi_datatype_retain(dt);
        *out = (struct mmpi_datatype *)dt;
        return MPI_SUCCESS;
    }
    struct mmpi_dt_part part = {0, size, mmpi_dt_predefined(MPI_BYTE), 1, 0};
    if ((err = mmpi_dt_build(&part, size ? 1 : 0, 0, NULL, out)) == MPI_SUCCESS)
        (*out)->align = dt->align; /* not yet shared: see the header */
    return err;
}

/* dt rebuilt over children kids[] (its envelope's types, in file form), from an envelope of
 * the int form. */
static int construct_int(const struct mmpi_datatype *dt, struct mmpi_datatype **kids,
                         struct mmpi_datatype **out)
{
    const int *in = dt->ints;
    const MPI_Aint *a = dt->aints;
    struct mmpi_poly_array aw = mmpi_poly_wide(a);
    switch (dt->combiner) {
    case MPI_COMBINER_CONTIGUOUS: return mmpi_type_contiguous(in[0], kids[0], false, out);
    case MPI_COMBINER_VECTOR: return mmpi_type_vector(in[0], in[1], in[2], kids[0], false, out);
    case MPI_COMBINER_HVECTOR:
        return mmpi_type_create_hvector(in[0], in[1], a[0], kids[0], false, out);
    case MPI_COMBINER_INDEXED:
        return mmpi_type_indexed(in[0], mmpi_poly_narrow(in + 1), mmpi_poly_narrow(in + 1 + in[0]),
                                 kids[0], false, out);
    case MPI_COMBINER_HINDEXED:
        return mmpi_type_create_hindexed(in[0], mmpi_poly_narrow(in + 1), aw, kids[0], false, out);
    case MPI_COMBINER_INDEXED_BLOCK:
        return mmpi_type_create_indexed_block(in[0], in[1], mmpi_poly_narrow(in + 2), kids[0],
                                              false, out);
    case MPI_COMBINER_HINDEXED_BLOCK:
        return mmpi_type_create_hindexed_block(in[0], in[1], aw, kids[0], false, out);
    case MPI_COMBINER_STRUCT:
        return mmpi_type_create_struct(in[0], mmpi_poly_narrow(in + 1), aw, kids, false, out);
    case MPI_COMBINER_RESIZED: return mmpi_type_create_resized(kids[0], a[0], a[1], false, out);
    case MPI_COMBINER_SUBARRAY: {
        int n = in[0];
        return mmpi_type_create_subarray(n, mmpi_poly_narrow(in + 1), mmpi_poly_narrow(in + 1 + n),
                                         mmpi_poly_narrow(in + 1 + 2 * n), in[1 + 3 * n], kids[0],
                                         out);
    }
    case MPI_COMBINER_DARRAY: {
        int n = in[2];
        return mmpi_type_create_darray(in[0], in[1], n, mmpi_poly_narrow(in + 3), in + 3 + n,
                                       in + 3 + 2 * n, in + 3 + 3 * n, in[3 + 4 * n], kids[0], out);
    }
    default:
        return MPI_ERR_INTERN; /* every derived object records one of the above */
    }
}

/* The same from the envelope of a large-count (_c) constructor: its counts and byte
 * displacements are in counts[] (construct.c, subarray.c, darray.c write them). */
static int construct_large(const struct mmpi_datatype *dt, struct mmpi_datatype **kids,
                           struct mmpi_datatype **out)
{
    const int *in = dt->ints;
    const MPI_Count *c = dt->counts;
    struct mmpi_poly_array disp = mmpi_poly_wide(c + 1 + c[0]);
    switch (dt->combiner) {
    case MPI_COMBINER_CONTIGUOUS: return mmpi_type_contiguous(c[0], kids[0], true, out);
    case MPI_COMBINER_VECTOR: return mmpi_type_vector(c[0], c[1], c[2], kids[0], true, out);
    case MPI_COMBINER_HVECTOR:
        return mmpi_type_create_hvector(c[0], c[1], c[2], kids[0], true, out);
    case MPI_COMBINER_INDEXED:
        return mmpi_type_indexed(c[0], mmpi_poly_wide(c + 1), mmpi_poly_wide(c + 1 + c[0]), kids[0],
                                 true, out);
    case MPI_COMBINER_HINDEXED:
        return mmpi_type_create_hindexed(c[0], mmpi_poly_wide(c + 1), disp, kids[0], true, out);
    case MPI_COMBINER_INDEXED_BLOCK:
        return mmpi_type_create_indexed_block(c[0], c[1], mmpi_poly_wide(c + 2), kids[0], true,
                                              out);
    case MPI_COMBINER_HINDEXED_BLOCK:
        return mmpi_type_create_hindexed_block(c[0], c[1], mmpi_poly_wide(c + 2), kids[0], true,
                                               out);
    case MPI_COMBINER_STRUCT:
        return mmpi_type_create_struct(c[0], mmpi_poly_wide(c + 1), disp, kids, true, out);
    case MPI_COMBINER_RESIZED: return mmpi_type_create_resized(kids[0], c[0], c[1], true, out);
    case MPI_COMBINER_SUBARRAY: {
        int n = in[0];
        return mmpi_type_create_subarray(n, mmpi_poly_wide(c), mmpi_poly_wide(c + n),
                                         mmpi_poly_wide(c + 2 * n), in[1], kids[0], out);
    }
    case MPI_COMBINER_DARRAY: {
        int n = in[2];
        return mmpi_type_create_darray(in[0], in[1], n, mmpi_poly_wide(c), in + 3, in + 3 + n,
                                       in + 3 + 2 * n, in[3 + 3 * n], kids[0], out);
    }
    default: return MPI_ERR_INTERN;
    }
}

static int construct(const struct mmpi_datatype *dt, struct mmpi_datatype **kids,
                     struct mmpi_datatype **out)
{
    if (dt->combiner == MPI_COMBINER_DUP)
        return mmpi_type_dup(kids[0], out);
    return dt->nc ? construct_large(dt, kids, out) : construct_int(dt, kids, out);
}

static int rebuild(const struct mmpi_datatype *dt, struct ctx *c, struct mmpi_datatype **out)
{
    if (dt->combiner == MPI_COMBINER_NAMED)
        return leaf(dt, c, out);
    struct mmpi_datatype **kids = calloc(dt->nd > 0 ? dt->nd : 1, sizeof(*kids));
    if (!kids)
        return MPI_ERR_NO_MEM;
    int err = MPI_SUCCESS;
    bool same = true;
    for (size_t i = 0; i < dt->nd && err == MPI_SUCCESS; i++)
        if ((err = rebuild(dt->types[i], c, &kids[i])) == MPI_SUCCESS && kids[i] != dt->types[i])
            same = false;
    if (err == MPI_SUCCESS && same) {
        mmpi_datatype_retain(dt);
        *out = (struct mmpi_datatype *)dt;
    } else if (err == MPI_SUCCESS)
        err = construct(dt, kids, out);
    for (size_t i = 0; i < dt->nd; i++)
        mmpi_datatype_release(kids[i]);
    free(kids);
    return err;
}

int mmpi_datatype_file_layout(const struct mmpi_datatype *dt, mmpi_dt_leaf_size_fn *leaf_size,
                              void *arg, struct mmpi_datatype **out)
{
    struct ctx c = {leaf_size, arg};
    *out = NULL;
    return rebuild(dt, &c, out);
}
