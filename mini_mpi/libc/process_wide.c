/*
 * process_wide.c: calls whose effect is the process's on a real machine and cannot be made one
 * rank's, so the whole job's here, where every rank is a thread of one process. They keep their
 * C library behaviour; the README ("The C library in each rank") says what each does to the
 * other ranks. When a rank of a job of several ranks makes one, MINI_MPI_VERBOSE=1 prints one
 * line, once per kind of call, saying so:
 * - setrlimit: the limits are the process's;
 * - signal, sigaction (installing a disposition): handlers are the process's;
 * - fork: the child is a copy of the whole process with the calling thread only; it is a plain
 *   process, not a rank (libc/exit.c: its exit() ends it, and runs the rank's exit handlers);
 * - execve and the other exec calls: the new program replaces the whole job.
 * The environment the exec calls without an envp argument pass, and the PATH execvp, execvpe
 * and execlp search, are the calling rank's (libc/env.c), or its forked child's, as a process's
 * are its own. (The working directory, umask and environment are per rank: libc/fs.c, env.c.)
 * Calls the runtime makes itself (it raises its file limit when it loads program images) are
 * not reported.
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libc/libc.h"

enum kind { K_RLIMIT, K_SIGNAL, K_FORK, K_EXEC, K_COUNT };
static const char *const effect[K_COUNT] = {
    [K_RLIMIT] = "resource limits are the process's: they apply to every rank of the job",
    [K_SIGNAL] = "signal dispositions are the process's: the handler is every rank's",
    [K_FORK] = "the child copies the whole job's process with the calling thread only, and is "
               "not an MPI process",
    [K_EXEC] = "the new program replaces the whole job's process: every rank ends",
};
static int warned[K_COUNT]; /* atomic: said once */

static bool from_runtime(const void *caller)
{
    Dl_info ours, theirs;
    return dladdr((const void *)from_runtime, &ours) && dladdr(caller, &theirs) &&
           ours.dli_fbase == theirs.dli_fbase;
}

static void note(enum kind k, const char *call, const void *caller)
{
    struct mmpi_rank *self = mmpi_self;
    if (!self || !self->world->config.verbose || mmpi_world_nranks(self->world) < 2 ||
        __atomic_load_n(&warned[k], __ATOMIC_RELAXED) || from_runtime(caller) ||
        __atomic_exchange_n(&warned[k], 1, __ATOMIC_RELAXED))
        return;
    fprintf(stderr, "mini_mpi: rank %d called %s(): %s (ranks are threads of one process)\n",
            self->world_rank, call, effect[k]);
}

#define CALLER __builtin_return_address(0)

typedef int (*setrlimit_fn)(int, const struct rlimit *);
typedef sighandler_t (*signal_fn)(int, sighandler_t);
typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef pid_t (*fork_fn)(void);
typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
MMPI_REAL(setrlimit_fn, setrlimit)
MMPI_REAL(signal_fn, signal)
MMPI_REAL(sigaction_fn, sigaction)
MMPI_REAL(fork_fn, fork)
MMPI_REAL(execve_fn, execve)
MMPI_REAL(execv_fn, execv)
MMPI_REAL(execv_fn, execvp)
MMPI_REAL(execve_fn, execvpe)

MMPI_EXPORT int setrlimit(__rlimit_resource_t resource, const struct rlimit *rl)
{
    note(K_RLIMIT, "setrlimit", CALLER);
    return real_setrlimit()(resource, rl);
}

MMPI_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
    note(K_SIGNAL, "signal", CALLER);
    return real_signal()(sig, handler);
}

MMPI_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (act) /* a query changes nothing */
        note(K_SIGNAL, "sigaction", CALLER);
    return real_sigaction()(sig, act, old);
}

MMPI_EXPORT pid_t fork(void)
{
    note(K_FORK, "fork", CALLER);
    fflush(stdout); /* not the job's buffered output twice */
    fflush(stderr);
    pid_t pid = real_fork()();
    if (pid == 0)
        mmpi_libc_forked_child();
    return pid;
}

/* execvpe's search of file in the PATH of st's environment, as glibc's (an empty entry is the
 * current directory; a file found but not executable is EACCES once nothing else ran): each
 * candidate is run by glibc's execvpe, which gives a file without a #! line to /bin/sh. */
static int exec_search(struct mmpi_libc *st, const char *file, char *const argv[],
                       char *const envp[])
{
    if (!*file) {
        errno = ENOENT;
        return -1;
    }
    if (strchr(file, '/'))
        return real_execvpe()(file, argv, envp);
    const char *path = mmpi_libc_getenv(st, "PATH");
    if (!path)
        path = "/bin:/usr/bin"; /* glibc's default */
    size_t flen = strlen(file);
    bool denied = false;
    for (const char *p = path;; p++) {
        const char *end = strchr(p, ':');
        size_t dlen = end ? (size_t)(end - p) : strlen(p);
        char candidate[dlen + flen + 3];
        if (dlen)
            snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)dlen, p, file);
        else
            snprintf(candidate, sizeof(candidate), "./%s", file);
        real_execvpe()(candidate, argv, envp);
        switch (errno) {
        case EACCES: denied = true; break;
        case ENOENT: case ENOTDIR: case ESTALE: case ENODEV: case ETIMEDOUT: break;
        default: return -1;
        }
        if (!end)
            break;
        p = end;
    }
    errno = denied ? EACCES : ENOENT;
    return -1;
}

MMPI_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    note(K_EXEC, "execve", CALLER);
    return real_execve()(path, argv, envp);
}

MMPI_EXPORT int execv(const char *path, char *const argv[])
{
    note(K_EXEC, "execv", CALLER);
    struct mmpi_libc *st = mmpi_libc_self();
    return st ? real_execve()(path, argv, mmpi_libc_environ(st)) : real_execv()(path, argv);
}

MMPI_EXPORT int execvp(const char *file, char *const argv[])
{
    note(K_EXEC, "execvp", CALLER);
    struct mmpi_libc *st = mmpi_libc_self();
    return st ? exec_search(st, file, argv, mmpi_libc_environ(st)) : real_execvp()(file, argv);
}

MMPI_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    note(K_EXEC, "execvpe", CALLER);
    struct mmpi_libc *st = mmpi_libc_self();
    return st ? exec_search(st, file, argv, envp) : real_execvpe()(file, argv, envp);
}

/* The list forms: their arguments collected into a vector, then the vector forms' real calls. */
#define COLLECT_ARGS(first, ap, vec)                                                       \
    size_t n_ = 1;                                                                          \
    va_list count_;                                                                         \
    va_copy(count_, ap);                                                                    \
    while (va_arg(count_, char *) != NULL)                                                  \
        n_++;                                                                               \
    va_end(count_);                                                                         \
    char *vec[n_ + 1];                                                                      \
    vec[0] = (char *)(first);                                                               \
    for (size_t i_ = 1; i_ <= n_; i_++) /* the last one read is the NULL */                 \
        vec[i_] = va_arg(ap, char *)

MMPI_EXPORT int execl(const char *path, const char *arg, ...)
{
    va_list ap;
    note(K_EXEC, "execl", CALLER);
    va_start(ap, arg);
    COLLECT_ARGS(arg, ap, argv);
    va_end(ap);
    return execv(path, argv);
}

MMPI_EXPORT int execlp(const char *file, const char *arg, ...)
{
    va_list ap;
    note(K_EXEC, "execlp", CALLER);
    va_start(ap, arg);
    COLLECT_ARGS(arg, ap, argv);
    va_end(ap);
    return execvp(file, argv);
}

MMPI_EXPORT int execle(const char *path, const char *arg, ...)
{
    va_list ap;
    note(K_EXEC, "execle", CALLER);
    va_start(ap, arg);
    COLLECT_ARGS(arg, ap, argv);
    char **envp = va_arg(ap, char **); /* after the NULL that ends the arguments */
    va_end(ap);
    return real_execve()(path, argv, envp);
}
