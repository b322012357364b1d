/*
 * unit_world.h: lets a cmocka unit test run code inside ranks without the launcher. Unit tests
 * link the library objects statically (no __libc_start_main hook), so they start a world
 * themselves, in one shared image (no privatization: the test's globals are shared by ranks).
 *
 *   static void body(int rank, int size, void *arg) { ... }   // runs after MPI_Init
 *   unit_world_run(4, body, arg);                             // returns the job's exit status
 */
#ifndef UNIT_WORLD_H
#define UNIT_WORLD_H

#include <stdlib.h>
#include <string.h>

#include "mmpi.h"

typedef void unit_rank_body(int rank, int size, void *arg);

static unit_rank_body *unit_world_body;
static void *unit_world_arg;

static int unit_world_entry(int argc, char **argv, char **envp)
{
    int rank, size;
    (void)envp;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 90;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    unit_world_body(rank, size, unit_world_arg);
    MPI_Finalize();
    return 0;
}

/* Runs body in each of nranks rank-threads between MPI_Init and MPI_Finalize; returns the
 * job's exit status. Launch settings other than the rank count come from defaults. */
static inline int unit_world_run(int nranks, unit_rank_body *body, void *arg)
{
    struct mmpi_launch_config config;
    static char arg0[] = "unit_test";
    char *argv[] = {arg0, NULL};

    memset(&config, 0, sizeof(config));
    unsetenv("MINI_MPI_NP");
    if (!mmpi_launch_config_read(&config))
        return 2;
    config.nranks = nranks;
    config.privatize = false;
    unit_world_body = body;
    unit_world_arg = arg;
    return mmpi_world_run(&config, unit_world_entry, 1, argv, NULL);
}

#endif
