/*
 * program.c: what a spawn command runs (spawn.h). The root resolves the command to a file,
 * decides whether it is the running program (same device and inode as /proc/self/exe, however
 * it is spelled: argv[0], relative or absolute) or another one, and loads one private image
 * per child (runtime/private_image.c), before the collective step, so that no board lock is
 * held while images load. Another program must have been linked by mpicc against this
 * libmini_mpi: its image's own MPI calls must reach this library (checked on PMPI_Init).
 *
 * Not here: the collective, starting the children (spawn.c).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "comm/info.h"
#include "spawn/spawn.h"

static void complain(const char *cmd, const char *why)
{
    fprintf(stderr, "mini_mpi: MPI_Comm_spawn: cannot spawn '%s': %s\n", cmd, why);
}

/* Whether dir/name is an executable regular file; fills out. */
static bool try_dir(const char *dir, size_t dirlen, const char *name, char *out, size_t len)
{
    struct stat st;
    if (dirlen == 0) { /* an empty $PATH entry means the current directory */
        dir = ".";
        dirlen = 1;
    }
    if ((size_t)snprintf(out, len, "%.*s/%s", (int)dirlen, dir, name) >= len)
        return false;
    return stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0;
}

/* Looks name up in a ':'-separated list of directories. */
static bool search(const char *dirs, const char *name, char *out, size_t len)
{
    while (dirs) {
        const char *end = strchr(dirs, ':');
        size_t n = end ? (size_t)(end - dirs) : strlen(dirs);
        if (try_dir(dirs, n, name, out, len))
            return true;
        dirs = end ? end + 1 : NULL;
    }
    return false;
}

/* The file a command names (MPI-4.1 §11.8.2 leaves the search to the implementation; this is
 * Open MPI's order: the info key "path", then $PATH, then the current directory). A command
 * with a '/' is taken as it is. False (with a message) when nothing is found. */
static bool resolve(const char *cmd, const struct mmpi_info *info, char *out, size_t len)
{
    if (strchr(cmd, '/')) {
        snprintf(out, len, "%s", cmd);
        return true;
    }
    const char *path = info ? mmpi_info_lookup(info, "path") : NULL;
    if ((path && search(path, cmd, out, len)) || search(getenv("PATH"), cmd, out, len) ||
        try_dir(".", 1, cmd, out, len))
        return true;
    complain(cmd, "not found in the info key \"path\", $PATH or the current directory");
    return false;
}

/* Whether the file is runnable at all: a regular, executable file. */
static bool check_file(const char *cmd, const char *file, struct stat *st)
{
    char why[PATH_MAX + 64];
    if (stat(file, st) != 0) {
        snprintf(why, sizeof why, "%s: %s", file, strerror(errno));
        complain(cmd, why);
        return false;
    }
    if (!S_ISREG(st->st_mode) || access(file, X_OK) != 0) {
        snprintf(why, sizeof why, "%s is not an executable file", file);
        complain(cmd, why);
        return false;
    }
    return true;
}

/* Through open + fstat, as private_image.c reads it (valgrind redirects that open). */
static bool is_running_program(const struct stat *st)
{
    struct stat self;
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    bool same = fd >= 0 && fstat(fd, &self) == 0 && self.st_dev == st->st_dev &&
                self.st_ino == st->st_ino;
    if (fd >= 0)
        close(fd);
    return same;
}

/* Another program's image must bind its MPI calls to this library, not to a copy of its own. */
static bool binds_here(const char *cmd, void *image)
{
    void *theirs = dlsym(image, "PMPI_Init");
    if (theirs == (void *)PMPI_Init)
        return true;
    complain(cmd, theirs ? "it uses another copy of libmini_mpi.so"
                         : "it is not an MPI program linked by mpicc");
    return false;
}

static char **copy_argv(const char *command, char **args, int *argc)
{
    int n = 0;
    while (args && args[n])
        n++;
    char **argv = mmpi_xcalloc((size_t)n + 2, sizeof(char *));
    argv[0] = mmpi_xstrdup(command);
    for (int i = 0; i < n; i++)
        argv[i + 1] = mmpi_xstrdup(args[i]);
    *argc = n + 1;
    return argv;
}

int mmpi_spawn_app_load(struct mmpi_rank *self, const struct mmpi_spawn_command *cmd,
                        const struct mmpi_info *info, struct mmpi_spawn_app *app)
{
    char file[PATH_MAX];
    struct stat st;
    int n = cmd->maxprocs;

    app->maxprocs = n;
    app->argv = copy_argv(cmd->command, cmd->argv, &app->argc);
    app->mains = mmpi_xcalloc((size_t)n, sizeof(*app->mains));
    app->images = mmpi_xcalloc((size_t)n, sizeof(*app->images));
    if (!resolve(cmd->command, info, file, sizeof file) || !check_file(cmd->command, file, &st))
        return MPI_ERR_SPAWN;
    bool myself = is_running_program(&st);
    if (myself && !self->world->config.privatize)
        return MPI_SUCCESS; /* every child runs the shared image's main */
    /* Messages name the children by the world ranks they will probably get. */
    int label = mmpi_world_nranks(self->world);
    if (!mmpi_private_images_load_file(myself ? "/proc/self/exe" : file, n, label, app->mains,
                                       app->images)) {
        complain(cmd->command, "its program images could not be loaded (above)");
        return MPI_ERR_SPAWN;
    }
    if (!myself && !binds_here(cmd->command, app->images[0]))
        return MPI_ERR_SPAWN;
    return MPI_SUCCESS;
}

void mmpi_spawn_app_free(struct mmpi_spawn_app *app, bool keep)
{
    for (int i = 0; app->images && i < app->maxprocs; i++)
        if (app->images[i] && !keep)
            dlclose(app->images[i]);
    for (int i = 0; app->argv && i < app->argc; i++)
        free(app->argv[i]);
    free(app->argv);
    free(app->mains);
    free(app->images);
    free(app->env);
    free(app->dir);
    memset(app, 0, sizeof(*app));
}
