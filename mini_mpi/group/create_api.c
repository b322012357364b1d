/*
 * group/create_api.c: MPI entry points that make groups (MPI-4.1 §7.3.2 constructors, and
 * MPI_Comm_remote_group of §7.6.1): MPI_Comm_group, MPI_Group_union, _intersection,
 * _difference, _incl, _excl, _range_incl, _range_excl, MPI_Comm_remote_group. Each checks its
 * arguments and makes one call into set.c, select.c or object.c; communicators made from groups
 * belong to comm/.
 *
 * Every empty result is the handle MPI_GROUP_EMPTY (mmpi_group_handle_new). On error the output
 * handle is set to MPI_GROUP_NULL. Group arguments raise on MPI_COMM_SELF's or MPI_COMM_WORLD's
 * handler (a group has none); communicator arguments on the communicator's. All these calls are
 * local: they neither wait nor check for revocation (ULFM allows local calls on a revoked
 * communicator).
 */
#include "group/group.h"

/* Hands g (a new reference) to the calling rank as *out; MPI_ERR_NO_MEM when the handle table
 * is full. */
static int publish(struct mmpi_rank *self, struct mmpi_group *g, MPI_Group *out)
{
    *out = mmpi_group_handle_new(self, g);
    return *out == MPI_GROUP_NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

MMPI_PROFILED(Comm_group);
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_group);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = !c ? MPI_ERR_COMM : !group ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    /* §7.3.2: the local group, also for an intercommunicator. */
    if ((err = publish(self, mmpi_group_of_core(c->core), group)) != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (group)
        *group = MPI_GROUP_NULL;
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Comm_group);
    goto fn_exit;
}

/* The three set operations differ only in the implementation they call. */
static int set_op(enum mmpi_call call,
                  struct mmpi_group *(*op)(const struct mmpi_group *, const struct mmpi_group *),
                  MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_group *a = mmpi_group_get(self, group1), *b = mmpi_group_get(self, group2);
    int err = !a || !b ? MPI_ERR_GROUP : !newgroup ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = publish(self, op(a, b), newgroup)) != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (newgroup)
        *newgroup = MPI_GROUP_NULL;
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Group_union);
int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op(MMPI_CALL_Group_union, mmpi_group_union, group1, group2, newgroup);
}

MMPI_PROFILED(Group_intersection);
int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op(MMPI_CALL_Group_intersection, mmpi_group_intersection, group1, group2,
                  newgroup);
}

MMPI_PROFILED(Group_difference);
int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op(MMPI_CALL_Group_difference, mmpi_group_difference, group1, group2, newgroup);
}

/* Group_incl and Group_excl: same checks (rank list), different selection. */
static int rank_select(enum mmpi_call call,
                       struct mmpi_group *(*select)(const struct mmpi_group *, int, const int *),
                       MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_group *g = mmpi_group_get(self, group);
    int err = !g ? MPI_ERR_GROUP : !newgroup ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = mmpi_group_check_ranks(g, n, ranks)) != MPI_SUCCESS)
        goto fn_fail;
    if ((err = publish(self, select(g, n, ranks), newgroup)) != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (newgroup)
        *newgroup = MPI_GROUP_NULL;
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Group_incl);
int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    return rank_select(MMPI_CALL_Group_incl, mmpi_group_incl, group, n, ranks, newgroup);
}

MMPI_PROFILED(Group_excl);
int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    return rank_select(MMPI_CALL_Group_excl, mmpi_group_excl, group, n, ranks, newgroup);
}

/* Group_range_incl and Group_range_excl: same checks (triplets), different selection. */
static int range_select(enum mmpi_call call,
                        struct mmpi_group *(*select)(const struct mmpi_group *, int, int[][3]),
                        MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_group *g = mmpi_group_get(self, group);
    int err = !g ? MPI_ERR_GROUP : !newgroup ? MPI_ERR_ARG : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = mmpi_group_check_ranges(g, n, ranges)) != MPI_SUCCESS)
        goto fn_fail;
    if ((err = publish(self, select(g, n, ranges), newgroup)) != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (newgroup)
        *newgroup = MPI_GROUP_NULL;
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Group_range_incl);
int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return range_select(MMPI_CALL_Group_range_incl, mmpi_group_range_incl, group, n, ranges,
                        newgroup);
}

MMPI_PROFILED(Group_range_excl);
int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return range_select(MMPI_CALL_Group_range_excl, mmpi_group_range_excl, group, n, ranges,
                        newgroup);
}

MMPI_PROFILED(Comm_remote_group);
int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_remote_group);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = !c ? MPI_ERR_COMM : !group ? MPI_ERR_ARG : MPI_SUCCESS;

    /* §7.6.1: only an intercommunicator has a remote group; MPICH says MPI_ERR_COMM. */
    if (err == MPI_SUCCESS && !c->core->remote)
        err = MPI_ERR_COMM;
    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = publish(self, mmpi_group_of_core(c->core->remote), group)) != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (group)
        *group = MPI_GROUP_NULL;
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Comm_remote_group);
    goto fn_exit;
}
