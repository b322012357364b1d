/*
 * private_libs.h: which shared libraries of the program are private to each rank, and how a
 * rank's copies of them are bound to each other and to its program image (private_libs.c).
 */
#ifndef MMPI_RUNTIME_PRIVATE_LIBS_H
#define MMPI_RUNTIME_PRIVATE_LIBS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An object whose copies are loaded per rank: a library of the plan, or a program image. */
struct mmpi_private_object {
    char *path;                 /* the file the copies are made of */
    unsigned char *img;         /* its bytes, DF_1_PIE cleared and, when deferred, init hidden */
    size_t len;
    int code_fd;                /* a memfd of the same bytes whose read-only pages all copies
                                 * map (-1: each copy keeps its own) */
    bool init_deferred;         /* the loader runs no initializer of the copy: we do, once
                                 * the copy is bound (mmpi_private_object_init) */
    uint64_t init, init_array, init_array_size; /* from the file: DT_INIT, DT_INIT_ARRAY(SZ) */
    uintptr_t orig_base, orig_lo, orig_hi; /* the process's own instance: load bias and the
                                            * addresses its segments span (0 when it has none) */
};

/* The libraries private to each rank of the running program, leaves first (a library comes
 * after every private library it needs). */
struct mmpi_private_libs {
    int count;
    struct mmpi_private_object *libs;
    uintptr_t exe_lo, exe_hi, exe_base; /* the main executable's instance */
};

/* The plan of the running program: every library of the process's startup closure that needs
 * libmini_mpi (directly or through another such library), and every one MINI_MPI_PRIVATE_LIBS
 * names. Computed once; prints once, on stderr, each library that uses MPI but cannot be
 * copied. Returns NULL when no library is private. */
const struct mmpi_private_libs *mmpi_private_libs_plan(void);

/* The plan for a library the process has just loaded at base (a rank's dlopen): it, when it is
 * private by the rule above, after the private libraries it needs. NULL when it is not private.
 * The caller frees it (mmpi_private_libs_free). */
struct mmpi_private_libs *mmpi_private_libs_plan_for(uintptr_t base);
/* The plan of another program (MPI_Comm_spawn) loaded once at `base` as the process's
 * instance of it, whose initializers never run: the private libraries it needs, leaves first,
 * with the instance in the place of the main executable, so that the copies' references into
 * the program move to each rank's copy of it (count 0 when it needs none). NULL if the
 * instance is not found. Freed with mmpi_private_libs_free. */
struct mmpi_private_libs *mmpi_private_libs_plan_for_program(uintptr_t base);
void mmpi_private_libs_free(struct mmpi_private_libs *plan);

/* Reads path into obj (clearing DF_1_PIE) and, with defer_init, hides its initializers from the
 * loader. Returns false (message printed) if it is not a position-independent ELF object. */
bool mmpi_private_object_prepare(struct mmpi_private_object *obj, const char *path,
                                 bool defer_init);
void mmpi_private_object_release(struct mmpi_private_object *obj);

/* One rank's private copies: of its startup libraries, its program image, and the libraries it
 * opened with dlopen; each with the address range of the process's instance it stands for. */
struct mmpi_private_copy {
    void *orig;                 /* dlopen handle of the process's instance (NULL: startup) */
    uintptr_t orig_base, orig_lo, orig_hi;
    void *handle;               /* the copy */
    uintptr_t base;             /* its load bias */
    int refs;                   /* dlopen calls not yet closed (startup copies: 1, forever) */
};
struct mmpi_private_copies {
    pthread_mutex_t lock;       /* the rank's threads may dlopen at once */
    void *program;              /* handle of the program image's copy: the key */
    int count, cap;
    struct mmpi_private_copy *items;
    struct mmpi_private_copies *next;
};

/* Binds one rank's copies: every address the loader bound into a copy (GOT, PLT or data
 * pointer) that points into the process's own instance of a private library, or of the main
 * executable, is moved to the rank's copy of it; the program copy's copy relocations of
 * variables defined by a private library take their initial value from the rank's copy.
 * lib_handles[i] is the copy of plan->libs[i]; program is the copy of the program image.
 * Returns the rank's record, registered for mmpi_private_copies_of. */
struct mmpi_private_copies *mmpi_private_libs_bind(const struct mmpi_private_libs *plan,
                                                   void *const *lib_handles, void *program);
/* The record of the rank whose program image is `program` (a dlopen handle); NULL if none. */
struct mmpi_private_copies *mmpi_private_copies_of(void *program);
/* The same, created (knowing only the program image) when the rank has none yet. */
struct mmpi_private_copies *mmpi_private_copies_get(void *program);
/* Adds a copy to rc (caller holds rc->lock once ranks run) and binds a new copy against rc. */
void mmpi_private_copies_add(struct mmpi_private_copies *rc, void *orig, uintptr_t orig_base,
                             uintptr_t orig_lo, uintptr_t orig_hi, void *handle);
void mmpi_private_copies_bind(const struct mmpi_private_copies *rc, void *handle);

/* Runs the initializers the loader was kept from running (DT_INIT, then DT_INIT_ARRAY), with
 * the process's arguments and environment, as the loader would have. */
void mmpi_private_object_init(const struct mmpi_private_object *obj, void *handle);

/* Loads a new copy of obj (RTLD_NOW, its initializers deferred) for rank `rank`; NULL (message
 * printed) on failure. */
void *mmpi_private_object_load(const struct mmpi_private_object *obj, int rank);

/* Whether the calling thread is loading a copy (its dlopen calls are the runtime's). */
bool mmpi_private_images_loading(void);

/* The process's arguments, given to deferred initializers (set by the launcher). */
void mmpi_private_libs_set_args(int argc, char **argv);

#endif
