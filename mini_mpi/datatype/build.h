/*
 * datatype/build.h: internal to the datatype subsystem: building objects (build.c), their
 * envelope and handles (object.c), the implementations of the constructors (construct.c,
 * subarray.c, darray.c), external32 (external32.c) and the predefined table (predefined.c).
 * Engines outside datatype/ use datatype.h only.
 */
#ifndef MMPI_DATATYPE_BUILD_H
#define MMPI_DATATYPE_BUILD_H

#include "api/poly.h"
#include "datatype/datatype.h"

/* One block of a typemap under construction: `count` copies of child, the first at `disp`
 * bytes, each next one child->extent further (MPI-4.1 §5.1.2); the whole block `reps` times,
 * each repetition `rstride` bytes after the previous one (0 reps is read as 1). A vector is
 * one part, so a vector of 2^30 blocks costs no array of 2^30 parts. */
struct mmpi_dt_part {
    MPI_Aint disp;
    size_t count;
    const struct mmpi_datatype *child;
    size_t reps;
    MPI_Aint rstride;
};

enum {
    MMPI_DT_BUILD_PAD = 1, /* round the extent up to the alignment (struct, MPI-4.1 §5.1.6) */
};

/* Builds a new derived object (refcount 1, not committed, no envelope) whose typemap is the
 * concatenation of parts. resize, if not NULL, is {lb, extent} to impose (MPI_Type_create_
 * resized). Returns MPI_SUCCESS, MPI_ERR_ARG (size overflows) or MPI_ERR_NO_MEM. */
int mmpi_dt_build(const struct mmpi_dt_part *parts, size_t nparts, int flags,
                  const MPI_Aint *resize, struct mmpi_datatype **out);

/* Gives dt its envelope: allocates zeroed ints[ni], aints[na], counts[nc], types[nd] for the
 * caller to fill (types through mmpi_dt_set_type). MPI_SUCCESS or MPI_ERR_NO_MEM. */
int mmpi_dt_envelope(struct mmpi_datatype *dt, int combiner, size_t ni, size_t na, size_t nc,
                     size_t nd);
/* Stores type k of the envelope, taking a reference. */
void mmpi_dt_set_type(struct mmpi_datatype *dt, size_t k, const struct mmpi_datatype *type);

/* Registers dt for the calling rank and stores the handle in *out; the handle owns the caller's
 * reference. On failure (table full) releases dt and returns MPI_ERR_NO_MEM. */
int mmpi_dt_publish(struct mmpi_rank *self, struct mmpi_datatype *dt, MPI_Datatype *out);

/* Name of dt into buf (MPI_MAX_OBJECT_NAME bytes): the MPI name of a predefined type, "" for
 * an unnamed derived one. Setting truncates to MPI_MAX_OBJECT_NAME - 1. Take the names lock.
 * A predefined type is shared by every rank, so the name a rank gives it is that rank's own
 * (self->dt_names); MPI_Type_create_f90_* types keep their names. */
void mmpi_dt_name_get(struct mmpi_rank *self, const struct mmpi_datatype *dt, char *buf);
int mmpi_dt_name_set(struct mmpi_rank *self, struct mmpi_datatype *dt, const char *name);
/* Frees the rank's names of predefined types. */
void mmpi_dt_names_free(struct mmpi_rank *self);

/* ---- Constructors: the implementation of MPI_Type_<name> and MPI_Type_<name>_c is
 * mmpi_type_<name>. Arguments are validated by the binding (handles resolved, counts and block
 * lengths >= 0, arrays present); subarray and darray check their own geometry. `large`: called
 * through the _c binding, so the envelope holds the counts and displacements as large counts
 * (MPI-4.1 §5.1.13); arrays of counts are views of either binding's arrays (api/poly.h), byte
 * displacements are MPI_Aint or MPI_Count, both 64 bits. Each returns a new object with
 * refcount 1 and its envelope, or an MPI error class (MPI_ERR_ARG when the typemap's size or
 * bounds overflow). */
int mmpi_type_contiguous(MPI_Count count, const struct mmpi_datatype *old, bool large,
                         struct mmpi_datatype **out);
int mmpi_type_vector(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                     const struct mmpi_datatype *old, bool large, struct mmpi_datatype **out);
int mmpi_type_create_hvector(MPI_Count count, MPI_Count blocklength, MPI_Aint stride,
                             const struct mmpi_datatype *old, bool large,
                             struct mmpi_datatype **out);
int mmpi_type_indexed(MPI_Count count, struct mmpi_poly_array blocklengths,
                      struct mmpi_poly_array displacements, const struct mmpi_datatype *old,
                      bool large, struct mmpi_datatype **out);
int mmpi_type_create_hindexed(MPI_Count count, struct mmpi_poly_array blocklengths,
                              struct mmpi_poly_array displacements, const struct mmpi_datatype *old,
                              bool large, struct mmpi_datatype **out);
int mmpi_type_create_indexed_block(MPI_Count count, MPI_Count blocklength,
                                   struct mmpi_poly_array displacements,
                                   const struct mmpi_datatype *old, bool large,
                                   struct mmpi_datatype **out);
int mmpi_type_create_hindexed_block(MPI_Count count, MPI_Count blocklength,
                                    struct mmpi_poly_array displacements,
                                    const struct mmpi_datatype *old, bool large,
                                    struct mmpi_datatype **out);
int mmpi_type_create_struct(MPI_Count count, struct mmpi_poly_array blocklengths,
                            struct mmpi_poly_array displacements,
                            struct mmpi_datatype *const *types, bool large,
                            struct mmpi_datatype **out);
int mmpi_type_create_resized(const struct mmpi_datatype *old, MPI_Aint lb, MPI_Aint extent,
                             bool large, struct mmpi_datatype **out);
int mmpi_type_dup(const struct mmpi_datatype *old, struct mmpi_datatype **out);
/* MPI_ERR_DIMS for ndims <= 0, MPI_ERR_ARG for bad sizes, starts or order. */
int mmpi_type_create_subarray(int ndims, struct mmpi_poly_array sizes,
                              struct mmpi_poly_array subsizes, struct mmpi_poly_array starts,
                              int order, const struct mmpi_datatype *old,
                              struct mmpi_datatype **out);
/* MPI_ERR_DIMS for ndims <= 0, MPI_ERR_ARG for a bad grid, distribution or order. */
int mmpi_type_create_darray(int size, int rank, int ndims, struct mmpi_poly_array gsizes,
                            const int *distribs, const int *dargs, const int *psizes, int order,
                            const struct mmpi_datatype *old, struct mmpi_datatype **out);
/* MPI_Type_match_size: MPI_ERR_ARG when no predefined type matches. */
int mmpi_type_match_size(int typeclass, int size, MPI_Datatype *out);

/* ---- external32 (MPI-4.1 §13.5.2): big-endian, sizes of Table 13.2 ---------------------- */
/* Converts count elements of dt from the native packed form to external32 (to_external) or
 * back. native holds count*dt->size bytes, external count*dt->ext_size. MPI_SUCCESS, or
 * MPI_ERR_CONVERSION for a value that does not fit its destination size (the values before it
 * are converted). */
int mmpi_dt_external32(const struct mmpi_datatype *dt, size_t count, void *native,
                       void *external, bool to_external);

#endif
