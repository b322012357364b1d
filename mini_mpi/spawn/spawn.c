/*
 * spawn.c: the collective step of MPI_Comm_spawn(_multiple) and the start of the children
 * (spawn.h).
 *
 * Algorithm: the root checks its arguments and loads the children's program images
 * (program.c), then every member of the parents' communicator arrives on its board, the root
 * depositing its request. The last to arrive runs the combine step (under the board lock, so
 * exactly once): it appends the children to the world's table (mmpi_world_add_ranks), builds
 * their MPI_COMM_WORLD core and the intercommunicator (comm/intercomm.h: side 0 the parents'
 * group in comm order, side 1 the children in spawn order, one bridge), gives each child its
 * main, argv, world and parent, the environment lines (info "env") and directory (the root's, or
 * info "wdir") it starts with (libc/env.c, libc/fs.c), and starts their threads. Each parent then makes its handle
 * of side 0; each child makes its handle of side 1 in MPI_Init (mmpi_spawn_init_parent).
 * Cost: one board synchronization of the parents, plus loading one image per child.
 *
 * On process failure: a member that failed before arriving keeps the combine from running:
 * every live member gets MPI_ERR_PROC_FAILED and nothing is started (the root unloads its
 * images), so a program may shrink and retry (the ULFM replace pattern). A member that sees
 * the communicator revoked before the step completed returns MPI_ERR_REVOKED; a combine that
 * runs later sees the revoke and starts nothing (the reasoning of comm/create.c "On revoke").
 * Once started, children are ordinary ranks: their deaths, and the parents', are failures on
 * the intercommunicator like any other.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coll/board.h"
#include "comm/create.h"
#include "comm/info.h"
#include "comm/intercomm.h"
#include "spawn/spawn.h"

/* The root's deposit. */
struct spawn_request {
    int err;                    /* the root's verdict: MPI_SUCCESS or what everyone returns */
    int napps, total;
    struct mmpi_spawn_app *apps;
};

/* The combine step's result (one malloc'ed block, freed with the board instance); NULL
 * result: the communicator was revoked first. */
struct spawn_outcome {
    int err;
    int total;
    struct mmpi_comm_core *bridge;
};

static char **copy_strings(int n, char *const *s)
{
    char **copy = mmpi_xcalloc((size_t)n + 1, sizeof(char *));
    for (int i = 0; i < n; i++)
        copy[i] = mmpi_xstrdup(s[i]);
    return copy;
}

static int *consecutive(int first, int n)
{
    int *r = mmpi_xmalloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        r[i] = first + i;
    return r;
}

/* Board lock held (the combine step): appends and starts the children. */
static int start_children(struct mmpi_comm_core *pc, const struct spawn_request *req,
                          struct mmpi_comm_core **bridge_out)
{
    struct mmpi_world *w = mmpi_world;
    int total = req->total;
    int first = mmpi_world_add_ranks(w, total);
    if (first < 0) {
        fprintf(stderr, "mini_mpi: MPI_Comm_spawn: cannot add %d ranks: the job has held %d "
                        "and holds at most %d over its lifetime\n",
                total, mmpi_world_nranks(w), MMPI_MAX_RANKS);
        return MPI_ERR_SPAWN;
    }
    struct mmpi_comm_core *world = mmpi_comm_core_new(total, consecutive(first, total));
    world->refcount = total; /* each child's rank->world_core */
    int *parents = mmpi_xmalloc((size_t)pc->size * sizeof(int));
    memcpy(parents, pc->world_ranks, (size_t)pc->size * sizeof(int));
    struct mmpi_comm_core *bridge = mmpi_intercomm_new(pc->size, parents, pc->size, total,
                                                       consecutive(first, total), total);
    struct mmpi_comm_core *children_side = mmpi_intercomm_side(bridge, 1);
    for (int a = 0, k = 0; a < req->napps; a++) {
        const struct mmpi_spawn_app *app = &req->apps[a];
        for (int j = 0; j < app->maxprocs; j++, k++) {
            struct mmpi_rank *r = w->ranks[first + k];
            r->main = app->mains[j] ? app->mains[j] : w->entry;
            r->argc = app->argc;
            r->argv = copy_strings(app->argc, app->argv);
            r->world_core = world;
            r->parent_core = children_side; /* one of the side's `total` references */
            r->app_rank = k;
            r->appnum = a;
            r->start_env = app->env ? mmpi_xstrdup(app->env) : NULL;
            r->start_dir = mmpi_xstrdup(app->dir);
        }
    }
    for (int k = 0; k < total; k++)
        mmpi_world_start_rank(w->ranks[first + k]); /* one that cannot start has failed */
    *bridge_out = bridge;
    return MPI_SUCCESS;
}

static void spawn_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    if (mmpi_fault_revoked(&pc->fault))
        return; /* a member may have returned already: its deposit may be gone */
    const struct spawn_request *req = NULL;
    for (int i = 0; i < pc->size && !req; i++)
        req = mmpi_board_deposit(inst, i); /* only the root deposits */
    struct spawn_outcome *o = mmpi_xcalloc(1, sizeof(*o));
    o->err = req ? req->err : MPI_ERR_INTERN;
    o->total = req ? req->total : 0;
    if (o->err == MPI_SUCCESS)
        o->err = start_children(pc, req, &o->bridge);
    inst->result = o;
}

/* Where the children of app start, from the root's info: MPI_SUCCESS, or MPI_ERR_SPAWN after a
 * line on stderr. Called by the root, in its working directory. */
static int app_start_state(const struct mmpi_info *info, struct mmpi_spawn_app *app)
{
    const char *env = info ? mmpi_info_lookup(info, "env") : NULL;
    const char *wdir = info ? mmpi_info_lookup(info, "wdir") : NULL;
    char cwd[PATH_MAX];
    struct stat st;
    if (!getcwd(cwd, sizeof cwd)) {
        fprintf(stderr, "mini_mpi: MPI_Comm_spawn: the root's working directory: %s\n",
                strerror(errno));
        return MPI_ERR_SPAWN;
    }
    app->env = env ? mmpi_xstrdup(env) : NULL;
    if (!wdir || !*wdir) {
        app->dir = mmpi_xstrdup(cwd);
    } else if (wdir[0] == '/') {
        app->dir = mmpi_xstrdup(wdir);
    } else {
        size_t len = strlen(cwd) + strlen(wdir) + 2;
        app->dir = mmpi_xmalloc(len);
        snprintf(app->dir, len, "%s/%s", cwd, wdir);
    }
    if (stat(app->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "mini_mpi: MPI_Comm_spawn: the info key \"wdir\" names %s: not a "
                        "directory\n", app->dir);
        return MPI_ERR_SPAWN;
    }
    return MPI_SUCCESS;
}

/* The root's preparation: every command loaded, or the first error. */
static int prepare(struct mmpi_rank *self, int ncmds, const struct mmpi_spawn_command *cmds,
                   struct spawn_request *req)
{
    long total = 0;
    for (int i = 0; i < ncmds; i++)
        total += cmds[i].maxprocs; /* each checked positive and at most MMPI_MAX_RANKS */
    req->total = total > MMPI_MAX_RANKS ? 0 : (int)total;
    if (total > MMPI_MAX_RANKS - mmpi_world_nranks(self->world)) {
        fprintf(stderr, "mini_mpi: MPI_Comm_spawn: cannot add %ld ranks: the job has held %d "
                        "and holds at most %d over its lifetime\n",
                total, mmpi_world_nranks(self->world), MMPI_MAX_RANKS);
        return MPI_ERR_SPAWN;
    }
    req->apps = mmpi_xcalloc((size_t)ncmds, sizeof(*req->apps));
    for (int i = 0; i < ncmds; i++) {
        const struct mmpi_info *info =
            cmds[i].info == MPI_INFO_NULL || cmds[i].info == MPI_INFO_ENV
                ? NULL
                : mmpi_handle_lookup(self, MMPI_HANDLE_KIND_INFO, cmds[i].info);
        req->napps = i + 1;
        int err = mmpi_spawn_app_load(self, &cmds[i], info, &req->apps[i]);
        if (err == MPI_SUCCESS)
            err = app_start_state(info, &req->apps[i]);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

/* A member's view of the step once its arrival wait returned wait_err. */
static int outcome(struct mmpi_comm_core *pc, struct mmpi_board_instance *inst, int wait_err,
                   const struct spawn_outcome **o)
{
    int err = mmpi_board_result_outcome(pc, inst, wait_err);
    *o = err == MPI_SUCCESS ? inst->result : NULL;
    return *o ? (*o)->err : err;
}

int mmpi_spawn(struct mmpi_rank *self, struct mmpi_comm *c, int root, int root_err, int ncmds,
               const struct mmpi_spawn_command *cmds, struct mmpi_comm **out, int *total)
{
    struct mmpi_comm_core *pc = c->core;
    struct spawn_request req = {root_err, 0, 0, NULL};
    bool is_root = c->rank == root;
    if (is_root && req.err == MPI_SUCCESS)
        req.err = prepare(self, ncmds, cmds, &req);

    struct mmpi_board_instance *inst =
        mmpi_board_arrive(pc, c->coll_seq++, c->rank, is_root ? &req : NULL, spawn_combine);
    const struct spawn_outcome *o;
    int err = outcome(pc, inst, mmpi_board_wait_arrived(self, pc, inst), &o);
    *out = NULL;
    *total = o ? o->total : 0;
    if (err == MPI_SUCCESS)
        *out = mmpi_comm_handle_object(c, mmpi_intercomm_side(o->bridge, 0), c->rank);
    mmpi_board_leave(pc, inst, c->rank);

    for (int i = 0; i < req.napps; i++) /* the children run the images from now on */
        mmpi_spawn_app_free(&req.apps[i], err == MPI_SUCCESS);
    free(req.apps);
    return err;
}

void mmpi_spawn_init_parent(struct mmpi_rank *self)
{
    struct mmpi_comm_core *side = self->parent_core;
    if (!side)
        return;
    self->parent_core = NULL; /* its reference goes to the handle object */
    struct mmpi_comm *c = mmpi_comm_handle_object_eh(NULL, side, self->app_rank);
    snprintf(c->name, sizeof c->name, "MPI_COMM_PARENT"); /* Open MPI's name for it */
    MPI_Comm handle;
    if (mmpi_comm_register(self, c, &handle) == MPI_SUCCESS) /* a fresh table: never full */
        self->parent = c;
}
