/* inter_ft.c: fault tolerance on an intercommunicator (ULFM, Open MPI 5 semantics). The world
 * is split into a third and the rest and joined by MPI_Intercomm_create.
 * Revoke: a member of the second group revokes a dup of the intercommunicator; a pending
 * receive in the first group, a barrier at everyone, later sends and collectives all give
 * MPI_ERR_REVOKED at both groups; agreement and shrink still work on it, the intercomm it was
 * duplicated from is untouched. Agreement gives each group the AND of the other group's flags.
 * Failure: the victim (argv[2], default the last world rank) dies, by raise(SIGKILL)
 * (argv[1] "raise") or by MINI_MPI_FAULTS at its 1st MPIX_Comm_agree (argv[1] "env"); then
 * the first agreement raises MPI_ERR_PROC_FAILED at every survivor, and after the other group
 * acknowledges the failure, the next succeeds everywhere with the survivors' ANDs;
 * MPIX_Comm_get_failed names the victim in the other group only (it covers the remote group);
 * collectives (blocking and nonblocking), sends to the victim and, in the other group, an
 * MPI_ANY_SOURCE receive fail; MPIX_Comm_shrink and ishrink give an
 * intercommunicator of the survivors, order kept (MPI_COMM_NULL if the victim was alone in
 * its group), on which collectives work. */
#include <signal.h>
#include <string.h>

#include "mtest.h"

static int wrank, wsize, k, grp, me, lsize, rsize;

static int flag_of(int g)
{
    return g == 0 ? 0x7 : 0xE;
}

/* Member 0 of group 0 contributes 0x5: group 1 must get 0x5, group 0 gets 0xE. */
static int my_flag(void)
{
    return grp == 0 && me == 0 ? 0x5 : flag_of(grp);
}

static void check_sum(MPI_Comm ic, int nlocal, int nremote, const int *remote_world)
{
    int sz = -1, rs = -1, sum = -1, one = wrank;
    MPI_Comm_size(ic, &sz);
    MPI_Comm_remote_size(ic, &rs);
    CHECK(sz == nlocal && rs == nremote);
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, ic) == MPI_SUCCESS);
    int expect = 0;
    for (int i = 0; i < nremote; i++)
        expect += remote_world[i];
    CHECK(sum == expect);
    int *got = malloc((size_t)nremote * sizeof(int));
    CHECK(MPI_Allgather(&wrank, 1, MPI_INT, got, 1, MPI_INT, ic) == MPI_SUCCESS);
    for (int i = 0; i < nremote; i++)
        CHECK(got[i] == remote_world[i]); /* order kept */
    free(got);
}

static void revoke_part(MPI_Comm inter)
{
    MPI_Comm rv, sh;
    MPI_Request req = MPI_REQUEST_NULL;
    int v = 0, flag = 0;
    MPI_Comm_dup(inter, &rv);
    MPI_Comm_set_errhandler(rv, MPI_ERRORS_RETURN);
    if (grp == 0)
        CHECK(MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, rv, &req) == MPI_SUCCESS);
    MPI_Barrier(inter); /* the receive is pending before the revoke */
    if (grp == 1 && me == 0)
        CHECK(MPIX_Comm_revoke(rv) == MPI_SUCCESS);
    CHECK(MPI_Barrier(rv) == MPI_ERR_REVOKED);
    if (grp == 0)
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_ERR_REVOKED);
    CHECK(MPIX_Comm_is_revoked(rv, &flag) == MPI_SUCCESS && flag);
    CHECK(MPI_Send(&v, 1, MPI_INT, 0, 1, rv) == MPI_ERR_REVOKED);
    CHECK(MPI_Allreduce(&v, &flag, 1, MPI_INT, MPI_SUM, rv) == MPI_ERR_REVOKED);
    int e = MPI_Ibcast(&v, 1, MPI_INT, grp == 0 ? 0 : (me == 0 ? MPI_ROOT : MPI_PROC_NULL), rv,
                       &req);
    if (e == MPI_SUCCESS)
        e = MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(e == MPI_ERR_REVOKED);
    /* The intercomm it came from is not revoked. */
    CHECK(MPIX_Comm_is_revoked(inter, &flag) == MPI_SUCCESS && !flag);
    CHECK(MPI_Barrier(inter) == MPI_SUCCESS);
    /* Agreement ignores revocation: each group gets the other's AND. */
    flag = my_flag();
    CHECK(MPIX_Comm_iagree(rv, &flag, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(flag == (grp == 0 ? 0xE : 0x5));
    CHECK(MPIX_Comm_shrink(rv, &sh) == MPI_SUCCESS);
    int *rw = malloc((size_t)rsize * sizeof(int));
    for (int i = 0; i < rsize; i++)
        rw[i] = grp == 0 ? k + i : i;
    check_sum(sh, lsize, rsize, rw);
    free(rw);
    MPI_Comm_free(&sh);
    MPI_Comm_free(&rv);
}

static void failure_part(MPI_Comm inter, int victim, int by_raise)
{
    int vgrp = victim >= k, vlocal = vgrp ? victim - k : victim, flag, v = 1;
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    if (by_raise && wrank == victim)
        raise(SIGKILL);
    /* With MINI_MPI_FAULTS the victim dies entering this call. */
    flag = my_flag();
    CHECK(MPIX_Comm_agree(inter, &flag) == MPI_ERR_PROC_FAILED);
    /* Collectives and a send to the victim fail. */
    CHECK(MPI_Barrier(inter) == MPI_ERR_PROC_FAILED);
    CHECK(MPI_Allreduce(&v, &flag, 1, MPI_INT, MPI_SUM, inter) == MPI_ERR_PROC_FAILED);
    MPI_Request nreq;
    CHECK(MPI_Iallgather(&v, 1, MPI_INT, &flag, 0, MPI_INT, inter, &nreq) == MPI_SUCCESS);
    CHECK(MPI_Wait(&nreq, MPI_STATUS_IGNORE) == MPI_ERR_PROC_FAILED);
    if (grp != vgrp) {
        CHECK(MPI_Send(&v, 1, MPI_INT, vlocal, 3, inter) == MPI_ERR_PROC_FAILED);
        /* A receive from any remote rank, with a remote failure not acknowledged. */
        CHECK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 99, inter, MPI_STATUS_IGNORE) ==
              MPI_ERR_PROC_FAILED);
    }
    /* get_failed covers the remote group: only the other group sees the victim. */
    MPI_Group failed, wg;
    int n = -1, w = -1, zero = 0;
    CHECK(MPIX_Comm_get_failed(inter, &failed) == MPI_SUCCESS);
    MPI_Group_size(failed, &n);
    CHECK(n == (grp != vgrp));
    if (n == 1) {
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Group_translate_ranks(failed, 1, &zero, wg, &w);
        CHECK(w == victim);
        MPI_Group_free(&wg);
    }
    if (failed != MPI_GROUP_EMPTY)
        MPI_Group_free(&failed);
    /* The other group acknowledges: the agreement now succeeds everywhere (blocking agreement
     * values are checked here; the revoke part checked iagree's). */
    if (grp != vgrp)
        CHECK(MPIX_Comm_failure_ack(inter) == MPI_SUCCESS);
    flag = my_flag();
    CHECK(MPIX_Comm_agree(inter, &flag) == MPI_SUCCESS);
    /* Group 1's flags are all 0xE; group 0's AND is 0x5 unless its member 0 died; the AND
     * of a group with no survivor is all ones. */
    int g0 = vgrp == 0 && vlocal == 0 ? 0x7 : 0x5, g1 = 0xE;
    if (vgrp == 0 && k == 1)
        g0 = ~0;
    if (vgrp == 1 && wsize - k == 1)
        g1 = ~0;
    CHECK(flag == (grp == 0 ? g1 : g0));

    /* Shrink and ishrink: the survivors, in order. */
    MPI_Comm sh, sh2;
    MPI_Request req;
    CHECK(MPIX_Comm_shrink(inter, &sh) == MPI_SUCCESS);
    CHECK(MPIX_Comm_ishrink(inter, &sh2, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    int vsize = vgrp == grp ? lsize : rsize;
    if (vsize == 1) {
        CHECK(sh == MPI_COMM_NULL && sh2 == MPI_COMM_NULL); /* the victim's group is gone */
        return;
    }
    int nl = lsize - (grp == vgrp), nr = rsize - (grp != vgrp);
    int *rw = malloc((size_t)rsize * sizeof(int)), j = 0;
    for (int i = 0; i < rsize; i++) {
        int wr = grp == 0 ? k + i : i;
        if (wr != victim)
            rw[j++] = wr;
    }
    check_sum(sh, nl, nr, rw);
    check_sum(sh2, nl, nr, rw);
    int res = -1;
    MPI_Comm_compare(sh, sh2, &res);
    CHECK(res == MPI_CONGRUENT);
    free(rw);
    MPI_Comm_free(&sh);
    MPI_Comm_free(&sh2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize < 2) {
        fprintf(stderr, "inter_ft needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int by_raise = argc < 2 || strcmp(argv[1], "env") != 0;
    int victim = argc > 2 ? atoi(argv[2]) : wsize - 1;
    k = wsize / 3 > 0 ? wsize / 3 : 1;
    grp = wrank >= k;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, grp, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, grp ? 0 : k, 1, &inter);
    MPI_Comm_rank(inter, &me);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    revoke_part(inter);
    if (victim > 0 && victim < wsize)
        failure_part(inter, victim, by_raise);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    return mtest_finish();
}
