/*
 * mpit/pvar.c: the table of performance variables (MPI-4.1 §15.3.7) and how each is read: the
 * per-thread counters of counters.def (summed per rank), the rank's queue levels, three
 * values of the whole job's fault record, and the collective calls by path (coll_ops.def:
 * arrays of one counter per path). Every variable is bound to no object, continuous (always
 * counting: start and stop do not apply), of MPI_UNSIGNED_LONG_LONG. Reads run with the
 * state's lock held (pvar_api.c).
 */
#include "mini_mpi_inject.h"
#include "mmpi.h"
#include "mpit/mpit.h"
#include "mpit/pvar.h"

static uint64_t read_unexpected(struct mmpi_mpit_rank *st)
{
    return (uint64_t)mmpi_mpit_unexpected_now(st);
}
static uint64_t read_unexpected_hwm(struct mmpi_mpit_rank *st)
{
    mmpi_mpit_unexpected_now(st); /* the channels' messages count from the first read on */
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
#define MMPI_COUNTER(id, name, desc) \
    {name, desc, MPI_T_PVAR_CLASS_COUNTER, MMPI_PVAR_##id, 1, NULL},
#include "mpit/counters.def"
#undef MMPI_COUNTER
    {"unexpected_recvq_length",
     "messages sent to this rank that arrived before a matching receive and no receive has "
     "taken yet (its unexpected-message queues and its per-sender channels)",
     MPI_T_PVAR_CLASS_LEVEL, -1, 1, read_unexpected},
    {"unexpected_recvq_hwm",
     "the highest value unexpected_recvq_length has had (the channels' messages as of each read)",
     MPI_T_PVAR_CLASS_HIGHWATERMARK, -1, 1, read_unexpected_hwm},
    {"posted_recvq_length", "receives this rank has posted that no message has matched yet",
     MPI_T_PVAR_CLASS_LEVEL, -1, 1, read_posted},
    {"failures_detected", "failed ranks this rank has been told of (each counts once)",
     MPI_T_PVAR_CLASS_COUNTER, -1, 1, read_failures_detected},
    {"revocations_seen", "revoked communicators, windows and files this rank is a member of",
     MPI_T_PVAR_CLASS_COUNTER, -1, 1, read_revocations},
    {"failed_ranks", "ranks of the job whose failure has been published",
     MPI_T_PVAR_CLASS_COUNTER, -1, 1, read_failed_ranks},
    {"injected_deaths", "ranks of the job the fault injector killed",
     MPI_T_PVAR_CLASS_COUNTER, -1, 1, read_injected},
#define PATHS                                                                                  \
    " calls by the path that served them, one element per path: fast (per-member cache lines, " \
    "coll/fast.c), crowd (one shared counter, coll/crowd.c), board (the collective board, "     \
    "coll/engine.c), inter (an intercommunicator's bridge board, coll/inter.h)"
#define COLL(op, form, name, what)                                                              \
    {name, what PATHS, MPI_T_PVAR_CLASS_COUNTER, MMPI_PVAR_COLL_SLOT(op, form),                 \
     MMPI_NCOLL_PATHS, NULL},
#define MMPI_COLL_OP(id, name)                                                                  \
    COLL(MMPI_COLLOP_##id, MMPI_COLLFORM_BLOCKING, "coll_" name, "blocking")                   \
    COLL(MMPI_COLLOP_##id, MMPI_COLLFORM_NONBLOCKING, "coll_i" name, "nonblocking")            \
    COLL(MMPI_COLLOP_##id, MMPI_COLLFORM_PERSISTENT, "coll_" name "_init",                     \
         "persistent (activations by MPI_Start)")
#include "mpit/coll_ops.def"
#undef MMPI_COLL_OP
#undef COLL
#undef PATHS
};

void mmpi_pvar_values(int index, struct mmpi_mpit_rank *st, uint64_t *out)
{
    const struct mmpi_pvar *p = &mmpi_pvars[index];
    if (p->counter < 0) {
        out[0] = p->read(st);
        return;
    }
    for (int i = 0; i < p->count; i++)
        out[i] = mmpi_mpit_counter_sum(st, p->counter + i);
}
