/*
 * session/from_group_api.c: the constructors of the Sessions Model, which need no parent
 * communicator: MPI_Comm_create_from_group (MPI-4.1 §7.4.2) and
 * MPI_Intercomm_create_from_groups (§7.6.2). Members meet by their string tag and their
 * groups in comm/create_group.c (mmpi_comm_meet); the result is an ordinary communicator, so
 * every operation, MPIX_ ones included, works on it. Errors go to the handler passed in, the
 * one the new communicator would get (§7.4.2), with MPI_COMM_NULL as the object.
 *
 * On process failure: a member that failed before arriving makes the call fail with
 * MPI_ERR_PROC_FAILED at every other member; none waits for it longer than it takes the
 * failure to be known (create_group.c).
 */
#include <stdlib.h>
#include <string.h>

#include "comm/create.h"
#include "comm/info.h"
#include "comm/intercomm.h"
#include "group/group.h"

/* The checks both constructors make of errhandler, stringtag, info and the output pointer.
 * *eh is the handler errors go to (NULL when errhandler is bad: then errors have no object). */
static int check_common(struct mmpi_rank *self, MPI_Errhandler errhandler, const char *stringtag,
                        MPI_Info info, const void *out, struct mmpi_errhandler **eh,
                        struct mmpi_info **hints)
{
    *eh = mmpi_errhandler_get(self, errhandler);
    if (!*eh || ((*eh)->kind == MMPI_ERRH_USER && (*eh)->object != MMPI_ERRH_FOR_COMM)) {
        *eh = NULL;
        return MPI_ERR_ERRHANDLER;
    }
    if (!stringtag || strlen(stringtag) > MPI_MAX_STRINGTAG_LEN)
        return MPI_ERR_ARG;
    if (mmpi_info_arg(self, info, hints) != MPI_SUCCESS)
        return MPI_ERR_INFO;
    if (!out)
        return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

/* The end of both: the caller's handle for `core` (one reference, taken over), with the
 * handler and the standard hints of info. */
static int publish(struct mmpi_rank *self, struct mmpi_errhandler *eh, struct mmpi_comm_core *core,
                   int rank, MPI_Session session, const struct mmpi_info *hints,
                   MPI_Comm *newcomm)
{
    struct mmpi_comm *c = mmpi_comm_handle_object_eh(eh, core, rank);
    c->session = session; /* its group's */
    c->info = mmpi_comm_hints_copy(hints);
    return mmpi_comm_register(self, c, newcomm);
}

static int fail(struct mmpi_rank *self, struct mmpi_errhandler *eh, int err, MPI_Comm *newcomm,
                enum mmpi_call call)
{
    if (newcomm)
        *newcomm = MPI_COMM_NULL;
    return eh ? mmpi_err_invoke(self, eh, MPI_COMM_NULL, err, call)
              : mmpi_err_raise_comm(self, NULL, err, call);
}

MMPI_PROFILED(Comm_create_from_group);
int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_create_from_group);
    struct mmpi_group *g = mmpi_group_get(self, group);
    struct mmpi_errhandler *eh;
    struct mmpi_info *hints;
    struct mmpi_comm_core *core;
    int err, me;

    if ((err = check_common(self, errhandler, stringtag, info, newcomm, &eh, &hints)))
        goto fn_fail;
    MMPI_FAIL_IF(!g, MPI_ERR_GROUP);
    /* MPI_GROUP_EMPTY, or a process outside the group: no part in it, MPI_COMM_NULL (as
     * MPICH, and as MPI_Comm_create_group here). */
    if ((me = mmpi_group_rank_of_world(g, self->world_rank)) == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;
        goto fn_exit;
    }
    struct mmpi_comm_meet key = {0, 0, stringtag, g->size, g->size, g->world_ranks};
    if ((err = mmpi_comm_meet(self, &key, NULL, me, &core)))
        goto fn_fail;
    if ((err = publish(self, eh, core, me, g->session, hints, newcomm)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = fail(self, eh, err, newcomm, MMPI_CALL_Comm_create_from_group);
    goto fn_exit;
}

/* Whether groups a and b share a process (§7.6.2: they must be disjoint). */
static bool overlap(struct mmpi_rank *self, const struct mmpi_group *a, const struct mmpi_group *b)
{
    uint8_t *in = mmpi_xcalloc((size_t)mmpi_world_nranks(self->world), 1);
    bool shared = false;
    for (int i = 0; i < a->size; i++)
        in[a->world_ranks[i]] = 1;
    for (int i = 0; !shared && i < b->size; i++)
        shared = in[b->world_ranks[i]];
    free(in);
    return shared;
}

MMPI_PROFILED(Intercomm_create_from_groups);
int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                      MPI_Group remote_group, int remote_leader,
                                      const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Intercomm_create_from_groups);
    struct mmpi_group *lg = mmpi_group_get(self, local_group);
    struct mmpi_group *rg = mmpi_group_get(self, remote_group);
    struct mmpi_errhandler *eh;
    struct mmpi_info *hints;
    struct mmpi_comm_core *bridge;
    int *members = NULL;
    int err, me;

    if ((err = check_common(self, errhandler, stringtag, info, newintercomm, &eh, &hints)))
        goto fn_fail;
    /* The caller belongs to the local group; the remote one is not empty. */
    MMPI_FAIL_IF(!lg || !rg || rg->size == 0 ||
                     (me = mmpi_group_rank_of_world(lg, self->world_rank)) == MPI_UNDEFINED,
                 MPI_ERR_GROUP);
    MMPI_FAIL_IF(local_leader < 0 || local_leader >= lg->size || remote_leader < 0 ||
                     remote_leader >= rg->size,
                 MPI_ERR_RANK);
    MMPI_FAIL_IF(overlap(self, lg, rg), MPI_ERR_ARG); /* as MPI_Intercomm_create */
    /* Both groups meet as one list, in an order both see alike: the group of the leader with
     * the lower world rank first (side 0, as MPI_Intercomm_create orders them by peer rank). */
    int side = lg->world_ranks[local_leader] > rg->world_ranks[remote_leader];
    const struct mmpi_group *first = side ? rg : lg, *second = side ? lg : rg;
    int size = first->size + second->size;
    members = mmpi_xmalloc((size_t)size * sizeof(int));
    memcpy(members, first->world_ranks, (size_t)first->size * sizeof(int));
    memcpy(members + first->size, second->world_ranks, (size_t)second->size * sizeof(int));
    struct mmpi_comm_meet key = {0, 0, stringtag, first->size, size, members};
    if ((err = mmpi_comm_meet(self, &key, NULL, side ? first->size + me : me, &bridge)))
        goto fn_fail;
    if ((err = publish(self, eh, mmpi_intercomm_side(bridge, side), me, lg->session, hints,
                       newintercomm)))
        goto fn_fail;
fn_exit:
    free(members);
    return err;
fn_fail:
    err = fail(self, eh, err, newintercomm, MMPI_CALL_Intercomm_create_from_groups);
    goto fn_exit;
}
