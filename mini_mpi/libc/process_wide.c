/*
 * process_wide.c: calls whose effect is the process's on a real machine, and so the whole job's
 * here, where every rank is a thread of one process. They keep their C library behaviour; the
 * README (Limitations) says what each does to the other ranks. When a rank of a job of several
 * ranks makes one, MINI_MPI_VERBOSE=1 prints one line, once per kind of call, saying so:
 * - chdir, fchdir: the working directory changes for every rank;
 * - setenv, unsetenv, putenv, clearenv: the environment is shared;
 * - umask, setrlimit: the mask and the limits are the process's;
 * - signal, sigaction (installing a disposition): handlers are the process's;
 * - fork: the child is a copy of the whole process with the calling thread only; it is a plain
 *   process, not a rank (libc/exit.c: its exit() ends it, and runs the rank's exit handlers);
 * - execve and the other exec calls: the new program replaces the whole job.
 * Calls the runtime makes itself (it raises its file limit when it loads program images) are
 * not reported.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libc/libc.h"

enum kind { K_CHDIR, K_ENV, K_UMASK, K_RLIMIT, K_SIGNAL, K_FORK, K_EXEC, K_COUNT };
static const char *const effect[K_COUNT] = {
    [K_CHDIR] = "the working directory is the process's: every rank of the job now has it",
    [K_ENV] = "the environment is the process's: every rank of the job sees the change",
    [K_UMASK] = "the file mode creation mask is the process's: every rank of the job now has it",
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

typedef int (*int_of_path_fn)(const char *);
typedef int (*int_of_int_fn)(int);
typedef int (*setenv_fn)(const char *, const char *, int);
typedef int (*putenv_fn)(char *);
typedef int (*clearenv_fn)(void);
typedef mode_t (*umask_fn)(mode_t);
typedef int (*setrlimit_fn)(int, const struct rlimit *);
typedef sighandler_t (*signal_fn)(int, sighandler_t);
typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef pid_t (*fork_fn)(void);
typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
MMPI_LIBC_REAL(int_of_path_fn, chdir)
MMPI_LIBC_REAL(int_of_int_fn, fchdir)
MMPI_LIBC_REAL(setenv_fn, setenv)
MMPI_LIBC_REAL(int_of_path_fn, unsetenv)
MMPI_LIBC_REAL(putenv_fn, putenv)
MMPI_LIBC_REAL(clearenv_fn, clearenv)
MMPI_LIBC_REAL(umask_fn, umask)
MMPI_LIBC_REAL(setrlimit_fn, setrlimit)
MMPI_LIBC_REAL(signal_fn, signal)
MMPI_LIBC_REAL(sigaction_fn, sigaction)
MMPI_LIBC_REAL(fork_fn, fork)
MMPI_LIBC_REAL(execve_fn, execve)
MMPI_LIBC_REAL(execv_fn, execv)
MMPI_LIBC_REAL(execv_fn, execvp)
MMPI_LIBC_REAL(execve_fn, execvpe)

MMPI_EXPORT int chdir(const char *path)
{
    note(K_CHDIR, "chdir", CALLER);
    return real_chdir()(path);
}

MMPI_EXPORT int fchdir(int fd)
{
    note(K_CHDIR, "fchdir", CALLER);
    return real_fchdir()(fd);
}

MMPI_EXPORT int setenv(const char *name, const char *value, int overwrite)
{
    note(K_ENV, "setenv", CALLER);
    return real_setenv()(name, value, overwrite);
}

MMPI_EXPORT int unsetenv(const char *name)
{
    note(K_ENV, "unsetenv", CALLER);
    return real_unsetenv()(name);
}

MMPI_EXPORT int putenv(char *string)
{
    note(K_ENV, "putenv", CALLER);
    return real_putenv()(string);
}

MMPI_EXPORT int clearenv(void)
{
    note(K_ENV, "clearenv", CALLER);
    return real_clearenv()();
}

MMPI_EXPORT mode_t umask(mode_t mask)
{
    note(K_UMASK, "umask", CALLER);
    return real_umask()(mask);
}

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

MMPI_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    note(K_EXEC, "execve", CALLER);
    return real_execve()(path, argv, envp);
}

MMPI_EXPORT int execv(const char *path, char *const argv[])
{
    note(K_EXEC, "execv", CALLER);
    return real_execv()(path, argv);
}

MMPI_EXPORT int execvp(const char *file, char *const argv[])
{
    note(K_EXEC, "execvp", CALLER);
    return real_execvp()(file, argv);
}

MMPI_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    note(K_EXEC, "execvpe", CALLER);
    return real_execvpe()(file, argv, envp);
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
    return real_execv()(path, argv);
}

MMPI_EXPORT int execlp(const char *file, const char *arg, ...)
{
    va_list ap;
    note(K_EXEC, "execlp", CALLER);
    va_start(ap, arg);
    COLLECT_ARGS(arg, ap, argv);
    va_end(ap);
    return real_execvp()(file, argv);
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
