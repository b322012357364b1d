/*
 * exit.c: exit handlers per rank. A rank's atexit and on_exit handlers run when the rank ends
 * normally (exit(), or main returning), last registered first, as a process's do; its
 * at_quick_exit handlers run at its quick_exit(). Not at _exit(), abort() or a kill: neither
 * would a process's. This file keeps and runs the handlers; the calls that end a rank (exit,
 * quick_exit, _exit, abort, raise, kill) are all runtime/interpose.c's.
 *
 * atexit() is not in libc.so: glibc links a small atexit into the program that calls
 * __cxa_atexit(fn, NULL, __dso_handle), __dso_handle naming the calling object; C++ registers
 * static objects' destructors the same way, with the object as argument. A registration from
 * a rank thread is the rank's when it comes from the rank's program image, and, with
 * MINI_MPI_PRIVATIZE=0 (one image shared by all ranks), only when it is an atexit() (no
 * argument): a shared static object must outlive every rank. Everything else (libraries, the
 * runtime's own threads) goes to the C library, to run when the process exits.
 */
#include <dlfcn.h>
#include <link.h>

#include "libc/libc.h"
#include "runtime/thread.h"

enum { HANDLER_CXA, HANDLER_ON_EXIT, HANDLER_QUICK };

typedef int (*cxa_atexit_fn)(void (*)(void *), void *, void *);
typedef int (*on_exit_fn)(void (*)(int, void *), void *);
typedef int (*cxa_at_quick_exit_fn)(void (*)(void), void *);
MMPI_REAL(cxa_atexit_fn, __cxa_atexit)
MMPI_REAL(on_exit_fn, on_exit)
MMPI_REAL(cxa_at_quick_exit_fn, __cxa_at_quick_exit)

struct mmpi_libc *mmpi_libc_forked;

/* Whether a registration by dso (with argument arg) belongs to the calling rank. */
static bool rank_owns(struct mmpi_libc *st, const void *dso, const void *arg)
{
    Dl_info info;
    struct link_map *lm = NULL;
    if (!dso || !dladdr1(dso, &info, (void **)&lm, RTLD_DL_LINKMAP) || (void *)lm != st->image)
        return false;
    bool shared_image = mmpi_self && !mmpi_self->world->config.privatize;
    return !shared_image || arg == NULL;
}

static int add_handler(struct mmpi_libc *st, struct mmpi_libc_handlers *list, int kind,
                       void (*fn)(void), void *arg)
{
    int rc = 0;
    pthread_mutex_lock(&st->exit_lock);
    if (list->count == list->cap) {
        int cap = list->cap ? 2 * list->cap : 32; /* POSIX: at least 32 */
        void *items = realloc(list->items, (size_t)cap * sizeof(*list->items));
        if (items) {
            list->items = items;
            list->cap = cap;
        }
    }
    if (list->count < list->cap)
        list->items[list->count++] = (struct mmpi_libc_exit_handler){kind, fn, arg};
    else
        rc = -1;
    pthread_mutex_unlock(&st->exit_lock);
    return rc;
}

MMPI_EXPORT int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);
MMPI_EXPORT int __cxa_atexit(void (*fn)(void *), void *arg, void *dso)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st || !rank_owns(st, dso, arg))
        return real___cxa_atexit()(fn, arg, dso);
    return add_handler(st, &st->at_exit, HANDLER_CXA, (void (*)(void))fn, arg);
}

/* on_exit is called through libc.so: its caller is the program, whatever registers. */
MMPI_EXPORT int on_exit(void (*fn)(int, void *), void *arg)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real_on_exit()(fn, arg);
    return add_handler(st, &st->at_exit, HANDLER_ON_EXIT, (void (*)(void))fn, arg);
}

MMPI_EXPORT int __cxa_at_quick_exit(void (*fn)(void), void *dso);
MMPI_EXPORT int __cxa_at_quick_exit(void (*fn)(void), void *dso)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st || !rank_owns(st, dso, NULL))
        return real___cxa_at_quick_exit()(fn, dso);
    return add_handler(st, &st->at_quick_exit, HANDLER_QUICK, fn, NULL);
}

/* Pops and runs handlers until none is left; a handler may register more, or call exit()
 * itself, whose run continues with the rest (glibc's behaviour). The lock is not held while a
 * handler runs. */
static void run_handlers(struct mmpi_libc *st, struct mmpi_libc_handlers *list, int status)
{
    for (;;) {
        pthread_mutex_lock(&st->exit_lock);
        if (list->count == 0) {
            pthread_mutex_unlock(&st->exit_lock);
            return;
        }
        struct mmpi_libc_exit_handler h = list->items[--list->count];
        pthread_mutex_unlock(&st->exit_lock);
        switch (h.kind) {
        case HANDLER_CXA: ((void (*)(void *))h.fn)(h.arg); break;
        case HANDLER_ON_EXIT: ((void (*)(int, void *))h.fn)(status, h.arg); break;
        default: h.fn(); break;
        }
    }
}

void mmpi_libc_run_exit_handlers(struct mmpi_rank *r, int status)
{
    if (r->libc)
        run_handlers(r->libc, &r->libc->at_exit, status);
}

void mmpi_libc_run_quick_exit_handlers(struct mmpi_rank *r)
{
    if (r->libc)
        run_handlers(r->libc, &r->libc->at_quick_exit, 0);
}

void mmpi_libc_run_forked_exit_handlers(int status)
{
    if (mmpi_libc_forked)
        run_handlers(mmpi_libc_forked, &mmpi_libc_forked->at_exit, status);
}

void mmpi_libc_run_forked_quick_exit_handlers(void)
{
    if (mmpi_libc_forked)
        run_handlers(mmpi_libc_forked, &mmpi_libc_forked->at_quick_exit, 0);
}

void mmpi_libc_forked_child(void)
{
    struct mmpi_rank *r = mmpi_self;
    if (!r)
        return;
    /* The child is a plain process: exit() and signals end it, MPI is not for it. Locks other
     * threads of the parent held at the fork are initialized afresh. */
    mmpi_self = NULL;
    mmpi_thread_self = NULL;
    if (r->libc) {
        pthread_mutex_init(&r->libc->random_lock, NULL);
        pthread_mutex_init(&r->libc->exit_lock, NULL);
        mmpi_libc_forked = r->libc;
        mmpi_libc_env_forked(r->libc); /* the rank's environment is the child's */
    }
}
