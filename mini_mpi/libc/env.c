/*
 * env.c: the environment of a rank, its own as a process's is. It owns the operations on one
 * environment (libc/env.h), the launch environment every rank starts from, and the C library's
 * names a program uses to read and change its environment: getenv, secure_getenv, setenv,
 * unsetenv, putenv and clearenv (the `environ` variable the program sees is bound to the
 * rank's vector by libc/bind.c).
 *
 * A rank starts with its own copy, strings included, of the launch environment: the process's
 * environment when the first rank started (ranks never change the process's, so the launcher's
 * is still that one when a rank is spawned or restarted). A spawned rank then gets the lines of
 * its spawn's info key "env" (Open MPI's: newline-separated NAME=value). Threads a rank creates
 * share its environment; a process forked from a rank gets it as the process's own (fork in
 * libc/process_wide.c, which also gives it to the programs a rank or its child execs).
 *
 * Not per rank: the C library's own reads of the environment inside other calls (tzset's TZ,
 * setlocale's LANG and LC_*, system and popen's shell, posix_spawnp's PATH) read the process's,
 * the launch environment; and so does this library when it reads its MINI_MPI_* settings (a
 * getenv called from libmini_mpi itself is the C library's).
 */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>

#include "libc/env.h"
#include "libc/libc.h"

extern char **environ;

/* ---- One environment ------------------------------------------------------------------- */

struct mmpi_env_block {
    struct mmpi_env_block *next;
    max_align_t data[];
};

/* Memory owned by e until mmpi_env_free; NULL when out of memory. */
static void *env_alloc(struct mmpi_env *e, size_t size)
{
    struct mmpi_env_block *b = malloc(sizeof(*b) + size);
    if (!b)
        return NULL;
    b->next = e->blocks;
    e->blocks = b;
    return b->data;
}

static size_t env_count(char **v)
{
    size_t n = 0;
    while (v && v[n])
        n++;
    return n;
}

/* The entry of v naming `name` (len bytes), or -1. */
static long env_find(char **v, const char *name, size_t len)
{
    for (long i = 0; v && v[i]; i++)
        if (!strncmp(v[i], name, len) && v[i][len] == '=')
            return i;
    return -1;
}

static bool name_ok(const char *name)
{
    return name && *name && !strchr(name, '=');
}

/* Appends `entry` to the environment, in a vector allocated here (a new one, copying the
 * entries, if *home is not vec or vec is full). The old vector is left as it was, for readers
 * still walking it. Lock held. */
static int env_append(struct mmpi_env *e, char *entry)
{
    char **cur = *e->home;
    size_t n = env_count(cur);
    if (cur != e->vec || !e->vec || n + 2 > e->cap) {
        size_t cap = 2 * (n + 2) + 16;
        char **v = env_alloc(e, cap * sizeof(char *));
        if (!v) {
            errno = ENOMEM;
            return -1;
        }
        if (n)
            memcpy(v, cur, n * sizeof(char *));
        v[n] = entry;
        v[n + 1] = NULL;
        e->vec = v;
        e->cap = cap;
        __atomic_store_n(e->home, v, __ATOMIC_RELEASE);
        return 0;
    }
    cur[n + 1] = NULL;
    __atomic_store_n(&cur[n], entry, __ATOMIC_RELEASE);
    return 0;
}

/* Sets `entry` ("NAME=value", NAME len bytes): replaces the entry naming it if overwrite, or
 * appends it. Lock held. */
static int env_put_entry(struct mmpi_env *e, char *entry, size_t len, int overwrite)
{
    char **cur = *e->home;
    long i = env_find(cur, entry, len);
    if (i >= 0) {
        if (overwrite)
            __atomic_store_n(&cur[i], entry, __ATOMIC_RELEASE);
        return 0;
    }
    return env_append(e, entry);
}

/* A copy of "name=value" owned by e (value given as vlen bytes), or NULL. */
static char *env_string(struct mmpi_env *e, const char *name, size_t nlen, const char *value,
                        size_t vlen)
{
    char *s = env_alloc(e, nlen + vlen + 2);
    if (!s)
        return NULL;
    memcpy(s, name, nlen);
    s[nlen] = '=';
    memcpy(s + nlen + 1, value, vlen);
    s[nlen + 1 + vlen] = '\0';
    return s;
}

void mmpi_env_init(struct mmpi_env *e, char ***home, char *const *from, const char *additions)
{
    memset(e, 0, sizeof(*e));
    MMPI_CHECK_PTHREAD(pthread_mutex_init(&e->lock, NULL));
    e->home = home;
    size_t n = 0, bytes = 0;
    for (; from && from[n]; n++)
        bytes += strlen(from[n]) + 1;
    /* One block for the vector, one for every string: a rank's start is two allocations. */
    e->cap = n + 16;
    e->vec = env_alloc(e, e->cap * sizeof(char *));
    char *strings = bytes ? env_alloc(e, bytes) : NULL;
    if (!e->vec || (bytes && !strings))
        mmpi_die("out of memory for a rank's environment");
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(from[i]) + 1;
        memcpy(strings, from[i], len);
        e->vec[i] = strings;
        strings += len;
    }
    e->vec[n] = NULL;
    *home = e->vec;
    for (const char *line = additions; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *eq = memchr(line, '=', len);
        if (eq && eq > line) {
            size_t nlen = (size_t)(eq - line);
            char *s = env_string(e, line, nlen, eq + 1, len - nlen - 1);
            if (!s || env_put_entry(e, s, nlen, 1) != 0)
                mmpi_die("out of memory for a rank's environment");
        }
        line += len + (end != NULL);
    }
}

void mmpi_env_free(struct mmpi_env *e)
{
    while (e->blocks) {
        struct mmpi_env_block *b = e->blocks;
        e->blocks = b->next;
        free(b);
    }
    e->vec = NULL;
    pthread_mutex_destroy(&e->lock);
}

char *mmpi_env_get(const struct mmpi_env *e, const char *name)
{
    char **v = __atomic_load_n(e->home, __ATOMIC_ACQUIRE);
    if (!v || !name)
        return NULL;
    size_t len = strlen(name);
    for (; *v; v++) {
        const char *s = __atomic_load_n(v, __ATOMIC_ACQUIRE);
        if (!strncmp(s, name, len) && s[len] == '=')
            return (char *)s + len + 1;
    }
    return NULL;
}

int mmpi_env_set(struct mmpi_env *e, const char *name, const char *value, int overwrite)
{
    if (!name_ok(name)) {
        errno = EINVAL;
        return -1;
    }
    size_t nlen = strlen(name);
    pthread_mutex_lock(&e->lock);
    int rc = 0;
    if (overwrite || env_find(*e->home, name, nlen) < 0) {
        char *s = env_string(e, name, nlen, value ? value : "", value ? strlen(value) : 0);
        if (!s) {
            errno = ENOMEM;
            rc = -1;
        } else {
            rc = env_put_entry(e, s, nlen, 1);
        }
    }
    pthread_mutex_unlock(&e->lock);
    return rc;
}

int mmpi_env_unset(struct mmpi_env *e, const char *name)
{
    if (!name_ok(name)) {
        errno = EINVAL;
        return -1;
    }
    size_t len = strlen(name);
    pthread_mutex_lock(&e->lock);
    /* In place, whoever's vector it is, as glibc does. */
    char **v = *e->home;
    for (size_t i = 0, j = 0; v; i++) {
        char *s = v[i];
        if (s && !strncmp(s, name, len) && s[len] == '=')
            continue;
        __atomic_store_n(&v[j++], s, __ATOMIC_RELEASE);
        if (!s)
            break;
    }
    pthread_mutex_unlock(&e->lock);
    return 0;
}

int mmpi_env_put(struct mmpi_env *e, char *string)
{
    const char *eq = string ? strchr(string, '=') : NULL;
    if (!eq) /* glibc: putenv("NAME") removes NAME */
        return mmpi_env_unset(e, string);
    if (eq == string) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&e->lock);
    int rc = env_put_entry(e, string, (size_t)(eq - string), 1); /* the string itself */
    pthread_mutex_unlock(&e->lock);
    return rc;
}

int mmpi_env_clear(struct mmpi_env *e)
{
    pthread_mutex_lock(&e->lock);
    e->vec = NULL; /* kept allocated for readers, freed with the environment */
    __atomic_store_n(e->home, NULL, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&e->lock);
    return 0;
}

/* ---- The launch environment and the ranks' ------------------------------------------------ */

static char **launch;           /* immutable once made: the copy every rank starts from */
static pthread_once_t launch_once = PTHREAD_ONCE_INIT;

static void launch_snapshot(void)
{
    size_t n = env_count(environ);
    launch = mmpi_xcalloc(n + 1, sizeof(char *));
    for (size_t i = 0; i < n; i++)
        launch[i] = mmpi_xstrdup(environ[i]); /* freed at exit */
}

void mmpi_libc_env_start(struct mmpi_rank *r, struct mmpi_libc *st)
{
    pthread_once(&launch_once, launch_snapshot);
    mmpi_env_init(&st->env, st->environ_home, launch, r->start_env);
}

void mmpi_libc_env_free(struct mmpi_libc *st)
{
    if (st->env.home)
        mmpi_env_free(&st->env);
}

/* In a process forked from a rank, the process's environ follows the rank's (libc's own reads,
 * exec). */
static void sync_forked(void)
{
    if (!mmpi_self && mmpi_libc_forked)
        environ = *mmpi_libc_forked->environ_home;
}

void mmpi_libc_env_forked(struct mmpi_libc *st)
{
    pthread_mutex_init(&st->env.lock, NULL);
    environ = *st->environ_home;
}

/* ---- The C library's names ----------------------------------------------------------------- */

/* Whether a call comes from this library itself, which reads its settings from the launch
 * environment: its executable segments, found once. */
static uintptr_t lib_lo, lib_hi;
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static int find_lib(struct dl_phdr_info *info, size_t size, void *self)
{
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    bool ours = false;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_LOAD || !(p->p_flags & PF_X))
            continue;
        uintptr_t a = info->dlpi_addr + p->p_vaddr, b = a + p->p_memsz;
        lo = a < lo ? a : lo;
        hi = b > hi ? b : hi;
        ours |= (uintptr_t)self >= a && (uintptr_t)self < b;
    }
    if (!ours)
        return 0;
    lib_lo = lo;
    lib_hi = hi;
    return 1;
}

static void find_lib_once(void)
{
    dl_iterate_phdr(find_lib, (void *)find_lib);
}

static bool from_library(const void *caller)
{
    pthread_once(&lib_once, find_lib_once);
    return (uintptr_t)caller >= lib_lo && (uintptr_t)caller < lib_hi;
}

typedef char *(*getenv_fn)(const char *);
typedef int (*setenv_fn)(const char *, const char *, int);
typedef int (*unsetenv_fn)(const char *);
typedef int (*putenv_fn)(char *);
typedef int (*clearenv_fn)(void);
MMPI_REAL(getenv_fn, getenv)
MMPI_REAL(getenv_fn, secure_getenv)
MMPI_REAL(setenv_fn, setenv)
MMPI_REAL(unsetenv_fn, unsetenv)
MMPI_REAL(putenv_fn, putenv)
MMPI_REAL(clearenv_fn, clearenv)

#define CALLER __builtin_return_address(0)

/* The calling rank's state when the call is the program's; NULL: the C library's own. */
static struct mmpi_libc *program_state(const void *caller)
{
    struct mmpi_libc *st = mmpi_libc_self();
    return st && st->env.home && !from_library(caller) ? st : NULL;
}

/* noinline: CALLER must be the caller's address, never one inside an inlining caller. */
MMPI_EXPORT __attribute__((noinline)) char *getenv(const char *name)
{
    struct mmpi_libc *st = program_state(CALLER);
    return st ? mmpi_env_get(&st->env, name) : real_getenv()(name);
}

MMPI_EXPORT __attribute__((noinline)) char *secure_getenv(const char *name)
{
    struct mmpi_libc *st = program_state(CALLER);
    if (!st)
        return real_secure_getenv()(name);
    return getauxval(AT_SECURE) ? NULL : mmpi_env_get(&st->env, name);
}

MMPI_EXPORT __attribute__((noinline)) int setenv(const char *name, const char *value,
                                                 int overwrite)
{
    struct mmpi_libc *st = program_state(CALLER);
    if (!st)
        return real_setenv()(name, value, overwrite);
    int rc = mmpi_env_set(&st->env, name, value, overwrite);
    sync_forked();
    return rc;
}

MMPI_EXPORT __attribute__((noinline)) int unsetenv(const char *name)
{
    struct mmpi_libc *st = program_state(CALLER);
    if (!st)
        return real_unsetenv()(name);
    int rc = mmpi_env_unset(&st->env, name);
    sync_forked();
    return rc;
}

MMPI_EXPORT __attribute__((noinline)) int putenv(char *string)
{
    struct mmpi_libc *st = program_state(CALLER);
    if (!st)
        return real_putenv()(string);
    int rc = mmpi_env_put(&st->env, string);
    sync_forked();
    return rc;
}

MMPI_EXPORT __attribute__((noinline)) int clearenv(void)
{
    struct mmpi_libc *st = program_state(CALLER);
    if (!st)
        return real_clearenv()();
    int rc = mmpi_env_clear(&st->env);
    sync_forked();
    return rc;
}

char **mmpi_libc_environ(struct mmpi_libc *st)
{
    return st && st->env.home ? __atomic_load_n(st->environ_home, __ATOMIC_ACQUIRE) : environ;
}

char *mmpi_libc_getenv(struct mmpi_libc *st, const char *name)
{
    return st && st->env.home ? mmpi_env_get(&st->env, name) : real_getenv()(name);
}
