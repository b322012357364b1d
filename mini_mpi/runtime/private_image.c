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
 * Known limits (docs): globals of other shared libraries are shared. The C library's variables
 * a program reads (optind and its siblings) are given a per-rank home at rank start
 * (libc/bind.c), whether the copy reaches them through its GOT or a copy relocation.
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

#include "runtime/private_image.h"

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

/* Clears DF_1_PIE in the file image. Returns false if the file is not a 64-bit ELF we know. */
static bool clear_pie_flag(unsigned char *img, size_t len)
{
    Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
    if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_phoff + (size_t)eh->e_phnum *
        sizeof(Elf64_Phdr) > len)
        return false;
    if (eh->e_type != ET_DYN)
        return false; /* not a PIE: cannot be loaded again at another address */
    Elf64_Phdr *ph = (Elf64_Phdr *)(img + eh->e_phoff);
    for (int i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type != PT_DYNAMIC)
            continue;
        if (ph[i].p_offset + ph[i].p_filesz > len)
            return false;
        Elf64_Dyn *d = (Elf64_Dyn *)(img + ph[i].p_offset);
        size_t n = ph[i].p_filesz / sizeof(*d);
        for (size_t j = 0; j < n && d[j].d_tag != DT_NULL; j++)
            if (d[j].d_tag == DT_FLAGS_1)
                d[j].d_un.d_val &= ~(Elf64_Xword)DF_1_PIE;
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

/* A memfd holding the image: of rank `rank`, or (rank < 0) the code all ranks share, an
 * optimization whose failure is silent (each rank then keeps its own copy). */
static int memfd_with(const unsigned char *img, size_t len, int rank)
{
    char name[64];
    if (rank >= 0)
        snprintf(name, sizeof(name), "mini_mpi-rank-%d", rank);
    else
        snprintf(name, sizeof(name), "mini_mpi-code");
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) {
        if (rank >= 0)
            fprintf(stderr, "mini_mpi: cannot create the image of rank %d: %s\n", rank,
                    strerror(errno));
        return -1;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, img + done, len - done);
        if (w <= 0) {
            if (rank >= 0)
                fprintf(stderr, "mini_mpi: cannot write the image of rank %d\n", rank);
            close(fd);
            return -1;
        }
        done += (size_t)w;
    }
    return fd;
}

static bool load_one(const char *file, int fd, int batch, int rank, const unsigned char *img,
                     int code_fd, mmpi_main_fn *main_out, void **handle_out)
{
    char path[1024];
    int slashes = 1 + batch % 64, dots = batch / 64;
    if (dots > 400) {
        fprintf(stderr, "mini_mpi: too many program images for the file descriptor limit\n");
        return false;
    }
    int used = snprintf(path, sizeof(path), "%.*s", slashes,
                        "////////////////////////////////////////////////////////////////");
    for (int i = 0; i < dots; i++)
        used += snprintf(path + used, sizeof(path) - (size_t)used, "./");
    snprintf(path + used, sizeof(path) - (size_t)used, "proc/self/fd/%d", fd);
    void *handle = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (!handle) {
        fprintf(stderr, "mini_mpi: cannot load the private program image of rank %d: %s\n",
                rank, dlerror());
        return false;
    }
    if (code_fd >= 0 && !share_code(handle, img, code_fd))
        return false;
    if (handle_out)
        *handle_out = handle;
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

bool mmpi_private_images_load_file(const char *path, int n, int label, mmpi_main_fn *mains,
                                   void **handles)
{
    unsigned char *img;
    size_t len;
    bool ok = true;

    if (handles)
        memset(handles, 0, (size_t)n * sizeof(*handles));
    if (!read_file(path, &img, &len))
        return false;
    if (!clear_pie_flag(img, len)) {
        if (!strcmp(path, "/proc/self/exe"))
            fprintf(stderr, "mini_mpi: this program is not a position-independent executable: "
                            "link it with mpicc, or set MINI_MPI_PRIVATIZE=0\n");
        else
            fprintf(stderr, "mini_mpi: %s is not a position-independent executable (link it "
                            "with mpicc)\n", path);
        free(img);
        return false;
    }
    int cap = batch_capacity();
    int *fds = malloc((size_t)cap * sizeof(int));
    /* The copy whose read-only pages every rank maps (-1: each keeps its own). */
    int code_fd = code_shareable(img, len) ? memfd_with(img, len, -1) : -1;
    for (int first = 0; ok && first < n; first += cap) {
        int count = n - first < cap ? n - first : cap, opened = 0;
        int batch = __atomic_fetch_add(&batches_used, 1, __ATOMIC_RELAXED);
        for (; ok && opened < count; opened++) {
            int i = first + opened;
            fds[opened] = memfd_with(img, len, label + i);
            ok = fds[opened] >= 0 &&
                 load_one(path, fds[opened], batch, label + i, img, code_fd, &mains[i],
                          handles ? &handles[i] : NULL);
            if (fds[opened] < 0)
                break;
        }
        for (int i = 0; i < opened; i++) /* the mappings keep the files alive */
            close(fds[i]);
    }
    if (code_fd >= 0)
        close(code_fd); /* the mappings keep it alive */
    free(fds);
    free(img);
    return ok;
}

bool mmpi_private_images_load(int n, mmpi_main_fn *mains)
{
    return mmpi_private_images_load_file("/proc/self/exe", n, 0, mains, NULL);
}
