/*
 * op/apply.c: applying an operation to data (op.h): predefined ops through the kernels on the
 * packed form, user functions on typed buffers with the caller's datatype handle.
 *
 * A predefined op sees each side as an *operand*: packed bytes, a contiguous typed buffer (its
 * packed form sits at buf + true_lb, used in place), or a non-contiguous typed buffer, packed
 * into a stack chunk, combined, and (for the inout side) unpacked again. Chunks hold whole
 * basic elements, so no element straddles two kernel calls. User functions are given typed
 * data laid out as the caller's own datatype; data laid out as another rank's type is first
 * copied into that layout.
 */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mmpi.h"
#include "op/op.h"

#define CHUNK 8192

/* One side of a predefined reduction: packed bytes (dt == NULL) or count elements of dt. */
struct operand {
    char *buf;
    const struct mmpi_datatype *dt;
    size_t count;
};

static bool in_place(const struct operand *o)
{
    return !o->dt || o->dt->contiguous;
}

static char *at(const struct operand *o, size_t off)
{
    return o->dt ? o->buf + o->dt->true_lb + off : o->buf + off;
}

/* Bytes [off, off + len) of o's packed form: in place when possible, else packed into scratch. */
static char *view(const struct operand *o, size_t off, size_t len, char *scratch)
{
    if (in_place(o))
        return at(o, off);
    mmpi_datatype_pack(o->dt, o->buf, o->count, off, scratch, len);
    return scratch;
}

static void write_back(const struct operand *o, size_t off, size_t len, const char *from)
{
    if (in_place(o)) {
        if (at(o, off) != from)
            memmove(at(o, off), from, len);
        return;
    }
    mmpi_datatype_unpack(o->dt, o->buf, o->count, off, from, len);
}

/* inout = in op inout over `bytes` packed bytes of dt's signature, for predefined op. */
static void apply_predefined(const struct mmpi_op *op, const struct operand *in,
                             const struct operand *inout, size_t bytes,
                             const struct mmpi_datatype *dt)
{
    if (bytes == 0 || op->index == MMPI_OPI_NO_OP)
        return;
    mmpi_op_kernel *kernel = NULL;
    if (op->index != MMPI_OPI_REPLACE) {
        kernel = mmpi_op_kernel_for(op->index, dt->basic);
        if (!kernel)
            return; /* callers check the pair (mmpi_op_check) */
    }
    size_t esize = dt->size / dt->basic_count; /* one packed basic element */
    if (in_place(in) && in_place(inout)) {
        if (kernel)
            kernel(at(in, 0), at(inout, 0), bytes / esize);
        else
            memmove(at(inout, 0), at(in, 0), bytes);
        return;
    }
    union {
        max_align_t align;
        char bytes[CHUNK];
    } s_in, s_io;
    size_t step = CHUNK - CHUNK % esize;
    for (size_t off = 0; off < bytes; off += step) {
        size_t len = bytes - off < step ? bytes - off : step;
        const char *a = view(in, off, len, s_in.bytes);
        if (!kernel) {
            write_back(inout, off, len, a);
            continue;
        }
        char *b = view(inout, off, len, s_io.bytes);
        kernel(a, b, len / esize);
        if (!in_place(inout))
            write_back(inout, off, len, b);
    }
}

/* The user function on typed buffers laid out as dt: an MPI_User_function_c with the whole
 * count (MPI_Count len), an MPI_User_function with at most INT_MAX elements per call. */
static void call_user(const struct mmpi_op *op, const void *in, void *inout, size_t count,
                      const struct mmpi_datatype *dt, MPI_Datatype dth)
{
    char *a = (char *)in, *b = inout;
    if (op->fn_c) {
        MPI_Count len = (MPI_Count)count; /* the function may scribble on its arguments */
        MPI_Datatype h = dth;
        if (count > 0)
            op->fn_c(a, b, &len, &h);
        return;
    }
    while (count > 0) {
        int n = count > INT_MAX ? INT_MAX : (int)count;
        int len = n;
        MPI_Datatype h = dth;
        op->fn(a, b, &len, &h);
        a += (MPI_Aint)n * dt->extent;
        b += (MPI_Aint)n * dt->extent;
        count -= (size_t)n;
    }
}

void *mmpi_op_typed_scratch(const struct mmpi_datatype *dt, size_t count, void **mem)
{
    MPI_Aint lo = dt->true_lb, hi = dt->true_lb + dt->true_extent;
    if (count > 1) {
        MPI_Aint span = (MPI_Aint)(count - 1) * dt->extent;
        if (span < 0)
            lo += span;
        else
            hi += span;
    }
    *mem = mmpi_xmalloc(hi > lo ? (size_t)(hi - lo) : 1);
    return (char *)*mem - lo;
}

void mmpi_op_apply(const struct mmpi_op *op, const void *in, void *inout, size_t count,
                   const struct mmpi_datatype *dt, MPI_Datatype dth)
{
    mmpi_op_apply_from(op, in, dt, inout, count, dt, dth);
}

void mmpi_op_apply_from(const struct mmpi_op *op, const void *in,
                        const struct mmpi_datatype *in_dt, void *inout, size_t count,
                        const struct mmpi_datatype *dt, MPI_Datatype dth)
{
    if (op->index != MMPI_OPI_USER) {
        struct operand a = {(char *)in, in_dt, count}, b = {inout, dt, count};
        apply_predefined(op, &a, &b, count * dt->size, dt);
        return;
    }
    if (in_dt == dt) {
        call_user(op, in, inout, count, dt, dth);
    } else if (in_dt->contiguous && dt->contiguous) {
        /* Both dense: the same bytes, once each buffer's lower bound is lined up. */
        call_user(op, (const char *)in + in_dt->true_lb - dt->true_lb, inout, count, dt, dth);
    } else {
        void *mem;
        char *tmp = mmpi_op_typed_scratch(dt, count, &mem);
        mmpi_datatype_copy(in, count, in_dt, tmp, count, dt);
        call_user(op, tmp, inout, count, dt, dth);
        free(mem);
    }
}

void mmpi_op_apply_packed(const struct mmpi_op *op, const void *in,
                          const struct mmpi_datatype *in_dt, void *inout, size_t count,
                          const struct mmpi_datatype *dt, MPI_Datatype dth)
{
    if (op->index != MMPI_OPI_USER) {
        struct operand a = {(char *)in, in_dt, count}, b = {inout, NULL, count};
        apply_predefined(op, &a, &b, count * dt->size, dt);
        return;
    }
    /* dt is contiguous (mmpi_op_packed_ok): element 0 of the typed view is true_lb before. */
    char *io = (char *)inout - dt->true_lb;
    if (!in_dt) {
        call_user(op, (const char *)in - dt->true_lb, io, count, dt, dth);
    } else if (in_dt->contiguous) {
        call_user(op, (const char *)in + in_dt->true_lb - dt->true_lb, io, count, dt, dth);
    } else {
        size_t bytes = count * dt->size;
        char *tmp = mmpi_xmalloc(bytes > 0 ? bytes : 1);
        mmpi_datatype_pack(in_dt, in, count, 0, tmp, bytes);
        call_user(op, tmp - dt->true_lb, io, count, dt, dth);
        free(tmp);
    }
}

void mmpi_op_apply_predefined(const struct mmpi_op *op, const void *in,
                              const struct mmpi_datatype *in_dt, size_t in_count, void *inout,
                              size_t count, const struct mmpi_datatype *dt)
{
    struct operand a = {(char *)in, in_dt, in_count}, b = {inout, dt, count};
    size_t bytes = count * dt->size, in_bytes = in_dt ? in_count * in_dt->size : in_count;
    apply_predefined(op, &a, &b, in_bytes < bytes ? in_bytes : bytes, dt);
}
