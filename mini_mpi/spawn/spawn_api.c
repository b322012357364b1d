/*
 * spawn/spawn_api.c: MPI entry points of process creation (MPI-4.1 §11.8.2–11.8.3), in the
 * chapter's order: MPI_Comm_spawn, MPI_Comm_get_parent, MPI_Comm_spawn_multiple. The work is
 * in spawn.c and program.c.
 *
 * Errors: the communicator, the root and the output pointer are checked at every member (all
 * of them are significant everywhere); the command arguments, significant only at the root,
 * are checked there and the verdict travels through the collective step, so that every member
 * returns the same error class instead of waiting for a root that gave up (MPICH and Open MPI
 * raise such errors at the root only).
 */
#include <stdlib.h>

#include "comm/create.h"
#include "comm/info.h"
#include "spawn/spawn.h"

/* MPI-4.1 §11.8.2: array_of_errcodes has one entry per process asked for. */
static void fill_errcodes(int *errcodes, int n, int code)
{
    for (int i = 0; errcodes != MPI_ERRCODES_IGNORE && i < n; i++)
        errcodes[i] = code;
}

/* The root's own arguments. */
static int check_commands(struct mmpi_rank *self, int n, const struct mmpi_spawn_command *cmds)
{
    for (int i = 0; i < n; i++) {
        struct mmpi_info *hints;
        /* Handles first, as MPICH checks them: a bad info is MPI_ERR_INFO whatever the rest. */
        if (mmpi_info_arg(self, cmds[i].info, &hints) != MPI_SUCCESS)
            return MPI_ERR_INFO;
        if (!cmds[i].command || !*cmds[i].command)
            return MPI_ERR_ARG;
        if (cmds[i].maxprocs <= 0)
            return MPI_ERR_ARG;
        if (cmds[i].maxprocs > MMPI_MAX_RANKS)
            return MPI_ERR_SPAWN; /* more than the job can ever hold */
    }
    return MPI_SUCCESS;
}

int mmpi_spawn_member_args(const struct mmpi_comm *c, const void *out, int root)
{
    int err = mmpi_comm_check_parent(c, out);
    if (err == MPI_SUCCESS && (root < 0 || root >= c->core->size))
        err = MPI_ERR_ROOT;
    return err;
}

/* What both spawn calls share once their own arguments are gathered: checks, the
 * collective, the new handle, the error codes. root_err: the root's checks of what only it
 * was given. */
static int spawn(struct mmpi_rank *self, enum mmpi_call call, int ncmds,
                 const struct mmpi_spawn_command *cmds, int root_err, int root, MPI_Comm comm,
                 MPI_Comm *intercomm, int *errcodes)
{
    struct mmpi_comm *c = mmpi_comm_get(self, comm), *inter = NULL;
    int total = 0;
    int err = mmpi_spawn_member_args(c, intercomm, root);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    if (c->rank == root && root_err == MPI_SUCCESS)
        root_err = check_commands(self, ncmds, cmds);
    err = mmpi_spawn(self, c, root, root_err, ncmds, cmds, &inter, &total);
    if (err == MPI_SUCCESS)
        err = mmpi_comm_register(self, inter, intercomm);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    fill_errcodes(errcodes, total, MPI_SUCCESS);
fn_exit:
    return err;
fn_fail:
    if (intercomm)
        *intercomm = MPI_COMM_NULL;
    fill_errcodes(errcodes, total, err);
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Comm_spawn);
int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_spawn);
    struct mmpi_spawn_command cmd = {command, argv, maxprocs, info};
    return spawn(self, MMPI_CALL_Comm_spawn, 1, &cmd, MPI_SUCCESS, root, comm, intercomm,
                 array_of_errcodes);
}

MMPI_PROFILED(Comm_get_parent);
int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_get_parent);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!parent, MPI_ERR_ARG);
    /* §11.8.2: MPI_COMM_NULL in processes not spawned, and once the parent communicator was
     * freed or disconnected (comm/create.c forgets it then). */
    *parent = self->parent ? self->parent->handle : MPI_COMM_NULL;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Comm_get_parent);
    goto fn_exit;
}

MMPI_PROFILED(Comm_spawn_multiple);
int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[],
                             int root, MPI_Comm comm, MPI_Comm *intercomm,
                             int array_of_errcodes[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_spawn_multiple);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_spawn_command *cmds = NULL;
    int root_err = MPI_SUCCESS;

    /* Significant at the root only: gather them there (a bad count or array is the root's
     * error, which every member then returns). */
    if (c && !c->core->remote && c->rank == root) {
        if (count <= 0 || count > MMPI_MAX_RANKS || !array_of_commands || !array_of_maxprocs ||
            !array_of_info) {
            root_err = MPI_ERR_ARG;
        } else {
            cmds = mmpi_xcalloc((size_t)count, sizeof(*cmds));
            for (int i = 0; i < count; i++)
                cmds[i] = (struct mmpi_spawn_command){
                    array_of_commands[i],
                    array_of_argv == MPI_ARGVS_NULL ? MPI_ARGV_NULL : array_of_argv[i],
                    array_of_maxprocs[i], array_of_info[i]};
        }
    }
    int err = spawn(self, MMPI_CALL_Comm_spawn_multiple, cmds ? count : 0, cmds, root_err,
                    root, comm, intercomm, array_of_errcodes);
    free(cmds);
    return err;
}
