/*
 * env.h: one environment (the NULL-terminated "NAME=value" vector a process calls environ) and
 * the operations of getenv, setenv, unsetenv, putenv and clearenv on it, as glibc performs them
 * on its own. A rank's C library state (libc/libc.h) holds one; libc/env.c gives it to the
 * rank's program. Pure data: unit-tested directly (tests/unit/test_env.c).
 */
#ifndef MMPI_LIBC_ENV_H
#define MMPI_LIBC_ENV_H

#include <pthread.h>
#include <stddef.h>

struct mmpi_env_block;

struct mmpi_env {
    /* Where the environment's owner reads `environ`: the vector is *home. The program may
     * store its own vector there, which is then the environment (as with glibc's). Read
     * without the lock; written under it (and by the program, as a process's is). */
    char ***home;
    char **vec;                     /* the vector last allocated here (glibc's last_environ);
                                     * NULL after clearenv or before the first one */
    size_t cap;                     /* entries vec holds, its NULL included */
    pthread_mutex_t lock;           /* changes: set, unset, put, clear */
    struct mmpi_env_block *blocks;  /* every vector and string allocated here, freed together
                                     * by mmpi_env_free (never before: a pointer getenv
                                     * returned stays valid, as glibc's do) */
};

/* Makes *home a copy of `from` (vector and strings), then sets each "NAME=value" line of
 * `additions` (newline-separated, may be NULL; lines without '=' are skipped). */
void mmpi_env_init(struct mmpi_env *e, char ***home, char *const *from, const char *additions);
/* Frees every vector and string the environment allocated. */
void mmpi_env_free(struct mmpi_env *e);

/* glibc's getenv: the value of `name` in *home, or NULL. Lock-free. */
char *mmpi_env_get(const struct mmpi_env *e, const char *name);
/* setenv, unsetenv, putenv, clearenv: 0, or -1 with errno (EINVAL for a bad name, ENOMEM). */
int mmpi_env_set(struct mmpi_env *e, const char *name, const char *value, int overwrite);
int mmpi_env_unset(struct mmpi_env *e, const char *name);
int mmpi_env_put(struct mmpi_env *e, char *string);
int mmpi_env_clear(struct mmpi_env *e);

#endif
