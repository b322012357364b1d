/*
 * init.c: what MPI_Init and MPI_Finalize do to a rank. Init gives the rank its MPI_COMM_WORLD
 * and MPI_COMM_SELF handle objects, MPI_INFO_ENV and, in a spawned rank, the parent
 * intercommunicator's handle (spawn/); finalize only closes the rank's MPI
 * session. Neither synchronizes with other ranks: the world already exists when main() starts,
 * and MPI_Finalize must succeed even when ranks have failed (ULFM), so it waits for nobody.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "attr/attr.h"
#include "comm/info.h"
#include "init/init.h"
#include "restart/restart.h"
#include "spawn/spawn.h"
#include "mmpi.h"

static const char *thread_level_name(int level)
{
    static const char *const names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                        "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
    return names[level];
}

/* MPI-4.1 §11.2.5: the keys of MPI_INFO_ENV. */
struct mmpi_info *mmpi_info_env_new(struct mmpi_rank *self, int argc, char **argv,
                                    int thread_level)
{
    struct mmpi_info *info = mmpi_info_new();
    char buf[4096];
    struct utsname uts;

    if (!info)
        return NULL;
    if (argc > 0 && argv[0])
        mmpi_info_set(info, "command", argv[0]);
    buf[0] = '\0';
    for (int i = 1; i < argc && argv[i]; i++) {
        if (i > 1)
            strncat(buf, " ", sizeof(buf) - strlen(buf) - 1);
        strncat(buf, argv[i], sizeof(buf) - strlen(buf) - 1);
    }
    mmpi_info_set(info, "argv", buf);
    snprintf(buf, sizeof(buf), "%d", self->world_core->size);
    mmpi_info_set(info, "maxprocs", buf);
    mmpi_info_set(info, "soft", buf);
    if (gethostname(buf, sizeof(buf)) == 0)
        mmpi_info_set(info, "host", buf);
    if (uname(&uts) == 0)
        mmpi_info_set(info, "arch", uts.machine);
    if (getcwd(buf, sizeof(buf)))
        mmpi_info_set(info, "wdir", buf);
    mmpi_info_set(info, "thread_level", thread_level_name(thread_level));
    mmpi_info_set(info, "mpi_initial_errhandler", self->world->config.initial_errhandler);
    return info;
}

void mmpi_init(struct mmpi_rank *self, int required)
{
    self->thread_level = required < MPI_THREAD_SINGLE    ? MPI_THREAD_SINGLE
                         : required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE
                                                          : required;
    self->init_thread = pthread_self();

    mmpi_comm_core_retain(self->world_core);
    self->world_comm.core = self->world_core;
    self->world_comm.rank = self->app_rank;
    self->world_comm.handle = MPI_COMM_WORLD;
    self->world_comm.errhandler = NULL; /* unset: the initial handler (errhandler.c) */
    strcpy(self->world_comm.name, "MPI_COMM_WORLD");

    int *me = mmpi_xmalloc(sizeof(int));
    *me = self->world_rank;
    self->self_comm.core = mmpi_comm_core_new(1, me);
    self->self_comm.rank = 0;
    self->self_comm.handle = MPI_COMM_SELF;
    self->self_comm.errhandler = NULL; /* unset: the default is WORLD's (errhandler.c) */
    strcpy(self->self_comm.name, "MPI_COMM_SELF");

    self->info_env = mmpi_info_env_new(self, self->argc, self->argv, self->thread_level);
    if (!self->info_env)
        mmpi_die("out of memory creating MPI_INFO_ENV");
    self->info_env->handle = MPI_INFO_ENV;
    mmpi_attr_init(self);
    mmpi_spawn_init_parent(self);
    __atomic_store_n(&self->phase, MMPI_PHASE_INITIALIZED, __ATOMIC_RELEASE);
    mmpi_restart_init_done(self); /* a new incarnation: its restarters may return */
}

void mmpi_finalize(struct mmpi_rank *self)
{
    mmpi_attr_finalize(self); /* first: the delete callbacks may still call MPI (§11.2.2) */
    __atomic_store_n(&self->phase, MMPI_PHASE_FINALIZED, __ATOMIC_RELEASE);
    /* The world communicator's error handlers go now; the rank's reference to the shared
     * core is dropped when the world ends (rank_free), finalized or not. */
    mmpi_errhandler_release(self->world_comm.errhandler);
    mmpi_errhandler_release(self->self_comm.errhandler);
    self->world_comm.errhandler = &mmpi_errhandler_fatal;
    self->self_comm.errhandler = NULL;
    /* Acknowledged failures (ulfm/ack.c) on the predefined communicators, which are never
     * freed through MPI_Comm_free. */
    free(self->world_comm.acked);
    free(self->self_comm.acked);
    self->world_comm.acked = self->self_comm.acked = NULL;
}
