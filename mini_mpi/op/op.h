/*
 * op/op.h: the reduction-operation subsystem's interface to the rest of the library (the
 * collectives now, RMA accumulate later): operation objects, handle resolution, the op/type
 * validity rule of MPI-4.1 §6.9.2, and applying an operation to typed or packed data.
 *
 * Theory of operation. Predefined operations work on the *packed* form of the data: a
 * homogeneous datatype (struct mmpi_datatype.basic != MPI_DATATYPE_NULL) packs to
 * count * basic_count consecutive elements of its predefined basic type, and one kernel per
 * (operation, basic type) combines such arrays (kernels.c, generated from types.def). Typed
 * buffers are used in place when contiguous and packed in chunks otherwise. User functions
 * (MPI_Op_create) get the typed buffers and the caller's own datatype handle, as the standard
 * requires; they are called with at most INT_MAX elements at a time, those of MPI_Op_create_c
 * (MPI_User_function_c, an MPI_Count length) with all of them at once.
 *
 * Order: every apply computes inout = in op inout, MPI's order (§6.9.5), so a caller that wants
 * a0 op a1 op ... op an-1 for a non-commutative op folds from the right: acc = an-1, then
 * acc = ai op acc for i = n-2 down to 0.
 *
 * Rank images: user functions live in the image of the rank that created them (each rank runs
 * its own private copy of the program) and are called with that rank's datatype handles, so a
 * user op must only be applied by a thread of the rank that owns the op object and the handle.
 * Predefined ops may be applied by anyone.
 */
#ifndef MMPI_OP_OP_H
#define MMPI_OP_OP_H

#include <stdbool.h>
#include <stddef.h>

#include "datatype/datatype.h"
#include "mpi.h"

struct mmpi_rank;

/* Indices of the predefined operations (mini_mpi/op.h). */
enum mmpi_op_index {
    MMPI_OPI_USER = 0,
    MMPI_OPI_MAX = 1, MMPI_OPI_MIN, MMPI_OPI_SUM, MMPI_OPI_PROD, MMPI_OPI_LAND, MMPI_OPI_BAND,
    MMPI_OPI_LOR, MMPI_OPI_BOR, MMPI_OPI_LXOR, MMPI_OPI_BXOR, MMPI_OPI_MINLOC, MMPI_OPI_MAXLOC,
    MMPI_OPI_REPLACE, MMPI_OPI_NO_OP,
};

struct mmpi_op {
    int refcount;              /* atomic: the handle and pending operations; unused predefined */
    int index;                 /* immutable: enum mmpi_op_index (MMPI_OPI_USER for user ops) */
    bool commutative;          /* immutable */
    MPI_User_function *fn;     /* immutable: user ops made by MPI_Op_create */
    MPI_User_function_c *fn_c; /* immutable: user ops made by MPI_Op_create_c (fn is NULL) */
    MPI_Op handle;             /* immutable: predefined handle, or the creating rank's handle */
};

/* Resolves a handle for the calling rank: NULL if null, invalid or freed. Lock-free. */
struct mmpi_op *mmpi_op_get(struct mmpi_rank *self, MPI_Op h);
/* A new user op with one reference (the caller registers the handle): fn, or fn_c for
 * MPI_Op_create_c (the other NULL). */
struct mmpi_op *mmpi_op_new(MPI_User_function *fn, MPI_User_function_c *fn_c, bool commutative);
/* Takes / drops a reference; no-ops for predefined ops. The last release frees. Any thread. */
void mmpi_op_retain(struct mmpi_op *op);
void mmpi_op_release(struct mmpi_op *op);

static inline bool mmpi_op_is_commutative(const struct mmpi_op *op)
{
    return op->commutative;
}
/* MPI_REPLACE and MPI_NO_OP: valid only in RMA accumulate calls (MPI-4.1 §12.3.4). */
static inline bool mmpi_op_is_rma_only(const struct mmpi_op *op)
{
    return op->index == MMPI_OPI_REPLACE || op->index == MMPI_OPI_NO_OP;
}

/* Whether op is defined on dt: MPI_SUCCESS or MPI_ERR_OP. User ops accept any type; a
 * predefined op needs a homogeneous dt whose basic type is in the op's groups (MPI-4.1 §6.9.2;
 * MPI_CHAR counts as a C integer, as in MPICH); MPI_REPLACE and MPI_NO_OP accept any
 * homogeneous type. A type holding no data accepts every op (there is nothing to combine). */
int mmpi_op_check(const struct mmpi_op *op, const struct mmpi_datatype *dt);

/* inout = in op inout for `count` elements of dt at both (typed) buffers; dth is the calling
 * rank's handle for dt, given to user functions. Checked op/type pair. Called only by the
 * rank owning op and dth (see above). May allocate scratch memory. */
void mmpi_op_apply(const struct mmpi_op *op, const void *in, void *inout, size_t count,
                   const struct mmpi_datatype *dt, MPI_Datatype dth);
/* As mmpi_op_apply, but `in` is laid out as in_dt, a type with dt's signature (another rank's
 * type for the same data). */
void mmpi_op_apply_from(const struct mmpi_op *op, const void *in,
                        const struct mmpi_datatype *in_dt, void *inout, size_t count,
                        const struct mmpi_datatype *dt, MPI_Datatype dth);
/* inout = in op inout where inout is the packed form of `count` elements of dt and `in` is a
 * typed buffer laid out as in_dt (same signature), or packed as well when in_dt is NULL. For a
 * user op dt must be contiguous (its layout then is the packed form, shifted by true_lb). */
void mmpi_op_apply_packed(const struct mmpi_op *op, const void *in,
                          const struct mmpi_datatype *in_dt, void *inout, size_t count,
                          const struct mmpi_datatype *dt, MPI_Datatype dth);
/* inout = in op inout for a predefined op (MPI_REPLACE and MPI_NO_OP included) over the packed
 * bytes of `count` elements of dt at the typed buffer inout, where `in` holds in_count elements
 * of in_dt (in_dt NULL: in_count packed bytes) with the same basic type; min of both sizes is
 * combined. For RMA accumulates, whose origin and target counts differ. Any thread. */
void mmpi_op_apply_predefined(const struct mmpi_op *op, const void *in,
                              const struct mmpi_datatype *in_dt, size_t in_count, void *inout,
                              size_t count, const struct mmpi_datatype *dt);
/* Scratch memory for `count` elements laid out as dt: returns the address of element 0 (which
 * may lie outside the block when dt's lower bound is negative); *mem is the block to free(). */
void *mmpi_op_typed_scratch(const struct mmpi_datatype *dt, size_t count, void **mem);
/* Whether mmpi_op_apply_packed can work with op on dt. */
static inline bool mmpi_op_packed_ok(const struct mmpi_op *op, const struct mmpi_datatype *dt)
{
    return op->index != MMPI_OPI_USER || dt->contiguous;
}

/* ---- Kernels (kernels.c) ------------------------------------------------------------------ */

/* inout[i] = in[i] op inout[i] on n packed elements of one predefined basic type. */
typedef void mmpi_op_kernel(const void *in, void *inout, size_t n);
/* The kernel of predefined op `index` on predefined basic type `basic`; NULL when the pair is
 * not defined by the standard. */
mmpi_op_kernel *mmpi_op_kernel_for(int index, MPI_Datatype basic);

#endif
