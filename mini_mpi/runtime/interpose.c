/*
 * interpose.c: process-wide calls made rank-local (docs/design.md "Ranks are threads"). libmini_mpi
 * exports exit, quick_exit, _exit, _Exit, abort, raise, kill, __assert_fail and pthread_create,
 * all here (libc/ keeps the per-rank state they use: exit handlers); the program's references
 * bind here before libc because libmini_mpi is a direct dependency of the executable. Called
 * from a thread that belongs to no rank, each forwards to libc unchanged.
 *
 * From a rank (or a thread it created), a terminating call ends that rank only:
 * - exit(c), quick_exit(c), _exit(c), _Exit(c): the rank ends with code c (exit() first runs
 *   the rank's atexit/on_exit handlers, quick_exit() its at_quick_exit handlers, libc/exit.c);
 * - abort(), a failed assert(): as if killed by SIGABRT;
 * - raise(sig), kill(getpid(), sig): when sig would terminate the process by default and the
 *   program installed no handler for it (SIGKILL always), as if killed by sig.
 * Whether the end counts as a process failure depends on the MPI session (ranks_as_threads.c).
 * A signal from outside the process keeps its normal effect: Ctrl-C still ends the job.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libc/libc.h"
#include "mmpi.h"
#include "runtime/cpu_bind.h"
#include "util/real.h"

static const char *signal_cause(int sig)
{
    switch (sig) {
    case SIGKILL: return "killed by SIGKILL";
    case SIGTERM: return "killed by SIGTERM";
    case SIGINT: return "killed by SIGINT";
    case SIGABRT: return "aborted (SIGABRT)";
    case SIGSEGV: return "killed by SIGSEGV";
    default: return "killed by a signal";
    }
}

/* True when delivering sig now would end the process: SIGKILL, or a default-terminating signal
 * with its disposition still SIG_DFL. */
static bool terminates_process(int sig)
{
    struct sigaction sa;
    if (sig == SIGKILL)
        return true;
    switch (sig) {
    case SIGHUP: case SIGINT: case SIGQUIT: case SIGILL: case SIGTRAP: case SIGABRT:
    case SIGBUS: case SIGFPE: case SIGUSR1: case SIGSEGV: case SIGUSR2: case SIGPIPE:
    case SIGALRM: case SIGTERM: case SIGXCPU: case SIGXFSZ: case SIGVTALRM: case SIGPROF:
    case SIGSYS:
        break;
    default:
        return false;
    }
    if (sigaction(sig, NULL, &sa) != 0)
        return false;
    return !(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL;
}

MMPI_EXPORT void exit(int status)
{
    if (!mmpi_self) {
        mmpi_libc_run_forked_exit_handlers(status); /* a process forked from a rank */
        mmpi_real_exit(status);
    }
    mmpi_libc_run_exit_handlers(mmpi_self, status); /* the rank's atexit/on_exit handlers */
    mmpi_rank_end_self(MMPI_END_NORMAL, status & 0xff, "called exit()");
}

typedef void (*quick_exit_fn)(int);
MMPI_REAL(quick_exit_fn, quick_exit)

MMPI_EXPORT void quick_exit(int status)
{
    struct mmpi_rank *self = mmpi_self;
    if (!self) {
        mmpi_libc_run_forked_quick_exit_handlers(); /* a process forked from a rank */
        real_quick_exit()(status);
        __builtin_unreachable();
    }
    mmpi_libc_run_quick_exit_handlers(self);
    mmpi_rank_end_self(MMPI_END_NORMAL, status & 0xff, "called quick_exit()");
}

MMPI_EXPORT void _exit(int status)
{
    if (!mmpi_self)
        mmpi_real__exit(status);
    mmpi_rank_end_self(MMPI_END_NORMAL, status & 0xff, "called _exit()");
}

MMPI_EXPORT void _Exit(int status)
{
    if (!mmpi_self)
        mmpi_real__exit(status);
    mmpi_rank_end_self(MMPI_END_NORMAL, status & 0xff, "called _Exit()");
}

MMPI_EXPORT void abort(void)
{
    if (!mmpi_self)
        mmpi_real_abort();
    mmpi_rank_end_self(MMPI_END_KILLED, 128 + SIGABRT, "called abort()");
}

/* glibc's assert() calls this; <assert.h> declares it only for its own macro's use. */
MMPI_EXPORT void __assert_fail(const char *assertion, const char *file, unsigned int line,
                               const char *function);
MMPI_EXPORT void __assert_fail(const char *assertion, const char *file, unsigned int line,
                               const char *function)
{
    fprintf(stderr, "%s: %s:%u: %s%sAssertion `%s' failed.\n", program_invocation_short_name,
            file, line, function ? function : "", function ? ": " : "", assertion);
    fflush(stderr);
    abort();
}

MMPI_EXPORT int raise(int sig)
{
    if (!mmpi_self || !terminates_process(sig))
        return mmpi_real_raise(sig);
    mmpi_rank_end_self(MMPI_END_KILLED, 128 + sig, signal_cause(sig));
}

MMPI_EXPORT int kill(pid_t pid, int sig)
{
    if (!mmpi_self || pid != getpid() || !terminates_process(sig))
        return mmpi_real_kill(pid, sig);
    mmpi_rank_end_self(MMPI_END_KILLED, 128 + sig, signal_cause(sig));
}

/* A thread created by a rank belongs to that rank: it carries the rank's identity, so its
 * MPI calls act for the rank and its exit()/kill() end the rank. The creator reserves the
 * thread's record and leaves the start routine in it (runtime/thread.h).
 *
 * start_with_rank may run before a sanitizer knows the thread: when the program is built with
 * -fsanitize=thread, the user's pthread_create reaches the sanitizer's interceptor first, which
 * calls ours with its own start routine, so ours runs first in the new thread. Until that
 * routine has run, the thread must touch nothing the sanitizer watches: no allocation, no
 * instrumented access (TSan has no state for the thread yet and crashes). Hence the record
 * (no malloc/free) and plain thread-local stores in an uninstrumented function. */
static void detach_thread(void *unused)
{
    (void)unused;
    mmpi_thread_detach();
}

/* Whether ThreadSanitizer runs in this process (set by creators, read by start_with_rank): its
 * start routine runs inside ours, so a jmp_buf set by start_with_rank is one TSan never saw and
 * its longjmp interceptor aborts. Under TSan a failed rank's threads end through pthread_exit
 * instead (unwinding: C++ destructors of a killed rank's threads then run, only there). */
static bool thread_sanitizer;

__attribute__((no_sanitize("thread", "address", "undefined"))) static void *
start_with_rank(void *p)
{
    struct mmpi_thread *record = p;
    void *(*start)(void *) = record->start;
    void *arg = record->start_arg;
    void *result;
    jmp_buf killed;
    mmpi_self = record->rank;
    mmpi_thread_self = record; /* mmpi_thread_adopt, written here: see above */
    if (thread_sanitizer) {
        pthread_cleanup_push(detach_thread, NULL);
        result = start(arg);
        pthread_cleanup_pop(1);
        return result;
    }
    if (setjmp(killed)) { /* its rank failed: released at world end without unwinding */
        mmpi_thread_end_jump = NULL;
        mmpi_thread_detach();
        return NULL;
    }
    mmpi_thread_end_jump = &killed;
    pthread_cleanup_push(detach_thread, NULL);
    result = start(arg);
    mmpi_thread_end_jump = NULL;
    pthread_cleanup_pop(1);
    return result;
}

/* Set while the library starts one of its own threads (a rank, the hang monitor, the injector's
 * timer), which belongs to no rank even when a rank thread starts it (a spawn). */
static __thread bool creating_unowned __attribute__((tls_model("initial-exec")));

int mmpi_thread_create_unowned(pthread_t *thread, const pthread_attr_t *attr,
                               void *(*start)(void *), void *arg)
{
    /* Through the first pthread_create of the search order, not straight to libc's: when the
     * program is built with -fsanitize=thread (or address), the sanitizer's runtime precedes
     * libmini_mpi and must see every thread start, or its per-thread state is missing (TSan
     * crashes on the first access). Its interceptor then calls ours, which forwards. */
    bool outer = creating_unowned;
    creating_unowned = true;
    bool lent = mmpi_cpu_bind_lend_begin(); /* not on this rank's CPU */
    int rc = mmpi_first_pthread_create(thread, attr, start, arg);
    mmpi_cpu_bind_lend_end(lent);
    creating_unowned = outer;
    return rc;
}

MMPI_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                               void *(*start)(void *), void *arg)
{
    if (!mmpi_self || creating_unowned)
        return mmpi_real_pthread_create(thread, attr, start, arg);
    static int tsan_checked; /* racing creators compute the same answer */
    if (!__atomic_load_n(&tsan_checked, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&thread_sanitizer, dlsym(RTLD_DEFAULT, "__tsan_init") != NULL,
                         __ATOMIC_RELAXED);
        __atomic_store_n(&tsan_checked, 1, __ATOMIC_RELEASE);
    }
    struct mmpi_thread *record = mmpi_thread_reserve(mmpi_self); /* counted from now */
    record->start = start;
    record->start_arg = arg;
    mmpi_cpu_bind_leave(); /* its threads may need its CPU */
    int rc = mmpi_real_pthread_create(thread, attr, start_with_rank, record);
    if (rc != 0)
        mmpi_thread_release(record);
    return rc;
}
