/*
 * topo/topo.h: process topologies (MPI-4.1 chapter 8), the internal interface.
 *
 * A topology is an immutable object hung on a communicator's shared core (core->topo), shared
 * by reference count between the cores that carry it: MPI_Comm_dup copies the pointer (a dup
 * of a Cartesian communicator is Cartesian, §8.4), and the subgrids of one MPI_Cart_sub share
 * one object. It describes ranks of the communicator only (no world ranks), so cores of equal
 * shape can share it. It is built once, by the last member arriving on the parent's board
 * (topo/create.c), and read without locks afterwards.
 *
 * Every kind also stores its neighbourhoods in one form (§8.6): for each rank r, its incoming
 * neighbours in[in_off[r] .. in_off[r+1]) and outgoing ones out[out_off[r] .. out_off[r+1]),
 * in the order the neighbourhood collectives use (Cartesian: -dim0, +dim0, -dim1, ...;
 * graph: MPI_Graph_neighbors; distributed graph: sources / destinations). MPI_PROC_NULL
 * appears in Cartesian lists at non-periodic edges. in_match pairs each incoming edge with
 * the sender's outgoing slot that feeds it, as MPI-4.1 §8.6 prescribes: block s of the sender
 * lands in block s^1 of the receiver on a Cartesian grid (even when both neighbours are the
 * same process: periodic dimensions of size 1 or 2, MPI-4.0 erratum of MPI-3.1), and the k-th
 * edge from a process matches the k-th edge to it in graphs.
 *
 * Files: object.c (lifetime, neighbour tables, edge matching), cart.c (Cartesian arithmetic,
 * pure), dims.c (MPI_Dims_create, pure), create.c (the collective constructors on the board),
 * cart_api.c, graph_api.c (entry points), neighbor.c and neighbor_api.c (the neighbourhood
 * collectives on the collective engine, coll/coll.h).
 */
#ifndef MMPI_TOPO_TOPO_H
#define MMPI_TOPO_TOPO_H

#include <stdbool.h>

#include "mmpi.h"

struct mmpi_topo {
    int refcount;            /* atomic: cores carrying it */
    int kind;                /* immutable: MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    int size;                /* immutable: ranks described */
    /* MPI_CART */
    int ndims;               /* immutable */
    int *dims, *periods;     /* immutable [ndims], owned */
    /* MPI_GRAPH: the arguments of MPI_Graph_create, copied */
    int nedges;              /* immutable */
    int *index, *edges;      /* immutable [size], [nedges], owned */
    /* MPI_DIST_GRAPH */
    bool *weighted;          /* immutable [size]: weights were given (not MPI_UNWEIGHTED) */
    int *in_w, *out_w;       /* immutable, parallel to in / out; owned */
    /* Neighbourhoods, every kind (see above); all immutable and owned. */
    int *in_off, *in, *in_match;   /* [size + 1], [in_off[size]] x 2 */
    int *out_off, *out;            /* [size + 1], [out_off[size]] */
    bool consistent;         /* every edge has its partner (graph kinds may be erroneous) */
};

/* ---- Lifetime and neighbour tables (object.c) ---------------------------------------------- */

/* A zeroed topology of `kind` for `size` ranks, refcount 1. Never NULL. */
struct mmpi_topo *mmpi_topo_new(int kind, int size);
/* Takes / drops a reference (any thread); the last drop frees it. NULL is fine for both. */
struct mmpi_topo *mmpi_topo_retain(struct mmpi_topo *t);
void mmpi_topo_release(struct mmpi_topo *t);
/* Allocates the neighbour tables for in_off / out_off already filled (counts turned into
 * offsets by the caller), leaving in, out (and in_match) to fill. */
void mmpi_topo_alloc_edges(struct mmpi_topo *t);
/* Graph kinds: computes in_match and `consistent` from in / out (the k-th edge s->d of s's
 * list matches the k-th one of d's list). Cost: O(E log E). */
void mmpi_topo_match_edges(struct mmpi_topo *t);

/* ---- Graph queries (object.c): local, no locks (the tables are immutable) ------------------ */

/* MPI_Graph_get: at most maxindex entries of index and maxedges of edges (both >= 0). */
void mmpi_topo_graph_get(const struct mmpi_topo *t, int maxindex, int maxedges, int *index,
                         int *edges);
/* MPI_Graph_neighbors of rank: at most max (>= 0) of its neighbours. */
void mmpi_topo_graph_neighbors(const struct mmpi_topo *t, int rank, int max, int *neighbors);
/* MPI_Dist_graph_neighbors at rank: at most maxin sources and maxout destinations; weights
 * only for a weighted graph and only into real arrays (§8.5.5: otherwise not touched). */
void mmpi_topo_dist_neighbors(const struct mmpi_topo *t, int rank, int maxin, int *sources,
                              int *sourceweights, int maxout, int *destinations,
                              int *destweights);

/* ---- Cartesian arithmetic (cart.c): pure, ranks are row-major (§8.5.1) ------------------- */

/* Coordinates of rank in the grid. */
void mmpi_cart_coords(int ndims, const int *dims, int rank, int *coords);
/* MPI_Cart_get at rank of the Cartesian topology t: its dims, periods and rank's coords (each
 * array of t->ndims entries). */
void mmpi_cart_get(const struct mmpi_topo *t, int rank, int *dims, int *periods, int *coords);
/* Rank of coords, wrapping periodic dimensions; -1 when a coordinate of a non-periodic
 * dimension is out of range. */
int mmpi_cart_rank(int ndims, const int *dims, const int *periods, const int *coords);
/* MPI_Cart_shift of rank: source and destination, MPI_PROC_NULL off a non-periodic edge. */
void mmpi_cart_shift(int ndims, const int *dims, const int *periods, int rank, int direction,
                     int disp, int *source, int *dest);
/* A Cartesian topology of ndims (>= 0) dims (all > 0) with its neighbour tables. */
struct mmpi_topo *mmpi_cart_topo_new(int ndims, const int *dims, const int *periods);

/* ---- MPI_Dims_create (dims.c): pure ---------------------------------------------------- */

/* Fills the zero entries of dims[ndims] so that the product is nnodes, as balanced as
 * possible: the smallest difference between the largest and smallest filled entry, then the
 * largest smallest entry, then the smallest sum of squares (this reproduces MPICH's results),
 * in non-increasing order. MPI_SUCCESS, MPI_ERR_DIMS (a negative entry, or nnodes not a
 * multiple of the given entries) or MPI_ERR_ARG (nnodes < 1). dims is unchanged on error. */
int mmpi_dims_create(int nnodes, int ndims, int *dims);

/* ---- Constructors (create.c): collective over parent, may block -------------------------- */

/* Each returns an MPI error class; *out is NULL for members outside the new communicator. */
int mmpi_topo_cart_create(struct mmpi_rank *self, struct mmpi_comm *parent, int ndims,
                          const int *dims, const int *periods, struct mmpi_comm **out);
int mmpi_topo_cart_sub(struct mmpi_rank *self, struct mmpi_comm *parent,
                       const int *remain_dims, struct mmpi_comm **out);
int mmpi_topo_graph_create(struct mmpi_rank *self, struct mmpi_comm *parent, int nnodes,
                           const int *index, const int *edges, struct mmpi_comm **out);
/* The adjacent form: this member's own lists (weights NULL for MPI_UNWEIGHTED). */
int mmpi_topo_dist_adjacent(struct mmpi_rank *self, struct mmpi_comm *parent, int indegree,
                            const int *sources, const int *sourceweights, int outdegree,
                            const int *destinations, const int *destweights,
                            struct mmpi_comm **out);
/* The general form: edges sources[i] -> destinations[...] (weights NULL: unweighted). */
int mmpi_topo_dist_create(struct mmpi_rank *self, struct mmpi_comm *parent, int n,
                          const int *sources, const int *degrees, const int *destinations,
                          const int *weights, struct mmpi_comm **out);

/* ---- Entry-point helpers (object.c, create.c) ------------------------------------------ */

/* c's topology, if of `kind` (0: any kind): MPI_ERR_COMM without c, MPI_ERR_TOPOLOGY when c
 * has no topology or another kind. */
int mmpi_topo_check(const struct mmpi_comm *c, int kind, const struct mmpi_topo **t);
/* Registers a new communicator (NULL: the caller is not a member) in *out. */
int mmpi_topo_publish(struct mmpi_rank *self, struct mmpi_comm *made, MPI_Comm *out);

/* ---- Neighbourhood collectives (neighbor.c) ------------------------------------------- */

struct mmpi_coll;
/* Runs member x's part (coll/coll.h: send pieces per outgoing edge, or one piece for every
 * edge when allgather; receive pieces per incoming edge) on c, whose topology is consistent.
 * request NULL: blocking, returns the collective's error class; else as mmpi_coll_run. */
int mmpi_neighbor_run(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                      bool allgather, MPI_Request *request);

/* Degrees of rank r. */
static inline int mmpi_topo_indegree(const struct mmpi_topo *t, int r)
{
    return t->in_off[r + 1] - t->in_off[r];
}
static inline int mmpi_topo_outdegree(const struct mmpi_topo *t, int r)
{
    return t->out_off[r + 1] - t->out_off[r];
}

#endif
