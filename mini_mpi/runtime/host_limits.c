/*
 * host_limits.c: the largest job this host allows (host_limits.h), computed from what the
 * process holds now and what each rank adds, before any rank starts.
 *
 * Every rank adds a thread and its stack (two memory mappings: the stack and its guard page)
 * and, when privatized, a copy of the program image: as many mappings as the executable itself
 * has (counted in /proc/self/maps; an mpicc-linked program has three). A job above a limit
 * would otherwise fail part-way through start-up, or worse, run out of mappings later inside
 * malloc of any rank (an allocation failure is an internal error, and each rank that hits it
 * prints its own). So a larger job is refused here, in one line, and the launcher exits 2.
 *
 * Each limit keeps a reserve for what is not per rank (malloc arenas, the library's own
 * threads, other processes starting meanwhile); the reserves are deliberately generous: the
 * figures in README.md are measured with them.
 */
#include "runtime/host_limits.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/rank.h"

/* Mappings not tied to a rank: malloc's arenas (up to 8 per CPU, two mappings each), the
 * library's larger tables, the program's own. */
#define MAP_RESERVE_FIXED 1024L
/* Threads: the library's own (deadlock monitor, watchdog, reaper) and others' new processes. */
#define THREAD_RESERVE 64L
/* Address space not tied to a rank. */
#define AS_RESERVE ((int64_t)64 << 20)
/* Resident memory of a rank that runs no user code: its records, the touched top of its stack
 * and its image's private pages; measured about 45 KiB with a privatized image. */
#define RANK_RESIDENT ((int64_t)64 << 10)

/* One limit: how many ranks it allows (-1: no limit) and the line refusing more. */
struct limit {
    long max_ranks;
    char why[320];
};

static long read_long_file(const char *path, long fallback)
{
    FILE *f = fopen(path, "re");
    long v;
    if (!f)
        return fallback;
    int ok = fscanf(f, "%ld", &v) == 1;
    fclose(f);
    return ok ? v : fallback;
}

/* A field "Name: value kB" of /proc/meminfo, in bytes; -1 if absent. */
static int64_t meminfo_bytes(const char *name)
{
    FILE *f = fopen("/proc/meminfo", "re");
    char line[256];
    size_t len = strlen(name);
    int64_t v = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (!strncmp(line, name, len) && line[len] == ':') {
            v = strtoll(line + len + 1, NULL, 10) * 1024;
            break;
        }
    fclose(f);
    return v;
}

/* The process's mappings now, and those of the executable's image (its file's segments and the
 * anonymous .bss right after them) with their total size. */
struct maps_now {
    long total;
    long image;
    int64_t image_bytes;
    int64_t vm_bytes;
};

static void read_maps(struct maps_now *m)
{
    char exe[4096], line[4096 + 128];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    exe[n > 0 ? n : 0] = '\0';
    *m = (struct maps_now){0};
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return;
    uint64_t last_end = 0;
    bool after_image = false;
    while (fgets(line, sizeof(line), f)) {
        uint64_t start, end;
        int path_at = 0;
        if (!strchr(line, '\n') || sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %*s %*s %*s %n",
                                          &start, &end, &path_at) < 2)
            continue;
        m->total++;
        m->vm_bytes += (int64_t)(end - start);
        char *path = line + path_at;
        path[strcspn(path, "\n")] = '\0';
        bool mine = exe[0] && path_at > 0 && !strcmp(path, exe);
        if (mine || (after_image && !*path && start == last_end)) {
            m->image++;
            m->image_bytes += (int64_t)(end - start);
        }
        after_image = mine;
        last_end = end;
    }
    fclose(f);
}

/* Threads of this user now, for RLIMIT_NPROC (which counts them across all its processes). */
static long user_threads(void)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    long total = 0;
    uid_t uid = getuid();
    if (!d)
        return 0;
    while ((e = readdir(d))) {
        char path[300], buf[1024];
        struct stat st;
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof(path), "/proc/%s", e->d_name);
        if (stat(path, &st) != 0 || st.st_uid != uid)
            continue;
        snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[len] = '\0';
        /* After "pid (comm) ": num_threads is the 18th field from the state. */
        char *p = strrchr(buf, ')');
        long threads = 0;
        if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d "
                        "%*d %ld", &threads) == 1)
            total += threads;
    }
    closedir(d);
    return total;
}

/* The pids cgroup of this process (v2 unified, or v1 "pids" hierarchy): its limit and use, or
 * false when there is none. */
static bool pids_cgroup(long *max, long *current, char *dir, size_t dirlen)
{
    FILE *f = fopen("/proc/self/cgroup", "re");
    char line[1024];
    bool found = false;
    if (!f)
        return false;
    while (!found && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        char *path = NULL;
        if (!strncmp(line, "0::", 3))
            path = line + 3, snprintf(dir, dirlen, "/sys/fs/cgroup%s", path);
        else if ((path = strstr(line, ":pids:")))
            snprintf(dir, dirlen, "/sys/fs/cgroup/pids%s", path + 6);
        else
            continue;
        char file[1100 + 16];
        snprintf(file, sizeof(file), "%s/pids.max", dir);
        *max = read_long_file(file, -1); /* "max" reads as no number: no limit */
        snprintf(file, sizeof(file), "%s/pids.current", dir);
        *current = read_long_file(file, 0);
        found = *max > 0;
    }
    fclose(f);
    return found;
}

static long clamp_ranks(int64_t n)
{
    return n < 0 ? 0 : n > MMPI_MAX_RANKS ? MMPI_MAX_RANKS : (long)n;
}

/* Keeps in *best the limit allowing the fewest ranks. */
static void consider(struct limit *best, long max_ranks, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void consider(struct limit *best, long max_ranks, const char *fmt, ...)
{
    if (best->max_ranks >= 0 && best->max_ranks <= max_ranks)
        return;
    best->max_ranks = max_ranks;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(best->why, sizeof(best->why), fmt, ap);
    va_end(ap);
}

/* The address space malloc's arenas take under a limit on it. glibc reserves each thread
 * arena's heap whole (64 MiB, mapped at twice that while it is aligned), up to 8 arenas per
 * CPU: on 2 CPUs that is 1 GiB, so under ulimit -v the arenas created as ranks allocate take
 * whatever the stacks left, and a later allocation of any rank fails. So with a finite
 * RLIMIT_AS the ranks share malloc's main arena (grown with brk as it is used) unless the user
 * chose a number of arenas (MALLOC_ARENA_MAX, or glibc.malloc.arena_max in GLIBC_TUNABLES),
 * whose heaps are then counted here. Called once, before any rank starts. */
static int64_t limit_malloc_arenas(void)
{
    const int64_t heap = (int64_t)64 << 20;
    long chosen = -1;
    const char *v = getenv("MALLOC_ARENA_MAX");
    const char *t = getenv("GLIBC_TUNABLES");
    const char *k = t ? strstr(t, "glibc.malloc.arena_max=") : NULL;
    if (k)
        v = k + strlen("glibc.malloc.arena_max=");
    if (v) {
        char *end;
        errno = 0;
        chosen = strtol(v, &end, 10);
        if (errno || end == v || chosen < 1 || (*end && *end != ':'))
            chosen = -1; /* glibc ignores it too: its default applies */
    }
    if (chosen < 0) {
        long cpus = sysconf(_SC_NPROCESSORS_CONF);
        if (!v && mallopt(M_ARENA_MAX, 1) == 1)
            return 0;
        chosen = 8 * (cpus > 0 ? cpus : 1);
    }
    /* The main arena is not a reserved heap; each other one is, and one more may be being
     * created (twice the heap) at any moment. */
    return (chosen - 1) * heap + (chosen > 1 ? heap : 0);
}

bool mmpi_host_limits_check(const struct mmpi_launch_config *c)
{
    struct limit best = {.max_ranks = -1};
    struct maps_now maps;
    long n = c->nranks;
    long cpus = sysconf(_SC_NPROCESSORS_CONF);
    read_maps(&maps);

    /* Memory mappings. */
    long per_rank_maps = 2 + (c->privatize ? maps.image : 0);
    long map_reserve = maps.total + MAP_RESERVE_FIXED + 16 * (cpus > 0 ? cpus : 1);
    long max_map_count = read_long_file("/proc/sys/vm/max_map_count", -1);
    long by_maps = -1;
    if (max_map_count > 0) {
        by_maps = clamp_ranks((max_map_count - map_reserve) / per_rank_maps);
        consider(&best, by_maps,
                 "each rank takes %ld memory mappings and vm.max_map_count is %ld (raise it: "
                 "sysctl -w vm.max_map_count=%ld%s)", per_rank_maps, max_map_count,
                 map_reserve + per_rank_maps * n,
                 c->privatize ? ", or set MINI_MPI_PRIVATIZE=0 if the program has no globals" : "");
    }

    /* Threads: one per rank, system-wide against pid_max and threads-max. */
    long running = 0, by_threads = -1;
    FILE *f = fopen("/proc/loadavg", "re");
    if (f) {
        if (fscanf(f, "%*s %*s %*s %*d/%ld", &running) != 1)
            running = 0;
        fclose(f);
    }
    long pid_max = read_long_file("/proc/sys/kernel/pid_max", -1);
    if (pid_max > 0) {
        by_threads = clamp_ranks(pid_max - running - THREAD_RESERVE);
        consider(&best, by_threads,
                 "each rank is a thread and kernel.pid_max is %ld with %ld threads running "
                 "(raise it: sysctl -w kernel.pid_max=%ld)", pid_max, running,
                 running + THREAD_RESERVE + n);
    }
    long threads_max = read_long_file("/proc/sys/kernel/threads-max", -1);
    if (threads_max > 0) {
        long m = clamp_ranks(threads_max - running - THREAD_RESERVE);
        by_threads = by_threads < 0 || m < by_threads ? m : by_threads;
        consider(&best, m,
                 "each rank is a thread and kernel.threads-max is %ld with %ld threads running "
                 "(raise it: sysctl -w kernel.threads-max=%ld)", threads_max, running,
                 running + THREAD_RESERVE + n);
    }
    struct rlimit rl;
    /* The kernel does not apply RLIMIT_NPROC to root. */
    if (geteuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        long mine = user_threads();
        long m = clamp_ranks((int64_t)rl.rlim_cur - mine - THREAD_RESERVE);
        by_threads = by_threads < 0 || m < by_threads ? m : by_threads;
        consider(&best, m,
                 "each rank is a thread and ulimit -u (RLIMIT_NPROC) is %ld with %ld threads of "
                 "this user running (raise it: ulimit -u %ld%s)", (long)rl.rlim_cur, mine,
                 mine + THREAD_RESERVE + n,
                 rl.rlim_max != RLIM_INFINITY && (int64_t)rl.rlim_max < mine + THREAD_RESERVE + n
                     ? ", above the hard limit: ask the administrator" : "");
    }
    long pids_max, pids_current;
    char dir[1100];
    if (pids_cgroup(&pids_max, &pids_current, dir, sizeof(dir))) {
        long m = clamp_ranks(pids_max - pids_current - THREAD_RESERVE);
        by_threads = by_threads < 0 || m < by_threads ? m : by_threads;
        consider(&best, m,
                 "each rank is a thread and the pids cgroup allows %ld with %ld in use (raise "
                 "it: echo %ld > %s/pids.max)", pids_max, pids_current,
                 pids_current + THREAD_RESERVE + n, dir);
    }

    /* Address space: every rank's stack (reserved whole, touched as it grows) and image. */
    int64_t per_rank_as = (int64_t)c->stack_size + (c->privatize ? maps.image_bytes : 0);
    long by_memory = -1;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        int64_t free_as =
            (int64_t)rl.rlim_cur - maps.vm_bytes - AS_RESERVE - limit_malloc_arenas();
        by_memory = clamp_ranks(free_as / per_rank_as);
        consider(&best, by_memory,
                 "each rank takes %" PRId64 " KiB of address space (its stack: MINI_MPI_STACK) "
                 "and ulimit -v (RLIMIT_AS) is %" PRId64 " KiB (raise it: ulimit -v %" PRId64
                 ", or lower MINI_MPI_STACK)", per_rank_as >> 10, (int64_t)rl.rlim_cur >> 10,
                 (maps.vm_bytes + AS_RESERVE + per_rank_as * n + 1023) >> 10);
    }
    /* Memory: with strict overcommit every stack counts whole; otherwise what a rank touches. */
    if (read_long_file("/proc/sys/vm/overcommit_memory", 0) == 2) {
        int64_t limit = meminfo_bytes("CommitLimit"), used = meminfo_bytes("Committed_AS");
        if (limit > 0 && used >= 0) {
            long m = clamp_ranks((limit - used - AS_RESERVE) / per_rank_as);
            by_memory = by_memory < 0 || m < by_memory ? m : by_memory;
            consider(&best, m,
                     "each rank commits %" PRId64 " KiB (its stack: MINI_MPI_STACK) and the "
                     "kernel can commit %" PRId64 " MiB more (vm.overcommit_memory=2; lower "
                     "MINI_MPI_STACK or raise vm.overcommit_ratio)", per_rank_as >> 10,
                     (limit - used) >> 20);
        }
    } else {
        int64_t avail = meminfo_bytes("MemAvailable");
        if (avail > 0) {
            int64_t per_rank = RANK_RESIDENT + (c->privatize ? maps.image_bytes : 0);
            long m = clamp_ranks((avail - AS_RESERVE) / per_rank);
            by_memory = by_memory < 0 || m < by_memory ? m : by_memory;
            consider(&best, m,
                     "each rank needs at least %" PRId64 " KiB of memory and MemAvailable is %"
                     PRId64 " MiB (free memory)", per_rank >> 10, avail >> 20);
        }
    }

    if (c->verbose)
        fprintf(stderr, "mini_mpi: this host allows %ld ranks (memory mappings: %ld at %ld per "
                "rank; threads: %ld; memory: %ld)\n", best.max_ranks < 0 ? (long)MMPI_MAX_RANKS :
                best.max_ranks, by_maps, per_rank_maps, by_threads, by_memory);
    if (best.max_ranks < 0 || n <= best.max_ranks)
        return true;
    fprintf(stderr, "mini_mpi: %ld ranks exceed this host's limit of %ld: %s\n", n,
            best.max_ranks, best.why);
    return false;
}
