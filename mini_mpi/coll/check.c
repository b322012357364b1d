/*
 * coll/check.c: the argument checks of check.h, one function per kind of argument, shared by
 * every collective entry point so that the same mistake gives the same class everywhere (the
 * order of checks follows MPICH: communicator, root, counts and types, op, buffers). Whether
 * an argument is significant at the calling member is the entry point's decision.
 */
#include "coll/check.h"

#include "datatype/datatype.h"
#include "mmpi.h"
#include "op/op.h"
#include "pt2pt/pt2pt.h"

int mmpi_coll_check_comm(const struct mmpi_comm *c)
{
    if (!c)
        return MPI_ERR_COMM;
    /* Every operation on a revoked communicator fails (chapter "Process Fault Tolerance"). */
    if (mmpi_fault_revoked(&c->core->fault))
        return MPI_ERR_REVOKED;
    return MPI_SUCCESS;
}

int mmpi_coll_check_root(const struct mmpi_comm *c, int root)
{
    /* §6.2.2: on an intercommunicator the root's group says MPI_ROOT (the root) or
     * MPI_PROC_NULL, the other group names the root by its rank there. */
    if (c->core->remote && (root == MPI_ROOT || root == MPI_PROC_NULL))
        return MPI_SUCCESS;
    return root >= 0 && root < mmpi_comm_remote_size(c) ? MPI_SUCCESS : MPI_ERR_ROOT;
}

bool mmpi_coll_is_root(const struct mmpi_comm *c, int root)
{
    return c->core->remote ? root == MPI_ROOT : c->rank == root;
}

bool mmpi_coll_is_leaf(const struct mmpi_comm *c, int root)
{
    return !c->core->remote || root >= 0;
}

static int check_address(const void *buf, bool has_data, MPI_Datatype h)
{
    if (buf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if (!buf && has_data && mmpi_handle_is_predefined(h))
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

int mmpi_coll_check_data(struct mmpi_rank *self, MPI_Count count, MPI_Datatype h,
                         const struct mmpi_datatype **dt)
{
    struct mmpi_datatype *d;
    int err;
    if (count < 0)
        return MPI_ERR_COUNT;
    if ((err = mmpi_datatype_check(self, h, &d)))
        return err;
    mmpi_pt2pt_dt_remember(h, d); /* for MPI_Allreduce's express path */
    *dt = d;
    return MPI_SUCCESS;
}

int mmpi_coll_check_buffer(struct mmpi_rank *self, const void *buf, MPI_Count count, MPI_Datatype h,
                           const struct mmpi_datatype **dt)
{
    int err = mmpi_coll_check_data(self, count, h, dt);
    if (err)
        return err;
    return check_address(buf, count > 0 && (*dt)->size > 0, h);
}

int mmpi_coll_check_address(const void *buf, MPI_Count count, const struct mmpi_datatype *dt,
                            MPI_Datatype h)
{
    return check_address(buf, count > 0 && dt->size > 0, h);
}

int mmpi_coll_check_alias(const void *mine, MPI_Count count, const void *whole,
                          MPI_Count blockcount, struct mmpi_poly_array displs, int index,
                          const struct mmpi_datatype *dt)
{
    if (count <= 0)
        return MPI_SUCCESS;
    /* Integer arithmetic: whole may be MPI_BOTTOM (NULL). */
    uintptr_t block = (uintptr_t)whole;
    if (index >= 0)
        block += (uintptr_t)((mmpi_poly_null(displs) ? (MPI_Aint)index * blockcount
                                                     : mmpi_poly_at(displs, (size_t)index)) *
                             dt->extent);
    bool aliased = mine == whole || (index >= 0 && (uintptr_t)mine == block);
    return aliased ? MPI_ERR_BUFFER : MPI_SUCCESS;
}

/* Every count of a v or w form >= 0; *has_data: one of them > 0. */
static int check_counts(struct mmpi_poly_array counts, int n, bool *has_data)
{
    for (int i = 0; i < n; i++) {
        int64_t count = mmpi_poly_at(counts, (size_t)i);
        if (count < 0)
            return MPI_ERR_COUNT;
        *has_data |= count > 0;
    }
    return MPI_SUCCESS;
}

int mmpi_coll_check_vector(struct mmpi_rank *self, const void *buf, struct mmpi_poly_array counts,
                           struct mmpi_poly_array displs, int n, MPI_Datatype h,
                           const struct mmpi_datatype **dt)
{
    struct mmpi_datatype *d;
    bool has_data = false;
    int err;
    if (mmpi_poly_null(counts) || mmpi_poly_null(displs))
        return MPI_ERR_ARG;
    if ((err = check_counts(counts, n, &has_data)))
        return err;
    if ((err = mmpi_datatype_check(self, h, &d)))
        return err;
    *dt = d;
    return check_address(buf, has_data && d->size > 0, h);
}

int mmpi_coll_check_w(struct mmpi_rank *self, const void *buf, struct mmpi_poly_array counts,
                      struct mmpi_poly_array displs, const MPI_Datatype *types, int n,
                      const struct mmpi_datatype **dts)
{
    bool has_data = false, all_predefined = true;
    int err;
    if (mmpi_poly_null(counts) || mmpi_poly_null(displs) || !types)
        return MPI_ERR_ARG;
    for (int i = 0; i < n; i++) {
        struct mmpi_datatype *d;
        int64_t count = mmpi_poly_at(counts, (size_t)i);
        if (count < 0)
            return MPI_ERR_COUNT;
        if ((err = mmpi_datatype_check(self, types[i], &d)))
            return err;
        dts[i] = d;
        has_data |= count > 0 && d->size > 0;
        all_predefined &= mmpi_handle_is_predefined(types[i]);
    }
    if (buf == MPI_IN_PLACE || (!buf && has_data && all_predefined))
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

int mmpi_coll_check_op(struct mmpi_rank *self, MPI_Op h, const struct mmpi_datatype *dt,
                       const struct mmpi_op **op)
{
    struct mmpi_op *o = mmpi_op_get(self, h);
    if (!o || mmpi_op_is_rma_only(o) || mmpi_op_check(o, dt) != MPI_SUCCESS)
        return MPI_ERR_OP;
    *op = o;
    return MPI_SUCCESS;
}

int mmpi_coll_check_how(struct mmpi_rank *self, const struct mmpi_coll_how *how)
{
    if (how->nonblocking && !how->request)
        return MPI_ERR_ARG;
    if (how->persistent && how->info != MPI_INFO_NULL && how->info != MPI_INFO_ENV &&
        !mmpi_handle_lookup(self, MMPI_HANDLE_KIND_INFO, how->info))
        return MPI_ERR_INFO;
    return MPI_SUCCESS;
}
