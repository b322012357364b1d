/*
 * datatype/datatype.h: the datatype subsystem's interface to the rest of the library (the
 * point-to-point, collective, RMA and I/O engines). Datatype objects, handle resolution, and
 * moving typed data: streaming pack/unpack, typed-to-typed copy, element counting.
 *
 * Representation (theory of operation): a datatype object is immutable once built. Its typemap
 * is kept flattened for ONE element as a list of runs in typemap order. A run has two levels of
 * repetition: `reps` copies, copy r at off + r*rstride, of `count` blocks of `len` bytes, block
 * b at b*stride from its copy's start; so block (r, b) is at buf + off + r*rstride + b*stride,
 * in the order r, then b. Copies of a one-run child at a regular displacement are one run:
 * a vector of MPI_INT is one run of one copy, a contiguous type one block, and a transpose
 * (an hvector of a strided column, what FFT codes build) one run of n copies of n blocks,
 * where a single level would need n runs. Runs are built canonical (build.c): a run with one
 * block per copy, or whose copies continue its stride, is one level (reps 1, rstride 0), and
 * dense blocks are one block (count 1, stride 0), so the common cases take the one-level
 * paths. Element e of a buffer of `count` elements sits at buf + e*extent (MPI-4.1 §5.1.2).
 * run[i].packed is where the run starts in the packed form of the element, so a packed offset
 * is found by a binary search and a few divisions: streaming copies in segments cost
 * O(log runs) per segment, not a rescan.
 *
 * The type signature (§5.1.1) is kept separately, run-length encoded, as (type, count) items
 * in order, where `type` is a predefined type or a derived child too irregular to inline (then
 * the parent holds a reference to it). It answers MPI_Get_elements and drives external32.
 *
 * Lifetime: objects are reference counted (atomic). Each user handle owns one reference; a
 * derived type owns references to the types its signature and envelope name; a pending request
 * should own one (mmpi_datatype_retain) so that MPI_Type_free does not pull the layout from
 * under it. Predefined objects are static; retain/release ignore them.
 *
 * Files: predefined.c (the static objects), object.c (handles, refcounts), build.c (typemap
 * flattening and bounds), construct.c / subarray.c / darray.c (constructors), cursor.c (moving
 * data), signature.c (element counting), external32.c, file_layout.c (a type's layout in a
 * file whose representation resizes basic types), api_*.c (entry points).
 */
#ifndef MMPI_DATATYPE_DATATYPE_H
#define MMPI_DATATYPE_DATATYPE_H

#include <stdbool.h>
#include <stddef.h>

#include "mmpi.h"

/* Block run of a flattened element: `reps` copies (reps > 0), copy r at off + r*rstride from the
 * element's start, of `count` blocks of `len` bytes (len > 0, count > 0), block b at b*stride
 * from its copy's start. `packed`: offset of the run in the packed element; the run holds
 * reps*count*len bytes. Canonical (build.c): count == 1 implies stride == 0, reps == 1 implies
 * rstride == 0, and reps > 1 implies count > 1 and rstride != count*stride. */
struct mmpi_dt_run {
    MPI_Aint off;
    MPI_Aint stride;
    size_t len;
    size_t count;
    size_t reps;
    MPI_Aint rstride;
    size_t packed;
};

/* One signature item: `count` consecutive copies of `type`'s signature. */
struct mmpi_dt_sig {
    const struct mmpi_datatype *type;
    size_t count;
};

/* How external32 converts a predefined leaf (external32.c). */
enum mmpi_dt_conv {
    MMPI_DT_CONV_NONE = 0, /* derived or pair type: not a leaf */
    MMPI_DT_CONV_COPY,     /* bytes as they are (char, byte, bool, packed) */
    MMPI_DT_CONV_SINT,     /* two's complement integer, big-endian, size may differ */
    MMPI_DT_CONV_UINT,     /* unsigned integer, big-endian, size may differ */
    MMPI_DT_CONV_FLOAT,    /* IEEE float/double (per unit), big-endian */
    MMPI_DT_CONV_LDOUBLE,  /* long double -> IEEE binary128, big-endian */
};

/* Every field is immutable once the object is published, except refcount (atomic), committed
 * (atomic; set once by MPI_Type_commit) and name (under the names lock in object.c). */
struct mmpi_datatype {
    int refcount;        /* atomic; unused for predefined objects */
    bool predefined;
    bool committed;      /* atomic; predefined: always true */
    /* One element is dense: size bytes at buf + true_lb, and extent == size, so `count`
     * elements are count*size contiguous bytes at buf + true_lb. True for size 0. */
    bool contiguous;
    size_t size;         /* bytes of data in one element */
    MPI_Aint lb, extent; /* ub = lb + extent; MPI-4.1 §5.1.7 */
    MPI_Aint true_lb, true_extent; /* bounds of the data bytes only (§5.1.8) */
    bool sticky_lb, sticky_ub;     /* bounds set explicitly by a resize (MPI-1 LB/UB markers) */
    size_t align;                  /* alignment used to pad struct extents (§5.1.6) */

    /* Homogeneous types: one element is basic_count elements of the predefined type basic, in
     * a row (reductions work on the packed form). Pair types are their own basic type.
     * MPI_DATATYPE_NULL when the signature mixes types or is empty. */
    MPI_Datatype basic;
    size_t basic_count;
    size_t nelements;    /* basic elements per element, pair types count 2 (MPI_Get_elements) */
    size_t ext_size;     /* bytes of one element in external32 */

    size_t nruns;
    const struct mmpi_dt_run *runs;  /* owned unless predefined */
    size_t nsig;                     /* 0 for a predefined leaf */
    const struct mmpi_dt_sig *sig;   /* owned; holds references to derived children */

    /* Envelope (MPI_Type_get_envelope/contents): the constructor and its arguments. A type
     * made by a large-count (_c) constructor has its counts and displacements in counts[]
     * (nc > 0 only then, MPI-4.1 §5.1.13). */
    int combiner;
    size_t ni, na, nc, nd;
    int *ints;                        /* owned */
    MPI_Aint *aints;                  /* owned */
    MPI_Count *counts;                /* owned */
    struct mmpi_datatype **types;     /* owned array; each entry holds a reference */

    /* Predefined only: handle, MPI name, external32 conversion, unit count (2 for complex). */
    MPI_Datatype handle;
    enum mmpi_dt_conv conv;
    int units;
    char *name;          /* names lock; NULL or owned (derived); static (predefined) */
};

/* ---- Resolution and lifetime (here and predefined.c, object.c) ----------------------- */

/* The predefined objects, indexed by the handle's index (predefined.c). Shared by all ranks,
 * never changed once a rank runs. */
extern struct mmpi_datatype mmpi_dt_predefined_table[MMPI_DATATYPE_PREDEFINED_COUNT];

/* The types of MPI_Type_create_f90_integer/_real/_complex (f90_api.c): predefined objects
 * made on first request, process-wide, at the indices after the static table's. A slot's
 * handle is stored last (release), so a reader that sees it sees the object. */
#define MMPI_DT_F90_MAX 64
extern struct mmpi_datatype mmpi_dt_f90_table[MMPI_DT_F90_MAX];

/* The predefined object at a predefined handle, or NULL. */
static inline struct mmpi_datatype *mmpi_dt_predefined(MPI_Datatype h)
{
    if (!mmpi_handle_is_predefined(h) || mmpi_handle_kind(h) != MMPI_HANDLE_KIND_DATATYPE)
        return NULL;
    int i = mmpi_handle_index(h);
    if (i >= MMPI_DATATYPE_PREDEFINED_COUNT) {
        i -= MMPI_DATATYPE_PREDEFINED_COUNT;
        if (i >= MMPI_DT_F90_MAX)
            return NULL;
        struct mmpi_datatype *f = &mmpi_dt_f90_table[i];
        return __atomic_load_n(&f->handle, __ATOMIC_ACQUIRE) == h ? f : NULL;
    }
    struct mmpi_datatype *dt = &mmpi_dt_predefined_table[i];
    return dt->handle == h ? dt : NULL;
}

/* Resolves a handle for the calling rank: NULL if null, invalid, or freed. Lock-free; inline
 * (every communication call resolves its datatypes). The object stays valid while the handle
 * is not freed, or while the caller holds a reference. */
static inline struct mmpi_datatype *mmpi_datatype_get(struct mmpi_rank *self, MPI_Datatype h)
{
    if (mmpi_handle_is_predefined(h))
        return mmpi_dt_predefined(h);
    return mmpi_handle_lookup(self, MMPI_HANDLE_KIND_DATATYPE, h);
}

/* Whether a communication buffer is missing, the one rule of every call that takes a buffer
 * (point-to-point, one-sided, I/O): NULL with data (count > 0, a type of nonzero size) whose
 * first byte would be at address 0, i.e. of a predefined type or of a derived type whose true
 * lower bound is 0, as MPICH's MPIR_ERRTEST_USERBUFFER. With another derived type, NULL is
 * MPI_BOTTOM plus absolute displacements, which is legal. The caller raises MPI_ERR_BUFFER. */
static inline bool mmpi_buffer_missing(const void *buf, size_t count,
                                       const struct mmpi_datatype *dt)
{
    return !buf && count > 0 && dt->size > 0 && dt->true_lb == 0;
}

/* Validates the datatype argument of a communication call: returns MPI_SUCCESS and sets *out,
 * or MPI_ERR_TYPE (null, invalid, freed, or not committed; predefined are always committed). */
int mmpi_datatype_check(struct mmpi_rank *self, MPI_Datatype h, struct mmpi_datatype **out);

/* Takes / drops a reference (atomic; no-ops on predefined objects and NULL). The last release
 * frees the object and releases its children. Any thread. */
void mmpi_datatype_retain(const struct mmpi_datatype *dt);
void mmpi_datatype_release(const struct mmpi_datatype *dt);

/* ---- Moving data (cursor.c). Any thread; the types must stay alive during the call. ----- */

/* Copies bytes [offset, offset+len) of the packed form of (buf, count, dt) into out. Requires
 * offset + len <= count * dt->size. Segments may come in any order; each call costs
 * O(log nruns) to find its start, then is linear in len. */
void mmpi_datatype_pack(const struct mmpi_datatype *dt, const void *buf, size_t count,
                        size_t offset, void *out, size_t len);
/* The reverse: writes packed bytes [offset, offset+len), read from in, into (buf, count, dt). */
void mmpi_datatype_unpack(const struct mmpi_datatype *dt, void *buf, size_t count,
                          size_t offset, const void *in, size_t len);
/* Copies typed data to typed data without an intermediate buffer: min(scount*sdt->size,
 * dcount*ddt->size) bytes of the packed form (the caller checks truncation beforehand). The
 * type signatures should match (MPI-4.1 §3.3.1); the copy is by bytes, whatever they are.
 * Contiguous to contiguous is one memmove (so an exact MPI_IN_PLACE overlap is harmless). */
void mmpi_datatype_copy(const void *src, size_t scount, const struct mmpi_datatype *sdt,
                        void *dst, size_t dcount, const struct mmpi_datatype *ddt);
/* As mmpi_datatype_copy, but only packed bytes [offset, offset+len) (segmented protocols). */
void mmpi_datatype_copy_part(const void *src, const struct mmpi_datatype *sdt, void *dst,
                             const struct mmpi_datatype *ddt, size_t offset, size_t len);

/* ---- Counting (signature.c) ---------------------------------------------------------- */

/* Basic elements in nbytes of packed data of dt (MPI_Get_elements, MPI-4.1 §5.1.11); pair
 * types count 2. Returns false when nbytes ends inside a basic element (MPI_UNDEFINED then).
 * A size-0 type gives 0 elements for any nbytes. */
bool mmpi_datatype_elements(const struct mmpi_datatype *dt, size_t nbytes, size_t *elements);
/* Inverse, for MPI_Status_set_elements: bytes of packed data holding `elements` basic
 * elements (the last element of dt may be partial). False only for elements > 0 with a type
 * that has no elements. */
bool mmpi_datatype_bytes_of_elements(const struct mmpi_datatype *dt, size_t elements,
                                     size_t *nbytes);

/* ---- File layouts (file_layout.c), for MPI-IO data representations -------------------- */

/* The size in the file of one element of the predefined type leaf (MPI_SUCCESS), or the error
 * class that the representation raises for it. */
typedef int mmpi_dt_leaf_size_fn(void *arg, const struct mmpi_datatype *leaf, size_t *size);
/* dt's layout in a file whose representation sizes predefined types by leaf_size (MPI-4.1
 * §14.5: element-counting constructors scale, byte displacements are kept as they are). *out
 * holds one reference the caller releases: dt itself when no leaf changes size, else a new
 * layout-only object (its signature is bytes). Returns leaf_size's error or MPI_ERR_NO_MEM,
 * MPI_ERR_ARG (sizes overflow). Calls leaf_size with no lock held. */
int mmpi_datatype_file_layout(const struct mmpi_datatype *dt, mmpi_dt_leaf_size_fn *leaf_size,
                              void *arg, struct mmpi_datatype **out);

#endif
