/* group_errors.c: bad arguments to the group calls return the error classes MPICH returns
 * (MPI-4.1 §7.3; MPI_ERR_GROUP for bad handles, MPI_ERR_RANK for bad rank lists, MPI_ERR_ARG for
 * bad counts and range triplets, MPI_ERR_COMM for communicators), leave the output handle
 * MPI_GROUP_NULL, and go through MPI_COMM_WORLD's error handler, since a group has none. */
#include "mtest.h"

static int handler_calls, handler_code;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_code = *code;
}

/* The error class of a call's result. */
static int cls(int err)
{
    int c = -1;
    MPI_Error_class(err, &c);
    return c;
}

int main(int argc, char **argv)
{
    int rank, size, n, cmp, out[4];
    MPI_Group world, g, freed, bad;
    MPI_Errhandler eh;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS);

    /* Invalid group handles: null, freed, garbage, another kind. */
    CHECK(MPI_Group_incl(world, 1, (int[]){0}, &g) == MPI_SUCCESS);
    freed = g;
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
    MPI_Group invalid[] = {MPI_GROUP_NULL, freed, 12345, (MPI_Group)MPI_COMM_WORLD};
    for (int i = 0; i < 4; i++) {
        bad = invalid[i];
        CHECK(cls(MPI_Group_size(bad, &n)) == MPI_ERR_GROUP);
        CHECK(cls(MPI_Group_rank(bad, &n)) == MPI_ERR_GROUP);
        CHECK(cls(MPI_Group_compare(bad, world, &cmp)) == MPI_ERR_GROUP);
        CHECK(cls(MPI_Group_compare(world, bad, &cmp)) == MPI_ERR_GROUP);
        CHECK(cls(MPI_Group_translate_ranks(bad, 1, (int[]){0}, world, out)) == MPI_ERR_GROUP);
        CHECK(cls(MPI_Group_translate_ranks(world, 1, (int[]){0}, bad, out)) == MPI_ERR_GROUP);
        g = world;
        CHECK(cls(MPI_Group_union(world, bad, &g)) == MPI_ERR_GROUP && g == MPI_GROUP_NULL);
        CHECK(cls(MPI_Group_intersection(bad, world, &g)) == MPI_ERR_GROUP);
        CHECK(cls(MPI_Group_difference(bad, bad, &g)) == MPI_ERR_GROUP);
        CHECK(cls(MPI_Group_incl(bad, 0, NULL, &g)) == MPI_ERR_GROUP);
        CHECK(cls(MPI_Group_excl(bad, 0, NULL, &g)) == MPI_ERR_GROUP);
        CHECK(cls(MPI_Group_range_incl(bad, 0, NULL, &g)) == MPI_ERR_GROUP);
        CHECK(cls(MPI_Group_range_excl(bad, 0, NULL, &g)) == MPI_ERR_GROUP);
        CHECK(cls(MPI_Group_free(&bad)) == MPI_ERR_GROUP);
    }
    /* Freeing twice: the second sees MPI_GROUP_NULL. */
    CHECK(MPI_Group_union(world, world, &g) == MPI_SUCCESS);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS && g == MPI_GROUP_NULL);
    CHECK(cls(MPI_Group_free(&g)) == MPI_ERR_GROUP);
    CHECK(cls(MPI_Group_free(NULL)) == MPI_ERR_ARG);

    /* Output pointers. */
    CHECK(cls(MPI_Group_size(world, NULL)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Group_rank(world, NULL)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Group_compare(world, world, NULL)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Group_union(world, world, NULL)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Comm_group(MPI_COMM_WORLD, NULL)) == MPI_ERR_ARG);

    /* Rank lists of incl/excl: out of range, negative, repeated -> MPI_ERR_RANK;
     * n < 0 -> MPI_ERR_ARG. */
    int too_big[] = {size}, negative[] = {-1}, twice[] = {0, 0};
    g = world;
    CHECK(cls(MPI_Group_incl(world, 1, too_big, &g)) == MPI_ERR_RANK && g == MPI_GROUP_NULL);
    CHECK(cls(MPI_Group_incl(world, 1, negative, &g)) == MPI_ERR_RANK);
    CHECK(cls(MPI_Group_incl(world, 2, twice, &g)) == MPI_ERR_RANK);
    CHECK(cls(MPI_Group_incl(world, -1, twice, &g)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Group_incl(world, 1, NULL, &g)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Group_excl(world, 1, too_big, &g)) == MPI_ERR_RANK);
    CHECK(cls(MPI_Group_excl(world, 1, negative, &g)) == MPI_ERR_RANK);
    CHECK(cls(MPI_Group_excl(world, 2, twice, &g)) == MPI_ERR_RANK);
    CHECK(cls(MPI_Group_excl(world, -3, twice, &g)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Group_incl(MPI_GROUP_EMPTY, 1, (int[]){0}, &g)) == MPI_ERR_RANK);

    /* translate_ranks: out of range -> MPI_ERR_RANK (MPI_PROC_NULL is fine); n < 0 ->
     * MPI_ERR_ARG. */
    CHECK(cls(MPI_Group_translate_ranks(world, 1, too_big, world, out)) == MPI_ERR_RANK);
    CHECK(cls(MPI_Group_translate_ranks(world, 1, negative, world, out)) == MPI_SUCCESS &&
          out[0] == MPI_PROC_NULL); /* -1 is MPI_PROC_NULL */
    CHECK(cls(MPI_Group_translate_ranks(world, 1, (int[]){-5}, world, out)) == MPI_ERR_RANK);
    CHECK(cls(MPI_Group_translate_ranks(world, -1, too_big, world, out)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Group_translate_ranks(world, 1, NULL, world, out)) == MPI_ERR_ARG);

    /* Range triplets: every defect is MPI_ERR_ARG, as in MPICH. */
    int stride0[1][3] = {{0, 0, 0}}, first_out[1][3] = {{size, size, 1}},
        first_neg[1][3] = {{-1, 0, 1}}, last_out[1][3] = {{0, size, 1}},
        last_neg[1][3] = {{0, -1, -1}}, away_up[1][3] = {{size - 1, 0, 1}},
        overlap[2][3] = {{0, size - 1, 1}, {size - 1, size - 1, 1}};
    int (*bad_ranges[])[3] = {stride0, first_out, first_neg, last_out, last_neg, overlap};
    int nbad[] = {1, 1, 1, 1, 1, 2};
    for (int i = 0; i < 6; i++) {
        g = world;
        CHECK(cls(MPI_Group_range_incl(world, nbad[i], bad_ranges[i], &g)) == MPI_ERR_ARG &&
              g == MPI_GROUP_NULL);
        CHECK(cls(MPI_Group_range_excl(world, nbad[i], bad_ranges[i], &g)) == MPI_ERR_ARG);
    }
    if (size > 1) {
        int away_down[1][3] = {{0, size - 1, -1}};
        CHECK(cls(MPI_Group_range_incl(world, 1, away_up, &g)) == MPI_ERR_ARG);
        CHECK(cls(MPI_Group_range_incl(world, 1, away_down, &g)) == MPI_ERR_ARG);
    }
    CHECK(cls(MPI_Group_range_incl(world, -1, stride0, &g)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Group_range_excl(world, 1, NULL, &g)) == MPI_ERR_ARG);

    /* Communicator arguments. */
    g = world;
    CHECK(cls(MPI_Comm_group(MPI_COMM_NULL, &g)) == MPI_ERR_COMM && g == MPI_GROUP_NULL);
    CHECK(cls(MPI_Comm_group((MPI_Comm)MPI_GROUP_EMPTY, &g)) == MPI_ERR_COMM);
    g = world;
    CHECK(cls(MPI_Comm_remote_group(MPI_COMM_WORLD, &g)) == MPI_ERR_COMM &&
          g == MPI_GROUP_NULL); /* an intracommunicator has no remote group */
    CHECK(cls(MPI_Comm_remote_group(MPI_COMM_NULL, &g)) == MPI_ERR_COMM);

    /* Group errors reach MPI_COMM_WORLD's handler; communicator errors the communicator's. */
    CHECK(MPI_Comm_create_errhandler(count_errors, &eh) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh) == MPI_SUCCESS);
    CHECK(cls(MPI_Group_size(MPI_GROUP_NULL, &n)) == MPI_ERR_GROUP);
    CHECK(handler_calls == 1 && cls(handler_code) == MPI_ERR_GROUP);
    CHECK(cls(MPI_Group_incl(world, 1, too_big, &g)) == MPI_ERR_RANK);
    CHECK(handler_calls == 2 && cls(handler_code) == MPI_ERR_RANK);
    CHECK(cls(MPI_Comm_remote_group(MPI_COMM_WORLD, &g)) == MPI_ERR_COMM);
    CHECK(handler_calls == 3 && cls(handler_code) == MPI_ERR_COMM);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    CHECK(MPI_Errhandler_free(&eh) == MPI_SUCCESS);

    /* Nothing above disturbed the good handles. */
    CHECK(MPI_Group_size(world, &n) == MPI_SUCCESS && n == size);
    CHECK(MPI_Group_free(&world) == MPI_SUCCESS);
    return mtest_finish();
}
