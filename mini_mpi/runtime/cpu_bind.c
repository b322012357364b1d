/*
 * cpu_bind.c: binds rank-threads to CPUs. When a job's ranks fit the CPUs the process may use,
 * each initial rank-thread runs on a CPU of its own (a CPU of each core first, then the cores'
 * other hardware threads), as Open MPI binds a small job's ranks to cores. Why: with another
 * busy process on the machine, unbound rank-threads often end up together on one CPU (the load
 * balancer leaves a 2-1 split of three busy threads alone, and each futex wake-up pulls the
 * woken thread next to its waker), and then every message costs a thread switch. Bound, a rank
 * never waits for a peer on its own CPU, so it may poll without yielding (runtime/wait.c), which
 * keeps a rank that shares its CPU with the busy process from handing it whole time slices
 * (docs/performance.md, "Under load").
 *
 * A rank-thread that creates a thread leaves its binding first: the new thread inherits its
 * creator's mask, and the rank's own threads may need its CPU, which a wait that polls without
 * yielding would hold from them (the library's own threads, the reaper say, are only lent the
 * process's mask). A spawn or a restart in place, which add ranks to the job, release every
 * binding. MINI_MPI_BIND=none (mpiexec --bind-to none) turns binding off.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/cpu_bind.h"
#include "util/die.h"

__thread bool mmpi_cpu_bound_self __attribute__((tls_model("initial-exec")));
static __thread int bound_rank __attribute__((tls_model("initial-exec"))); /* while bound */
bool mmpi_cpu_bindings_hold; /* atomic: bindings planned and not released */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t mask_once = PTHREAD_ONCE_INIT;
static cpu_set_t process_mask; /* the mask before any binding; set once */
static int process_cpus; /* atomic: 0 until the mask is read */
/* Under lock: the world ranks planned a CPU of their own, and the thread id of each one bound
 * now (0: not running, or not bound). */
static int planned;
static pid_t *bound_tid;
static int *cpu_of_rank; /* under lock: the CPU planned for each of them */

static void read_mask(void)
{
    if (sched_getaffinity(0, sizeof(process_mask), &process_mask) == 0 &&
        CPU_COUNT(&process_mask) > 0) {
        __atomic_store_n(&process_cpus, CPU_COUNT(&process_mask), __ATOMIC_RELEASE);
        return;
    }
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    int n = c > 0 && c <= CPU_SETSIZE ? (int)c : 1;
    CPU_ZERO(&process_mask);
    for (int i = 0; i < n; i++)
        CPU_SET(i, &process_mask);
    __atomic_store_n(&process_cpus, n, __ATOMIC_RELEASE); /* after the mask: others read it */
}

int mmpi_usable_cpus(void)
{
    /* On the collectives' hot path: one load once the mask is read. */
    int n = __atomic_load_n(&process_cpus, __ATOMIC_ACQUIRE);
    if (__builtin_expect(n > 0, 1))
        return n;
    pthread_once(&mask_once, read_mask);
    return __atomic_load_n(&process_cpus, __ATOMIC_ACQUIRE);
}

/* cpu's core as the kernel numbers it (package and core id), or -1 when unknown. */
static long core_of(int cpu)
{
    static const char *const names[] = {"physical_package_id", "core_id"};
    long id[2];
    for (int i = 0; i < 2; i++) {
        char path[96];
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, names[i]);
        FILE *f = fopen(path, "r");
        if (!f)
            return -1;
        bool ok = fscanf(f, "%ld", &id[i]) == 1 && id[i] >= 0;
        fclose(f);
        if (!ok)
            return -1;
    }
    return id[0] << 24 | (id[1] & 0xffffff);
}

/* Fills cpus[0..n) with CPUs of the process's mask, one per core before any core's second
 * hardware thread (as Open MPI binds to cores: two ranks on one core's threads would share its
 * execution units while another core idles). */
static void choose_cpus(int *cpus, int n)
{
    long *cores = mmpi_xcalloc(CPU_SETSIZE, sizeof(*cores)); /* those seen, each once */
    int ncores = 0, chosen = 0;
    cpu_set_t taken;
    CPU_ZERO(&taken);
    for (int pass = 0; pass < 2 && chosen < n; pass++) {
        for (int cpu = 0; cpu < CPU_SETSIZE && chosen < n; cpu++) {
            if (!CPU_ISSET(cpu, &process_mask) || CPU_ISSET(cpu, &taken))
                continue;
            if (pass == 0) { /* a core not seen yet; an unknown one (-1) counts as new */
                long core = core_of(cpu);
                bool seen = false;
                for (int i = 0; i < ncores; i++)
                    seen = seen || cores[i] == core;
                if (seen)
                    continue;
                if (core >= 0)
                    cores[ncores++] = core;
            }
            CPU_SET(cpu, &taken);
            cpus[chosen++] = cpu;
        }
    }
    free(cores);
}

static bool bind_to(int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof(one), &one) == 0;
}

void mmpi_cpu_bind_plan(int nranks, bool bind)
{
    int cpus = mmpi_usable_cpus();
    pthread_mutex_lock(&lock);
    free(bound_tid);
    free(cpu_of_rank);
    bound_tid = NULL;
    cpu_of_rank = NULL;
    planned = 0;
    if (bind && nranks > 1 && nranks <= cpus) {
        bound_tid = mmpi_xcalloc((size_t)nranks, sizeof(*bound_tid));
        cpu_of_rank = mmpi_xcalloc((size_t)nranks, sizeof(*cpu_of_rank));
        choose_cpus(cpu_of_rank, nranks);
        planned = nranks;
    }
    __atomic_store_n(&mmpi_cpu_bindings_hold, planned > 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&lock);
}

/* Under lock: whether the calling thread is the one bound for world rank r now. */
static bool holds_binding(int r)
{
    return r < planned && bound_tid[r] == (pid_t)syscall(SYS_gettid);
}

void mmpi_cpu_bind_rank_start(int world_rank)
{
    mmpi_usable_cpus();
    pthread_mutex_lock(&lock);
    bool bound = false;
    if (__atomic_load_n(&mmpi_cpu_bindings_hold, __ATOMIC_RELAXED) && world_rank < planned) {
        bound_rank = world_rank;
        bound = bind_to(cpu_of_rank[world_rank]);
        if (bound)
            bound_tid[world_rank] = (pid_t)syscall(SYS_gettid);
    }
    mmpi_cpu_bound_self = bound;
    pthread_mutex_unlock(&lock);
}

void mmpi_cpu_bind_rank_end(int world_rank)
{
    pthread_mutex_lock(&lock);
    if (holds_binding(world_rank))
        bound_tid[world_rank] = 0;
    mmpi_cpu_bound_self = false;
    pthread_mutex_unlock(&lock);
}

void mmpi_cpu_bind_leave(void)
{
    if (!mmpi_cpu_bound_self)
        return;
    pthread_mutex_lock(&lock);
    if (holds_binding(bound_rank))
        bound_tid[bound_rank] = 0;
    mmpi_cpu_bound_self = false;
    sched_setaffinity(0, sizeof(process_mask), &process_mask);
    pthread_mutex_unlock(&lock);
}

bool mmpi_cpu_bind_lend_begin(void)
{
    if (!mmpi_cpu_bound_self)
        return false;
    /* A release meanwhile restores the same mask: no lock needed for this one. */
    sched_setaffinity(0, sizeof(process_mask), &process_mask);
    return true;
}

void mmpi_cpu_bind_lend_end(bool lent)
{
    if (!lent)
        return;
    pthread_mutex_lock(&lock); /* not after a release, which must leave no thread bound */
    if (__atomic_load_n(&mmpi_cpu_bindings_hold, __ATOMIC_RELAXED) && holds_binding(bound_rank))
        bind_to(cpu_of_rank[bound_rank]);
    else
        mmpi_cpu_bound_self = false;
    pthread_mutex_unlock(&lock);
}

void mmpi_cpu_bind_release_all(void)
{
    pthread_mutex_lock(&lock);
    __atomic_store_n(&mmpi_cpu_bindings_hold, false, __ATOMIC_RELAXED);
    for (int i = 0; i < planned; i++) {
        if (bound_tid[i]) /* a running thread of this process: its id cannot be reused yet */
            sched_setaffinity(bound_tid[i], sizeof(process_mask), &process_mask);
        bound_tid[i] = 0;
    }
    pthread_mutex_unlock(&lock);
}
