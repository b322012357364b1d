/* comm_inter_idup.c: duplicating an intercommunicator (MPI-4.1 §7.4.2): MPI_Comm_idup and
 * MPI_Comm_idup_with_info, completed by the request, and MPI_Comm_dup_with_info give an
 * intercommunicator over the parent's two groups with a context of its own; several idups
 * outstanding at once complete in any order. Each result is checked for its groups, by world
 * rank, and used for point-to-point and a collective (include/comm_inter.h). */
#include "comm_inter.h"

int main(int argc, char **argv)
{
    MPI_Comm half, inter, part, more[3];
    MPI_Request req, reqs[3];
    MPI_Init(&argc, &argv);
    int first[2], n[2], me = comm_inter_setup(&half, &inter, first, n);
    int loc[64], rem[64], nl, nr;

    nl = members(first[me], n[me], keep_all, loc);
    nr = members(first[!me], n[!me], keep_all, rem);
    CHECK(MPI_Comm_dup_with_info(inter, MPI_INFO_NULL, &part) == MPI_SUCCESS);
    if (part != MPI_COMM_NULL) {
        check_inter(part, loc, nl, rem, nr);
        MPI_Comm_free(&part);
    }
    part = MPI_COMM_NULL;
    CHECK(MPI_Comm_idup(inter, &part, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && part != MPI_COMM_NULL);
    if (part != MPI_COMM_NULL) {
        int result = -1;
        MPI_Comm_compare(inter, part, &result);
        CHECK(result == MPI_CONGRUENT);
        check_inter(part, loc, nl, rem, nr);
        MPI_Comm_free(&part);
    }
    {
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
        part = MPI_COMM_NULL;
        CHECK(MPI_Comm_idup_with_info(inter, info, &part, &req) == MPI_SUCCESS);
        MPI_Info_free(&info);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && part != MPI_COMM_NULL);
        if (part != MPI_COMM_NULL) {
            check_inter(part, loc, nl, rem, nr);
            MPI_Comm_free(&part);
        }
    }


    /* Three at once, completed by one Waitall; each is a communicator of its own. */
    for (int i = 0; i < 3; i++)
        CHECK(MPI_Comm_idup(inter, &more[i], &reqs[i]) == MPI_SUCCESS);
    CHECK(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    for (int i = 0; i < 3; i++) {
        int result = -1;
        MPI_Comm_compare(more[i], i ? more[i - 1] : inter, &result);
        CHECK(result == MPI_CONGRUENT);
        check_inter(more[i], loc, nl, rem, nr);
    }
    for (int i = 0; i < 3; i++)
        MPI_Comm_free(&more[i]);

    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    return mtest_finish();
}
