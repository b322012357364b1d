/* comm_inter_create.c: the intracommunicator constructors that also take an intercommunicator
 * (MPI-4.1 §7.4.2): MPI_Comm_create (each group passes a subgroup of itself; the result joins
 * the two subgroups, MPI_COMM_NULL outside them and everywhere when either is empty),
 * and MPI_Comm_split; and MPI_Comm_create_group, which takes intracommunicators only
 * (MPI_ERR_COMM). Each result is checked for its groups, by world rank, and used for
 * point-to-point and a collective (include/comm_inter.h). */
#include "comm_inter.h"

int main(int argc, char **argv)
{
    MPI_Comm half, inter, part;
    MPI_Group g;
    MPI_Init(&argc, &argv);
    int first[2], n[2], me = comm_inter_setup(&half, &inter, first, n);
    int loc[64], rem[64], nl, nr, r;
    MPI_Comm_rank(inter, &r);

    /* Comm_create with a subgroup on each side: the low group keeps its even ranks, the high
     * group its last rank. */
    int (*keeps[2])(int, int) = {keep_even, keep_last};
    g = pick(inter, keeps[me]);
    CHECK(MPI_Comm_create(inter, g, &part) == MPI_SUCCESS);
    nl = members(first[me], n[me], keeps[me], loc);
    nr = members(first[!me], n[!me], keeps[!me], rem);
    if (keeps[me](r, n[me])) {
        CHECK(part != MPI_COMM_NULL);
        if (part != MPI_COMM_NULL) {
            check_inter(part, loc, nl, rem, nr);
            MPI_Comm_free(&part);
        }
    } else {
        CHECK(part == MPI_COMM_NULL);
    }
    MPI_Group_free(&g);

    /* Whole groups: the same membership as the parent. */
    g = pick(inter, keep_all);
    CHECK(MPI_Comm_create(inter, g, &part) == MPI_SUCCESS && part != MPI_COMM_NULL);
    nl = members(first[me], n[me], keep_all, loc);
    nr = members(first[!me], n[!me], keep_all, rem);
    if (part != MPI_COMM_NULL) {
        check_inter(part, loc, nl, rem, nr);
        MPI_Comm_free(&part);
    }
    MPI_Group_free(&g);

    /* One side empty: MPI_COMM_NULL at every member of both groups. */
    g = pick(inter, me == 0 ? keep_none : keep_all);
    part = MPI_COMM_WORLD;
    CHECK(MPI_Comm_create(inter, g, &part) == MPI_SUCCESS && part == MPI_COMM_NULL);
    MPI_Group_free(&g);

    /* A group that is not a subgroup of the local group: MPI_ERR_GROUP. Only the calling rank
     * learns it, so every rank of one group fails together and no one is left waiting. */
    {
        MPI_Group remote_group;
        int cls = MPI_SUCCESS;
        MPI_Comm_remote_group(inter, &remote_group);
        int err = MPI_Comm_create(inter, remote_group, &part);
        MPI_Error_class(err, &cls);
        CHECK(cls == MPI_ERR_GROUP && part == MPI_COMM_NULL);
        MPI_Group_free(&remote_group);
    }

    /* Comm_create_group takes intracommunicators only. */
    {
        int cls = MPI_SUCCESS;
        g = pick(inter, keep_all);
        int err = MPI_Comm_create_group(inter, g, 0, &part);
        MPI_Error_class(err, &cls);
        CHECK(cls == MPI_ERR_COMM && part == MPI_COMM_NULL);
        MPI_Group_free(&g);
    }

    /* Comm_split: colour by parity of the local rank, so both groups have both colours
     * (except a group of one, whose colour 1 finds no partner in the other group). */
    CHECK(MPI_Comm_split(inter, r % 2, -r, &part) == MPI_SUCCESS);
    {
        int nl2 = 0, nr2 = 0;
        for (int i = n[me] - 1; i >= 0; i--)
            if (i % 2 == r % 2)
                loc[nl2++] = first[me] + i;
        for (int i = n[!me] - 1; i >= 0; i--)
            if (i % 2 == r % 2)
                rem[nr2++] = first[!me] + i;
        if (nr2 == 0) {
            CHECK(part == MPI_COMM_NULL);
        } else {
            CHECK(part != MPI_COMM_NULL);
            if (part != MPI_COMM_NULL) {
                check_inter(part, loc, nl2, rem, nr2);
                MPI_Comm_free(&part);
            }
        }
    }

    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    return mtest_finish();
}
