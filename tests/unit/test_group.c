/*
 * test_group.c: unit tests of the group subsystem (mini_mpi/group/). The set and selection
 * functions are pure, so they are tested directly on groups built here; handles, the calling
 * rank's table, MPI_GROUP_EMPTY and the reference count shared between ranks are tested inside a
 * world of ranks.
 *
 * Rank bodies run in rank threads, where cmocka's assertions must not run: they record what
 * they see in per-rank slots, and the test thread asserts afterwards.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "group/group.h"
#include "unit_world.h"

/* A group of the given world ranks (copied). */
static struct mmpi_group *make(int n, const int *world_ranks)
{
    int *ranks = mmpi_xmalloc(((size_t)n + 1) * sizeof(int));
    memcpy(ranks, world_ranks, (size_t)n * sizeof(int));
    return mmpi_group_new(n, ranks);
}

static void assert_members(const struct mmpi_group *g, int n, const int *want)
{
    assert_int_equal(g->size, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(g->world_ranks[i], want[i]);
}

static void set_operations_keep_standard_order(void **state)
{
    /* a = {5, 1, 3, 7}, b = {3, 9, 5, 0}: union a then b\a in b's order (§7.3.2), the others
     * in a's order. */
    struct mmpi_group *a = make(4, (int[]){5, 1, 3, 7}), *b = make(4, (int[]){3, 9, 5, 0});
    struct mmpi_group *u = mmpi_group_union(a, b), *i = mmpi_group_intersection(a, b),
                      *d = mmpi_group_difference(a, b), *bi = mmpi_group_intersection(b, a),
                      *bd = mmpi_group_difference(b, a), *bu = mmpi_group_union(b, a);
    assert_members(u, 6, (int[]){5, 1, 3, 7, 9, 0});
    assert_members(i, 2, (int[]){5, 3});
    assert_members(d, 2, (int[]){1, 7});
    assert_members(bi, 2, (int[]){3, 5});
    assert_members(bd, 2, (int[]){9, 0});
    assert_members(bu, 6, (int[]){3, 9, 5, 0, 1, 7});

    struct mmpi_group *e = mmpi_group_difference(a, a), *ee = mmpi_group_union(e, e);
    assert_int_equal(e->size, 0);
    assert_int_equal(ee->size, 0);
    struct mmpi_group *ae = mmpi_group_union(&mmpi_group_empty, a);
    assert_members(ae, 4, a->world_ranks);

    struct mmpi_group *all[] = {a, b, u, i, d, bi, bd, bu, e, ee, ae};
    for (unsigned k = 0; k < sizeof(all) / sizeof(all[0]); k++)
        mmpi_group_release(all[k]);
}

static void compare_and_translate(void **state)
{
    struct mmpi_group *a = make(3, (int[]){4, 0, 2}), *same = make(3, (int[]){4, 0, 2}),
                      *perm = make(3, (int[]){0, 2, 4}), *other = make(3, (int[]){0, 2, 5}),
                      *small = make(2, (int[]){4, 0});
    assert_int_equal(mmpi_group_compare(a, a), MPI_IDENT);
    assert_int_equal(mmpi_group_compare(a, same), MPI_IDENT);
    assert_int_equal(mmpi_group_compare(a, perm), MPI_SIMILAR);
    assert_int_equal(mmpi_group_compare(a, other), MPI_UNEQUAL);
    assert_int_equal(mmpi_group_compare(a, small), MPI_UNEQUAL);
    assert_int_equal(mmpi_group_compare(&mmpi_group_empty, &mmpi_group_empty), MPI_IDENT);
    assert_int_equal(mmpi_group_compare(&mmpi_group_empty, a), MPI_UNEQUAL);

    int in[] = {0, 1, 2, MPI_PROC_NULL}, out[4];
    mmpi_group_translate_ranks(a, 4, in, other, out);
    assert_int_equal(out[0], MPI_UNDEFINED); /* world 4 is not in other */
    assert_int_equal(out[1], 0);
    assert_int_equal(out[2], 1);
    assert_int_equal(out[3], MPI_PROC_NULL);
    mmpi_group_translate_ranks(a, 3, in, &mmpi_group_empty, out);
    assert_int_equal(out[0], MPI_UNDEFINED);
    assert_int_equal(mmpi_group_rank_of_world(a, 2), 2);
    assert_int_equal(mmpi_group_rank_of_world(a, 3), MPI_UNDEFINED);

    struct mmpi_group *all[] = {a, same, perm, other, small};
    for (unsigned k = 0; k < 5; k++)
        mmpi_group_release(all[k]);
}

static void rank_lists(void **state)
{
    struct mmpi_group *g = make(5, (int[]){10, 11, 12, 13, 14});
    assert_int_equal(mmpi_group_check_ranks(g, 3, (int[]){4, 0, 2}), MPI_SUCCESS);
    assert_int_equal(mmpi_group_check_ranks(g, 0, NULL), MPI_SUCCESS);
    assert_int_equal(mmpi_group_check_ranks(g, 1, (int[]){5}), MPI_ERR_RANK);
    assert_int_equal(mmpi_group_check_ranks(g, 1, (int[]){-1}), MPI_ERR_RANK);
    assert_int_equal(mmpi_group_check_ranks(g, 3, (int[]){1, 2, 1}), MPI_ERR_RANK);
    assert_int_equal(mmpi_group_check_ranks(g, -1, (int[]){0}), MPI_ERR_ARG);
    assert_int_equal(mmpi_group_check_ranks(g, 2, NULL), MPI_ERR_ARG);

    struct mmpi_group *in = mmpi_group_incl(g, 3, (int[]){4, 0, 2});
    struct mmpi_group *ex = mmpi_group_excl(g, 3, (int[]){4, 0, 2});
    struct mmpi_group *none = mmpi_group_incl(g, 0, NULL);
    assert_members(in, 3, (int[]){14, 10, 12});
    assert_members(ex, 2, (int[]){11, 13});
    assert_int_equal(none->size, 0);
    mmpi_group_release(in);
    mmpi_group_release(ex);
    mmpi_group_release(none);
    mmpi_group_release(g);
}

static void range_triplets(void **state)
{
    struct mmpi_group *g = make(8, (int[]){0, 10, 20, 30, 40, 50, 60, 70});
    /* Ranks computed twice across triplets: {0,2,4} and {7,4,1}. */
    int overlap[2][3] = {{0, 4, 2}, {7, 1, -3}};
    assert_int_equal(mmpi_group_check_ranges(g, 2, overlap), MPI_ERR_ARG);
    assert_int_equal(mmpi_group_check_ranges(g, 1, overlap), MPI_SUCCESS);

    /* Valid: upward, downward with last not reached exactly, a single rank. */
    int ok2[3][3] = {{0, 4, 2}, {7, 0, -6}, {5, 5, 1}}; /* {0,2,4} {7,1} {5} */
    assert_int_equal(mmpi_group_check_ranges(g, 3, ok2), MPI_SUCCESS);
    struct mmpi_group *in = mmpi_group_range_incl(g, 3, ok2);
    struct mmpi_group *ex = mmpi_group_range_excl(g, 3, ok2);
    assert_members(in, 6, (int[]){0, 20, 40, 70, 10, 50});
    assert_members(ex, 2, (int[]){30, 60});
    mmpi_group_release(in);
    mmpi_group_release(ex);

    /* Each defect MPICH reports, as MPI_ERR_ARG. */
    int bad[][3] = {
        {8, 8, 1},    /* first beyond the group */
        {-1, 2, 1},   /* first negative */
        {0, 3, 0},    /* stride 0 */
        {0, 8, 1},    /* last beyond the group */
        {6, 9, 2},    /* computed rank 8 beyond the group */
        {2, -1, -1},  /* last negative */
        {5, 1, 1},    /* stride away from last */
        {1, 5, -1},   /* stride away from last */
        {0, 2147483647, 2147483647}, /* computes 0 and 2^31-1: no overflow on the way */
    };
    for (unsigned k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
        assert_int_equal(mmpi_group_check_ranges(g, 1, &bad[k]), MPI_ERR_ARG);
    int huge[1][3] = {{7, 0, -2147483647}}; /* only rank 7 */
    assert_int_equal(mmpi_group_check_ranges(g, 1, huge), MPI_SUCCESS);
    in = mmpi_group_range_incl(g, 1, huge);
    assert_members(in, 1, (int[]){70});
    mmpi_group_release(in);
    assert_int_equal(mmpi_group_check_ranges(g, -1, ok2), MPI_ERR_ARG);
    assert_int_equal(mmpi_group_check_ranges(g, 1, NULL), MPI_ERR_ARG);
    assert_int_equal(mmpi_group_check_ranges(g, 0, NULL), MPI_SUCCESS);
    mmpi_group_release(g);
}

/* ---- Inside a world ----------------------------------------------------------------------- */

#define NR 4
static int seen_ok[NR];
static struct mmpi_group *shared_group;

/* Handles: the empty group, registration, lookup, removal; all through the calling rank. */
static void handles_body(int rank, int size, void *arg)
{
    struct mmpi_rank *self = mmpi_self;
    int ok = 1;
    ok &= mmpi_group_get(self, MPI_GROUP_EMPTY) == &mmpi_group_empty;
    ok &= mmpi_group_get(self, MPI_GROUP_NULL) == NULL;
    ok &= mmpi_group_get(self, MPI_COMM_WORLD) == NULL;
    ok &= mmpi_group_handle_new(self, mmpi_group_new(0, NULL)) == MPI_GROUP_EMPTY;

    /* A group of the others, in reverse world order. */
    int *ranks = mmpi_xmalloc(sizeof(int) * (size_t)size), n = 0;
    for (int w = size - 1; w >= 0; w--)
        if (w != rank)
            ranks[n++] = w;
    struct mmpi_group *g = mmpi_group_new(n, ranks);
    MPI_Group h = mmpi_group_handle_new(self, g);
    ok &= h != MPI_GROUP_NULL && h != MPI_GROUP_EMPTY && mmpi_group_get(self, h) == g;
    int r = -5, sz = -5;
    ok &= MPI_Group_rank(h, &r) == MPI_SUCCESS && r == MPI_UNDEFINED;
    ok &= MPI_Group_size(h, &sz) == MPI_SUCCESS && sz == size - 1;

    /* The world group through the API equals the core's ranks. */
    MPI_Group wh;
    ok &= MPI_Comm_group(MPI_COMM_WORLD, &wh) == MPI_SUCCESS;
    struct mmpi_group *wg = mmpi_group_get(self, wh);
    ok &= wg && wg->size == size && mmpi_group_rank_of_world(wg, rank) == rank;
    ok &= MPI_Group_rank(wh, &r) == MPI_SUCCESS && r == rank;

    /* Freeing removes the handle from the table; MPI_GROUP_EMPTY only nulls the handle. */
    ok &= MPI_Group_free(&h) == MPI_SUCCESS && h == MPI_GROUP_NULL;
    ok &= MPI_Group_free(&wh) == MPI_SUCCESS;
    ok &= mmpi_group_handle_remove(self, wh) == NULL;
    MPI_Group e = MPI_GROUP_EMPTY;
    ok &= MPI_Group_free(&e) == MPI_SUCCESS && e == MPI_GROUP_NULL;
    seen_ok[rank] = ok;
}

static void handles_in_ranks(void **state)
{
    memset(seen_ok, 0, sizeof(seen_ok));
    assert_int_equal(unit_world_run(NR, handles_body, NULL), 0);
    for (int i = 0; i < NR; i++)
        assert_int_equal(seen_ok[i], 1);
}

/* Every rank takes and drops references to one group at once, and registers its own handle
 * to it: the count must come back to where it started. */
static void sharing_body(int rank, int size, void *arg)
{
    struct mmpi_rank *self = mmpi_self;
    int ok = 1;
    for (int i = 0; i < 10000; i++) {
        mmpi_group_retain(shared_group);
        mmpi_group_retain(&mmpi_group_empty);
        mmpi_group_release(shared_group);
        mmpi_group_release(&mmpi_group_empty);
    }
    mmpi_group_retain(shared_group);
    MPI_Group h = mmpi_group_handle_new(self, shared_group);
    int cmp = -1;
    ok &= MPI_Group_compare(h, h, &cmp) == MPI_SUCCESS && cmp == MPI_IDENT;
    ok &= MPI_Group_free(&h) == MPI_SUCCESS;
    seen_ok[rank] = ok;
}

static void reference_count_shared_by_ranks(void **state)
{
    memset(seen_ok, 0, sizeof(seen_ok));
    shared_group = make(3, (int[]){0, 1, 2});
    assert_int_equal(unit_world_run(NR, sharing_body, NULL), 0);
    for (int i = 0; i < NR; i++)
        assert_int_equal(seen_ok[i], 1);
    assert_int_equal(shared_group->refcount, 1);
    assert_int_equal(mmpi_group_empty.refcount, 1);
    mmpi_group_release(shared_group);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(set_operations_keep_standard_order),
        cmocka_unit_test(compare_and_translate),
        cmocka_unit_test(rank_lists),
        cmocka_unit_test(range_triplets),
        cmocka_unit_test(handles_in_ranks),
        cmocka_unit_test(reference_count_shared_by_ranks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
