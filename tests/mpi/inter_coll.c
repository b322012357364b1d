/* inter_coll.c: every collective on an intercommunicator (MPI-4.1 §6.2.2), blocking and
 * nonblocking, checked at both groups against values computed here: Barrier, Bcast,
 * Gather(v), Scatter(v) (roots MPI_ROOT / MPI_PROC_NULL / remote rank, each group in turn
 * the root's group, first and last root), Allgather(v), Alltoall(v,w), Reduce, Allreduce,
 * Reduce_scatter_block, Reduce_scatter. Then bad input: Scan/Exscan/Iscan give
 * MPI_ERR_COMM, bad roots MPI_ERR_ROOT, MPI_IN_PLACE MPI_ERR_BUFFER. The world is split into
 * a third and the rest (unequal groups). Needs at least 2 ranks. */
#include <string.h>

#include "mtest.h"

#define N 3 /* ints per piece */

static int grp, me, lsize, rsize, wrank;
static MPI_Request rq;

#define DO(nb, blocking, nonblocking)                                                     \
    do {                                                                                  \
        if (nb) {                                                                         \
            CHECK((nonblocking) == MPI_SUCCESS);                                          \
            CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE) == MPI_SUCCESS);                       \
        } else {                                                                          \
            CHECK((blocking) == MPI_SUCCESS);                                             \
        }                                                                                 \
    } while (0)

static int val(int g, int rank, int i)
{
    return g * 100000 + rank * 100 + i;
}

/* The root argument at this member when group rg's member r is the root. */
static int root_arg(int rg, int r)
{
    return grp == rg ? (me == r ? MPI_ROOT : MPI_PROC_NULL) : r;
}

static int *ints(int n, int fill)
{
    int *b = malloc(((size_t)n + 1) * sizeof(int));
    for (int i = 0; i <= n; i++)
        b[i] = fill;
    return b;
}

/* v-form counts for a group's member i: 1..3. */
static int vcount(int i)
{
    return i % 3 + 1;
}

static void rooted(MPI_Comm inter, int rg, int r, int nb)
{
    int root = root_arg(rg, r), other = !rg;
    /* Bcast */
    int *b = ints(N, -1);
    if (root == MPI_ROOT)
        for (int i = 0; i < N; i++)
            b[i] = val(rg, r, i);
    DO(nb, MPI_Bcast(b, N, MPI_INT, root, inter), MPI_Ibcast(b, N, MPI_INT, root, inter, &rq));
    for (int i = 0; i < N; i++)
        CHECK(b[i] == (root == MPI_PROC_NULL ? -1 : val(rg, r, i)));
    free(b);

    /* Gather: the root gets the other group's blocks in rank order. */
    int *s = ints(N, 0), *g = ints(N * rsize, -1);
    for (int i = 0; i < N; i++)
        s[i] = val(grp, me, i);
    DO(nb, MPI_Gather(s, N, MPI_INT, g, N, MPI_INT, root, inter),
       MPI_Igather(s, N, MPI_INT, g, N, MPI_INT, root, inter, &rq));
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < N; i++)
            CHECK(g[j * N + i] == (root == MPI_ROOT ? val(other, j, i) : -1));
    free(g);

    /* Gatherv: member j sends vcount(j) ints, placed with a gap of one. */
    int *cnt = malloc((size_t)rsize * sizeof(int)), *dsp = malloc((size_t)rsize * sizeof(int));
    int tot = 0;
    for (int j = 0; j < rsize; j++) {
        cnt[j] = vcount(j);
        dsp[j] = tot;
        tot += cnt[j] + 1;
    }
    g = ints(tot, -1);
    DO(nb, MPI_Gatherv(s, vcount(me), MPI_INT, g, cnt, dsp, MPI_INT, root, inter),
       MPI_Igatherv(s, vcount(me), MPI_INT, g, cnt, dsp, MPI_INT, root, inter, &rq));
    for (int j = 0; j < rsize; j++) {
        for (int i = 0; i < cnt[j]; i++)
            CHECK(g[dsp[j] + i] == (root == MPI_ROOT ? val(other, j, i) : -1));
        CHECK(g[dsp[j] + cnt[j]] == -1);
    }
    free(g);

    /* Scatter: piece j of the root goes to remote member j. */
    int *sc = ints(N * rsize, 0), *rc = ints(N, -1);
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < N; i++)
            sc[j * N + i] = val(grp, j, i) + 7;
    DO(nb, MPI_Scatter(sc, N, MPI_INT, rc, N, MPI_INT, root, inter),
       MPI_Iscatter(sc, N, MPI_INT, rc, N, MPI_INT, root, inter, &rq));
    for (int i = 0; i < N; i++)
        CHECK(rc[i] == (root >= 0 ? val(rg, me, i) + 7 : -1));
    free(rc);
    free(sc);

    /* Scatterv: piece j is vcount(j) ints at the gapped displacements. */
    sc = ints(tot, 0);
    rc = ints(N, -1);
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < cnt[j]; i++)
            sc[dsp[j] + i] = val(grp, j, i) + 9;
    DO(nb, MPI_Scatterv(sc, cnt, dsp, MPI_INT, rc, vcount(me), MPI_INT, root, inter),
       MPI_Iscatterv(sc, cnt, dsp, MPI_INT, rc, vcount(me), MPI_INT, root, inter, &rq));
    for (int i = 0; i < N; i++)
        CHECK(rc[i] == (root >= 0 && i < vcount(me) ? val(rg, me, i) + 9 : -1));
    free(rc);
    free(sc);

    /* Reduce (sum and max) of the other group's inputs at the root. */
    int *out = ints(N, -1), *out2 = ints(N, -1);
    DO(nb, MPI_Reduce(s, out, N, MPI_INT, MPI_SUM, root, inter),
       MPI_Ireduce(s, out, N, MPI_INT, MPI_SUM, root, inter, &rq));
    DO(nb, MPI_Reduce(s, out2, N, MPI_INT, MPI_MAX, root, inter),
       MPI_Ireduce(s, out2, N, MPI_INT, MPI_MAX, root, inter, &rq));
    for (int i = 0; i < N; i++) {
        int sum = 0;
        for (int j = 0; j < rsize; j++)
            sum += val(other, j, i);
        CHECK(out[i] == (root == MPI_ROOT ? sum : -1));
        CHECK(out2[i] == (root == MPI_ROOT ? val(other, rsize - 1, i) : -1));
    }
    free(out);
    free(out2);
    free(cnt);
    free(dsp);
    free(s);
}

static void all_forms(MPI_Comm inter, int nb)
{
    int other = !grp;
    int *s = ints(N * rsize * 3, 0);
    for (int i = 0; i < N * rsize * 3; i++)
        s[i] = val(grp, me, i);

    DO(nb, MPI_Barrier(inter), MPI_Ibarrier(inter, &rq));

    /* Allgather(v): the other group's blocks. */
    int *g = ints(N * rsize, -1);
    DO(nb, MPI_Allgather(s, N, MPI_INT, g, N, MPI_INT, inter),
       MPI_Iallgather(s, N, MPI_INT, g, N, MPI_INT, inter, &rq));
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < N; i++)
            CHECK(g[j * N + i] == val(other, j, i));
    free(g);
    int *cnt = malloc((size_t)rsize * sizeof(int)), *dsp = malloc((size_t)rsize * sizeof(int));
    int tot = 0;
    for (int j = rsize - 1; j >= 0; j--) { /* reversed placement */
        cnt[j] = vcount(j);
        dsp[j] = tot;
        tot += cnt[j];
    }
    g = ints(tot, -1);
    DO(nb, MPI_Allgatherv(s, vcount(me), MPI_INT, g, cnt, dsp, MPI_INT, inter),
       MPI_Iallgatherv(s, vcount(me), MPI_INT, g, cnt, dsp, MPI_INT, inter, &rq));
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < cnt[j]; i++)
            CHECK(g[dsp[j] + i] == val(other, j, i));
    free(g);

    /* Alltoall: piece j of my send goes to remote j; piece j received is remote j's piece
     * number me. */
    g = ints(N * rsize, -1);
    DO(nb, MPI_Alltoall(s, N, MPI_INT, g, N, MPI_INT, inter),
       MPI_Ialltoall(s, N, MPI_INT, g, N, MPI_INT, inter, &rq));
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < N; i++)
            CHECK(g[j * N + i] == val(other, j, me * N + i));
    free(g);

    /* Alltoallv/w: to remote j, (me + j) % 3 + 1 ints from offset 3j. */
    int *sc = malloc((size_t)rsize * sizeof(int)), *sd = malloc((size_t)rsize * sizeof(int));
    int *rc = malloc((size_t)rsize * sizeof(int)), *rd = malloc((size_t)rsize * sizeof(int));
    MPI_Datatype *ty = malloc((size_t)rsize * sizeof(MPI_Datatype));
    for (int j = 0; j < rsize; j++) {
        sc[j] = rc[j] = (me + j) % 3 + 1;
        sd[j] = rd[j] = 3 * j;
        ty[j] = MPI_INT;
    }
    for (int w = 0; w < 2; w++) {
        g = ints(3 * rsize, -1);
        if (w) {
            int *sb = malloc((size_t)rsize * sizeof(int)), *rb = malloc((size_t)rsize * sizeof(int));
            for (int j = 0; j < rsize; j++)
                sb[j] = rb[j] = sd[j] * (int)sizeof(int);
            DO(nb, MPI_Alltoallw(s, sc, sb, ty, g, rc, rb, ty, inter),
               MPI_Ialltoallw(s, sc, sb, ty, g, rc, rb, ty, inter, &rq));
            free(sb);
            free(rb);
        } else {
            DO(nb, MPI_Alltoallv(s, sc, sd, MPI_INT, g, rc, rd, MPI_INT, inter),
               MPI_Ialltoallv(s, sc, sd, MPI_INT, g, rc, rd, MPI_INT, inter, &rq));
        }
        for (int j = 0; j < rsize; j++)
            for (int i = 0; i < 3; i++)
                CHECK(g[3 * j + i] == (i < rc[j] ? val(other, j, 3 * me + i) : -1));
        free(g);
    }

    /* Allreduce: the other group's sum. */
    int *out = ints(N, -1);
    DO(nb, MPI_Allreduce(s, out, N, MPI_INT, MPI_SUM, inter),
       MPI_Iallreduce(s, out, N, MPI_INT, MPI_SUM, inter, &rq));
    for (int i = 0; i < N; i++) {
        int sum = 0;
        for (int j = 0; j < rsize; j++)
            sum += val(other, j, i);
        CHECK(out[i] == sum);
    }
    free(out);

    /* Reduce_scatter_block: inputs of lsize * rcount elements; both groups' totals must be
     * equal, so rcount = rsize here (totals lsize * rsize). The other group's sum, block me. */
    int rcount = rsize, *in = ints(lsize * rsize, 0);
    for (int i = 0; i < lsize * rsize; i++)
        in[i] = val(grp, me, i);
    out = ints(rcount, -1);
    DO(nb, MPI_Reduce_scatter_block(in, out, rcount, MPI_INT, MPI_SUM, inter),
       MPI_Ireduce_scatter_block(in, out, rcount, MPI_INT, MPI_SUM, inter, &rq));
    for (int i = 0; i < rcount; i++) {
        int sum = 0;
        for (int j = 0; j < rsize; j++)
            sum += val(other, j, me * rcount + i);
        CHECK(out[i] == sum);
    }
    free(out);
    /* Reduce_scatter: counts rsize each, moved by one between the first and last member. */
    int *rcs = malloc((size_t)lsize * sizeof(int)), first = 0;
    for (int i = 0; i < lsize; i++)
        rcs[i] = rsize + (lsize > 1 && i == 0) - (lsize > 1 && i == lsize - 1);
    for (int i = 0; i < me; i++)
        first += rcs[i];
    out = ints(rcs[me], -1);
    DO(nb, MPI_Reduce_scatter(in, out, rcs, MPI_INT, MPI_SUM, inter),
       MPI_Ireduce_scatter(in, out, rcs, MPI_INT, MPI_SUM, inter, &rq));
    for (int i = 0; i < rcs[me]; i++) {
        int sum = 0;
        for (int j = 0; j < rsize; j++)
            sum += val(other, j, first + i);
        CHECK(out[i] == sum);
    }
    free(out);
    free(rcs);
    free(in);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(ty);
    free(cnt);
    free(dsp);
    free(s);
}

/* A nonblocking collective completes without the other members polling theirs (MPI-4.1
 * §6.12): the root waits for its Ibcast before sending what the receivers wait for first.
 * (Skipped when MINI_MPI_COLL_SNAPSHOT forces mini_mpi's large-data algorithms, which need
 * every member to poll, as documented in coll.h.) */
static void progress(MPI_Comm inter)
{
    const char *forced = getenv("MINI_MPI_COLL_SNAPSHOT");
    if (forced && strcmp(forced, "0") == 0)
        return;
    int v = grp == 0 && me == 0 ? 31 : -1, token = -1;
    int root = grp == 0 ? (me == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    MPI_Request r;
    CHECK(MPI_Ibcast(&v, 1, MPI_INT, root, inter, &r) == MPI_SUCCESS);
    if (root == MPI_ROOT) {
        CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        for (int j = 0; j < rsize; j++)
            MPI_Send(&v, 1, MPI_INT, j, 8, inter);
    } else {
        if (grp == 1)
            MPI_Recv(&token, 1, MPI_INT, 0, 8, inter, MPI_STATUS_IGNORE);
        CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(grp == 0 || (v == 31 && token == 31));
    }
}

static int err_class(int err)
{
    int cls = -1;
    MPI_Error_class(err, &cls);
    return cls;
}

static void bad_input(MPI_Comm inter)
{
    int a = 1, b = 0;
    MPI_Request r;
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    CHECK(err_class(MPI_Scan(&a, &b, 1, MPI_INT, MPI_SUM, inter)) == MPI_ERR_COMM);
    CHECK(err_class(MPI_Exscan(&a, &b, 1, MPI_INT, MPI_SUM, inter)) == MPI_ERR_COMM);
    CHECK(err_class(MPI_Iscan(&a, &b, 1, MPI_INT, MPI_SUM, inter, &r)) == MPI_ERR_COMM);
    CHECK(err_class(MPI_Iexscan(&a, &b, 1, MPI_INT, MPI_SUM, inter, &r)) == MPI_ERR_COMM);
    CHECK(err_class(MPI_Bcast(&a, 1, MPI_INT, rsize, inter)) == MPI_ERR_ROOT);
    CHECK(err_class(MPI_Bcast(&a, 1, MPI_INT, -7, inter)) == MPI_ERR_ROOT);
    CHECK(err_class(MPI_Reduce(&a, &b, 1, MPI_INT, MPI_SUM, rsize + 3, inter)) == MPI_ERR_ROOT);
    CHECK(err_class(MPI_Gather(&a, 1, MPI_INT, &b, 1, MPI_INT, -7, inter)) == MPI_ERR_ROOT);
    CHECK(err_class(MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_INT, MPI_SUM, inter)) ==
          MPI_ERR_BUFFER);
    CHECK(err_class(MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, &b, 1, MPI_INT, inter)) ==
          MPI_ERR_BUFFER);
    CHECK(err_class(MPI_Bcast(&a, -1, MPI_INT, MPI_PROC_NULL, inter)) == MPI_ERR_COUNT);
    /* After the errors the communicator still works. */
    int rs = 0;
    CHECK(MPI_Allreduce(&a, &rs, 1, MPI_INT, MPI_SUM, inter) == MPI_SUCCESS && rs == rsize);
}

int main(int argc, char **argv)
{
    int wsize;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize < 2) {
        fprintf(stderr, "inter_coll needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int k = wsize / 3 > 0 ? wsize / 3 : 1;
    MPI_Comm local, inter;
    grp = wrank >= k;
    MPI_Comm_split(MPI_COMM_WORLD, grp, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, grp ? 0 : k, 1, &inter);
    MPI_Comm_rank(inter, &me);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    for (int nb = 0; nb < 2; nb++) {
        for (int rg = 0; rg < 2; rg++) {
            int rgsize = rg == grp ? lsize : rsize;
            rooted(inter, rg, 0, nb);
            if (rgsize > 1)
                rooted(inter, rg, rgsize - 1, nb);
        }
        all_forms(inter, nb);
    }
    progress(inter);
    bad_input(inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    return mtest_finish();
}
