/* coll_alltoall.c: MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw and their nonblocking forms, in
 * place and not, checked against the expected layout: pieces described as MPI_INT or as a
 * non-contiguous vector (per piece in the w form, with byte displacements), irregular counts
 * (zeros included) stored in reverse order with gaps that must stay untouched, small and large
 * data (the library switches algorithms with size), on MPI_COMM_WORLD, a dup and a
 * reordering split. */
#include <string.h>

#include "mtest.h"

#define GAP (-55)

static int wrank;
static MPI_Datatype vec; /* ints 0 and 2 of every 3: 2 ints of data, extent 3 ints */

enum form { REGULAR, V, W };
static const char *names[] = {"alltoall", "alltoallv", "alltoallw"};

static int val(int from, int to, int k)
{
    return (from * 131 + to) * 10007 + k;
}

/* Ints of data from member r to member j; symmetric, as MPI_IN_PLACE requires. */
static int len_of(enum form f, int r, int j, int count)
{
    if (f == REGULAR)
        return 2 * count;
    return 2 * (((r + j) % 4) * count / 2 + ((r + j) % 5 == 0));
}

static int mem(int use_vec, int k)
{
    return use_vec ? (k / 2) * 3 + (k % 2) * 2 : k;
}

/* One side's buffer: piece p (for/from member p) holds len(p) ints described by type[p]
 * (vec or not), starting at int index start[p]; pieces in reverse order with gaps (regular:
 * back to back in order, as the standard's layout requires). */
struct side {
    int *buf, *start, *len, *isvec, *counts, *displs, total;
    MPI_Datatype *types;
};

static void side_init(struct side *s, enum form f, int me, int n, int count, int sending,
                      int vec_all)
{
    s->start = malloc((size_t)n * sizeof(int));
    s->len = malloc((size_t)n * sizeof(int));
    s->isvec = malloc((size_t)n * sizeof(int));
    s->counts = malloc((size_t)n * sizeof(int));
    s->displs = malloc((size_t)n * sizeof(int));
    s->types = malloc((size_t)n * sizeof(MPI_Datatype));
    int pos = 0;
    for (int q = 0; q < n; q++) {
        int p = f == REGULAR ? q : n - 1 - q;
        s->len[p] = sending ? len_of(f, me, p, count) : len_of(f, p, me, count);
        s->isvec[p] = f == W ? (sending ? (me + 2 * p) % 3 == 0 : (me + p) % 2) : vec_all;
        s->types[p] = s->isvec[p] ? vec : MPI_INT;
        s->counts[p] = s->isvec[p] ? s->len[p] / 2 : s->len[p];
        s->start[p] = pos;
        /* displacements: bytes (w), elements of the one type (regular, v) */
        s->displs[p] = f == W ? pos * (int)sizeof(int) : pos / (s->isvec[p] ? 3 : 1);
        pos += s->counts[p] * (s->isvec[p] ? 3 : 1) + (f == REGULAR ? 0 : 3);
    }
    s->total = pos + 1;
    s->buf = malloc((size_t)s->total * sizeof(int));
    for (int i = 0; i < s->total; i++)
        s->buf[i] = GAP;
}

static void side_free(struct side *s)
{
    free(s->buf), free(s->start), free(s->len), free(s->isvec), free(s->counts);
    free(s->displs), free(s->types);
}

static void one(enum form f, MPI_Comm comm, int count, int nb, int in_place, int svec,
                int rvec)
{
    int me, n, err;
    MPI_Request req;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    struct side s, r;
    side_init(&s, f, me, n, count, 1, svec);
    side_init(&r, f, me, n, count, 0, rvec);
    /* In place the receive side is also the send side: piece p holds what goes to p. */
    struct side *src = in_place ? &r : &s;
    for (int p = 0; p < n; p++)
        for (int k = 0; k < src->len[p]; k++)
            src->buf[src->start[p] + mem(src->isvec[p], k)] = val(me, p, k);
    const void *sb = in_place ? MPI_IN_PLACE : s.buf;
    switch (f) {
    case REGULAR:
        err = nb ? MPI_Ialltoall(sb, s.counts[0], s.types[0], r.buf, r.counts[0], r.types[0],
                                 comm, &req)
                 : MPI_Alltoall(sb, s.counts[0], s.types[0], r.buf, r.counts[0], r.types[0],
                                comm);
        break;
    case V:
        err = nb ? MPI_Ialltoallv(sb, s.counts, s.displs, s.types[0], r.buf, r.counts, r.displs,
                                  r.types[0], comm, &req)
                 : MPI_Alltoallv(sb, s.counts, s.displs, s.types[0], r.buf, r.counts, r.displs,
                                 r.types[0], comm);
        break;
    default:
        err = nb ? MPI_Ialltoallw(sb, s.counts, s.displs, s.types, r.buf, r.counts, r.displs,
                                  r.types, comm, &req)
                 : MPI_Alltoallw(sb, s.counts, s.displs, s.types, r.buf, r.counts, r.displs,
                                 r.types, comm);
        break;
    }
    CHECK(err == MPI_SUCCESS);
    if (nb && err == MPI_SUCCESS)
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    int ok = 1;
    char *data = calloc((size_t)r.total, 1);
    for (int p = 0; p < n; p++)
        for (int k = 0; k < r.len[p]; k++) {
            int i = r.start[p] + mem(r.isvec[p], k);
            data[i] = 1;
            if (r.buf[i] != val(p, me, k))
                ok = 0;
        }
    for (int i = 0; i < r.total; i++)
        if (!data[i] && r.buf[i] != GAP)
            ok = 0;
    free(data);
    if (!ok)
        fprintf(stderr, "rank %d: %s count %d nb %d in_place %d vec %d/%d wrong\n", wrank,
                names[f], count, nb, in_place, svec, rvec);
    CHECK(ok);
    side_free(&s);
    side_free(&r);
}

static void run_all(MPI_Comm comm)
{
    const int counts[] = {0, 1, 4, 3000};
    for (int f = 0; f < 3; f++)
        for (unsigned c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
            for (int nb = 0; nb < 2; nb++)
                for (int ip = 0; ip < 2; ip++)
                    for (int types = 0; types < (f == W ? 1 : 4); types++)
                        one((enum form)f, comm, counts[c], nb, ip, types & 1, types >> 1);
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
    MPI_Comm_split(MPI_COMM_WORLD, wrank < size / 2, size - wrank, &split);
    run_all(MPI_COMM_WORLD);
    run_all(dup);
    run_all(split);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
    MPI_Type_free(&vec);
    return mtest_finish();
}
