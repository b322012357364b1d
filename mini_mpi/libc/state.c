/*
 * state.c: creating and freeing a rank's C library state (libc/libc.h): its working directory
 * (libc/fs.c), its image's variables (libc/bind.c), its environment (libc/env.c) and the rest.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libc/libc.h"

void mmpi_libc_rank_start(struct mmpi_rank *r)
{
    struct mmpi_libc *st = mmpi_xcalloc(1, sizeof(*st));
    MMPI_CHECK_PTHREAD(pthread_mutex_init(&st->random_lock, NULL));
    MMPI_CHECK_PTHREAD(pthread_mutex_init(&st->exit_lock, NULL));
    /* A process starts as if srandom(1) had been called (glibc's initial table is that state);
     * drand48_data starts zeroed, as glibc's static one does. */
    initstate_r(1, (char *)st->random_state, sizeof(st->random_state), &st->random);
    /* getopt's variables start as in a new process. */
    st->cells.optind = 1;
    st->cells.opterr = 1;
    st->cells.optopt = '?';
    st->cells.optarg = NULL;
    mmpi_libc_fs_start(r);
    mmpi_libc_bind(r, st);
    mmpi_libc_env_start(r, st);
    r->libc = st;
}

void mmpi_libc_rank_free(struct mmpi_rank *r)
{
    struct mmpi_libc *st = r->libc;
    free(r->start_env);
    free(r->start_dir);
    r->start_env = r->start_dir = NULL;
    if (!st)
        return;
    pthread_mutex_destroy(&st->random_lock);
    pthread_mutex_destroy(&st->exit_lock);
    free(st->at_exit.items);
    free(st->at_quick_exit.items);
    free(st->pw_buf);
    free(st->gr_buf);
    mmpi_libc_env_free(st);
    free(st);
    r->libc = NULL;
}
