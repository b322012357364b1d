/*
 * runtime/cpu_bind.h: which CPUs the rank-threads run on (cpu_bind.c), and whether the calling
 * thread has one of its own, which decides how it waits (runtime/wait.c).
 */
#ifndef MMPI_RUNTIME_CPU_BIND_H
#define MMPI_RUNTIME_CPU_BIND_H

#include <stdbool.h>

/* CPUs this process may run on (its affinity mask when first asked, before any binding): whether
 * a waiter's peers can run meanwhile (spinning pays only then). */
int mmpi_usable_cpus(void);

/* Before a world's ranks start: bind each of its first nranks rank-threads to a CPU of its own
 * when `bind` and nranks <= mmpi_usable_cpus(). */
void mmpi_cpu_bind_plan(int nranks, bool bind);
/* Run by each rank-thread as it starts: its own CPU if planned for world_rank and the binding
 * still holds. */
void mmpi_cpu_bind_rank_start(int world_rank);
/* Run by a rank-thread as it ends: its binding is forgotten (its thread id may be reused). */
void mmpi_cpu_bind_rank_end(int world_rank);
/* Before a rank-thread creates a thread of the rank (the program's pthread_create): a bound one
 * leaves its binding for good (the process's mask, waits that yield). The new thread inherits
 * the mask, and the rank's threads may need its CPU: a wait of the rank that polls without
 * yielding would hold the CPU from the thread it waits for. Done by the creator because the new
 * thread's first steps may run before a sanitizer knows it (runtime/interpose.c). */
void mmpi_cpu_bind_leave(void);
/* Around a pthread_create of one of the library's own threads (a rank restarted in place, a
 * spawned rank, the reaper): they belong to no rank, so the creator keeps its binding, and only
 * lends the new thread the process's mask (true: it was bound, and is bound again by _end). */
bool mmpi_cpu_bind_lend_begin(void);
void mmpi_cpu_bind_lend_end(bool lent);
/* The job may outgrow the CPUs (a spawn, a restart in place: ranks added): every binding is
 * released, so that no two rank-threads are held on one CPU. */
void mmpi_cpu_bind_release_all(void);

/* Whether the calling thread is a rank-thread bound to a CPU of its own, while the binding holds:
 * a rank it waits for never needs this CPU, so polling without yielding costs nobody. */
extern __thread bool mmpi_cpu_bound_self __attribute__((tls_model("initial-exec")));
extern bool mmpi_cpu_bindings_hold;
static inline bool mmpi_cpu_own(void)
{
    return mmpi_cpu_bound_self && __atomic_load_n(&mmpi_cpu_bindings_hold, __ATOMIC_RELAXED);
}

#endif
