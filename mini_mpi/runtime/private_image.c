/*
 * private_image.c: per-rank copies of the program image.
 *
 * The executable (linked by mpicc as a PIE with main exported) is read once from /proc/self/exe;
 * DF_1_PIE is cleared in DT_FLAGS_1 of that copy, because glibc refuses to dlopen an object
 * marked PIE. Each rank then gets its own memfd holding those bytes, dlopen'ed RTLD_LOCAL
 * through /proc/self/fd/N: a distinct inode, so the loader maps a fresh object with its own
 * .data and .bss, while its undefined symbols (MPI_*, libc) bind to the one libmini_mpi and
 * libc already loaded. dlmopen is not used: glibc allows only 16 namespaces.
 *
 * MPI_Comm_spawn (spawn/) loads more images while the world runs: of the program itself, or of
 * another program linked by mpicc (whose own undefined symbols bind to the same libmini_mpi
 * when it names the same library file; spawn/ checks that).
 *
 * The read-only segments of every copy (code, constants) are then mapped again from one more
 * memfd holding the same bytes, so that all ranks run the same physical pages: the same code
 * cache lines and a single copy in memory. Each rank's .data, .bss and GOT stay its own. With
 * more ranks than CPUs every rank runs once per collective, and 1024 private copies of the code
 * it runs cost each of those turns cache misses (docs/performance.md).
 *
 * The shared libraries whose state is a rank's (runtime/private_libs.c) are loaded the same
 * way, each rank's copies before its program image; the copies are then bound to each other and
 * only then initialized. The C library's variables a program reads (optind and its siblings)
 * are given a per-rank home at rank start (libc/bind.c), whether the copy reaches them through
 * its GOT or a copy relocation.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mmpi.h"
#include "runtime/private_image.h"
#include "runtime/private_libs.h"

static bool read_file(const char *path, unsigned char **bytes, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        fprintf(stderr, "mini_mpi: cannot read %s: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return false;
    }
    unsigned char *buf = malloc((size_t)st.st_size);
    size_t done = 0;
    while (buf && done < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + done, (size_t)st.st_size - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    close(fd);
    if (!buf || done != (size_t)st.st_size) {
        fprintf(stderr, "mini_mpi: cannot read %s\n", path);
        free(buf);
        return false;
    }
    *bytes = buf;
    *len = done;
    return true;
}

/* Clears DF_1_PIE in the file image (glibc refuses to dlopen an object marked PIE) and, for
 * obj->init_deferred, hides the initializers from the loader, recording them in obj: DT_INIT
 * becomes a second DT_INIT_ARRAYSZ, and every DT_INIT_ARRAYSZ says 0. Returns false if the file
 * is not a 64-bit ELF object that can be loaded at any address. */
static bool edit_dynamic(struct mmpi_private_object *obj)
{
    unsigned char *img = obj->img;
    size_t len = obj->len;
    Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
    if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_phoff + (size_t)eh->e_phnum *
        sizeof(Elf64_Phdr) > len)
        return false;
    if (eh->e_type != ET_DYN)
        return false; /* not position independent: cannot be loaded again at another address */
    Elf64_Phdr *ph = (Elf64_Phdr *)(img + eh->e_phoff);
    for (int i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type != PT_DYNAMIC)
            continue;
        if (ph[i].p_offset + ph[i].p_filesz > len)
            return false;
        Elf64_Dyn *d = (Elf64_Dyn *)(img + ph[i].p_offset);
        size_t n = ph[i].p_filesz / sizeof(*d);
        for (size_t j = 0; j < n && d[j].d_tag != DT_NULL; j++) {
            if (d[j].d_tag == DT_FLAGS_1)
                d[j].d_un.d_val &= ~(Elf64_Xword)DF_1_PIE;
            if (!obj->init_deferred)
                continue;
            if (d[j].d_tag == DT_INIT) {
                obj->init = d[j].d_un.d_ptr;
                d[j].d_tag = DT_INIT_ARRAYSZ;
                d[j].d_un.d_val = 0;
            } else if (d[j].d_tag == DT_INIT_ARRAY) {
                obj->init_array = d[j].d_un.d_ptr;
            } else if (d[j].d_tag == DT_INIT_ARRAYSZ && d[j].d_un.d_val) {
                obj->init_array_size = d[j].d_un.d_val;
                d[j].d_un.d_val = 0;
            }
        }
        return true;
    }
    return false;
}

/* Whether the image's code may be shared between copies: no text relocations (the loader would
 * have written into the code of each copy). */
static bool code_shareable(const unsigned char *img, size_t len)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff);
    for (int i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type != PT_DYNAMIC || ph[i].p_offset + ph[i].p_filesz > len)
            continue;
        const Elf64_Dyn *d = (const Elf64_Dyn *)(img + ph[i].p_offset);
        size_t n = ph[i].p_filesz / sizeof(*d);
        for (size_t j = 0; j < n && d[j].d_tag != DT_NULL; j++)
            if (d[j].d_tag == DT_TEXTREL ||
                (d[j].d_tag == DT_FLAGS && (d[j].d_un.d_val & DF_TEXTREL)))
                return false;
    }
    return true;
}

/* Maps the read-only segments of a loaded copy again from shared_fd (the same bytes): every
 * copy then runs the same physical pages. Returns false only if a mapping failed half-way,
 * which leaves the copy unusable. */
static bool share_code(void *handle, const unsigned char *img, int shared_fd)
{
    struct link_map *lm = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm)
        return true; /* keep the private copy */
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff);
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type != PT_LOAD || (ph[i].p_flags & PF_W) || ph[i].p_filesz != ph[i].p_memsz)
            continue;
        uintptr_t start = (lm->l_addr + ph[i].p_vaddr) & ~(page - 1);
        uintptr_t end = (lm->l_addr + ph[i].p_vaddr + ph[i].p_filesz + page - 1) & ~(page - 1);
        bool overlaps = false; /* a page shared with a writable segment stays private */
        for (int j = 0; j < eh->e_phnum; j++) {
            if (ph[j].p_type != PT_LOAD || !(ph[j].p_flags & PF_W))
                continue;
            uintptr_t ws = (lm->l_addr + ph[j].p_vaddr) & ~(page - 1);
            uintptr_t we = (lm->l_addr + ph[j].p_vaddr + ph[j].p_memsz + page - 1) & ~(page - 1);
            overlaps |= start < we && ws < end;
        }
        if (overlaps)
            continue;
        off_t off = (off_t)(ph[i].p_offset & ~(Elf64_Off)(page - 1));
        int prot = PROT_READ | (ph[i].p_flags & PF_X ? PROT_EXEC : 0);
        if (mmap((void *)start, end - start, prot, MAP_PRIVATE | MAP_FIXED, shared_fd, off) ==
            MAP_FAILED) {
            fprintf(stderr, "mini_mpi: cannot share the program's code between ranks: %s\n",
                    strerror(errno));
            return false;
        }
    }
    return true;
}

/* glibc's loader reuses an already loaded object whose name matches the path given to dlopen,
 * before looking at the file. Each image therefore needs a path never used before: its memfd
 * stays open (a distinct /proc/self/fd/N) until its batch is loaded, and each batch of the
 * process's life (the launcher's, then each spawn's) gets a distinct prefix of slashes and
 * "./" components, which the kernel ignores. Batches are bounded by the file descriptor
 * limit, raised to the hard limit first. */
static int batches_used; /* atomic: batches numbered so far */
static int batch_capacity(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return 4096;
    long cap = (long)rl.rlim_cur - 256; /* leave room for what the process already has open */
    return cap < 16 ? 16 : cap > 65536 ? 65536 : (int)cap;
}

/* A memfd holding an image: of rank `rank` (what names it in messages), or (rank < 0) the code
 * all ranks share, an optimization whose failure is silent (each rank then keeps its own copy). */
static int memfd_with(const unsigned char *img, size_t len, int rank, const char *what)
{
    char name[96];
    if (rank >= 0)
        snprintf(name, sizeof(name), "mini_mpi-rank-%d-%s", rank, what);
    else
        snprintf(name, sizeof(name), "mini_mpi-code-%s", what);
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) {
        if (rank >= 0)
            fprintf(stderr, "mini_mpi: cannot create the image of %s for rank %d: %s\n", what,
                    rank, strerror(errno));
        return -1;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, img + done, len - done);
        if (w <= 0) {
            if (rank >= 0)
                fprintf(stderr, "mini_mpi: cannot write the image of %s for rank %d\n", what,
                        rank);
            close(fd);
            return -1;
        }
        done += (size_t)w;
    }
    return fd;
}

bool mmpi_private_object_prepare(struct mmpi_private_object *obj, const char *path,
                                 bool defer_init)
{
    memset(obj, 0, sizeof(*obj));
    obj->code_fd = -1;
    obj->init_deferred = defer_init;
    if (!read_file(path, &obj->img, &obj->len))
        return false;
    if (!edit_dynamic(obj)) {
        free(obj->img);
        obj->img = NULL; /* obj->len stays: the file was read (the caller's message says why) */
        return false;
    }
    obj->path = mmpi_xstrdup(path);
    /* The copy whose read-only pages every rank maps (-1: each keeps its own). */
    if (code_shareable(obj->img, obj->len))
        obj->code_fd = memfd_with(obj->img, obj->len, -1, basename(path));
    return true;
}

void mmpi_private_object_release(struct mmpi_private_object *obj)
{
    if (obj->code_fd >= 0)
        close(obj->code_fd); /* the mappings keep it alive */
    free(obj->img);
    free(obj->path);
    memset(obj, 0, sizeof(*obj));
    obj->code_fd = -1;
}

static int saved_argc;
static char **saved_argv;

void mmpi_private_libs_set_args(int argc, char **argv)
{
    saved_argc = argc;
    saved_argv = argv;
}

void mmpi_private_object_init(const struct mmpi_private_object *obj, void *handle)
{
    typedef void (*init_fn)(int, char **, char **);
    struct link_map *lm = NULL;
    if (!obj->init_deferred || dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm)
        return;
    if (obj->init)
        ((init_fn)(lm->l_addr + obj->init))(saved_argc, saved_argv, environ);
    /* The array's entries were relocated by the loader: they hold this copy's addresses. */
    init_fn *fns = (init_fn *)(lm->l_addr + obj->init_array);
    for (size_t i = 0; obj->init_array && i < obj->init_array_size / sizeof(init_fn); i++)
        if ((uintptr_t)fns[i] != 0 && (uintptr_t)fns[i] != (uintptr_t)-1)
            fns[i](saved_argc, saved_argv, environ);
}

/* Nonzero while the calling thread loads a copy: its dlopen, which may reach the interposed
 * one (runtime/private_dlopen.c) through a sanitizer's interceptor, is the runtime's own. */
static __thread int loading;

bool mmpi_private_images_loading(void)
{
    return loading > 0;
}

/* Loads the copy held by fd under a path no object of the process had (batch: see above). */
static void *load_copy(int fd, int batch, int flags, const char *what, int rank,
                       const struct mmpi_private_object *obj)
{
    char path[1024];
    int slashes = 1 + batch % 64, dots = batch / 64;
    if (dots > 400) {
        fprintf(stderr, "mini_mpi: too many program images for the file descriptor limit\n");
        return NULL;
    }
    int used = snprintf(path, sizeof(path), "%.*s", slashes,
                        "////////////////////////////////////////////////////////////////");
    for (int i = 0; i < dots; i++)
        used += snprintf(path + used, sizeof(path) - (size_t)used, "./");
    snprintf(path + used, sizeof(path) - (size_t)used, "proc/self/fd/%d", fd);
    loading++;
    void *handle = dlopen(path, flags | RTLD_LOCAL);
    loading--;
    if (!handle) {
        fprintf(stderr, "mini_mpi: cannot load the private copy of %s for rank %d: %s\n", what,
                rank, dlerror());
        return NULL;
    }
    if (obj->code_fd >= 0 && !share_code(handle, obj->img, obj->code_fd))
        return NULL;
    return handle;
}

void *mmpi_private_object_load(const struct mmpi_private_object *obj, int rank)
{
    const char *what = basename(obj->path);
    int fd = memfd_with(obj->img, obj->len, rank, what);
    if (fd < 0)
        return NULL;
    /* A batch of its own: the path is new even after the descriptor is closed. */
    int batch = __atomic_fetch_add(&batches_used, 1, __ATOMIC_RELAXED);
    void *handle = load_copy(fd, batch, RTLD_NOW, what, rank, obj);
    close(fd); /* the mappings keep the file alive */
    return handle;
}

static bool find_main(void *handle, const char *file, mmpi_main_fn *main_out)
{
    *main_out = (mmpi_main_fn)dlsym(handle, "main");
    if (!*main_out && strcmp(file, "/proc/self/exe")) {
        fprintf(stderr, "mini_mpi: %s does not export main: link it with mpicc\n", file);
        return false;
    }
    if (!*main_out) {
        fprintf(stderr, "mini_mpi: main is not exported by this program: link it with mpicc "
                        "(which adds -Wl,--export-dynamic-symbol=main), or set "
                        "MINI_MPI_PRIVATIZE=0\n");
        return false;
    }
    return true;
}

/* Loads one rank's copies: its private libraries (leaves first), then its program image; binds
 * them to each other and runs their initializers in the loader's order. fds receives every
 * memfd opened (1 + plan's count), to be closed once the batch is loaded. */
static bool load_rank(const struct mmpi_private_object *prog, const struct mmpi_private_libs *plan,
                      int batch, int rank, int *fds, int *opened, mmpi_main_fn *main_out,
                      void **handle_out)
{
    int nlibs = plan ? plan->count : 0;
    void *libs[nlibs > 0 ? nlibs : 1];
    for (int i = 0; i < nlibs; i++) {
        const struct mmpi_private_object *lib = &plan->libs[i];
        const char *what = basename(lib->path);
        int fd = memfd_with(lib->img, lib->len, rank, what);
        if (fd < 0)
            return false;
        fds[(*opened)++] = fd;
        /* RTLD_NOW: every address is bound before mmpi_private_libs_bind moves it. */
        if (!(libs[i] = load_copy(fd, batch, RTLD_NOW, what, rank, lib)))
            return false;
    }
    int fd = memfd_with(prog->img, prog->len, rank, "program");
    if (fd < 0)
        return false;
    fds[(*opened)++] = fd;
    void *handle = load_copy(fd, batch, plan ? RTLD_NOW : RTLD_LAZY, "the program", rank, prog);
    if (!handle)
        return false;
    if (plan)
        mmpi_private_libs_bind(plan, libs, handle);
    for (int i = 0; i < nlibs; i++)
        mmpi_private_object_init(&plan->libs[i], libs[i]);
    mmpi_private_object_init(prog, handle); /* nothing to run unless its init was deferred */
    if (handle_out)
        *handle_out = handle;
    return find_main(handle, prog->path, main_out);
}

/* The plan of another program: its private libraries are among the objects its one instance
 * made the process load (the loader finds them as it would for the program: its RUNPATH, the
 * search paths). The instance's initializers never run; it stays loaded, as the copies are
 * bound by its addresses and those of the libraries it loaded. NULL if it cannot be loaded. */
static struct mmpi_private_libs *plan_of_program(const struct mmpi_private_object *prog)
{
    int fd = memfd_with(prog->img, prog->len, -1, "program");
    if (fd < 0)
        return NULL;
    int batch = __atomic_fetch_add(&batches_used, 1, __ATOMIC_RELAXED);
    void *instance = load_copy(fd, batch, RTLD_NOW, "the program", -1, prog);
    close(fd);
    struct link_map *lm = NULL;
    if (!instance || dlinfo(instance, RTLD_DI_LINKMAP, &lm) != 0 || !lm)
        return NULL;
    return mmpi_private_libs_plan_for_program(lm->l_addr);
}

bool mmpi_private_images_load_file(const char *path, int n, int label, mmpi_main_fn *mains,
                                   void **handles)
{
    bool ok = true;
    bool myself = !strcmp(path, "/proc/self/exe");
    const struct mmpi_private_libs *plan = myself ? mmpi_private_libs_plan() : NULL;
    struct mmpi_private_libs *own = NULL; /* another program's (MPI_Comm_spawn) */
    struct mmpi_private_object prog;

    if (handles)
        memset(handles, 0, (size_t)n * sizeof(*handles));
    /* Another program's initializers wait until its copies are bound, as it may have private
     * libraries of its own. */
    if (!mmpi_private_object_prepare(&prog, path, myself ? plan != NULL : true)) {
        if (prog.len > 0 && myself) /* read, but not loadable again */
            fprintf(stderr, "mini_mpi: this program is not a position-independent executable: "
                            "link it with mpicc, or set MINI_MPI_PRIVATIZE=0\n");
        else if (prog.len > 0)
            fprintf(stderr, "mini_mpi: %s is not a position-independent executable (link it "
                            "with mpicc)\n", path);
        return false;
    }
    if (!myself)
        plan = own = plan_of_program(&prog);
    int per_rank = 1 + (plan ? plan->count : 0);
    int cap = batch_capacity() / per_rank;
    if (cap < 1)
        cap = 1;
    int *fds = malloc((size_t)cap * (size_t)per_rank * sizeof(int));
    for (int first = 0; ok && first < n; first += cap) {
        int count = n - first < cap ? n - first : cap, opened = 0;
        int batch = __atomic_fetch_add(&batches_used, 1, __ATOMIC_RELAXED);
        for (int k = 0; ok && k < count; k++) {
            int i = first + k;
            ok = load_rank(&prog, plan, batch, label + i, fds, &opened, &mains[i],
                           handles ? &handles[i] : NULL);
        }
        for (int i = 0; i < opened; i++) /* the mappings keep the files alive */
            close(fds[i]);
    }
    free(fds);
    mmpi_private_object_release(&prog);
    mmpi_private_libs_free(own);
    return ok;
}

bool mmpi_private_images_load(int n, mmpi_main_fn *mains)
{
    return mmpi_private_images_load_file("/proc/self/exe", n, 0, mains, NULL);
}
