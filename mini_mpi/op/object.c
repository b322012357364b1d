/*
 * op/object.c: operation objects: the predefined ones (static, shared by every rank), user ops
 * (reference counted: the handle plus each pending operation using it, so that MPI_Op_free
 * during a nonblocking reduction is harmless, MPI-4.1 §6.9.5), handle resolution and the op/type
 * validity check, and the op's table of operations (runtime/kind.h: reclaim at world end).
 * Applying an op is apply.c; the kernels are kernels.c.
 */
#include <stdlib.h>

#include "mmpi.h"
#include "op/op.h"
#include "runtime/kind.h"

#define PREDEF(name, commute) \
    [MMPI_OPI_##name] = {.index = MMPI_OPI_##name, .commutative = commute, .handle = MPI_##name}
/* MPI_REPLACE and MPI_NO_OP are not commutative: the result depends on which side is kept. */
static struct mmpi_op predefined[MMPI_OP_PREDEFINED_COUNT] = {
    PREDEF(MAX, true),     PREDEF(MIN, true),     PREDEF(SUM, true),    PREDEF(PROD, true),
    PREDEF(LAND, true),    PREDEF(BAND, true),    PREDEF(LOR, true),    PREDEF(BOR, true),
    PREDEF(LXOR, true),    PREDEF(BXOR, true),    PREDEF(MINLOC, true), PREDEF(MAXLOC, true),
    PREDEF(REPLACE, false), PREDEF(NO_OP, false),
};

struct mmpi_op *mmpi_op_get(struct mmpi_rank *self, MPI_Op h)
{
    if (mmpi_handle_is_predefined(h)) {
        int i = mmpi_handle_index(h);
        if (mmpi_handle_kind(h) != MMPI_HANDLE_KIND_OP || i <= 0 || i >= MMPI_OP_PREDEFINED_COUNT)
            return NULL;
        return &predefined[i];
    }
    return mmpi_handle_lookup(self, MMPI_HANDLE_KIND_OP, h);
}

struct mmpi_op *mmpi_op_new(MPI_User_function *fn, MPI_User_function_c *fn_c, bool commutative)
{
    struct mmpi_op *op = mmpi_xcalloc(1, sizeof(*op));
    op->refcount = 1;
    op->index = MMPI_OPI_USER;
    op->commutative = commutative;
    op->fn = fn;
    op->fn_c = fn_c;
    op->handle = MPI_OP_NULL;
    return op;
}

void mmpi_op_retain(struct mmpi_op *op)
{
    if (op && op->index == MMPI_OPI_USER)
        __atomic_add_fetch(&op->refcount, 1, __ATOMIC_RELAXED);
}

void mmpi_op_release(struct mmpi_op *op)
{
    if (op && op->index == MMPI_OPI_USER &&
        __atomic_sub_fetch(&op->refcount, 1, __ATOMIC_ACQ_REL) == 0)
        free(op);
}

int mmpi_op_check(const struct mmpi_op *op, const struct mmpi_datatype *dt)
{
    if (op->index == MMPI_OPI_USER || dt->size == 0)
        return MPI_SUCCESS;
    if (dt->basic == MPI_DATATYPE_NULL)
        return MPI_ERR_OP; /* a mixed struct: no predefined op applies (§6.9.2) */
    if (mmpi_op_is_rma_only(op))
        return MPI_SUCCESS;
    return mmpi_op_kernel_for(op->index, dt->basic) ? MPI_SUCCESS : MPI_ERR_OP;
}

/* A user op a rank left in its table at world end. */
static void op_reclaim(struct mmpi_rank *r, void *obj)
{
    (void)r;
    mmpi_op_release(obj);
}

static const struct mmpi_kind_ops op_kind_ops = {.reclaim = op_reclaim};
MMPI_KIND_REGISTER(MMPI_HANDLE_KIND_OP, op_kind_ops)
