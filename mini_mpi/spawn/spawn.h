/*
 * spawn.h: dynamic process creation (MPI-4.1 §11.8.2–11.8.3), the implementation behind
 * MPI_Comm_spawn, MPI_Comm_spawn_multiple and MPI_Comm_get_parent (spawn/spawn_api.c).
 *
 * Spawned processes are new ranks of the same job: rank-threads appended to the world's table
 * (ranks_as_threads.c, mmpi_world_add_ranks), each running main() of its own private copy of
 * the command's program, with their own MPI_COMM_WORLD. Everything the runtime does for ranks
 * holds for them: failure detection, the hang monitor, reclaim at world end, the exit status;
 * the job ends when every rank, spawned or not, has ended.
 *
 * program.c turns a command into program images (at the root, before the collective step);
 * spawn.c runs the collective over the parents' communicator and starts the children.
 */
#ifndef MMPI_SPAWN_SPAWN_H
#define MMPI_SPAWN_SPAWN_H

#include "mmpi.h"
#include "runtime/private_image.h"

struct mmpi_info;

/* One command as the caller gave it (significant at the root only). */
struct mmpi_spawn_command {
    const char *command;
    char **argv;           /* MPI_ARGV_NULL: no arguments */
    int maxprocs;
    MPI_Info info;
};

/* One command made ready by the root: what its children run. Owned by the root's call. */
struct mmpi_spawn_app {
    int argc;              /* the command and its arguments */
    char **argv;           /* [argc + 1], malloc'ed copies; each child gets its own copy */
    int maxprocs;
    mmpi_main_fn *mains;   /* [maxprocs]: each child's main; NULL: the shared image's entry */
    void **images;         /* [maxprocs]: dlopen handles of private images, NULL where none */
    char *env;             /* the info key "env" (NAME=value lines for the children's
                            * environment, libc/env.c), or NULL */
    char *dir;             /* the children's working directory: the info key "wdir", relative
                            * to the root's directory, or the root's directory */
};

/* Resolves `cmd` (a path, or a name looked up in the info's "path" directories, $PATH, then
 * the current directory) and loads maxprocs private images of its program into app. The
 * program itself (same file as /proc/self/exe) or another executable linked by mpicc against
 * this libmini_mpi. MPI_SUCCESS, or MPI_ERR_SPAWN after one line on stderr saying why
 * (missing, not executable, not a program mpicc linked). Called by the root only. */
int mmpi_spawn_app_load(struct mmpi_rank *self, const struct mmpi_spawn_command *cmd,
                        const struct mmpi_info *info, struct mmpi_spawn_app *app);
/* Frees app; its images too unless `keep` (children run them). */
void mmpi_spawn_app_free(struct mmpi_spawn_app *app, bool keep);

/* The collective over the intracommunicator c (every member calls it): the root, whose own
 * argument checks gave root_err, prepares ncmds commands; if every member arrives and the
 * root's preparation succeeded, the children start and *out is the caller's handle object of
 * the new intercommunicator (parents: local group, children: remote group). *total: how many
 * children the root asked for (0 when unknown). Returns MPI_SUCCESS or the error class every
 * member gets: the root's (MPI_ERR_ARG, MPI_ERR_INFO, MPI_ERR_SPAWN), MPI_ERR_PROC_FAILED (a
 * member failed before arriving: nothing is started), MPI_ERR_REVOKED. May block. */
int mmpi_spawn(struct mmpi_rank *self, struct mmpi_comm *c, int root, int root_err, int ncmds,
               const struct mmpi_spawn_command *cmds, struct mmpi_comm **out, int *total);

/* The checks every member of a rooted dynamic-process collective (spawn, accept, connect)
 * makes of what is significant everywhere: the intracommunicator c (MPI_ERR_COMM, then
 * MPI_ERR_REVOKED), the output handle pointer out (MPI_ERR_ARG), the root (MPI_ERR_ROOT). */
int mmpi_spawn_member_args(const struct mmpi_comm *c, const void *out, int root);

/* MPI_Init of a spawned rank: registers its parent intercommunicator's handle (rank.h
 * parent). Does nothing in other ranks. Called only by the owning rank. */
void mmpi_spawn_init_parent(struct mmpi_rank *self);

#endif
