/* group_ops.c: every group call on valid arguments (MPI-4.1 §7.3): the groups of
 * MPI_COMM_WORLD and of split communicators, their sizes and ranks, translation between a
 * communicator's group and the world's, comparison, union/intersection/difference in the order
 * §7.3.2 gives, incl/excl and their range forms (negative strides too), MPI_GROUP_EMPTY, and
 * freeing. Each result is checked member by member against a reference computed here from world
 * ranks. Runs at any number of ranks. */
#include <string.h>

#include "mtest.h"

#define MAXN 256

static MPI_Group world_group;

/* The world ranks of g's members, in g's order; returns the size. */
static int members(MPI_Group g, int *out)
{
    int n = -1, in[MAXN];
    CHECK(MPI_Group_size(g, &n) == MPI_SUCCESS && n >= 0 && n <= MAXN);
    for (int i = 0; i < n; i++)
        in[i] = i;
    CHECK(MPI_Group_translate_ranks(g, n, in, world_group, out) == MPI_SUCCESS);
    return n;
}

/* Checks that g holds exactly the world ranks want[0..n), in that order, and that
 * MPI_Group_rank agrees with where `me` appears. */
static void expect(MPI_Group g, const int *want, int n, int me, int line)
{
    int got[MAXN], m = members(g, got), r = -2, where = MPI_UNDEFINED;
    if (m != n || memcmp(got, want, (size_t)n * sizeof(int))) {
        fprintf(stderr, "group_ops.c:%d: group differs from the reference (%d vs %d members)\n",
                line, m, n);
        mtest_errors++;
    }
    for (int i = 0; i < n; i++)
        if (want[i] == me)
            where = i;
    CHECK(MPI_Group_rank(g, &r) == MPI_SUCCESS && r == where);
}
#define EXPECT(g, want, n) expect(g, want, n, rank, __LINE__)

static int contains(const int *a, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (a[i] == x)
            return 1;
    return 0;
}

/* Reference set operations on world-rank lists (§7.3.2). */
static int ref_union(const int *a, int na, const int *b, int nb, int *out)
{
    int n = 0;
    for (int i = 0; i < na; i++)
        out[n++] = a[i];
    for (int i = 0; i < nb; i++)
        if (!contains(a, na, b[i]))
            out[n++] = b[i];
    return n;
}

static int ref_filter(const int *a, int na, const int *b, int nb, int keep_if_in_b, int *out)
{
    int n = 0;
    for (int i = 0; i < na; i++)
        if (contains(b, nb, a[i]) == keep_if_in_b)
            out[n++] = a[i];
    return n;
}

static int ref_compare(const int *a, int na, const int *b, int nb)
{
    if (na != nb)
        return MPI_UNEQUAL;
    if (!memcmp(a, b, (size_t)na * sizeof(int)))
        return MPI_IDENT;
    for (int i = 0; i < nb; i++)
        if (!contains(a, na, b[i]))
            return MPI_UNEQUAL;
    return MPI_SIMILAR;
}

int main(int argc, char **argv)
{
    int rank, size, n, cmp;
    int parity[MAXN], np = 0, half_desc[MAXN], nh = 0, want[MAXN], out[MAXN], in[MAXN];
    MPI_Comm pcomm, hcomm;
    MPI_Group pg, hg, g, g2, all;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size > MAXN) {
        CHECK(size <= MAXN);
        return mtest_finish();
    }

    /* The world group: world ranks in order; my rank is my world rank. */
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world_group) == MPI_SUCCESS);
    for (int i = 0; i < size; i++)
        want[i] = i;
    EXPECT(world_group, want, size);
    CHECK(MPI_Group_compare(world_group, world_group, &cmp) == MPI_SUCCESS && cmp == MPI_IDENT);
    CHECK(MPI_Comm_group(MPI_COMM_SELF, &g) == MPI_SUCCESS);
    EXPECT(g, &rank, 1);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS && g == MPI_GROUP_NULL);

    /* Groups of split communicators: same parity in world order, and same half of the world
     * in reverse order (key -rank). */
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &pcomm) == MPI_SUCCESS);
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, -rank, &hcomm) == MPI_SUCCESS);
    for (int w = 0; w < size; w++)
        if (w % 2 == rank % 2)
            parity[np++] = w;
    for (int w = size - 1; w >= 0; w--)
        if ((w < size / 2) == (rank < size / 2))
            half_desc[nh++] = w;
    CHECK(MPI_Comm_group(pcomm, &pg) == MPI_SUCCESS);
    CHECK(MPI_Comm_group(hcomm, &hg) == MPI_SUCCESS);
    EXPECT(pg, parity, np);
    EXPECT(hg, half_desc, nh);

    /* Translation between a communicator's group and the world's, both ways, with
     * MPI_PROC_NULL passing through and non-members MPI_UNDEFINED. */
    for (int i = 0; i < np; i++)
        in[i] = i;
    in[np] = MPI_PROC_NULL;
    CHECK(MPI_Group_translate_ranks(pg, np + 1, in, world_group, out) == MPI_SUCCESS);
    for (int i = 0; i < np; i++)
        CHECK(out[i] == parity[i]);
    CHECK(out[np] == MPI_PROC_NULL);
    for (int w = 0; w < size; w++)
        in[w] = w;
    CHECK(MPI_Group_translate_ranks(world_group, size, in, hg, out) == MPI_SUCCESS);
    for (int w = 0; w < size; w++) {
        int where = MPI_UNDEFINED;
        for (int i = 0; i < nh; i++)
            if (half_desc[i] == w)
                where = i;
        CHECK(out[w] == where);
    }
    CHECK(MPI_Group_translate_ranks(pg, 0, NULL, hg, NULL) == MPI_SUCCESS);

    /* Set operations, each order (§7.3.2). */
    CHECK(MPI_Group_union(pg, hg, &g) == MPI_SUCCESS);
    n = ref_union(parity, np, half_desc, nh, want);
    EXPECT(g, want, n);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
    CHECK(MPI_Group_union(hg, pg, &g) == MPI_SUCCESS);
    n = ref_union(half_desc, nh, parity, np, want);
    EXPECT(g, want, n);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
    CHECK(MPI_Group_intersection(pg, hg, &g) == MPI_SUCCESS);
    n = ref_filter(parity, np, half_desc, nh, 1, want);
    EXPECT(g, want, n);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
    CHECK(MPI_Group_intersection(hg, pg, &g) == MPI_SUCCESS);
    n = ref_filter(half_desc, nh, parity, np, 1, want);
    EXPECT(g, want, n);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
    CHECK(MPI_Group_difference(pg, hg, &g) == MPI_SUCCESS);
    n = ref_filter(parity, np, half_desc, nh, 0, want);
    EXPECT(g, want, n);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
    CHECK(MPI_Group_difference(hg, pg, &g) == MPI_SUCCESS);
    n = ref_filter(half_desc, nh, parity, np, 0, want);
    EXPECT(g, want, n);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
    CHECK(MPI_Group_compare(pg, hg, &cmp) == MPI_SUCCESS &&
          cmp == ref_compare(parity, np, half_desc, nh));

    /* The union of the two parity groups is the world (evens first); it is similar to the
     * world unless it has the same order. */
    CHECK(MPI_Group_difference(world_group, pg, &g2) == MPI_SUCCESS);
    CHECK(MPI_Group_union(pg, g2, &all) == MPI_SUCCESS);
    n = 0;
    for (int i = 0; i < np; i++)
        want[n++] = parity[i];
    for (int w = 0; w < size; w++)
        if (w % 2 != rank % 2)
            want[n++] = w;
    EXPECT(all, want, n);
    for (int w = 0; w < size; w++)
        in[w] = w;
    CHECK(MPI_Group_compare(all, world_group, &cmp) == MPI_SUCCESS &&
          cmp == ref_compare(want, n, in, size));
    CHECK(size < 3 || cmp == MPI_SIMILAR);
    CHECK(MPI_Group_free(&all) == MPI_SUCCESS);
    CHECK(MPI_Group_free(&g2) == MPI_SUCCESS);

    /* A group outlives its communicator (§7.3.2). */
    CHECK(MPI_Comm_free(&pcomm) == MPI_SUCCESS);
    EXPECT(pg, parity, np);

    /* incl: the world reversed; excl: the even world ranks removed. */
    for (int i = 0; i < size; i++)
        in[i] = size - 1 - i;
    CHECK(MPI_Group_incl(world_group, size, in, &g) == MPI_SUCCESS);
    EXPECT(g, in, size);
    CHECK(MPI_Group_compare(g, world_group, &cmp) == MPI_SUCCESS &&
          cmp == (size == 1 ? MPI_IDENT : MPI_SIMILAR));
    /* incl of a reordered group composes: rank i of g is world rank size-1-i. */
    for (int i = 0; i < size; i++)
        out[i] = i;
    CHECK(MPI_Group_incl(g, size, out, &g2) == MPI_SUCCESS);
    EXPECT(g2, in, size);
    CHECK(MPI_Group_free(&g2) == MPI_SUCCESS);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
    n = 0;
    for (int w = 0; w < size; w += 2)
        in[n++] = w;
    CHECK(MPI_Group_excl(world_group, n, in, &g) == MPI_SUCCESS);
    n = 0;
    for (int w = 1; w < size; w += 2)
        want[n++] = w;
    EXPECT(g, want, n);
    CHECK(n > 0 || g == MPI_GROUP_EMPTY);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS && g == MPI_GROUP_NULL);
    /* excl of nobody: the same members, a new handle. */
    CHECK(MPI_Group_excl(hg, 0, NULL, &g) == MPI_SUCCESS);
    EXPECT(g, half_desc, nh);
    CHECK(MPI_Group_compare(g, hg, &cmp) == MPI_SUCCESS && cmp == MPI_IDENT);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS);

    /* Range forms: the odd ranks downward (negative stride), then every sixth rank upward
     * (even, so disjoint from the first triplet). */
    {
        int ranges[2][3], nr = 0;
        n = 0;
        if (size > 1) {
            int top = (size - 1) % 2 ? size - 1 : size - 2;
            ranges[nr][0] = top, ranges[nr][1] = 0, ranges[nr][2] = -2, nr++;
            for (int w = top; w >= 0; w -= 2)
                want[n++] = w;
        }
        ranges[nr][0] = 0, ranges[nr][1] = size - 1, ranges[nr][2] = 6, nr++;
        for (int w = 0; w <= size - 1; w += 6)
            want[n++] = w;
        CHECK(MPI_Group_range_incl(world_group, nr, ranges, &g) == MPI_SUCCESS);
        EXPECT(g, want, n);
        CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
        /* range_excl keeps the others, in world order. */
        CHECK(MPI_Group_range_excl(world_group, nr, ranges, &g) == MPI_SUCCESS);
        int m = 0;
        for (int w = 0; w < size; w++)
            if (!contains(want, n, w))
                out[m++] = w;
        EXPECT(g, out, m);
        CHECK(m > 0 || g == MPI_GROUP_EMPTY);
        CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
        /* A triplet whose last is not reached exactly: (0, size-1, size) is rank 0 alone. */
        int one[1][3] = {{0, size - 1, size}};
        CHECK(MPI_Group_range_incl(world_group, 1, one, &g) == MPI_SUCCESS);
        want[0] = 0;
        EXPECT(g, want, 1);
        CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
        /* Ranges of a reordered group name its ranks, not world ranks. */
        int firsttwo[1][3] = {{0, nh > 1 ? 1 : 0, 1}};
        CHECK(MPI_Group_range_incl(hg, 1, firsttwo, &g) == MPI_SUCCESS);
        EXPECT(g, half_desc, nh > 1 ? 2 : 1);
        CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
    }

    /* MPI_GROUP_EMPTY: what every empty result is, usable everywhere, freeable. */
    CHECK(MPI_Group_incl(world_group, 0, NULL, &g) == MPI_SUCCESS && g == MPI_GROUP_EMPTY);
    for (int w = 0; w < size; w++)
        in[w] = size - 1 - w;
    CHECK(MPI_Group_excl(world_group, size, in, &g) == MPI_SUCCESS && g == MPI_GROUP_EMPTY);
    CHECK(MPI_Group_range_incl(world_group, 0, NULL, &g) == MPI_SUCCESS && g == MPI_GROUP_EMPTY);
    CHECK(MPI_Group_difference(pg, pg, &g) == MPI_SUCCESS && g == MPI_GROUP_EMPTY);
    CHECK(MPI_Group_size(MPI_GROUP_EMPTY, &n) == MPI_SUCCESS && n == 0);
    CHECK(MPI_Group_rank(MPI_GROUP_EMPTY, &n) == MPI_SUCCESS && n == MPI_UNDEFINED);
    CHECK(MPI_Group_compare(MPI_GROUP_EMPTY, g, &cmp) == MPI_SUCCESS && cmp == MPI_IDENT);
    CHECK(MPI_Group_compare(MPI_GROUP_EMPTY, pg, &cmp) == MPI_SUCCESS && cmp == MPI_UNEQUAL);
    CHECK(MPI_Group_union(MPI_GROUP_EMPTY, hg, &g2) == MPI_SUCCESS);
    EXPECT(g2, half_desc, nh);
    CHECK(MPI_Group_free(&g2) == MPI_SUCCESS);
    CHECK(MPI_Group_intersection(hg, MPI_GROUP_EMPTY, &g2) == MPI_SUCCESS &&
          g2 == MPI_GROUP_EMPTY);
    CHECK(MPI_Group_translate_ranks(hg, 1, (int[]){0}, MPI_GROUP_EMPTY, out) == MPI_SUCCESS &&
          out[0] == MPI_UNDEFINED);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS && g == MPI_GROUP_NULL);

    /* Many groups at once, then all freed: handles are reused, nothing leaks. */
    {
        MPI_Group many[100];
        for (int i = 0; i < 100; i++)
            CHECK(MPI_Group_union(pg, hg, &many[i]) == MPI_SUCCESS);
        for (int i = 0; i < 100; i++)
            CHECK(MPI_Group_compare(many[i], many[99 - i], &cmp) == MPI_SUCCESS &&
                  cmp == MPI_IDENT);
        for (int i = 0; i < 100; i++)
            CHECK(MPI_Group_free(&many[i]) == MPI_SUCCESS);
    }

    CHECK(MPI_Group_free(&pg) == MPI_SUCCESS);
    CHECK(MPI_Group_free(&hg) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&hcomm) == MPI_SUCCESS);
    CHECK(MPI_Group_free(&world_group) == MPI_SUCCESS);
    return mtest_finish();
}
