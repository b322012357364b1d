/*
 * create_more_api.c: MPI entry points of the intracommunicator constructors beyond dup and
 * split (create_api.c), in MPI-4.1 §7.4.2's order: Comm_create, Comm_create_group,
 * Comm_split_type, Comm_dup_with_info, Comm_idup, Comm_idup_with_info; the communicator info
 * calls (§7.4.4) and Comm_disconnect (§11.10.4). The work is in create.c, create_group.c and
 * idup.c. Comm_create, Comm_dup_with_info and the idups also take an intercommunicator
 * (§7.4.2, since MPI-2.2); Comm_create_group and Comm_split_type refuse one (MPI_ERR_COMM).
 */
#include <stdlib.h>
#include <string.h>

#include "attr/attr.h"
#include "comm/create.h"
#include "comm/info.h"
#include "group/group.h"
#include "pt2pt/pt2pt.h"

/* The checks of mmpi_comm_check_parent, for a constructor that also takes an
 * intercommunicator (inter_ok). */
static int check_parent(const struct mmpi_comm *c, const void *out, bool inter_ok)
{
    if (!c || (c->core->remote && !inter_ok))
        return MPI_ERR_COMM;
    if (!out)
        return MPI_ERR_ARG;
    if (mmpi_fault_revoked(&c->core->fault))
        return MPI_ERR_REVOKED;
    return MPI_SUCCESS;
}

int mmpi_comm_check_parent(const struct mmpi_comm *c, const void *out)
{
    return check_parent(c, out, false);
}

/* The hints of §7.4.4, the only ones a communicator keeps: MPI-4.1 §10 "If a function does not
 * recognize a key, it will ignore it", and MPI_Comm_get_info returns only "user-supplied hints
 * that were not ignored" (§7.4.4), so an unknown key does not come back (as in MPICH and Open
 * MPI). */
static const char *const standard_hints[] = {"mpi_assert_no_any_tag", "mpi_assert_no_any_source",
                                             "mpi_assert_exact_length",
                                             "mpi_assert_allow_overtaking"};
#define NSTANDARD_HINTS (sizeof(standard_hints) / sizeof(standard_hints[0]))

static bool is_known_hint(const char *key)
{
    for (size_t i = 0; i < NSTANDARD_HINTS; i++)
        if (!strcmp(key, standard_hints[i]))
            return true;
    return false;
}

/* Sets into dst the hints of src it knows; later values replace earlier ones. */
static int merge_known_hints(struct mmpi_info *dst, const struct mmpi_info *src)
{
    int err = MPI_SUCCESS;
    for (int i = 0; err == MPI_SUCCESS && i < src->n; i++)
        if (is_known_hint(src->keys[i]))
            err = mmpi_info_set(dst, src->keys[i], src->values[i]);
    return err;
}

struct mmpi_info *mmpi_comm_hints_copy(const struct mmpi_info *info)
{
    struct mmpi_info *copy = info ? mmpi_info_new() : NULL;
    if (copy && (merge_known_hints(copy, info) != MPI_SUCCESS || copy->n == 0)) {
        mmpi_info_release(copy);
        copy = NULL;
    }
    return copy;
}

/* Whether every member of g is a member of the communicator (§7.4.2: a subgroup). */
static bool is_subgroup(struct mmpi_rank *self, const struct mmpi_comm *c,
                        const struct mmpi_group *g)
{
    uint8_t *in = mmpi_xcalloc((size_t)mmpi_world_nranks(self->world), 1);
    bool ok = true;
    for (int i = 0; i < c->core->size; i++)
        in[c->core->world_ranks[i]] = 1;
    for (int i = 0; ok && i < g->size; i++)
        ok = in[g->world_ranks[i]];
    free(in);
    return ok;
}

/* The end of every constructor: registers *part (NULL: MPI_COMM_NULL). */
static int publish(struct mmpi_rank *self, int err, struct mmpi_comm **part, MPI_Comm *newcomm)
{
    *newcomm = MPI_COMM_NULL;
    if (err == MPI_SUCCESS && *part)
        err = mmpi_comm_register(self, *part, newcomm);
    return err;
}

static int fail_create(struct mmpi_rank *self, struct mmpi_comm *c, int err, MPI_Comm *newcomm,
                 enum mmpi_call call)
{
    if (newcomm)
        *newcomm = MPI_COMM_NULL;
    return mmpi_err_raise_comm(self, c, err, call);
}

MMPI_PROFILED(Comm_create);
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_create);
    struct mmpi_comm *c = mmpi_comm_get(self, comm), *part = NULL;
    struct mmpi_group *g = mmpi_group_get(self, group);
    int err = MPI_SUCCESS;

    if ((err = check_parent(c, newcomm, true)))
        goto fn_fail;
    MMPI_FAIL_IF(!g || !is_subgroup(self, c, g), MPI_ERR_GROUP);
    if ((err = publish(self, mmpi_comm_create(self, c, g, &part), &part, newcomm)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = fail_create(self, c, err, newcomm, MMPI_CALL_Comm_create);
    goto fn_exit;
}

MMPI_PROFILED(Comm_create_group);
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_create_group);
    struct mmpi_comm *c = mmpi_comm_get(self, comm), *part = NULL;
    struct mmpi_group *g = mmpi_group_get(self, group);
    int err = MPI_SUCCESS;

    if ((err = mmpi_comm_check_parent(c, newcomm)))
        goto fn_fail;
    MMPI_FAIL_IF(!g || !is_subgroup(self, c, g), MPI_ERR_GROUP);
    MMPI_FAIL_IF(tag < 0 || tag > MMPI_TAG_UB, MPI_ERR_TAG); /* MPI_ANY_TAG is not a tag here */
    /* A process outside the group takes no part and gets MPI_COMM_NULL (as MPICH). */
    if (mmpi_group_rank_of_world(g, self->world_rank) == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;
        goto fn_exit;
    }
    if ((err = publish(self, mmpi_comm_create_group(self, c, g, tag, &part), &part, newcomm)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = fail_create(self, c, err, newcomm, MMPI_CALL_Comm_create_group);
    goto fn_exit;
}

/* The colour a split_type gives the calling rank. All ranks share one node and one memory, so
 * MPI_COMM_TYPE_SHARED (and HW_GUIDED or RESOURCE_GUIDED asking for "mpi_shared_memory", or
 * hwloc's "machine", as MPICH names the node) keeps everyone together, and no hardware level
 * lies below that: HW_UNGUIDED, which must return strict subsets, returns MPI_COMM_NULL
 * (§7.4.2), as do HW_GUIDED and RESOURCE_GUIDED with a resource type we do not know or none. */
static int split_type_color(int split_type, const struct mmpi_info *info, int *color)
{
    const char *hw = info ? mmpi_info_lookup(info, "mpi_hw_resource_type") : NULL;
    switch (split_type) {
    case MPI_UNDEFINED: *color = MPI_UNDEFINED; return MPI_SUCCESS;
    case MPI_COMM_TYPE_SHARED: *color = 0; return MPI_SUCCESS;
    case MPI_COMM_TYPE_HW_UNGUIDED: *color = MPI_UNDEFINED; return MPI_SUCCESS;
    case MPI_COMM_TYPE_HW_GUIDED:
    case MPI_COMM_TYPE_RESOURCE_GUIDED:
        *color = hw && (!strcmp(hw, "mpi_shared_memory") || !strcmp(hw, "machine"))
                     ? 0
                     : MPI_UNDEFINED;
        return MPI_SUCCESS;
    default: return MPI_ERR_ARG;
    }
}

MMPI_PROFILED(Comm_split_type);
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                         MPI_Comm *newcomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_split_type);
    struct mmpi_comm *c = mmpi_comm_get(self, comm), *part = NULL;
    struct mmpi_info *hints = NULL;
    int color = MPI_UNDEFINED, err = MPI_SUCCESS;

    if ((err = mmpi_comm_check_parent(c, newcomm)))
        goto fn_fail;
    if ((err = mmpi_info_arg(self, info, &hints)))
        goto fn_fail;
    if ((err = split_type_color(split_type, hints, &color)))
        goto fn_fail;
    if ((err = publish(self, mmpi_comm_split(self, c, color, key, &part), &part, newcomm)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = fail_create(self, c, err, newcomm, MMPI_CALL_Comm_split_type);
    goto fn_exit;
}

MMPI_PROFILED(Comm_dup_with_info);
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_dup_with_info);
    struct mmpi_comm *c = mmpi_comm_get(self, comm), *dup = NULL;
    struct mmpi_info *hints = NULL;
    int err = MPI_SUCCESS;

    if ((err = check_parent(c, newcomm, true)))
        goto fn_fail;
    if ((err = mmpi_info_arg(self, info, &hints)))
        goto fn_fail;
    err = mmpi_comm_dup(self, c, &dup);
    if (err == MPI_SUCCESS) /* the given hints replace the parent's (§7.4.2) */
        err = mmpi_comm_finish_dup(self, c, dup, mmpi_comm_hints_copy(hints), newcomm);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = fail_create(self, c, err, newcomm, MMPI_CALL_Comm_dup_with_info);
    goto fn_exit;
}

static int idup(MPI_Comm comm, bool with_info, MPI_Info info, MPI_Comm *newcomm,
                MPI_Request *request, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_info *hints = NULL;
    int err = MPI_SUCCESS;

    if ((err = check_parent(c, newcomm, true)))
        goto fn_fail;
    MMPI_FAIL_IF(!request, MPI_ERR_ARG);
    if (with_info && (err = mmpi_info_arg(self, info, &hints)))
        goto fn_fail;
    if (!with_info)
        hints = c->info;
    if ((err = mmpi_comm_idup(self, c, mmpi_comm_hints_copy(hints), newcomm, request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (request)
        *request = MPI_REQUEST_NULL;
    err = fail_create(self, c, err, newcomm, call);
    goto fn_exit;
}

MMPI_PROFILED(Comm_idup);
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return idup(comm, false, MPI_INFO_NULL, newcomm, request, MMPI_CALL_Comm_idup);
}

MMPI_PROFILED(Comm_idup_with_info);
int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                             MPI_Request *request)
{
    return idup(comm, true, info, newcomm, request, MMPI_CALL_Comm_idup_with_info);
}

/* ---- Info (§7.4.4) ------------------------------------------------------------------------ */

MMPI_PROFILED(Comm_set_info);
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_set_info);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_info *hints = NULL;
    struct mmpi_info *merged;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    if ((err = mmpi_info_arg(self, info, &hints)))
        goto fn_fail;
    MMPI_FAIL_IF(!hints, MPI_ERR_INFO); /* MPI_INFO_NULL is not an info object */
    /* Later calls add to or replace earlier values. */
    merged = c->info ? c->info : mmpi_info_new();
    if (merged)
        err = merge_known_hints(merged, hints);
    if (!merged)
        err = MPI_ERR_NO_MEM;
    else
        c->info = merged;
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Comm_set_info);
    goto fn_exit;
}

/* The standard hints, every one with its value or its default "false" (as MPICH and Open MPI
 * report them). */
static struct mmpi_info *hints_used(const struct mmpi_comm *c)
{
    struct mmpi_info *used = mmpi_info_new();
    int err = used ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (size_t i = 0; err == MPI_SUCCESS && i < NSTANDARD_HINTS; i++)
        err = mmpi_info_set(used, standard_hints[i], "false");
    for (int i = 0; err == MPI_SUCCESS && c->info && i < c->info->n; i++)
        err = mmpi_info_set(used, c->info->keys[i], c->info->values[i]);
    if (err != MPI_SUCCESS && used) {
        mmpi_info_release(used);
        used = NULL;
    }
    return used;
}

MMPI_PROFILED(Comm_get_info);
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_get_info);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_info *copy = NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(!info_used, MPI_ERR_ARG);
    MMPI_FAIL_IF(!(copy = hints_used(c)), MPI_ERR_NO_MEM);
    copy->handle = mmpi_handle_new(self, MMPI_HANDLE_KIND_INFO, copy);
    if (copy->handle == MPI_INFO_NULL) {
        mmpi_info_release(copy);
        err = MPI_ERR_NO_MEM;
        goto fn_fail;
    }
    *info_used = copy->handle; /* the program frees it (§7.4.4) */
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Comm_get_info);
    goto fn_exit;
}

/* ---- Disconnect (§11.10.4) ----------------------------------------------------------------- */

/* Collective: every member synchronizes on the board, so that none frees its handle while
 * another may still be sending it something; then the handle goes as with MPI_Comm_free.
 * Requests still pending on the communicator hold their own reference to its core and stay
 * completable. With a failed member the synchronization reports MPI_ERR_PROC_FAILED (ULFM:
 * finite time) and the handle is freed all the same, so the program is not left with it. */
MMPI_PROFILED(Comm_disconnect);
int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_disconnect);
    struct mmpi_comm *c = comm ? mmpi_comm_get(self, *comm) : NULL;
    struct mmpi_comm keep;       /* for the error handler, after the handle is gone */
    struct mmpi_comm *on = NULL; /* the communicator an error is raised on */
    int err = MPI_SUCCESS, del;

    MMPI_FAIL_IF(!comm, MPI_ERR_ARG);
    MMPI_FAIL_IF(!c || *comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF, MPI_ERR_COMM);
    err = mmpi_comm_sync(self, c); /* raised once the handle is gone */
    if ((del = mmpi_attr_comm_free(self, c))) {
        err = del;
        on = c;
        goto fn_fail;
    }
    keep = *c;
    mmpi_errhandler_retain(keep.errhandler);
    mmpi_comm_release(self, c);
    *comm = MPI_COMM_NULL;
    keep.handle = MPI_COMM_NULL;
    on = &keep;
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    if (on == &keep)
        mmpi_errhandler_release(keep.errhandler);
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, on, err, MMPI_CALL_Comm_disconnect);
    goto fn_exit;
}
