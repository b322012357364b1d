/*
 * launch_hook.c: how a program linked against libmini_mpi becomes a world of ranks. The
 * executable's start code calls __libc_start_main; libmini_mpi, a direct dependency, defines it
 * first in the search order, so we receive the program's main and hand libc our launcher
 * instead. The launcher reads the MINI_MPI_* variables, checks the job against the host's limits
 * (runtime/host_limits.c), loads one private image per rank, runs
 * the world, and returns the job's exit status to libc, which exits with it.
 *
 * This file is linked into libmini_mpi.so only: unit tests link the library objects statically
 * and start their worlds themselves.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "mmpi.h"
#include "runtime/host_limits.h"
#include "runtime/private_image.h"
#include "runtime/private_libs.h"

typedef int (*start_main_fn)(mmpi_main_fn, int, char **, void (*)(void), void (*)(void),
                             void (*)(void), void *);

static mmpi_main_fn program_main;

static int launcher_main(int argc, char **argv, char **envp)
{
    struct mmpi_launch_config config;
    mmpi_main_fn *mains = NULL;
    (void)envp;

    if (!mmpi_launch_config_read(&config) || !mmpi_host_limits_check(&config))
        return 2;
    if (config.privatize) {
        mmpi_private_libs_set_args(argc, argv);
        mains = mmpi_xcalloc((size_t)config.nranks, sizeof(*mains));
        if (!mmpi_private_images_load(config.nranks, mains))
            return 2;
    }
    int status = mmpi_world_run(&config, program_main, argc, argv, mains);
    free(mains);
    return status;
}

/* Not declared by any libc header: the ABI entry point the start code calls. */
__attribute__((visibility("default"))) int __libc_start_main(
    mmpi_main_fn main, int argc, char **argv, void (*init)(void), void (*fini)(void),
    void (*rtld_fini)(void), void *stack_end);
__attribute__((visibility("default"))) int __libc_start_main(
    mmpi_main_fn main, int argc, char **argv, void (*init)(void), void (*fini)(void),
    void (*rtld_fini)(void), void *stack_end)
{
    start_main_fn real = (start_main_fn)dlsym(RTLD_NEXT, "__libc_start_main");
    if (!real) {
        fprintf(stderr, "mini_mpi: cannot find libc's __libc_start_main\n");
        return 127;
    }
    program_main = main;
    return real(launcher_main, argc, argv, init, fini, rtld_fini, stack_end);
}
