/*
 * topo/cart_api.c: MPI entry points for Cartesian topologies (MPI-4.1 §8.5.1, §8.5.2,
 * §8.5.5-8.5.8): Cart_create, Dims_create, Cartdim_get, Cart_get, Cart_rank, Cart_coords,
 * Cart_shift, Cart_sub, Cart_map. Bindings only; the arithmetic is cart.c and dims.c, the
 * collective constructors create.c. Error classes follow MPICH and Open MPI where they agree:
 * MPI_ERR_ARG for a bad count, direction, coordinate or a grid larger than the communicator,
 * MPI_ERR_DIMS for a non-positive dimension, MPI_ERR_RANK for a rank out of range,
 * MPI_ERR_TOPOLOGY for a communicator without a Cartesian topology. Queries are local and
 * work on a revoked communicator; constructors are collective and do not.
 */
#include <stdlib.h>

#include "coll/check.h"
#include "topo/topo.h"

/* ndims, dims and periods of a grid to create or map: *size is its number of ranks. */
static int check_grid(int ndims, const int *dims, const int *periods, long *size)
{
    *size = 1;
    if (ndims < 0 || (ndims > 0 && (!dims || !periods)))
        return MPI_ERR_ARG;
    for (int d = 0; d < ndims; d++) {
        if (dims[d] <= 0)
            return MPI_ERR_DIMS;
        if (*size <= 0x7fffffffL)
            *size *= dims[d];
    }
    return MPI_SUCCESS;
}

MMPI_PROFILED(Cart_create);
int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int reorder, MPI_Comm *comm_cart)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Cart_create);
    struct mmpi_comm *c = mmpi_comm_get(self, comm_old), *made = NULL;
    long size;
    int err = MPI_SUCCESS;

    if ((err = mmpi_coll_check_comm(c)))
        goto fn_fail;
    MMPI_FAIL_IF(!comm_cart, MPI_ERR_ARG);
    if ((err = check_grid(ndims, dims, periods, &size)))
        goto fn_fail;
    MMPI_FAIL_IF(size > c->core->size, MPI_ERR_ARG); /* more grid points than processes (§8.5.1) */
    if ((err = mmpi_topo_cart_create(self, c, ndims, dims, periods, &made)) ||
        (err = mmpi_topo_publish(self, made, comm_cart)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (comm_cart)
        *comm_cart = MPI_COMM_NULL;
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Cart_create);
    goto fn_exit;
}

MMPI_PROFILED(Dims_create);
int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Dims_create);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(ndims < 0, MPI_ERR_DIMS);
    MMPI_FAIL_IF(ndims > 0 && !dims, MPI_ERR_ARG);
    if ((err = mmpi_dims_create(nnodes, ndims, dims)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Dims_create);
    goto fn_exit;
}

MMPI_PROFILED(Cartdim_get);
int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Cartdim_get);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    const struct mmpi_topo *t;
    int err = MPI_SUCCESS;

    if ((err = mmpi_topo_check(c, MPI_CART, &t)))
        goto fn_fail;
    MMPI_FAIL_IF(!ndims, MPI_ERR_ARG);
    *ndims = t->ndims;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Cartdim_get);
    goto fn_exit;
}

MMPI_PROFILED(Cart_get);
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Cart_get);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    const struct mmpi_topo *t;
    int err = MPI_SUCCESS;

    if ((err = mmpi_topo_check(c, MPI_CART, &t)))
        goto fn_fail;
    MMPI_FAIL_IF(maxdims < t->ndims || (t->ndims > 0 && (!dims || !periods || !coords)),
                 MPI_ERR_ARG);
    mmpi_cart_get(t, c->rank, dims, periods, coords);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Cart_get);
    goto fn_exit;
}

MMPI_PROFILED(Cart_rank);
int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Cart_rank);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    const struct mmpi_topo *t;
    int err = MPI_SUCCESS, r;

    if ((err = mmpi_topo_check(c, MPI_CART, &t)))
        goto fn_fail;
    MMPI_FAIL_IF(!rank || (t->ndims > 0 && !coords), MPI_ERR_ARG);
    /* Out of range in a non-periodic dimension is erroneous (§8.5.5). */
    MMPI_FAIL_IF((r = mmpi_cart_rank(t->ndims, t->dims, t->periods, coords)) < 0, MPI_ERR_ARG);
    *rank = r;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Cart_rank);
    goto fn_exit;
}

MMPI_PROFILED(Cart_coords);
int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Cart_coords);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    const struct mmpi_topo *t;
    int err = MPI_SUCCESS;

    if ((err = mmpi_topo_check(c, MPI_CART, &t)))
        goto fn_fail;
    MMPI_FAIL_IF(rank < 0 || rank >= t->size, MPI_ERR_RANK);
    MMPI_FAIL_IF(maxdims < t->ndims || (t->ndims > 0 && !coords), MPI_ERR_ARG);
    mmpi_cart_coords(t->ndims, t->dims, rank, coords);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Cart_coords);
    goto fn_exit;
}

MMPI_PROFILED(Cart_shift);
int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Cart_shift);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    const struct mmpi_topo *t;
    int err = MPI_SUCCESS;

    if ((err = mmpi_topo_check(c, MPI_CART, &t)))
        goto fn_fail;
    MMPI_FAIL_IF(direction < 0 || direction >= t->ndims || !rank_source || !rank_dest, MPI_ERR_ARG);
    mmpi_cart_shift(t->ndims, t->dims, t->periods, c->rank, direction, disp, rank_source,
                    rank_dest);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Cart_shift);
    goto fn_exit;
}

MMPI_PROFILED(Cart_sub);
int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Cart_sub);
    struct mmpi_comm *c = mmpi_comm_get(self, comm), *made = NULL;
    const struct mmpi_topo *t;
    int err = MPI_SUCCESS;

    if ((err = mmpi_coll_check_comm(c)) || (err = mmpi_topo_check(c, MPI_CART, &t)))
        goto fn_fail;
    MMPI_FAIL_IF(!newcomm || (t->ndims > 0 && !remain_dims), MPI_ERR_ARG);
    if ((err = mmpi_topo_cart_sub(self, c, remain_dims, &made)) ||
        (err = mmpi_topo_publish(self, made, newcomm)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (newcomm)
        *newcomm = MPI_COMM_NULL;
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Cart_sub);
    goto fn_exit;
}

MMPI_PROFILED(Cart_map);
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                  int *newrank)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Cart_map);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    long size;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c || c->core->remote, MPI_ERR_COMM);
    MMPI_FAIL_IF(!newrank, MPI_ERR_ARG);
    if ((err = check_grid(ndims, dims, periods, &size)))
        goto fn_fail;
    MMPI_FAIL_IF(size > c->core->size, MPI_ERR_DIMS); /* as MPICH */
    /* Identity mapping: the ranks Cart_create keeps (§8.5.8). */
    *newrank = c->rank < size ? c->rank : MPI_UNDEFINED;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Cart_map);
    goto fn_exit;
}
