/* coll_gather.c: MPI_Gather(v), MPI_Scatter(v) and MPI_Allgather(v), blocking and
 * nonblocking, in place and not, from several roots, checked against the expected layout:
 * pieces described as MPI_INT or as a non-contiguous vector on either side (same signature),
 * v forms with irregular counts (zeros included), pieces stored in reverse rank order with
 * gaps that must stay untouched; small and large data (the library switches algorithms with
 * size) on MPI_COMM_WORLD, a dup and a reordering split. */
#include <string.h>

#include "mtest.h"

#define GAP (-77)

static int wrank;
static MPI_Datatype vec; /* ints 0 and 2 of every 3: 2 ints of data, extent 3 ints */

enum coll { GATHER, SCATTER, ALLGATHER };
static const char *names[] = {"gather", "scatter", "allgather"};

static int val(int r, int k)
{
    return r * 100003 + k;
}

/* Ints of data member r contributes (even, so that vec can describe them). */
static int len_of(int v, int r, int count)
{
    return v ? 2 * (((r * 5) % 4) * count / 2 + (r == 1)) : 2 * count;
}

/* A buffer of elements of MPI_INT (use_vec 0) or vec. */
static int ext(int use_vec)
{
    return use_vec ? 3 : 1;
}
static int per(int use_vec)
{
    return use_vec ? 2 : 1;
}
/* Memory index of data int k of a piece starting at element d. */
static int mem(int use_vec, int d, int k)
{
    return d * ext(use_vec) + (use_vec ? (k / 2) * 3 + (k % 2) * 2 : k);
}

struct vlayout {
    int *counts, *displs; /* in elements of the type */
    int elems;            /* size of the whole buffer in elements */
};

/* Pieces for n members: regular (piece j at j*count elements) or v (reverse order, one-element
 * gaps). */
static void layout(struct vlayout *l, int v, int n, int count, int use_vec)
{
    l->counts = malloc((size_t)n * sizeof(int));
    l->displs = malloc((size_t)n * sizeof(int));
    for (int j = 0; j < n; j++)
        l->counts[j] = len_of(v, j, count) / per(use_vec);
    int d = 0;
    for (int j = n - 1; j >= 0; j--) {
        int slot = v ? l->counts[j] + 1 : l->counts[j];
        l->displs[j] = v ? d : j * l->counts[j];
        d += slot;
    }
    l->elems = d + 1;
}

static int *alloc_buf(int elems, int use_vec)
{
    int n = elems * ext(use_vec) + 1;
    int *b = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        b[i] = GAP;
    return b;
}

static void put(int *b, int use_vec, int d, int r, int len)
{
    for (int k = 0; k < len; k++)
        b[mem(use_vec, d, k)] = val(r, k);
}

/* Whether piece of r (len ints at element d) holds r's data. */
static int piece_ok(const int *b, int use_vec, int d, int r, int len)
{
    for (int k = 0; k < len; k++)
        if (b[mem(use_vec, d, k)] != val(r, k))
            return 0;
    return 1;
}

/* Whether every int outside the pieces is still GAP. */
static int gaps_ok(const int *b, int use_vec, const struct vlayout *l, int n, int elems)
{
    int total = elems * ext(use_vec) + 1, ok = 1;
    char *data = calloc((size_t)total, 1);
    for (int j = 0; j < n; j++)
        for (int k = 0; k < l->counts[j] * per(use_vec); k++)
            data[mem(use_vec, l->displs[j], k)] = 1;
    for (int i = 0; i < total; i++)
        if (!data[i] && b[i] != GAP)
            ok = 0;
    free(data);
    return ok;
}

static void one(enum coll which, int v, MPI_Comm comm, int root, int count, int nb,
                int in_place, int svec, int rvec)
{
    int me, n, err;
    MPI_Request req;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    MPI_Datatype st = svec ? vec : MPI_INT, rt = rvec ? vec : MPI_INT;
    int mylen = len_of(v, me, count);
    struct vlayout vl; /* the vector side: recv for gathers, send for scatter */
    int vside_vec = which == SCATTER ? svec : rvec;
    layout(&vl, v, n, count, vside_vec);
    int *vbuf = alloc_buf(vl.elems, vside_vec);
    int *bbuf = alloc_buf(mylen / per(which == SCATTER ? rvec : svec) + 1,
                          which == SCATTER ? rvec : svec);
    int is_root = which == ALLGATHER || me == root;
    int place = in_place && (which == ALLGATHER || me == root);
    int bcount = mylen / per(which == SCATTER ? rvec : svec);

    if (which == SCATTER) {
        if (me == root)
            for (int j = 0; j < n; j++)
                put(vbuf, svec, vl.displs[j], j, vl.counts[j] * per(svec));
    } else if (place) {
        put(vbuf, rvec, vl.displs[me], me, mylen);
    } else {
        put(bbuf, svec, 0, me, mylen);
    }
    const void *sb;
    void *rb;
    switch (which) {
    case GATHER:
        sb = place ? MPI_IN_PLACE : bbuf;
        rb = vbuf;
        err = v ? (nb ? MPI_Igatherv(sb, bcount, st, rb, vl.counts, vl.displs, rt, root, comm,
                                     &req)
                      : MPI_Gatherv(sb, bcount, st, rb, vl.counts, vl.displs, rt, root, comm))
                : (nb ? MPI_Igather(sb, bcount, st, rb, vl.counts[0], rt, root, comm, &req)
                      : MPI_Gather(sb, bcount, st, rb, vl.counts[0], rt, root, comm));
        break;
    case SCATTER:
        sb = vbuf;
        rb = place ? MPI_IN_PLACE : bbuf;
        err = v ? (nb ? MPI_Iscatterv(sb, vl.counts, vl.displs, st, rb, bcount, rt, root, comm,
                                      &req)
                      : MPI_Scatterv(sb, vl.counts, vl.displs, st, rb, bcount, rt, root, comm))
                : (nb ? MPI_Iscatter(sb, vl.counts[0], st, rb, bcount, rt, root, comm, &req)
                      : MPI_Scatter(sb, vl.counts[0], st, rb, bcount, rt, root, comm));
        break;
    default:
        sb = place ? MPI_IN_PLACE : bbuf;
        rb = vbuf;
        err = v ? (nb ? MPI_Iallgatherv(sb, bcount, st, rb, vl.counts, vl.displs, rt, comm,
                                        &req)
                      : MPI_Allgatherv(sb, bcount, st, rb, vl.counts, vl.displs, rt, comm))
                : (nb ? MPI_Iallgather(sb, bcount, st, rb, vl.counts[0], rt, comm, &req)
                      : MPI_Allgather(sb, bcount, st, rb, vl.counts[0], rt, comm));
        break;
    }
    CHECK(err == MPI_SUCCESS);
    if (nb && err == MPI_SUCCESS)
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);

    int ok = 1;
    if (which == SCATTER) {
        if (!place)
            ok = piece_ok(bbuf, rvec, 0, me, mylen);
        if (me == root) /* the root's send buffer is unchanged */
            for (int j = 0; j < n; j++)
                ok &= piece_ok(vbuf, svec, vl.displs[j], j, vl.counts[j] * per(svec));
    } else if (is_root) {
        for (int j = 0; j < n; j++)
            ok &= piece_ok(vbuf, rvec, vl.displs[j], j, vl.counts[j] * per(rvec));
        ok &= gaps_ok(vbuf, rvec, &vl, n, vl.elems);
    }
    if (!ok)
        fprintf(stderr, "rank %d: %s%s root %d count %d nb %d in_place %d vec %d/%d wrong\n",
                wrank, names[which], v ? "v" : "", root, count, nb, in_place, svec, rvec);
    CHECK(ok);
    free(vl.counts);
    free(vl.displs);
    free(vbuf);
    free(bbuf);
}

static void run_all(MPI_Comm comm)
{
    int n;
    MPI_Comm_size(comm, &n);
    const int counts[] = {0, 1, 3, 7000};
    for (int w = 0; w < 3; w++)
        for (int v = 0; v < 2; v++)
            for (unsigned c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
                for (int nb = 0; nb < 2; nb++)
                    for (int ip = 0; ip < 2; ip++)
                        for (int types = 0; types < 4; types++) {
                            int root = (c + types) % n;
                            one((enum coll)w, v, comm, root, counts[c], nb, ip, types & 1,
                                types >> 1);
                        }
}

int main(int argc, char **argv)
{
    int size;
    MPI_Comm dup, split;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 3 == 0, size - wrank, &split);
    run_all(MPI_COMM_WORLD);
    run_all(dup);
    run_all(split);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
    MPI_Type_free(&vec);
    return mtest_finish();
}
