/*
 * intercomm_api.c: MPI entry points of intercommunicators (MPI-4.1 §7.6): MPI_Comm_remote_size
 * (§7.6.1; MPI_Comm_remote_group is group/create_api.c, MPI_Comm_test_inter create_api.c),
 * MPI_Intercomm_create and MPI_Intercomm_merge (§7.6.2). Implementation: intercomm.c,
 * intercomm_create.c.
 */
#include "comm/create.h"
#include "comm/intercomm.h"
#include "pt2pt/pt2pt.h"

static bool revoked(const struct mmpi_comm *c)
{
    return mmpi_fault_revoked(&c->core->fault);
}

MMPI_PROFILED(Comm_remote_size);
int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_remote_size);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = !c || !c->core->remote ? MPI_ERR_COMM : !size ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    *size = c->core->remote->size;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Comm_remote_size);
    goto fn_exit;
}

/* The leader's own arguments (significant only there, §7.6.2). */
static int check_leader_args(struct mmpi_comm *peer, int remote_leader)
{
    if (!peer)
        return MPI_ERR_COMM;
    if (remote_leader < 0 || remote_leader >= mmpi_comm_remote_size(peer))
        return MPI_ERR_RANK;
    if (!peer->core->remote && remote_leader == peer->rank)
        return MPI_ERR_RANK; /* the remote leader cannot be this process: groups are disjoint */
    if (revoked(peer))
        return MPI_ERR_REVOKED;
    return MPI_SUCCESS;
}

MMPI_PROFILED(Intercomm_create);
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Intercomm_create);
    struct mmpi_comm *c = mmpi_comm_get(self, local_comm), *inter = NULL;
    int err = !c || c->core->remote ? MPI_ERR_COMM : !newintercomm ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err == MPI_SUCCESS && revoked(c))
        err = MPI_ERR_REVOKED;
    if (err == MPI_SUCCESS && (local_leader < 0 || local_leader >= c->core->size))
        err = MPI_ERR_RANK;
    if (err == MPI_SUCCESS && (tag < 0 || tag > MMPI_TAG_UB))
        err = MPI_ERR_TAG;
    if (err != MPI_SUCCESS)
        goto fn_fail; /* every member of the group sees these */
    /* Bad peer arguments are seen by the leader alone, whose group would wait for it
     * forever: the leader takes part and hands the error to its group (intercomm_create.c). */
    if (c->rank == local_leader)
        err = check_leader_args(mmpi_comm_get(self, peer_comm), remote_leader);
    err = mmpi_intercomm_create(self, c, local_leader, mmpi_comm_get(self, peer_comm),
                                remote_leader, tag, err, &inter);
    if (err == MPI_SUCCESS)
        err = mmpi_comm_register(self, inter, newintercomm);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (newintercomm)
        *newintercomm = MPI_COMM_NULL;
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Intercomm_create);
    goto fn_exit;
}

MMPI_PROFILED(Intercomm_merge);
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Intercomm_merge);
    struct mmpi_comm *c = mmpi_comm_get(self, intercomm), *merged = NULL;
    int err = !c || !c->core->remote ? MPI_ERR_COMM : !newintracomm ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err == MPI_SUCCESS && revoked(c))
        err = MPI_ERR_REVOKED;
    if (err != MPI_SUCCESS)
        goto fn_fail;
    err = mmpi_intercomm_merge(self, c, high, &merged);
    if (err == MPI_SUCCESS)
        err = mmpi_comm_register(self, merged, newintracomm);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (newintracomm)
        *newintracomm = MPI_COMM_NULL;
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Intercomm_merge);
    goto fn_exit;
}
