/*
 * cpu_bind.c: binds rank-threads to CPUs. When a job's ranks fit the CPUs the process may use,
 * each initial rank-thread runs on a CPU of its own (the i-th CPU of the process's mask for
 * world rank i), as Open MPI binds a small job's ranks to cores. Why: with another busy process
 * on the machine, unbound rank-threads often end up together on one CPU (the load balancer
 * leaves a 2-1 split of three busy threads alone, and each futex wake-up pulls the woken thread
 * next to its waker), and then every message costs a thread switch. Bound, a rank never waits
 * for a peer on its own CPU, so it may poll without yielding (runtime/wait.c), which is what
 * keeps a rank that shares its CPU with the busy process from handing it whole time slices
 * (docs/performance.md, "Under load").
 *
 * A rank-thread that creates a thread leaves its binding first: the new thread inherits its
 * creator's mask, and the rank's own threads may need its CPU, which a wait that polls without
 * yielding would hold from them. A spawn, which may make the job larger than the CPUs, releases
 * every binding. MINI_MPI_BIND=none
 * (mpiexec --bind-to none) turns binding off.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/cpu_bind.h"

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

/* The index-th CPU of the process's mask. */
static int nth_cpu(int index)
{
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &process_mask) && index-- == 0)
            return cpu;
    return -1;
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
    bound_tid = NULL;
    planned = 0;
    if (bind && nranks > 1 && nranks <= cpus) {
        planned = nranks;
        bound_tid = calloc((size_t)nranks, sizeof(*bound_tid));
        if (!bound_tid)
            planned = 0;
    }
    __atomic_store_n(&mmpi_cpu_bindings_hold, planned > 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&lock);
}

void mmpi_cpu_bind_rank_start(int world_rank)
{
    mmpi_usable_cpus();
    pthread_mutex_lock(&lock);
    bool bound = false;
    if (__atomic_load_n(&mmpi_cpu_bindings_hold, __ATOMIC_RELAXED) && world_rank < planned) {
        bound_rank = world_rank;
        bound = bind_to(nth_cpu(world_rank));
        if (bound)
            bound_tid[world_rank] = (pid_t)syscall(SYS_gettid);
    }
    mmpi_cpu_bound_self = bound;
    pthread_mutex_unlock(&lock);
}

void mmpi_cpu_bind_rank_end(int world_rank)
{
    pthread_mutex_lock(&lock);
    if (world_rank < planned && bound_tid[world_rank] == (pid_t)syscall(SYS_gettid))
        bound_tid[world_rank] = 0;
    mmpi_cpu_bound_self = false;
    pthread_mutex_unlock(&lock);
}

void mmpi_cpu_bind_leave(void)
{
    if (!mmpi_cpu_bound_self)
        return;
    pthread_mutex_lock(&lock);
    if (bound_rank < planned && bound_tid[bound_rank] == (pid_t)syscall(SYS_gettid))
        bound_tid[bound_rank] = 0;
    mmpi_cpu_bound_self = false;
    sched_setaffinity(0, sizeof(process_mask), &process_mask);
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
