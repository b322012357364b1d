/* comm_create_group.c: MPI_Comm_create (collective over the parent; one group for all, or
 * disjoint groups, MPI-4.1 §7.4.2; MPI_COMM_NULL outside) and MPI_Comm_create_group
 * (collective over the group only, matched by tag), chains of constructors (split of a dup of
 * a create_group of a create ...), error handler inheritance through every constructor,
 * MPI_Comm_disconnect with communication still pending, and the bad-input classes. */
#include <stdlib.h>

#include "mtest.h"

static int cls(int err)
{
    int c = err;
    MPI_Error_class(err, &c);
    return c;
}

static int handler_calls;
static void handler(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
}

/* comm has `size` members, I am `rank`, and it works (an allreduce of ranks). */
static void check_comm(MPI_Comm comm, int size, int rank)
{
    int s = -1, r = -1, sum = -1;
    CHECK(comm != MPI_COMM_NULL);
    if (comm == MPI_COMM_NULL)
        return;
    CHECK(MPI_Comm_size(comm, &s) == MPI_SUCCESS && s == size);
    CHECK(MPI_Comm_rank(comm, &r) == MPI_SUCCESS && r == rank);
    CHECK(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS &&
          sum == size * (size - 1) / 2);
}

int main(int argc, char **argv)
{
    int rank, size, nevens;
    MPI_Group world, evens, odds, mine, rev;
    MPI_Comm c, c2, c3, c4;
    MPI_Errhandler eh, got;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int range_e[1][3] = {{0, size - 1, 2}};
    MPI_Group_range_incl(world, 1, range_e, &evens);
    MPI_Group_difference(world, evens, &odds);
    nevens = (size + 1) / 2;
    mine = rank % 2 ? odds : evens;

    /* Comm_create, one group: members get it in group order, the others MPI_COMM_NULL. */
    CHECK(MPI_Comm_create(MPI_COMM_WORLD, evens, &c) == MPI_SUCCESS);
    if (rank % 2 == 0)
        check_comm(c, nevens, rank / 2);
    else
        CHECK(c == MPI_COMM_NULL);
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    /* Disjoint groups (MPI-2.2): two communicators in one call. */
    CHECK(MPI_Comm_create(MPI_COMM_WORLD, mine, &c) == MPI_SUCCESS);
    check_comm(c, rank % 2 ? size / 2 : nevens, rank / 2);
    MPI_Comm_free(&c);
    /* A reordered group: ranks follow the group's order. */
    int *order = malloc(sizeof(int) * size);
    for (int i = 0; i < size; i++)
        order[i] = size - 1 - i;
    MPI_Group_incl(world, size, order, &rev);
    CHECK(MPI_Comm_create(MPI_COMM_WORLD, rev, &c) == MPI_SUCCESS);
    check_comm(c, size, size - 1 - rank);
    MPI_Comm_free(&c);
    /* The empty group. */
    CHECK(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c) == MPI_SUCCESS &&
          c == MPI_COMM_NULL);

    /* Comm_create_group: only members call; the others run their own collective meanwhile,
     * and two calls with different tags on the same group stay apart. */
    if (rank % 2 == 0) {
        CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 7, &c) == MPI_SUCCESS);
        check_comm(c, nevens, rank / 2);
        CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 8, &c2) == MPI_SUCCESS);
        check_comm(c2, nevens, rank / 2);
        MPI_Comm_free(&c2);
    } else {
        CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, odds, 7, &c) == MPI_SUCCESS);
        check_comm(c, size / 2, rank / 2);
    }
    MPI_Comm_free(&c);
    /* Repeated calls with one tag and group match in order. */
    for (int i = 0; i < 5; i++) {
        CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, rev, 3, &c) == MPI_SUCCESS);
        check_comm(c, size, size - 1 - rank);
        MPI_Comm_free(&c);
    }
    /* A process outside the group gets MPI_COMM_NULL without waiting. */
    CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, rank % 2 ? evens : odds, 9, &c) == MPI_SUCCESS);
    CHECK(c == MPI_COMM_NULL);

    /* A chain: split of a dup of a create_group of a create of a split_type, with a user
     * error handler set at the start and inherited all along (§9.3.1). */
    CHECK(MPI_Comm_create_errhandler(handler, &eh) == MPI_SUCCESS);
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL, &c) ==
          MPI_SUCCESS);
    check_comm(c, size, size - 1 - rank);
    CHECK(MPI_Comm_set_errhandler(c, eh) == MPI_SUCCESS);
    MPI_Group cg;
    MPI_Comm_group(c, &cg);
    CHECK(MPI_Comm_create(c, cg, &c2) == MPI_SUCCESS);
    check_comm(c2, size, size - 1 - rank);
    CHECK(MPI_Comm_create_group(c2, cg, 1, &c3) == MPI_SUCCESS);
    check_comm(c3, size, size - 1 - rank);
    CHECK(MPI_Comm_dup(c3, &c4) == MPI_SUCCESS);
    MPI_Comm chain[4] = {c, c2, c3, c4};
    for (int i = 0; i < 4; i++) {
        CHECK(MPI_Comm_get_errhandler(chain[i], &got) == MPI_SUCCESS);
#ifdef MINI_MPI /* (Debian's MPICH 4.0 does not pass it on through create and create_group) */
        CHECK(got == eh);
#endif
        MPI_Errhandler_free(&got);
    }
    MPI_Comm c5, c6;
    MPI_Request req;
    CHECK(MPI_Comm_split(c4, 0, rank, &c5) == MPI_SUCCESS);
    check_comm(c5, size, rank);
    CHECK(MPI_Comm_idup(c5, &c6, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    check_comm(c6, size, rank);
#ifdef MINI_MPI
    CHECK(MPI_Comm_get_errhandler(c6, &got) == MPI_SUCCESS && got == eh);
    MPI_Errhandler_free(&got);
    handler_calls = 0;
    MPI_Comm_size(c5, NULL); /* raised on c5: the inherited user handler runs */
    CHECK(handler_calls == 1);
#endif
    MPI_Comm_free(&c6);
    MPI_Comm_free(&c5);
    for (int i = 3; i >= 0; i--)
        CHECK(MPI_Comm_free(&chain[i]) == MPI_SUCCESS);
    MPI_Group_free(&cg);
    MPI_Errhandler_free(&eh);

    /* Disconnect with a ring exchange still in flight: the requests stay completable. */
    MPI_Comm dc;
    MPI_Request rq[2];
    int in = -1, out = rank;
    MPI_Comm_dup(MPI_COMM_WORLD, &dc);
    MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, dc, &rq[0]);
    MPI_Isend(&out, 1, MPI_INT, (rank + 1) % size, 0, dc, &rq[1]);
    CHECK(MPI_Comm_disconnect(&dc) == MPI_SUCCESS && dc == MPI_COMM_NULL);
    CHECK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    CHECK(in == (rank + size - 1) % size);
    CHECK(cls(MPI_Comm_disconnect(NULL)) == MPI_ERR_ARG);
    MPI_Comm w = MPI_COMM_WORLD;
    CHECK(cls(MPI_Comm_disconnect(&w)) == MPI_ERR_COMM);
    w = MPI_COMM_NULL;
    CHECK(cls(MPI_Comm_disconnect(&w)) == MPI_ERR_COMM);

    /* Bad input: every rank makes the same mistake, so no collective is left waiting. */
    CHECK(cls(MPI_Comm_create(MPI_COMM_NULL, evens, &c)) == MPI_ERR_COMM);
    CHECK(cls(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c)) == MPI_ERR_GROUP);
    CHECK(cls(MPI_Comm_create(MPI_COMM_WORLD, evens, NULL)) == MPI_ERR_ARG);
    CHECK(cls(MPI_Comm_create_group(MPI_COMM_NULL, evens, 0, &c)) == MPI_ERR_COMM);
    CHECK(cls(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_NULL, 0, &c)) == MPI_ERR_GROUP);
    CHECK(cls(MPI_Comm_create_group(MPI_COMM_WORLD, evens, -1, &c)) == MPI_ERR_TAG);
    CHECK(cls(MPI_Comm_create_group(MPI_COMM_WORLD, evens, MPI_ANY_TAG, &c)) == MPI_ERR_TAG);
    if (size > 1) {
        /* A group that is not a subgroup of the parent's. */
        MPI_Comm self_dup;
        MPI_Comm_dup(MPI_COMM_SELF, &self_dup);
        MPI_Comm_set_errhandler(self_dup, MPI_ERRORS_RETURN);
        CHECK(cls(MPI_Comm_create(self_dup, world, &c)) == MPI_ERR_GROUP);
        CHECK(cls(MPI_Comm_create_group(self_dup, world, 0, &c)) == MPI_ERR_GROUP);
        MPI_Comm_free(&self_dup);
    }
    MPI_Group_free(&rev);
    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&world);
    free(order);
    return mtest_finish();
}
