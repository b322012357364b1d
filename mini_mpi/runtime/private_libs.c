/*
 * private_libs.c: shared libraries private to each rank, as the program image is.
 *
 * In a process per rank every library has its own .data and .bss; here the ranks share one
 * process, so a library whose state belongs to a rank must be loaded once per rank. Which:
 * every library of the process's startup closure that needs libmini_mpi, directly or through
 * another such library (it runs MPI code, so its state is a rank's), and every library that
 * MINI_MPI_PRIVATE_LIBS names (a solver's caches in a library that never calls MPI). The
 * C library, the loader, libmini_mpi and the runtimes it shares stay shared (deny list below).
 *
 * How: runtime/private_image.c loads a rank's copies of these libraries from memfds (a distinct
 * inode each, so the loader maps a fresh object), leaves first, with RTLD_NOW, then the program
 * image, and the loader binds every symbol of every copy through the global scope first: to the
 * process's own instance of each library, loaded at start-up as a dependency of the executable.
 * mmpi_private_libs_bind then moves each address bound into a copy that points into the
 * process's instance of a private library (or of the main executable) to the same offset in the
 * rank's copy: the copies are byte-identical, so an offset names the same function or variable.
 * That is exactly the binding a process would get, without RTLD_DEEPBIND (which would take the
 * C library's definitions ahead of libmini_mpi's interposed ones, and which the sanitizers
 * refuse). The copies' initializers were hidden from the loader (private_image.c) and run only
 * once the copies are bound, so a constructor already writes the rank's own state.
 *
 * Thread-local variables of a library stay bound to the process's instance of it: a TLS block
 * is per thread already, and every rank is a thread of its own.
 */
#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mmpi.h"
#include "runtime/private_image.h"
#include "runtime/private_libs.h"

#if defined(__x86_64__)
#define RELOC_COPY R_X86_64_COPY
#define RELOC_GLOB_DAT R_X86_64_GLOB_DAT
#define RELOC_JUMP_SLOT R_X86_64_JUMP_SLOT
#define RELOC_ABS64 R_X86_64_64
#elif defined(__aarch64__)
#define RELOC_COPY R_AARCH64_COPY
#define RELOC_GLOB_DAT R_AARCH64_GLOB_DAT
#define RELOC_JUMP_SLOT R_AARCH64_JUMP_SLOT
#define RELOC_ABS64 R_AARCH64_ABS64
#else
#error "runtime/private_libs.c: relocation types for this architecture"
#endif

/* Libraries that stay shared whatever they need: the C library and the loader (one process),
 * libmini_mpi itself (one MPI library), and the runtimes every rank shares with it. */
static const char *const deny_prefixes[] = {
    "ld-linux", "libc.so", "libpthread.so", "libdl.so", "libm.so", "librt.so",
    "libmini_mpi.so", "liburcu", "libgcc_s.so", "libstdc++.so", "libasan.so", "libtsan.so",
    "libubsan.so", "liblsan.so", "linux-vdso", "libcmocka.so",
};

/* An object of the process as the loader placed it. */
struct loaded {
    const char *path;
    const char *soname;         /* DT_SONAME, else the file's base name */
    uintptr_t base, lo, hi;
    const ElfW(Dyn) *dyn;
    const char *strtab;
    int needs_mpi;              /* -1 unknown, 0, 1 */
    bool named;                 /* in MINI_MPI_PRIVATE_LIBS */
    int order;                  /* position in the plan, -1 when shared */
    bool visiting;
};

struct scan {
    struct loaded *objs;
    int count, cap;
};

/* A pointer from a loaded dynamic section: glibc rewrites some entries to absolute addresses
 * when it loads an object whose dynamic section is writable, others stay link-time offsets. */
static uintptr_t dyn_ptr(uintptr_t base, ElfW(Addr) value)
{
    return value >= base ? (uintptr_t)value : (uintptr_t)(base + value);
}

static int collect(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct scan *s = arg;
    (void)size;
    if (s->count == s->cap) {
        int cap = s->cap ? 2 * s->cap : 32;
        struct loaded *objs = mmpi_xcalloc((size_t)cap, sizeof(*objs));
        if (s->count)
            memcpy(objs, s->objs, (size_t)s->count * sizeof(*objs));
        free(s->objs);
        s->objs = objs;
        s->cap = cap;
    }
    struct loaded *o = &s->objs[s->count++];
    memset(o, 0, sizeof(*o));
    o->path = info->dlpi_name;
    o->base = info->dlpi_addr;
    o->lo = UINTPTR_MAX;
    o->needs_mpi = -1;
    o->order = -1;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD) {
            uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
            o->lo = lo < o->lo ? lo : o->lo;
            o->hi = hi > o->hi ? hi : o->hi;
        } else if (ph->p_type == PT_DYNAMIC) {
            o->dyn = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
        }
    }
    const ElfW(Dyn) *soname = NULL;
    for (const ElfW(Dyn) *d = o->dyn; d && d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_STRTAB)
            o->strtab = (const char *)dyn_ptr(o->base, d->d_un.d_ptr);
        else if (d->d_tag == DT_SONAME)
            soname = d;
    }
    o->soname = soname && o->strtab ? o->strtab + soname->d_un.d_val : basename(o->path);
    return 0;
}

static bool denied(const struct loaded *o)
{
    for (size_t i = 0; i < sizeof(deny_prefixes) / sizeof(deny_prefixes[0]); i++)
        if (!strncmp(o->soname, deny_prefixes[i], strlen(deny_prefixes[i])) ||
            !strncmp(basename(o->path), deny_prefixes[i], strlen(deny_prefixes[i])))
            return true;
    return false;
}

/* The loaded object a DT_NEEDED name refers to: the loader matched it by soname or file name. */
static struct loaded *find_needed(struct scan *s, const char *name)
{
    for (int i = 1; i < s->count; i++)
        if (!strcmp(s->objs[i].soname, name) || !strcmp(s->objs[i].path, name) ||
            !strcmp(basename(s->objs[i].path), basename(name)))
            return &s->objs[i];
    return NULL;
}

static bool needs_mpi(struct scan *s, struct loaded *o)
{
    if (o->needs_mpi >= 0)
        return o->needs_mpi;
    o->needs_mpi = 0; /* a cycle of dependencies adds nothing */
    for (const ElfW(Dyn) *d = o->dyn; d && o->strtab && d->d_tag != DT_NULL; d++) {
        if (d->d_tag != DT_NEEDED)
            continue;
        const char *name = o->strtab + d->d_un.d_val;
        struct loaded *dep;
        if (!strcmp(basename(name), "libmini_mpi.so") ||
            ((dep = find_needed(s, name)) && dep != o && needs_mpi(s, dep))) {
            o->needs_mpi = 1;
            break;
        }
    }
    return o->needs_mpi;
}

/* Whether MINI_MPI_PRIVATE_LIBS names o: by soname, file name or path. */
static bool named_private(const struct loaded *o, const char *list)
{
    if (!list)
        return false;
    char real[PATH_MAX];
    const char *resolved = realpath(o->path, real);
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ":");
        if (n && ((strlen(o->soname) == n && !strncmp(p, o->soname, n)) ||
                  (strlen(basename(o->path)) == n && !strncmp(p, basename(o->path), n)) ||
                  (strlen(o->path) == n && !strncmp(p, o->path, n)))) {
            return true;
        }
        if (n && resolved && p[0] == '/') {
            char entry[PATH_MAX], entry_real[PATH_MAX];
            snprintf(entry, sizeof(entry), "%.*s", (int)n, p);
            if (realpath(entry, entry_real) && !strcmp(entry_real, resolved))
                return true;
        }
        p += n + (p[n] == ':');
    }
    return false;
}

/* Whether o is private by the rule: it needs MPI, or MINI_MPI_PRIVATE_LIBS names it. */
static bool wanted(struct scan *s, struct loaded *o)
{
    o->named = named_private(o, getenv("MINI_MPI_PRIVATE_LIBS"));
    return o->named || needs_mpi(s, o);
}

static void place(struct scan *s, struct loaded *o, struct loaded **order, int *n);

/* Appends the private libraries o needs to the plan (leaves first). */
static void place_needed(struct scan *s, struct loaded *o, struct loaded **order, int *n)
{
    for (const ElfW(Dyn) *d = o->dyn; d && o->strtab && d->d_tag != DT_NULL; d++) {
        struct loaded *dep;
        if (d->d_tag == DT_NEEDED && (dep = find_needed(s, o->strtab + d->d_un.d_val)) &&
            wanted(s, dep) && !denied(dep))
            place(s, dep, order, n);
    }
}

/* Appends o to the plan after the private libraries it needs (leaves first). */
static void place(struct scan *s, struct loaded *o, struct loaded **order, int *n)
{
    if (o->order >= 0 || o->visiting)
        return;
    o->visiting = true;
    place_needed(s, o, order, n);
    o->visiting = false;
    o->order = *n;
    order[(*n)++] = o;
}

/* The plan for the private libraries among the loaded objects: all of them (root NULL: the
 * startup closure, saying which wanted ones must stay shared), or those root needs, and root
 * itself unless it is a program (another program's instance, which stands for the main
 * executable), leaves first. NULL when none. */
static struct mmpi_private_libs *plan_of(struct scan *s, struct loaded *root, bool program)
{
    struct loaded **order = mmpi_xcalloc((size_t)s->count, sizeof(*order));
    int n = 0;
    if (program)
        place_needed(s, root, order, &n);
    for (int i = 1; i < s->count && !program; i++) { /* objs[0] is the main executable */
        struct loaded *o = &s->objs[i];
        if ((root && o != root) || !o->path[0] || !o->dyn || !wanted(s, o))
            continue; /* the vDSO has no file */
        if (denied(o)) {
            if (!root)
                fprintf(stderr, "mini_mpi: %s %s but is one of the libraries every rank shares: "
                                "its global variables are shared by all ranks\n", o->path,
                        o->named ? "is named in MINI_MPI_PRIVATE_LIBS" : "uses MPI");
            continue;
        }
        place(s, o, order, &n);
    }
    struct mmpi_private_libs *plan = NULL;
    if (n > 0) {
        plan = mmpi_xcalloc(1, sizeof(*plan));
        plan->libs = mmpi_xcalloc((size_t)n, sizeof(*plan->libs));
        plan->exe_base = s->objs[0].base;
        plan->exe_lo = s->objs[0].lo;
        plan->exe_hi = s->objs[0].hi;
        for (int i = 0; i < n; i++) {
            struct mmpi_private_object *lib = &plan->libs[plan->count];
            if (!mmpi_private_object_prepare(lib, order[i]->path, true)) {
                fprintf(stderr, "mini_mpi: %s cannot be loaded once per rank: its global "
                                "variables are shared by all ranks\n", order[i]->path);
                continue;
            }
            lib->orig_base = order[i]->base;
            lib->orig_lo = order[i]->lo;
            lib->orig_hi = order[i]->hi;
            plan->count++;
        }
        if (plan->count == 0) {
            free(plan->libs);
            free(plan);
            plan = NULL;
        }
    }
    free(order);
    return plan;
}

static struct mmpi_private_libs *make_plan(void)
{
    struct scan s = {0};
    dl_iterate_phdr(collect, &s);
    struct mmpi_private_libs *plan = s.count ? plan_of(&s, NULL, false) : NULL;
    free(s.objs);
    return plan;
}

struct mmpi_private_libs *mmpi_private_libs_plan_for(uintptr_t base)
{
    struct scan s = {0};
    dl_iterate_phdr(collect, &s);
    struct mmpi_private_libs *plan = NULL;
    for (int i = 1; i < s.count && !plan; i++)
        if (s.objs[i].base == base)
            plan = plan_of(&s, &s.objs[i], false);
    free(s.objs);
    return plan;
}

struct mmpi_private_libs *mmpi_private_libs_plan_for_program(uintptr_t base)
{
    struct scan s = {0};
    dl_iterate_phdr(collect, &s);
    struct mmpi_private_libs *plan = NULL;
    for (int i = 1; i < s.count; i++) {
        if (s.objs[i].base != base)
            continue;
        /* Empty when it needs none: its copies are still registered as the program's own
         * (runtime/private_dlopen.c finds a rank's copies through them), never the launcher's. */
        if (!(plan = plan_of(&s, &s.objs[i], true)))
            plan = mmpi_xcalloc(1, sizeof(*plan));
        plan->exe_base = base;
        plan->exe_lo = s.objs[i].lo;
        plan->exe_hi = s.objs[i].hi;
        break;
    }
    free(s.objs);
    return plan;
}

void mmpi_private_libs_free(struct mmpi_private_libs *plan)
{
    for (int i = 0; plan && i < plan->count; i++)
        mmpi_private_object_release(&plan->libs[i]);
    if (plan)
        free(plan->libs);
    free(plan);
}

static pthread_once_t plan_once = PTHREAD_ONCE_INIT;
static struct mmpi_private_libs *the_plan;
static void plan_init(void)
{
    the_plan = make_plan();
}

const struct mmpi_private_libs *mmpi_private_libs_plan(void)
{
    pthread_once(&plan_once, plan_init);
    return the_plan;
}

/* ---- the copies of each rank, found from its program image ---- */

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mmpi_private_copies *registry; /* linked through next */

static void register_copies(struct mmpi_private_copies *rc)
{
    pthread_mutex_lock(&registry_lock);
    rc->next = registry;
    registry = rc;
    pthread_mutex_unlock(&registry_lock);
}

struct mmpi_private_copies *mmpi_private_copies_of(void *program)
{
    pthread_mutex_lock(&registry_lock);
    struct mmpi_private_copies *rc = registry;
    while (rc && rc->program != program)
        rc = rc->next;
    pthread_mutex_unlock(&registry_lock);
    return rc;
}

/* ---- binding one rank's copies ---- */

struct relocs {
    const ElfW(Rela) *rela, *plt;
    size_t nrela, nplt;
    const ElfW(Sym) *symtab;
    const char *strtab;
};

static struct relocs relocs_of(const struct link_map *lm)
{
    struct relocs r = {0};
    for (const ElfW(Dyn) *d = lm->l_ld; d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_RELA: r.rela = (const ElfW(Rela) *)dyn_ptr(lm->l_addr, d->d_un.d_ptr); break;
        case DT_RELASZ: r.nrela = d->d_un.d_val / sizeof(ElfW(Rela)); break;
        case DT_JMPREL: r.plt = (const ElfW(Rela) *)dyn_ptr(lm->l_addr, d->d_un.d_ptr); break;
        case DT_PLTRELSZ: r.nplt = d->d_un.d_val / sizeof(ElfW(Rela)); break;
        case DT_SYMTAB: r.symtab = (const ElfW(Sym) *)dyn_ptr(lm->l_addr, d->d_un.d_ptr); break;
        case DT_STRTAB: r.strtab = (const char *)dyn_ptr(lm->l_addr, d->d_un.d_ptr); break;
        default: break;
        }
    }
    return r;
}

/* The RELRO pages of a copy, made writable while its slots are moved. */
struct relro {
    void *start;
    size_t len;
};

static struct relro relro_open(const struct link_map *lm)
{
    struct relro z = {0};
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)lm->l_addr;
    const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(lm->l_addr + eh->e_phoff);
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type != PT_GNU_RELRO)
            continue;
        uintptr_t start = (lm->l_addr + ph[i].p_vaddr) & ~(page - 1);
        uintptr_t end = (lm->l_addr + ph[i].p_vaddr + ph[i].p_memsz) & ~(page - 1);
        if (end > start && mprotect((void *)start, end - start, PROT_READ | PROT_WRITE) == 0) {
            z.start = (void *)start;
            z.len = end - start;
        }
    }
    return z;
}

static void relro_close(struct relro z)
{
    if (z.len)
        mprotect(z.start, z.len, PROT_READ);
}

/* The rank's address for v, an address in the process's instance of one of its private objects
 * (a library, or the main executable), or v. */
static uintptr_t move(const struct mmpi_private_copies *rc, uintptr_t v)
{
    for (int i = 0; i < rc->count; i++)
        if (v >= rc->items[i].orig_lo && v < rc->items[i].orig_hi)
            return v - rc->items[i].orig_base + rc->items[i].base;
    return v;
}

static void move_slots(const struct mmpi_private_copies *rc, const struct link_map *lm,
                       const ElfW(Rela) *rela, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        unsigned type = ELF64_R_TYPE(rela[k].r_info);
        if (ELF64_R_SYM(rela[k].r_info) == 0 ||
            (type != RELOC_GLOB_DAT && type != RELOC_JUMP_SLOT && type != RELOC_ABS64))
            continue;
        uintptr_t *slot = (uintptr_t *)(lm->l_addr + rela[k].r_offset);
        uintptr_t v = *slot, moved = move(rc, v);
        if (moved != v)
            *slot = moved;
    }
}

static struct link_map *link_map_of(void *handle)
{
    struct link_map *lm = NULL;
    return handle && dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 ? lm : NULL;
}

void mmpi_private_copies_bind(const struct mmpi_private_copies *rc, void *handle)
{
    struct link_map *lm = link_map_of(handle);
    if (!lm)
        return;
    struct relocs r = relocs_of(lm);
    struct relro z = relro_open(lm);
    move_slots(rc, lm, r.rela, r.nrela);
    move_slots(rc, lm, r.plt, r.nplt);
    relro_close(z);
}

/* A copy relocation of the program image gives it its own instance of a library's variable;
 * its initial value is the one in the rank's copy of the library, not the process's instance,
 * which the launcher's constructors may have changed. */
static void copy_variables(const struct mmpi_private_copies *rc, void *program)
{
    struct link_map *lm = link_map_of(program);
    if (!lm)
        return;
    struct relocs r = relocs_of(lm);
    for (size_t k = 0; r.symtab && r.strtab && k < r.nrela; k++) {
        if (ELF64_R_TYPE(r.rela[k].r_info) != RELOC_COPY)
            continue;
        const ElfW(Sym) *sym = &r.symtab[ELF64_R_SYM(r.rela[k].r_info)];
        for (int i = 0; i < rc->count; i++) {
            const struct mmpi_private_copy *c = &rc->items[i];
            uintptr_t def = c->handle ? (uintptr_t)dlsym(c->handle, r.strtab + sym->st_name) : 0;
            if (def && def >= c->orig_lo - c->orig_base + c->base &&
                def < c->orig_hi - c->orig_base + c->base) {
                memcpy((void *)(lm->l_addr + r.rela[k].r_offset), (void *)def, sym->st_size);
                break;
            }
        }
    }
}

void mmpi_private_copies_add(struct mmpi_private_copies *rc, void *orig, uintptr_t orig_base,
                             uintptr_t orig_lo, uintptr_t orig_hi, void *handle)
{
    if (rc->count == rc->cap) {
        int cap = rc->cap ? 2 * rc->cap : 8;
        struct mmpi_private_copy *items = mmpi_xcalloc((size_t)cap, sizeof(*items));
        if (rc->count)
            memcpy(items, rc->items, (size_t)rc->count * sizeof(*items));
        free(rc->items);
        rc->items = items;
        rc->cap = cap;
    }
    struct link_map *lm = link_map_of(handle);
    rc->items[rc->count++] = (struct mmpi_private_copy){
        .orig = orig, .orig_base = orig_base, .orig_lo = orig_lo, .orig_hi = orig_hi,
        .handle = handle, .base = lm ? lm->l_addr : 0, .refs = 1};
}

static struct mmpi_private_copies *copies_new(void *program)
{
    struct mmpi_private_copies *rc = mmpi_xcalloc(1, sizeof(*rc));
    pthread_mutexattr_t recursive; /* a copy's constructor may dlopen (private_dlopen.c) */
    MMPI_CHECK_PTHREAD(pthread_mutexattr_init(&recursive));
    MMPI_CHECK_PTHREAD(pthread_mutexattr_settype(&recursive, PTHREAD_MUTEX_RECURSIVE));
    MMPI_CHECK_PTHREAD(pthread_mutex_init(&rc->lock, &recursive));
    pthread_mutexattr_destroy(&recursive);
    rc->program = program;
    return rc;
}

static int first_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct scan *s = arg;
    collect(info, size, s);
    return 1; /* the main executable comes first */
}

struct mmpi_private_copies *mmpi_private_copies_get(void *program)
{
    static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;
    struct mmpi_private_copies *rc = mmpi_private_copies_of(program);
    if (rc || !program)
        return rc;
    pthread_mutex_lock(&create_lock);
    if (!(rc = mmpi_private_copies_of(program))) {
        struct scan s = {0};
        dl_iterate_phdr(first_object, &s);
        rc = copies_new(program);
        if (s.count)
            mmpi_private_copies_add(rc, NULL, s.objs[0].base, s.objs[0].lo, s.objs[0].hi,
                                    program);
        free(s.objs);
        register_copies(rc);
    }
    pthread_mutex_unlock(&create_lock);
    return rc;
}

struct mmpi_private_copies *mmpi_private_libs_bind(const struct mmpi_private_libs *plan,
                                                   void *const *lib_handles, void *program)
{
    struct mmpi_private_copies *rc = copies_new(program);
    for (int i = 0; i < plan->count; i++)
        mmpi_private_copies_add(rc, NULL, plan->libs[i].orig_base, plan->libs[i].orig_lo,
                                plan->libs[i].orig_hi, lib_handles[i]);
    mmpi_private_copies_add(rc, NULL, plan->exe_base, plan->exe_lo, plan->exe_hi, program);
    for (int i = 0; i < rc->count; i++)
        mmpi_private_copies_bind(rc, rc->items[i].handle);
    copy_variables(rc, program);
    register_copies(rc);
    return rc;
}
