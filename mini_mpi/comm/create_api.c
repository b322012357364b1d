/*
 * create_api.c: MPI entry points that create, free, compare and name communicators
 * (MPI-4.1 §7.4, §7.8): Comm_dup, Comm_split, Comm_free, Comm_compare, Comm_test_inter,
 * Comm_set_name, Comm_get_name.
 */
#include <stdio.h>
#include <string.h>

#include "attr/attr.h"
#include "comm/create.h"
#include "comm/info.h"
#include "comm/intercomm.h"

MMPI_PROFILED(Comm_dup);
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_dup);
    struct mmpi_comm *c = mmpi_comm_get(self, comm), *dup = NULL;
    int err = !c ? MPI_ERR_COMM : !newcomm ? MPI_ERR_ARG : MPI_SUCCESS;
    if (err == MPI_SUCCESS && mmpi_fault_revoked(&c->core->fault))
        err = MPI_ERR_REVOKED;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    err = mmpi_comm_dup(self, c, &dup);
    if (err == MPI_SUCCESS) /* hints go with the duplicate (§7.4.2) */
        err = mmpi_comm_finish_dup(self, c, dup, c->info ? mmpi_info_dup(c->info) : NULL,
                                   newcomm);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (newcomm)
        *newcomm = MPI_COMM_NULL;
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Comm_dup);
    goto fn_exit;
}

MMPI_PROFILED(Comm_split);
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_split);
    struct mmpi_comm *c = mmpi_comm_get(self, comm), *part = NULL;
    int err = !c ? MPI_ERR_COMM : !newcomm ? MPI_ERR_ARG : MPI_SUCCESS;
    if (err == MPI_SUCCESS && mmpi_fault_revoked(&c->core->fault))
        err = MPI_ERR_REVOKED;

    if (err == MPI_SUCCESS && color < 0 && color != MPI_UNDEFINED)
        err = MPI_ERR_ARG; /* colours are non-negative (§7.4.2) */
    if (err != MPI_SUCCESS)
        goto fn_fail;
    err = mmpi_comm_split(self, c, color, key, &part);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    *newcomm = MPI_COMM_NULL;
    if (part)
        err = mmpi_comm_register(self, part, newcomm);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (newcomm)
        *newcomm = MPI_COMM_NULL;
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Comm_split);
    goto fn_exit;
}

MMPI_PROFILED(Comm_free);
int PMPI_Comm_free(MPI_Comm *comm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_free);
    struct mmpi_comm *c = comm ? mmpi_comm_get(self, *comm) : NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!comm, MPI_ERR_ARG);
    /* predefined communicators are not freed (§7.4.3) */
    MMPI_FAIL_IF(!c || *comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF, MPI_ERR_COMM);
    /* Delete callbacks first (§7.7.2); one failing fails the call and the communicator stays,
     * as in MPICH. */
    if ((err = mmpi_attr_comm_free(self, c)) != MPI_SUCCESS)
        goto fn_fail;
    mmpi_comm_release(self, c);
    *comm = MPI_COMM_NULL;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, err == MPI_ERR_COMM ? NULL : c, err, MMPI_CALL_Comm_free);
    goto fn_exit;
}

MMPI_PROFILED(Comm_compare);
int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_compare);
    struct mmpi_comm *a = mmpi_comm_get(self, comm1), *b = mmpi_comm_get(self, comm2);
    const struct mmpi_comm_core *x, *y;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!result, MPI_ERR_ARG);
    MMPI_FAIL_IF(!a || !b, MPI_ERR_COMM);
    x = a->core;
    y = b->core;
    if (x->remote && y->remote) {
        *result = mmpi_intercomm_compare(x, y);
    } else if (x == y) {
        *result = MPI_IDENT;
    } else if (x->size != y->size || !x->remote != !y->remote) {
        *result = MPI_UNEQUAL;
    } else if (!memcmp(x->world_ranks, y->world_ranks, (size_t)x->size * sizeof(int))) {
        *result = MPI_CONGRUENT;
    } else {
        /* Same members in another order? Sizes are small enough for a quadratic check. */
        int same = 1;
        for (int i = 0; same && i < x->size; i++) {
            int found = 0;
            for (int j = 0; !found && j < y->size; j++)
                found = x->world_ranks[i] == y->world_ranks[j];
            same = found;
        }
        *result = same ? MPI_SIMILAR : MPI_UNEQUAL;
    }
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, a ? a : b, err, MMPI_CALL_Comm_compare);
    goto fn_exit;
}

MMPI_PROFILED(Comm_test_inter);
int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_test_inter);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(!flag, MPI_ERR_ARG);
    *flag = c->core->remote != NULL;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Comm_test_inter);
    goto fn_exit;
}

MMPI_PROFILED(Comm_set_name);
int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_set_name);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(!comm_name, MPI_ERR_ARG);
    snprintf(c->name, sizeof(c->name), "%s", comm_name); /* truncated, as §7.8 allows */
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Comm_set_name);
    goto fn_exit;
}

MMPI_PROFILED(Comm_get_name);
int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_get_name);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    /* The null handle is a predefined handle with a name of its own (MPI-4.1, as Open MPI). */
    const char *name = comm == MPI_COMM_NULL ? "MPI_COMM_NULL" : c ? c->name : NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!name, MPI_ERR_COMM);
    MMPI_FAIL_IF(!comm_name || !resultlen, MPI_ERR_ARG);
    strcpy(comm_name, name);
    *resultlen = (int)strlen(name);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Comm_get_name);
    goto fn_exit;
}
