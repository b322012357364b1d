/*
 * real.h: the libc functions that mini_mpi interposes (exit, abort, raise, kill, pthread_create,
 * the per-rank C library state of libc/, ...), reached as libc defines them. The library exports
 * its own versions of these symbols so that a rank calling exit() ends only itself
 * (runtime/interpose.c); the library itself must call the real ones through these wrappers.
 * Resolved once, with dlsym(RTLD_NEXT), by one resolver (real.c).
 */
#ifndef MMPI_UTIL_REAL_H
#define MMPI_UTIL_REAL_H

#include <pthread.h>
#include <sys/types.h>

/* The C library's own definition of name (dlsym RTLD_NEXT), resolved once into *cache; ends
 * the process (status 127) when there is none. Safe before a sanitizer's runtime is ready. */
void *mmpi_real_symbol(const char *name, void **cache);
/* Defines `static type real_name(void)`, returning libc's definition of name. */
#define MMPI_REAL(type, name)                                                                 \
    static type real_##name(void)                                                             \
    {                                                                                          \
        static void *cache;                                                                    \
        return (type)mmpi_real_symbol(#name, &cache);                                          \
    }

__attribute__((noreturn)) void mmpi_real_exit(int status);
__attribute__((noreturn)) void mmpi_real__exit(int status);
__attribute__((noreturn)) void mmpi_real_abort(void);
int mmpi_real_raise(int sig);
int mmpi_real_kill(pid_t pid, int sig);
int mmpi_real_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             void *(*start)(void *), void *arg);
/* The first pthread_create in the process's search order: a sanitizer's interceptor when the
 * program was built with -fsanitize=thread or address (its runtime comes before libmini_mpi),
 * else libmini_mpi's own. runtime/interpose.c's mmpi_thread_create_unowned goes through it. */
int mmpi_first_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                              void *(*start)(void *), void *arg);

#endif
