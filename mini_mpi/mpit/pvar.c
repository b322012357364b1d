/*
 * mpit/pvar.c: the table of performance variables (MPI-4.1 §15.3.7) and how each is read: the
 * per-thread counters of counters.def (summed per rank), the rank's queue levels, and three
 * values of the whole job's fault record. Every variable is bound to no object, continuous
 * (always counting: start and stop do not apply), one MPI_UNSIGNED_LONG_LONG.
 */
#include "mini_mpi_inject.h"
#include "mmpi.h"
#include "mpit/mpit.h"
#include "mpit/pvar.h"

static uint64_t read_unexpected(struct mmpi_mpit_rank *st)
{
    return (uint64_t)__atomic_load_n(&st->level[MMPI_LEVEL_UNEXPECTED], __ATOMIC_RELAXED);
}
static uint64_t read_unexpected_hwm(struct mmpi_mpit_rank *st)
{
    return (uint64_t)__atomic_load_n(&st->unexpected_hwm, __ATOMIC_RELAXED);
}
static uint64_t read_posted(struct mmpi_mpit_rank *st)
{
    return (uint64_t)__atomic_load_n(&st->level[MMPI_LEVEL_POSTED], __ATOMIC_RELAXED);
}
static uint64_t read_revocations(struct mmpi_mpit_rank *st)
{
    return __atomic_load_n(&st->revocations, __ATOMIC_RELAXED);
}
static uint64_t read_failures_detected(struct mmpi_mpit_rank *st)
{
    return __atomic_load_n(&st->failures_noticed, __ATOMIC_RELAXED);
}
static uint64_t read_failed_ranks(struct mmpi_mpit_rank *st)
{
    struct mmpi_world *w = __atomic_load_n(&mmpi_world, __ATOMIC_ACQUIRE);
    return w ? (uint64_t)mmpi_fault_count(w) : 0;
}
static uint64_t read_injected(struct mmpi_mpit_rank *st)
{
    return (uint64_t)mini_mpi_injected_deaths();
}

const struct mmpi_pvar mmpi_pvars[MMPI_NPVARS] = {
#define MMPI_COUNTER(id, name, desc) {name, desc, MPI_T_PVAR_CLASS_COUNTER, MMPI_PVAR_##id, NULL},
#include "mpit/counters.def"
#undef MMPI_COUNTER
    {"unexpected_recvq_length",
     "messages in this rank's unexpected-message queues (arrived before a matching receive and "
     "not held in a channel)", MPI_T_PVAR_CLASS_LEVEL, -1, read_unexpected},
    {"unexpected_recvq_hwm", "the highest value unexpected_recvq_length has had",
     MPI_T_PVAR_CLASS_HIGHWATERMARK, -1, read_unexpected_hwm},
    {"posted_recvq_length", "receives this rank has posted that no message has matched yet",
     MPI_T_PVAR_CLASS_LEVEL, -1, read_posted},
    {"failures_detected", "failed ranks this rank has been told of (each counts once)",
     MPI_T_PVAR_CLASS_COUNTER, -1, read_failures_detected},
    {"revocations_seen", "revoked communicators, windows and files this rank is a member of",
     MPI_T_PVAR_CLASS_COUNTER, -1, read_revocations},
    {"failed_ranks", "ranks of the job whose failure has been published",
     MPI_T_PVAR_CLASS_COUNTER, -1, read_failed_ranks},
    {"injected_deaths", "ranks of the job the fault injector killed",
     MPI_T_PVAR_CLASS_COUNTER, -1, read_injected},
};

uint64_t mmpi_pvar_value(int index, struct mmpi_mpit_rank *st)
{
    const struct mmpi_pvar *p = &mmpi_pvars[index];
    return p->counter >= 0 ? mmpi_mpit_counter_sum(st, p->counter) : p->read(st);
}
