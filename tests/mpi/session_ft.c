/* session_ft.c: fault tolerance of communicators made from sessions, without MPI_Init
 * (docs/sessions.md "Fault tolerance"). Rank 1 dies where the testlist's MINI_MPI_FAULTS says;
 * the argument names the scenario:
 *   create   killed entering its second MPI_Comm_create_from_group: every survivor's call
 *            fails with MPI_ERR_PROC_FAILED (none hangs); the survivors then recover on the
 *            communicator made before (get_failed, ack, agree, shrink) and make a new
 *            communicator from the shrunk group, by the Sessions Model again
 *   during   killed inside its second MPI_Comm_create_from_group, having arrived: everyone gets
 *            the communicator, whose first barrier reports the failure at every survivor
 *   inter    killed entering MPI_Intercomm_create_from_groups: MPI_ERR_PROC_FAILED on both
 *            sides
 *   peer     killed entering a barrier on a session communicator (`at`), or at its next call
 *            after it (`after`): the survivors' barrier fails (or reports the revoke of one
 *            that failed first); revoke, then every operation reports MPI_ERR_REVOKED, agree
 *            and shrink still work
 *   timed    killed 100 ms after its MPI_Session_init (`at T ms`), blocked in a receive nobody
 *            sends to: the survivors' barrier fails
 *   first    killed at its third MPI call of any kind (`at any#3`), before the first
 *            communicator exists: every survivor's MPI_Comm_create_from_group fails
 *   revoke   no death: rank 0 revokes a session communicator; every member's barrier and
 *            constructor reports MPI_ERR_REVOKED, shrink gives the whole group again, and a
 *            new communicator from the session is unaffected
 * Needs at least 2 ranks. */
#include <stdbool.h>

#include "session_test.h"

#define VICTIM 1

/* What every survivor does once a member failed: the failure is known on c, acknowledged,
 * agreed on, and a shrunk communicator works; returns it. */
static MPI_Comm recover(MPI_Comm c, int size)
{
    MPI_Group failed;
    int nfailed = 0, flag = 1, acked = 0;
    SCHECK(MPIX_Comm_get_failed(c, &failed) == MPI_SUCCESS);
    MPI_Group_size(failed, &nfailed);
    SCHECK(nfailed == 1);
    MPI_Group_free(&failed);
    SCHECK(MPIX_Comm_ack_failed(c, size, &acked) == MPI_SUCCESS && acked == 1);
    SCHECK(MPIX_Comm_agree(c, &flag) == MPI_SUCCESS && flag == 1);
    MPI_Comm shrunk;
    int ssize = 0, one = 1, sum = 0;
    SCHECK(MPIX_Comm_shrink(c, &shrunk) == MPI_SUCCESS);
    MPI_Comm_size(shrunk, &ssize);
    SCHECK(ssize == size - 1);
    SCHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, shrunk) == MPI_SUCCESS &&
           sum == size - 1);
    return shrunk;
}

/* The survivors make a communicator of their own from the shrunk one's group, as a program of
 * the Sessions Model would go on. */
static MPI_Comm remake(MPI_Comm shrunk, int size)
{
    MPI_Group g;
    MPI_Comm_group(shrunk, &g);
    MPI_Comm fresh = st_comm(g, "survivors");
    MPI_Group_free(&g);
    int n = 0;
    MPI_Comm_size(fresh, &n);
    SCHECK(n == size - 1);
    SCHECK(MPI_Barrier(fresh) == MPI_SUCCESS);
    return fresh;
}

static MPI_Comm after_failure(MPI_Comm w, int size)
{
    MPI_Comm shrunk = recover(w, size);
    MPI_Comm fresh = remake(shrunk, size);
    MPI_Comm_free(&shrunk);
    return fresh;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "create";
    MPI_Group world;
    MPI_Session s = st_open(MPI_ERRORS_RETURN, &world);
    MPI_Comm w = MPI_COMM_NULL, c = MPI_COMM_NULL, report = MPI_COMM_NULL;
    int size = 0, err;
    MPI_Group_size(world, &size);

    if (!strcmp(what, "first")) {
        err = MPI_Comm_create_from_group(world, "w", MPI_INFO_NULL, MPI_ERRORS_RETURN, &w);
        SCHECK(st_class(err) == MPI_ERR_PROC_FAILED && w == MPI_COMM_NULL);
        /* Again: the dead member never arrives, the same failure, no hang. */
        err = MPI_Comm_create_from_group(world, "w", MPI_INFO_NULL, MPI_ERRORS_RETURN, &w);
        SCHECK(st_class(err) == MPI_ERR_PROC_FAILED && w == MPI_COMM_NULL);
        goto out;
    }
    w = st_comm(world, "w");
    if (!strcmp(what, "create") || !strcmp(what, "during")) {
        err = MPI_Comm_create_from_group(world, "second", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
        if (!strcmp(what, "create")) {
            SCHECK(st_class(err) == MPI_ERR_PROC_FAILED && c == MPI_COMM_NULL);
        } else {
            SCHECK(err == MPI_SUCCESS && c != MPI_COMM_NULL);
            SCHECK(st_class(MPI_Barrier(c)) == MPI_ERR_PROC_FAILED);
            MPI_Comm_free(&c);
        }
        report = after_failure(w, size);
    } else if (!strcmp(what, "inter")) {
        int n0 = size / 2, low[size], high[size];
        for (int i = 0; i < size; i++)
            (i < n0 ? low : high)[i < n0 ? i : i - n0] = i;
        MPI_Group lg, hg;
        MPI_Group_incl(world, n0, low, &lg);
        MPI_Group_incl(world, size - n0, high, &hg);
        bool mine_low = st_rank < n0;
        err = MPI_Intercomm_create_from_groups(mine_low ? lg : hg, 0, mine_low ? hg : lg, 0,
                                               "halves", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
        SCHECK(st_class(err) == MPI_ERR_PROC_FAILED && c == MPI_COMM_NULL);
        MPI_Group_free(&lg);
        MPI_Group_free(&hg);
        report = after_failure(w, size);
    } else if (!strcmp(what, "peer") || !strcmp(what, "timed")) {
        if (!strcmp(what, "timed") && st_rank == VICTIM) {
            int never;
            MPI_Recv(&never, 1, MPI_INT, 0, 99, w, MPI_STATUS_IGNORE); /* dies in it */
        }
        /* The failure, or the revoke of a survivor that saw it first. */
        err = st_class(MPI_Barrier(w));
        SCHECK(err == MPI_ERR_PROC_FAILED || err == MPI_ERR_REVOKED);
        SCHECK(MPIX_Comm_revoke(w) == MPI_SUCCESS);
        int flag = 0, x = 1;
        SCHECK(MPIX_Comm_is_revoked(w, &flag) == MPI_SUCCESS && flag);
        SCHECK(st_class(MPI_Send(&x, 1, MPI_INT, 0, 0, w)) == MPI_ERR_REVOKED);
        SCHECK(st_class(MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, w)) ==
               MPI_ERR_REVOKED);
        MPI_Comm dup = MPI_COMM_NULL;
        SCHECK(st_class(MPI_Comm_dup(w, &dup)) == MPI_ERR_REVOKED && dup == MPI_COMM_NULL);
        report = after_failure(w, size);
    } else if (!strcmp(what, "revoke")) {
        if (st_rank == 0)
            SCHECK(MPIX_Comm_revoke(w) == MPI_SUCCESS);
        SCHECK(st_class(MPI_Barrier(w)) == MPI_ERR_REVOKED);
        MPI_Comm dup = MPI_COMM_NULL, shrunk;
        SCHECK(st_class(MPI_Comm_dup(w, &dup)) == MPI_ERR_REVOKED && dup == MPI_COMM_NULL);
        MPI_Group none;
        int nfailed = -1, n = 0;
        SCHECK(MPIX_Comm_get_failed(w, &none) == MPI_SUCCESS);
        MPI_Group_size(none, &nfailed);
        SCHECK(nfailed == 0);
        MPI_Group_free(&none);
        SCHECK(MPIX_Comm_shrink(w, &shrunk) == MPI_SUCCESS);
        MPI_Comm_size(shrunk, &n);
        SCHECK(n == size && MPI_Barrier(shrunk) == MPI_SUCCESS);
        MPI_Comm_free(&shrunk);
        report = st_comm(world, "after the revoke");
    }
out:
    if (w != MPI_COMM_NULL)
        MPI_Comm_free(&w);
    int status = st_report(report);
    if (report != MPI_COMM_NULL)
        MPI_Comm_free(&report);
    MPI_Group_free(&world);
    MPI_Session_finalize(&s);
    return status;
}
