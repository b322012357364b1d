/*
 * topo/cart.c: Cartesian arithmetic (MPI-4.1 §8.5.1, §8.5.5, §8.5.6): row-major ranks,
 * coordinates, periodic wrap and shifts, and the Cartesian topology object with its
 * neighbourhoods (§8.6: for each dimension, the source then the destination of a shift by +1).
 * Pure functions: no communicator, no locks.
 */
#include <stdlib.h>
#include <string.h>

#include "topo/topo.h"

void mmpi_cart_coords(int ndims, const int *dims, int rank, int *coords)
{
    for (int d = ndims - 1; d >= 0; d--) {
        coords[d] = rank % dims[d];
        rank /= dims[d];
    }
}

void mmpi_cart_get(const struct mmpi_topo *t, int rank, int *dims, int *periods, int *coords)
{
    for (int d = 0; d < t->ndims; d++) {
        dims[d] = t->dims[d];
        periods[d] = t->periods[d];
    }
    mmpi_cart_coords(t->ndims, t->dims, rank, coords);
}

/* Wraps c into [0, n) (a periodic dimension). */
static int wrap(long c, int n)
{
    long m = c % n;
    return (int)(m < 0 ? m + n : m);
}

int mmpi_cart_rank(int ndims, const int *dims, const int *periods, const int *coords)
{
    long rank = 0;
    for (int d = 0; d < ndims; d++) {
        long c = coords[d];
        if (periods[d])
            c = wrap(c, dims[d]);
        else if (c < 0 || c >= dims[d])
            return -1;
        rank = rank * dims[d] + c;
    }
    return (int)rank;
}

/* The rank `disp` steps from `rank` along `direction`, or MPI_PROC_NULL off the grid. */
static int step(int ndims, const int *dims, const int *periods, const int *coords,
                int direction, long disp)
{
    int *c = mmpi_xmalloc(((size_t)ndims + 1) * sizeof(int));
    memcpy(c, coords, (size_t)ndims * sizeof(int));
    long to = (long)c[direction] + disp;
    int r = MPI_PROC_NULL;
    if (periods[direction] || (to >= 0 && to < dims[direction])) {
        c[direction] = periods[direction] ? wrap(to, dims[direction]) : (int)to;
        r = mmpi_cart_rank(ndims, dims, periods, c);
    }
    free(c);
    return r;
}

void mmpi_cart_shift(int ndims, const int *dims, const int *periods, int rank, int direction,
                     int disp, int *source, int *dest)
{
    int *coords = mmpi_xmalloc(((size_t)ndims + 1) * sizeof(int));
    mmpi_cart_coords(ndims, dims, rank, coords);
    *dest = step(ndims, dims, periods, coords, direction, disp);
    *source = step(ndims, dims, periods, coords, direction, -(long)disp);
    free(coords);
}

struct mmpi_topo *mmpi_cart_topo_new(int ndims, const int *dims, const int *periods)
{
    int size = 1;
    for (int d = 0; d < ndims; d++)
        size *= dims[d];
    struct mmpi_topo *t = mmpi_topo_new(MPI_CART, size);
    t->ndims = ndims;
    t->dims = mmpi_xmalloc(((size_t)ndims + 1) * sizeof(int));
    t->periods = mmpi_xmalloc(((size_t)ndims + 1) * sizeof(int));
    for (int d = 0; d < ndims; d++) {
        t->dims[d] = dims[d];
        t->periods[d] = periods[d] != 0;
    }
    for (int r = 0; r <= size; r++)
        t->in_off[r] = t->out_off[r] = 2 * ndims * r;
    mmpi_topo_alloc_edges(t);
    for (int r = 0; r < size; r++) {
        int *in = t->in + t->in_off[r], *out = t->out + t->out_off[r];
        for (int d = 0; d < ndims; d++)
            mmpi_cart_shift(ndims, t->dims, t->periods, r, d, 1, &in[2 * d], &in[2 * d + 1]);
        memcpy(out, in, 2 * (size_t)ndims * sizeof(int));
        /* In-slot 2d receives from the -1 neighbour what it sent +1 (its slot 2d+1), and
         * conversely: block s lands in block s^1 (MPI-4.1 §8.6). */
        for (int j = 0; j < 2 * ndims; j++)
            t->in_match[t->in_off[r] + j] = in[j] == MPI_PROC_NULL ? -1 : (j ^ 1);
    }
    return t;
}
