/*
 * bind.c: where a rank's program reads the C library's variables that are per process on a real
 * machine, made per rank: getopt's optind, optarg, opterr and optopt, and the environment's
 * `environ` (also spelled `__environ` and `_environ`: one variable in glibc).
 *
 * glibc's getopt reads optind and opterr from its own variables and writes optind, optarg and
 * optopt back after every call; getenv and setenv read and replace environ. A program reaches
 * those variables in one of two ways:
 * - code compiled with -fPIC loads their address from a GOT slot of its image, which the
 *   loader fills with the first definition in the global scope: libc's (or the main
 *   executable's, below), one variable for the whole process;
 * - code compiled for an executable (-fPIE, the compiler's default) addresses a copy of each in
 *   the image's own .bss, made by a copy relocation (R_X86_64_COPY) at load time.
 * A private image (runtime/private_image.c) therefore has its own copies in the second case and
 * shares libc's in the first. At rank start, before main runs, every variable gets a per-rank
 * home: the rank's image's own copy when it has one, else a cell in the rank's state
 * (libc/libc.h); every GOT slot of an image bound to the rank that names the variable is
 * pointed at that home (a write into the image's RELRO page, made writable for the moment).
 * The interposed getopt (libc/getopt.c) and environment calls (libc/env.c) then read and write
 * those homes, so that code of either kind, or a mix, sees what a process would. Binding is a
 * function of one link map (bind_image): the rank's copies of its private shared libraries
 * (runtime/private_libs.c) are bound the same way, after its program image.
 *
 * With MINI_MPI_PRIVATIZE=0 every rank runs the main executable's one image: its variables
 * are the process's (found through the global scope), shared like the program's other globals;
 * the rank's environment is then reached through the environment calls only (and main's third
 * argument), `environ` being the process's.
 */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libc/libc.h"
#include "runtime/private_libs.h"

#if defined(__x86_64__)
#define RELOC_COPY R_X86_64_COPY
#define RELOC_GLOB_DAT R_X86_64_GLOB_DAT
#define RELOC_ABS64 R_X86_64_64
#elif defined(__aarch64__)
#define RELOC_COPY R_AARCH64_COPY
#define RELOC_GLOB_DAT R_AARCH64_GLOB_DAT
#define RELOC_ABS64 R_AARCH64_ABS64
#else
#error "libc/bind.c: relocation types for this architecture"
#endif

/* The variables, by symbol name: the three spellings of environ are one variable. */
static const struct {
    const char *name;
    int var;
} var_names[] = {
    {"optind", MMPI_LIBC_OPTIND},   {"opterr", MMPI_LIBC_OPTERR},
    {"optopt", MMPI_LIBC_OPTOPT},   {"optarg", MMPI_LIBC_OPTARG},
    {"environ", MMPI_LIBC_ENVIRON}, {"__environ", MMPI_LIBC_ENVIRON},
    {"_environ", MMPI_LIBC_ENVIRON},
};

static int var_index(const char *name)
{
    if (strncmp(name, "opt", 3) && !strstr(name, "environ"))
        return -1;
    for (size_t i = 0; i < sizeof(var_names) / sizeof(var_names[0]); i++)
        if (!strcmp(name, var_names[i].name))
            return var_names[i].var;
    return -1;
}

/* A pointer from the dynamic section: glibc rewrites some entries to absolute addresses when
 * it loads an object whose dynamic section is writable, others stay link-time addresses. */
static uintptr_t dyn_addr(const struct link_map *lm, ElfW(Addr) value)
{
    return value >= lm->l_addr ? (uintptr_t)value : (uintptr_t)(lm->l_addr + value);
}

/* Writes value into a GOT slot of the image, through its RELRO protection if need be. */
static void write_slot(const struct link_map *lm, uintptr_t slot, uintptr_t value)
{
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)lm->l_addr;
    const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(lm->l_addr + eh->e_phoff);
    bool relro = false;
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_GNU_RELRO && slot >= lm->l_addr + ph[i].p_vaddr &&
            slot < lm->l_addr + ph[i].p_vaddr + ph[i].p_memsz)
            relro = true;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    void *start = (void *)(slot & ~(page - 1));
    if (relro && mprotect(start, page, PROT_READ | PROT_WRITE) != 0)
        mmpi_die("mprotect of a private image's GOT");
    __atomic_store_n((uintptr_t *)slot, value, __ATOMIC_RELAXED);
    if (relro)
        mprotect(start, page, PROT_READ);
}

/* The cell of st that is variable v's home until an image's copy claims it. */
static void *cell_of(struct mmpi_libc *st, int v)
{
    switch (v) {
    case MMPI_LIBC_OPTIND: return &st->cells.optind;
    case MMPI_LIBC_OPTERR: return &st->cells.opterr;
    case MMPI_LIBC_OPTOPT: return &st->cells.optopt;
    case MMPI_LIBC_OPTARG: return &st->cells.optarg;
    default: return &st->cells.environ;
    }
}

/* Binds the variables of one image loaded for the rank alone: its copies of the variables
 * become their homes if they have none but a cell yet (the program image, bound first), and
 * its GOT slots are pointed at the homes. */
static void bind_image(const struct link_map *lm, struct mmpi_libc *st)
{
    const ElfW(Rela) *rela = NULL;
    size_t relasz = 0;
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    for (const ElfW(Dyn) *d = lm->l_ld; d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_RELA: rela = (const ElfW(Rela) *)dyn_addr(lm, d->d_un.d_ptr); break;
        case DT_RELASZ: relasz = d->d_un.d_val; break;
        case DT_SYMTAB: symtab = (const ElfW(Sym) *)dyn_addr(lm, d->d_un.d_ptr); break;
        case DT_STRTAB: strtab = (const char *)dyn_addr(lm, d->d_un.d_ptr); break;
        default: break;
        }
    }
    if (!rela || !symtab || !strtab)
        return;
    size_t n = relasz / sizeof(*rela);
    /* First the image's own copies, then the slots that must point at the homes. */
    for (size_t k = 0; k < n; k++) {
        if (ELF64_R_TYPE(rela[k].r_info) != RELOC_COPY)
            continue;
        int v = var_index(strtab + symtab[ELF64_R_SYM(rela[k].r_info)].st_name);
        if (v >= 0 && st->homes[v] == cell_of(st, v))
            st->homes[v] = (void *)(lm->l_addr + rela[k].r_offset);
    }
    for (size_t k = 0; k < n; k++) {
        unsigned type = ELF64_R_TYPE(rela[k].r_info);
        if (type != RELOC_GLOB_DAT && type != RELOC_ABS64)
            continue;
        int v = var_index(strtab + symtab[ELF64_R_SYM(rela[k].r_info)].st_name);
        if (v < 0)
            continue;
        uintptr_t value = (uintptr_t)st->homes[v] + (type == RELOC_ABS64 ? rela[k].r_addend : 0);
        write_slot(lm, lm->l_addr + rela[k].r_offset, value);
    }
}

void mmpi_libc_bind(struct mmpi_rank *r, struct mmpi_libc *st)
{
    Dl_info info;
    struct link_map *lm = NULL;
    void *main_program = dlopen(NULL, RTLD_LAZY | RTLD_NOLOAD);

    for (int v = 0; v < MMPI_LIBC_NVARS; v++)
        st->homes[v] = cell_of(st, v);
    if (r->main && dladdr1((void *)r->main, &info, (void **)&lm, RTLD_DL_LINKMAP) && lm &&
        (void *)lm != main_program) {
        st->image = lm;
        bind_image(lm, st);
        /* Then the rank's copies of its private libraries (runtime/private_libs.c). */
        struct mmpi_private_copies *rc = mmpi_private_copies_of(lm);
        for (int i = 0; rc && i < rc->count; i++)
            if (rc->items[i].handle && rc->items[i].handle != (void *)lm)
                bind_image((const struct link_map *)rc->items[i].handle, st);
        /* A new process's values (the image's copies were copied from the process's); the
         * environment is set by libc/env.c. */
        *(int *)st->homes[MMPI_LIBC_OPTIND] = 1;
        *(int *)st->homes[MMPI_LIBC_OPTERR] = 1;
        *(int *)st->homes[MMPI_LIBC_OPTOPT] = '?';
        *(char **)st->homes[MMPI_LIBC_OPTARG] = NULL;
    } else {
        st->image = main_program;
        for (size_t i = 0; i < 4; i++) { /* getopt's: the shared image's */
            st->homes[var_names[i].var] = dlsym(RTLD_DEFAULT, var_names[i].name);
            if (!st->homes[var_names[i].var])
                mmpi_die("the C library's getopt variables");
        }
    }
    if (main_program)
        dlclose(main_program);
    st->optind = st->homes[MMPI_LIBC_OPTIND];
    st->opterr = st->homes[MMPI_LIBC_OPTERR];
    st->optopt = st->homes[MMPI_LIBC_OPTOPT];
    st->optarg = st->homes[MMPI_LIBC_OPTARG];
    st->environ_home = st->homes[MMPI_LIBC_ENVIRON];
}
