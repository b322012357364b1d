/*
 * real.c: the one resolver of the libc definitions of the symbols the library takes over
 * (runtime/interpose.c, libc/). dlsym with RTLD_NEXT finds the next definition after this
 * object in the search order, which is libc's (or a sanitizer runtime's that the program's link
 * put after libmini_mpi). The first definition of pthread_create (RTLD_DEFAULT) is resolved
 * too: the library's own threads start through it, so that a sanitizer whose runtime comes
 * first sees them. Resolution is lazy and idempotent (a benign race: every thread stores the
 * same pointer).
 */
#include "util/real.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

/* Uninstrumented: libc/'s interposed functions reach it while a sanitizer's runtime is still
 * initializing, before instrumented code may run (Makefile, SAN). */
#define UNSANITIZED __attribute__((no_sanitize("thread", "address", "undefined")))

UNSANITIZED static void *resolve_in(void *handle, const char *name)
{
    void *fn = dlsym(handle, name);
    if (!fn) {
        /* Cannot use mmpi_die here: it needs the real abort. */
        fprintf(stderr, "mini_mpi: cannot resolve libc's %s: %s\n", name, dlerror());
        _exit(127);
    }
    return fn;
}

UNSANITIZED void *mmpi_real_symbol(const char *name, void **cache)
{
    void *fn = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (fn)
        return fn;
    fn = resolve_in(RTLD_NEXT, name);
    __atomic_store_n(cache, fn, __ATOMIC_RELEASE); /* every thread stores the same pointer */
    return fn;
}

#define REAL(type, name) MMPI_REAL(type, name)

typedef void (*exit_fn)(int);
typedef void (*abort_fn)(void);
typedef int (*raise_fn)(int);
typedef int (*kill_fn)(pid_t, int);
typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

REAL(exit_fn, exit)
REAL(exit_fn, _exit)
REAL(abort_fn, abort)
REAL(raise_fn, raise)
REAL(kill_fn, kill)
REAL(pthread_create_fn, pthread_create)

void mmpi_real_exit(int status)
{
    real_exit()(status);
    __builtin_unreachable();
}

void mmpi_real__exit(int status)
{
    real__exit()(status);
    __builtin_unreachable();
}

void mmpi_real_abort(void)
{
    real_abort()();
    __builtin_unreachable();
}

int mmpi_real_raise(int sig)
{
    return real_raise()(sig);
}

int mmpi_real_kill(pid_t pid, int sig)
{
    return real_kill()(pid, sig);
}

int mmpi_real_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             void *(*start)(void *), void *arg)
{
    return real_pthread_create()(thread, attr, start, arg);
}

int mmpi_first_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                              void *(*start)(void *), void *arg)
{
    static void *fn;
    void *f = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);
    if (!f) {
        f = resolve_in(RTLD_DEFAULT, "pthread_create");
        __atomic_store_n(&fn, f, __ATOMIC_RELEASE);
    }
    return ((pthread_create_fn)f)(thread, attr, start, arg);
}
