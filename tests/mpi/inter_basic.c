/* inter_basic.c: intercommunicators: MPI_Intercomm_create from a split of MPI_COMM_WORLD into
 * two groups of unequal size (over MPI_COMM_WORLD and over a dup as peer, with user traffic
 * pending on the peer with the same tag that must not be matched), Comm_test_inter,
 * Comm_size/rank/remote_size, Comm_remote_group, Comm_compare, Comm_dup, Comm_split (the
 * standard's colour rule: a colour missing in the other group gives MPI_COMM_NULL),
 * Intercomm_merge with both high orders and equal flags, point-to-point across the groups
 * (ranks address the remote group; MPI_ANY_SOURCE matches any remote rank; MPI_SOURCE is the
 * remote rank), and Comm_free. Needs at least 2 ranks. */
#include <string.h>

#include "mtest.h"

static int wrank, wsize;

/* Group 0: world ranks [0, k); group 1: [k, wsize). */
static int split_point(void)
{
    return wsize / 3 > 0 ? wsize / 3 : 1;
}

static void check_shape(MPI_Comm inter, int k, int low)
{
    int flag = 0, size = -1, rank = -1, rsize = -1;
    CHECK(MPI_Comm_test_inter(inter, &flag) == MPI_SUCCESS && flag);
    MPI_Comm_size(inter, &size);
    MPI_Comm_rank(inter, &rank);
    CHECK(MPI_Comm_remote_size(inter, &rsize) == MPI_SUCCESS);
    CHECK(size == (low ? k : wsize - k));
    CHECK(rsize == (low ? wsize - k : k));
    CHECK(rank == (low ? wrank : wrank - k));
    MPI_Group rg, wg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    CHECK(MPI_Comm_remote_group(inter, &rg) == MPI_SUCCESS);
    int gs = -1;
    MPI_Group_size(rg, &gs);
    CHECK(gs == rsize);
    for (int i = 0; i < rsize; i++) {
        int w = -1;
        MPI_Group_translate_ranks(rg, 1, &i, wg, &w);
        CHECK(w == (low ? k + i : i));
    }
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
}

/* Every member sends a value naming itself to every remote rank, then receives with
 * MPI_ANY_SOURCE and checks that the sources are exactly the remote ranks. */
static void p2p(MPI_Comm inter)
{
    int size, rank, rsize;
    MPI_Comm_size(inter, &size);
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Request *reqs = malloc((size_t)rsize * sizeof(*reqs));
    int *vals = malloc((size_t)rsize * sizeof(int));
    for (int j = 0; j < rsize; j++) {
        vals[j] = rank * 1000 + j;
        MPI_Isend(&vals[j], 1, MPI_INT, j, 1, inter, &reqs[j]);
    }
    char *seen = calloc((size_t)rsize, 1);
    for (int j = 0; j < rsize; j++) {
        int v = -1;
        MPI_Status st;
        CHECK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, inter, &st) == MPI_SUCCESS);
        CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize);
        if (st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize) {
            CHECK(!seen[st.MPI_SOURCE]);
            seen[st.MPI_SOURCE] = 1;
        }
        CHECK(st.MPI_TAG == 1);
        CHECK(v == st.MPI_SOURCE * 1000 + rank);
    }
    MPI_Waitall(rsize, reqs, MPI_STATUSES_IGNORE);
    /* A named source: the remote rank 0 sends to everybody, everybody answers it. */
    int v = -1;
    if (rank == 0)
        for (int j = 0; j < rsize; j++)
            MPI_Send(&j, 1, MPI_INT, j, 77, inter);
    MPI_Recv(&v, 1, MPI_INT, 0, 77, inter, MPI_STATUS_IGNORE);
    CHECK(v == rank);
    /* Sendrecv with the same-numbered remote rank where it exists. */
    if (rank < rsize) {
        int out = rank + 5, in = -1;
        MPI_Status st;
        MPI_Sendrecv(&out, 1, MPI_INT, rank, 9, &in, 1, MPI_INT, rank, 9, inter, &st);
        CHECK(in == rank + 5 && st.MPI_SOURCE == rank);
    }
    /* Out-of-range ranks: the remote group's size is the bound. */
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    int err = MPI_Send(&v, 1, MPI_INT, rsize, 0, inter), cls = -1;
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_RANK);
    free(seen);
    free(vals);
    free(reqs);
}

static void merge(MPI_Comm inter, int k, int low)
{
    /* high: low group false, other true -> low group first; then reversed; then equal. */
    for (int order = 0; order < 3; order++) {
        int high = order == 0 ? !low : order == 1 ? low : 1;
        MPI_Comm m;
        CHECK(MPI_Intercomm_merge(inter, high, &m) == MPI_SUCCESS);
        int flag = 1, size = -1, rank = -1;
        MPI_Comm_test_inter(m, &flag);
        CHECK(!flag);
        MPI_Comm_size(m, &size);
        MPI_Comm_rank(m, &rank);
        CHECK(size == wsize);
        if (order == 0)
            CHECK(rank == wrank);
        else if (order == 1)
            CHECK(rank == (low ? wsize - k + wrank : wrank - k));
        /* Equal flags: some order, the same at every member: check through a collective. */
        int *all = malloc((size_t)wsize * sizeof(int));
        MPI_Allgather(&wrank, 1, MPI_INT, all, 1, MPI_INT, m);
        CHECK(all[rank] == wrank);
        if (order == 2) {
            int first = all[0] < k; /* a group is contiguous in the merged order */
            for (int i = 0; i < wsize; i++)
                CHECK((all[i] < k) == (first ? i < k : i >= wsize - k));
        }
        free(all);
        MPI_Comm_free(&m);
    }
}

static void dup_split(MPI_Comm inter, int k, int low)
{
    MPI_Comm d, s;
    int result = -1;
    CHECK(MPI_Comm_dup(inter, &d) == MPI_SUCCESS);
    check_shape(d, k, low);
    MPI_Comm_compare(inter, d, &result);
    CHECK(result == MPI_CONGRUENT);
    MPI_Comm_compare(inter, inter, &result);
    CHECK(result == MPI_IDENT);
    MPI_Comm_compare(inter, MPI_COMM_WORLD, &result);
    CHECK(result == MPI_UNEQUAL);
    p2p(d);

    /* Split: colour = local rank % 2, key = -local rank (reverses). Colour 1 exists in a
     * group only if it has 2+ members. */
    int rank, size, rsize;
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_size(inter, &size);
    MPI_Comm_remote_size(inter, &rsize);
    int color = rank % 2;
    CHECK(MPI_Comm_split(d, color, -rank, &s) == MPI_SUCCESS);
    int remote_has = color < rsize; /* colour c present remotely iff rsize > c */
    CHECK((s == MPI_COMM_NULL) == !remote_has);
    if (s != MPI_COMM_NULL) {
        int ns, nr, sr, flag = 0;
        MPI_Comm_test_inter(s, &flag);
        CHECK(flag);
        MPI_Comm_size(s, &ns);
        MPI_Comm_remote_size(s, &nr);
        MPI_Comm_rank(s, &sr);
        int mine = (size - color + 1) / 2, theirs = (rsize - color + 1) / 2;
        CHECK(ns == mine && nr == theirs);
        /* Reversed order: the highest local rank of the colour is rank 0. */
        int top = (size - 1) - ((size - 1 - color) % 2);
        CHECK(sr == (top - rank) / 2);
        p2p(s);
        MPI_Comm_free(&s);
    }
    /* MPI_UNDEFINED everywhere in one group: nobody gets a communicator. */
    CHECK(MPI_Comm_split(d, low ? MPI_UNDEFINED : 0, 0, &s) == MPI_SUCCESS);
    CHECK(s == MPI_COMM_NULL);
    MPI_Comm_free(&d);
    CHECK(d == MPI_COMM_NULL);
}

static int err_class(int err)
{
    int cls = -1;
    MPI_Error_class(err, &cls);
    return cls;
}

/* Bad input, each raised through the communicator's handler with the right class. */
static void bad_input(MPI_Comm local, MPI_Comm inter)
{
    MPI_Comm out = MPI_COMM_WORLD;
    int n = -1;
    MPI_Comm_set_errhandler(local, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(err_class(MPI_Comm_remote_size(local, &n)) == MPI_ERR_COMM);
    CHECK(err_class(MPI_Comm_remote_size(MPI_COMM_NULL, &n)) == MPI_ERR_COMM);
    CHECK(err_class(MPI_Intercomm_merge(local, 0, &out)) == MPI_ERR_COMM);
    CHECK(out == MPI_COMM_NULL);
    CHECK(err_class(MPI_Intercomm_merge(inter, 0, NULL)) == MPI_ERR_ARG);
    /* local_comm must be an intracommunicator; local_leader in range; tag valid. */
    CHECK(err_class(MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD, 0, 1, &out)) == MPI_ERR_COMM);
    CHECK(err_class(MPI_Intercomm_create(local, -1, MPI_COMM_WORLD, 0, 1, &out)) ==
          MPI_ERR_RANK);
    CHECK(err_class(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 0, -5, &out)) ==
          MPI_ERR_TAG);
    CHECK(err_class(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 0, 1, NULL)) == MPI_ERR_ARG);
    /* A bad remote leader (significant at the leader only): the leader gets MPI_ERR_RANK
     * and hands the failure to its group, which does not wait for it. Here each rank is
     * its own group (MPI_COMM_SELF), so nobody waits for a partner. */
    CHECK(err_class(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, wsize, 1, &out)) ==
          MPI_ERR_RANK);
    CHECK(err_class(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, wrank, 1, &out)) ==
          MPI_ERR_RANK);
    /* Pairs of MPI_COMM_SELF: the usual way to connect two single processes. */
    int partner = wrank ^ 1;
    if (partner < wsize) {
        CHECK(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, partner, 2, &out) ==
              MPI_SUCCESS);
        int v = wrank, w = -1;
        MPI_Sendrecv(&v, 1, MPI_INT, 0, 0, &w, 1, MPI_INT, 0, 0, out, MPI_STATUS_IGNORE);
        CHECK(w == partner);
        MPI_Comm m;
        CHECK(MPI_Intercomm_merge(out, wrank > partner, &m) == MPI_SUCCESS);
        int r = -1;
        MPI_Comm_rank(m, &r);
        CHECK(r == (wrank > partner));
        MPI_Comm_free(&m);
        MPI_Comm_free(&out);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize < 2) {
        fprintf(stderr, "inter_basic needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int k = split_point(), low = wrank < k;
    MPI_Comm local, inter, peer, inter2;
    MPI_Comm_split(MPI_COMM_WORLD, low, wrank, &local);

    /* A user message on the peer with the tag Intercomm_create uses, posted before: the
     * leaders' exchange must not take it. The standard leaves this to the user (§7.6.2:
     * the tag must not clash with other traffic on peer_comm), and Open MPI's exchange does
     * take it; mini_mpi's runs on the library's own context. */
    MPI_Request ureq = MPI_REQUEST_NULL;
    int uval = -1, sval = 4242, clash = 0;
#ifdef MINI_MPI
    clash = 1;
#endif
    if (wrank == 0 && clash)
        MPI_Irecv(&uval, 1, MPI_INT, k, 123, MPI_COMM_WORLD, &ureq);
    CHECK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? k : 0, 123, &inter) ==
          MPI_SUCCESS);
    if (wrank == k && clash)
        MPI_Send(&sval, 1, MPI_INT, 0, 123, MPI_COMM_WORLD);
    if (wrank == 0 && clash) {
        MPI_Wait(&ureq, MPI_STATUS_IGNORE);
        CHECK(uval == 4242);
    }
    check_shape(inter, k, low);
    p2p(inter);
    merge(inter, k, low);
    dup_split(inter, k, low);

    /* Other leaders (the last member of each group) over a dup of the world as peer. */
    MPI_Comm_dup(MPI_COMM_WORLD, &peer);
    int lsize;
    MPI_Comm_size(local, &lsize);
    CHECK(MPI_Intercomm_create(local, lsize - 1, peer, low ? wsize - 1 : k - 1, 5, &inter2) ==
          MPI_SUCCESS);
    check_shape(inter2, k, low);
    int result = -1;
    MPI_Comm_compare(inter, inter2, &result);
    CHECK(result == MPI_CONGRUENT);
    p2p(inter2);
    MPI_Comm_free(&inter2);
    bad_input(local, inter);
    MPI_Comm_free(&peer);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    return mtest_finish();
}
