/*
 * private_dlopen.c: a library that a rank opens at run time (a plugin, an extension module) is
 * private to that rank by the rule of runtime/private_libs.c: when it needs MPI (directly or
 * through another library) or MINI_MPI_PRIVATE_LIBS names it, dlopen returns the rank's own
 * copy, made on the rank's first dlopen of it, after copies of the private libraries it needs
 * that the rank has no copy of yet. dlsym on that handle finds the copy's symbols; dlclose
 * unloads the copy when the rank has closed it as often as it opened it.
 *
 * The process's instance is loaded first (the real dlopen finds the file exactly as the loader
 * would: search paths, the caller's RUNPATH): its constructors run once, in the first rank that
 * opens it, and it stays loaded while a rank holds a copy, since the copies are bound by its
 * addresses. Called outside ranks, by the runtime itself, or with one image shared by all ranks
 * (MINI_MPI_PRIVATIZE=0), dlopen and dlclose are the C library's. A copy's constructor may
 * itself dlopen: the rank's lock is recursive.
 */
#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "libc/libc.h"
#include "runtime/private_libs.h"

typedef void *(*dlopen_fn)(const char *, int);
typedef int (*dlclose_fn)(void *);
MMPI_REAL(dlopen_fn, dlopen)
MMPI_REAL(dlclose_fn, dlclose)

/* Whether the call is the runtime's own: made by libmini_mpi, or, through a sanitizer's
 * interceptor (which comes first in the search order), while the runtime loads a copy. */
static bool from_runtime(const void *caller)
{
    Dl_info ours, theirs;
    return mmpi_private_images_loading() ||
           (dladdr((const void *)from_runtime, &ours) && dladdr(caller, &theirs) &&
            ours.dli_fbase == theirs.dli_fbase);
}

/* The calling rank's program image; NULL outside ranks or with one image shared by all. */
static void *rank_image(void)
{
    struct mmpi_rank *r = mmpi_self;
    Dl_info info;
    struct link_map *image = NULL;
    if (!r || !r->world->config.privatize || !r->main ||
        !dladdr1((void *)r->main, &info, (void **)&image, RTLD_DL_LINKMAP))
        return NULL;
    return image;
}

/* The calling rank's copies, the record made if need be; NULL outside ranks. */
static struct mmpi_private_copies *rank_copies(void)
{
    void *image = rank_image();
    return image ? mmpi_private_copies_get(image) : NULL;
}

/* The same, without making a record for a rank that has none (it has no copy to close). */
static struct mmpi_private_copies *rank_copies_if_any(void)
{
    void *image = rank_image();
    return image ? mmpi_private_copies_of(image) : NULL;
}

static struct mmpi_private_copy *find_copy(struct mmpi_private_copies *rc, uintptr_t orig_base)
{
    for (int i = 0; i < rc->count; i++)
        if (rc->items[i].orig_base == orig_base)
            return &rc->items[i];
    return NULL;
}

/* The rank's copy of orig (opened just now by the real dlopen), made if need be; NULL when
 * orig is not private or no copy could be made (the message names it). Holds rc->lock. */
static void *privatize(struct mmpi_private_copies *rc, struct link_map *orig, int rank)
{
    struct mmpi_private_copy *have = find_copy(rc, orig->l_addr);
    if (have) {
        have->refs++;
        real_dlclose()(orig); /* the copy holds the process's instance once */
        return have->handle;
    }
    struct mmpi_private_libs *plan = mmpi_private_libs_plan_for(orig->l_addr);
    void *copy = NULL;
    for (int i = 0; plan && i < plan->count; i++) {
        struct mmpi_private_object *lib = &plan->libs[i];
        bool root = lib->orig_base == orig->l_addr;
        if (!root && find_copy(rc, lib->orig_base))
            continue;
        void *handle = mmpi_private_object_load(lib, rank);
        if (!handle)
            break; /* message printed; the process's instance serves */
        mmpi_private_copies_add(rc, root ? (void *)orig : NULL, lib->orig_base, lib->orig_lo,
                                lib->orig_hi, handle);
        mmpi_private_copies_bind(rc, handle);
        mmpi_private_object_init(lib, handle);
        if (root)
            copy = handle;
    }
    mmpi_private_libs_free(plan);
    return copy;
}

MMPI_EXPORT void *dlopen(const char *file, int mode);
MMPI_EXPORT void *dlopen(const char *file, int mode)
{
    void *orig = real_dlopen()(file, mode);
    struct mmpi_private_copies *rc;
    if (!orig || !file || from_runtime(__builtin_return_address(0)) || !(rc = rank_copies()))
        return orig;
    pthread_mutex_lock(&rc->lock);
    void *copy = privatize(rc, orig, mmpi_self->world_rank);
    pthread_mutex_unlock(&rc->lock);
    return copy ? copy : orig;
}

MMPI_EXPORT int dlclose(void *handle);
MMPI_EXPORT int dlclose(void *handle)
{
    struct mmpi_private_copies *rc;
    if (from_runtime(__builtin_return_address(0)) || !(rc = rank_copies_if_any()))
        return real_dlclose()(handle);
    pthread_mutex_lock(&rc->lock);
    for (int i = 0; i < rc->count; i++) {
        struct mmpi_private_copy *c = &rc->items[i];
        if (c->handle != handle)
            continue;
        void *orig = c->orig;
        if (c->refs > 1 || orig) /* a startup copy lives as long as its rank */
            c->refs--;
        if (c->refs == 0) {
            rc->items[i] = rc->items[--rc->count];
            real_dlclose()(handle);
            real_dlclose()(orig);
        }
        pthread_mutex_unlock(&rc->lock);
        return 0;
    }
    pthread_mutex_unlock(&rc->lock);
    return real_dlclose()(handle);
}
