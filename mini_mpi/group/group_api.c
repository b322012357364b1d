/*
 * group/group_api.c: MPI entry points that read or free groups (MPI-4.1 §7.3.1 accessors, §7.3.3
 * destructor): MPI_Group_size, _rank, _translate_ranks, _compare, _free. The constructors are in
 * create_api.c; the work behind each call in set.c and object.c.
 *
 * A group has no error handler of its own: errors go to MPI_COMM_SELF's handler if the program
 * set one, else MPI_COMM_WORLD's (errhan.h), as in MPICH. All these calls are local, so they
 * never wait and need no revoke check.
 */
#include "group/group.h"

MMPI_PROFILED(Group_size);
int PMPI_Group_size(MPI_Group group, int *size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Group_size);
    struct mmpi_group *g = mmpi_group_get(self, group);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!g, MPI_ERR_GROUP);
    MMPI_FAIL_IF(!size, MPI_ERR_ARG);
    *size = g->size;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Group_size);
    goto fn_exit;
}

MMPI_PROFILED(Group_rank);
int PMPI_Group_rank(MPI_Group group, int *rank)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Group_rank);
    struct mmpi_group *g = mmpi_group_get(self, group);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!g, MPI_ERR_GROUP);
    MMPI_FAIL_IF(!rank, MPI_ERR_ARG);
    /* §7.3.1: MPI_UNDEFINED when the calling process is not a member. */
    *rank = mmpi_group_rank_of_world(g, self->world_rank);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Group_rank);
    goto fn_exit;
}

MMPI_PROFILED(Group_translate_ranks);
int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Group_translate_ranks);
    struct mmpi_group *a = mmpi_group_get(self, group1), *b = mmpi_group_get(self, group2);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!a || !b, MPI_ERR_GROUP);
    MMPI_FAIL_IF(n > 0 && !ranks2, MPI_ERR_ARG);
    if ((err = mmpi_group_check_translate_ranks(a, n, ranks1)) != MPI_SUCCESS)
        goto fn_fail;
    mmpi_group_translate_ranks(a, n, ranks1, b, ranks2);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Group_translate_ranks);
    goto fn_exit;
}

MMPI_PROFILED(Group_compare);
int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Group_compare);
    struct mmpi_group *a = mmpi_group_get(self, group1), *b = mmpi_group_get(self, group2);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!a || !b, MPI_ERR_GROUP);
    MMPI_FAIL_IF(!result, MPI_ERR_ARG);
    *result = mmpi_group_compare(a, b);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Group_compare);
    goto fn_exit;
}

MMPI_PROFILED(Group_free);
int PMPI_Group_free(MPI_Group *group)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Group_free);
    struct mmpi_group *g = NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!group, MPI_ERR_ARG);
    /* Freeing MPI_GROUP_EMPTY is allowed, as in MPICH: empty results of the constructors are
     * MPI_GROUP_EMPTY and programs free every result. It only nulls the handle. */
    if (*group == MPI_GROUP_EMPTY) {
        *group = MPI_GROUP_NULL;
        goto fn_exit;
    }
    MMPI_FAIL_IF(!(g = mmpi_group_handle_remove(self, *group)), MPI_ERR_GROUP);
    /* Communicators made from the group hold their own copies (or references): §7.3.3 lets
     * them live on. */
    mmpi_group_release(g);
    *group = MPI_GROUP_NULL;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Group_free);
    goto fn_exit;
}
