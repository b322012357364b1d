/*
 * mpit/cvar.c: the control variables (MPI-4.1 §15.3.6): the job's run-time settings that the
 * MINI_MPI_* environment variables give (README "Environment variables"), each under the
 * variable's name. Reading gives the setting in force; the ones a running job can change
 * (diagnostics: the deadlock check, the watchdog, poisoning, verbosity) are writable, scope
 * MPI_T_SCOPE_ALL_EQ: the job has one value, shared by every rank, and a write takes effect for
 * all of them at once. The rest are fixed when the job starts (MPI_T_SCOPE_CONSTANT).
 *
 * A written value is what a later read returns, as written (MINI_MPI_VERBOSE=123 reads 123 and
 * means on); the library's own copy lives in the world's launch configuration
 * (runtime/rank.h), whose writable fields are read and written atomically.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/fast.h"
#include "mmpi.h"
#include "mpit/cvar.h"
#include "mpit/mpit.h"
#include "runtime/hang.h"

/* Written values, per world (a unit test runs several worlds in one process). */
static struct mmpi_world *written_in[MMPI_NCVARS];
static long long written[MMPI_NCVARS];

static bool was_written(int i, struct mmpi_world *w, void *buf)
{
    if (__atomic_load_n(&written_in[i], __ATOMIC_ACQUIRE) != w)
        return false;
    *(int *)buf = (int)__atomic_load_n(&written[i], __ATOMIC_RELAXED);
    return true;
}

static void set_int(int i, struct mmpi_world *w, int v)
{
    __atomic_store_n(&written[i], v, __ATOMIC_RELAXED);
    __atomic_store_n(&written_in[i], w, __ATOMIC_RELEASE);
}

static int read_np(struct mmpi_world *w, void *buf) { *(int *)buf = w->initial_size; return 0; }
static int read_universe(struct mmpi_world *w, void *buf)
{
    *(int *)buf = w->config.universe_size;
    return 0;
}
static int read_privatize(struct mmpi_world *w, void *buf)
{
    *(int *)buf = w->config.privatize;
    return 0;
}
static int read_bind(struct mmpi_world *w, void *buf)
{
    *(int *)buf = w->config.bind_cores;
    return 0;
}
static int read_stack(struct mmpi_world *w, void *buf)
{
    *(unsigned long long *)buf = w->config.stack_size;
    return 0;
}
static int read_ft(struct mmpi_world *w, void *buf)
{
    *(int *)buf = w->config.fault_tolerant;
    return 0;
}
static int read_exit(struct mmpi_world *w, void *buf)
{
    *(int *)buf = w->config.exit_convention == MMPI_EXIT_MPICH;
    return 0;
}
static const char *initial_errhandler(struct mmpi_world *w)
{
    return w->config.initial_errhandler ? w->config.initial_errhandler : "mpi_errors_are_fatal";
}
static int read_errhandler(struct mmpi_world *w, void *buf)
{
    strcpy(buf, initial_errhandler(w));
    return 0;
}
static const char *call_counts(struct mmpi_world *w)
{
    return w->config.call_counts ? w->config.call_counts : "";
}
static int read_call_counts(struct mmpi_world *w, void *buf)
{
    strcpy(buf, call_counts(w));
    return 0;
}
static int read_fast_max(struct mmpi_world *w, void *buf)
{
    *(int *)buf = mmpi_coll_fast_max();
    return 0;
}

/* The writable flags: the configuration holds a bool, the variable the int written. */
#define FLAG_CVAR(fn, id, field)                                                     \
    static int read_##fn(struct mmpi_world *w, void *buf)                            \
    {                                                                                \
        if (!was_written(MMPI_CVAR_##id, w, buf))                                    \
            *(int *)buf = __atomic_load_n(&w->config.field, __ATOMIC_RELAXED);       \
        return 0;                                                                    \
    }                                                                                \
    static int write_##fn(struct mmpi_world *w, const void *buf)                     \
    {                                                                                \
        int v = *(const int *)buf;                                                   \
        if (!monitor_ok(w, MMPI_CVAR_##id))                                             \
            return MPI_T_ERR_CVAR_SET_NOT_NOW;                                       \
        __atomic_store_n(&w->config.field, v != 0, __ATOMIC_RELAXED);                \
        set_int(MMPI_CVAR_##id, w, v);                                               \
        return 0;                                                                    \
    }

/* The deadlock check and the watchdog are the hang monitor's: without it (fault tolerance
 * off and neither asked for at start) they cannot be turned on. With fault tolerance it always
 * runs, though a rank may get here before the launcher has started it. */
static bool monitor_ok(struct mmpi_world *w, int id)
{
    return (id != MMPI_CVAR_HANG_CHECK && id != MMPI_CVAR_TIMEOUT) ||
           w->config.fault_tolerant || mmpi_hang_monitor_running();
}

FLAG_CVAR(verbose, VERBOSE, verbose)
FLAG_CVAR(hang_check, HANG_CHECK, hang_check)
FLAG_CVAR(poison, POISON, poison)

static int read_timeout(struct mmpi_world *w, void *buf)
{
    __atomic_load(&w->config.timeout, (double *)buf, __ATOMIC_RELAXED);
    return 0;
}
static int write_timeout(struct mmpi_world *w, const void *buf)
{
    double v = *(const double *)buf;
    if (!(v >= 0 && v <= 365 * 86400.0))
        return MPI_T_ERR_INVALID; /* the range MINI_MPI_TIMEOUT accepts */
    if (!monitor_ok(w, MMPI_CVAR_TIMEOUT))
        return MPI_T_ERR_CVAR_SET_NOT_NOW;
    /* The watchdog measures from the world's start, as the variable does. */
    __atomic_store(&w->config.timeout, &v, __ATOMIC_RELAXED);
    return 0;
}

const struct mmpi_cvar mmpi_cvars[MMPI_NCVARS] = {
#define C(id, type, e, scope, rd, wr, count, desc) \
    [MMPI_CVAR_##id] = {"MINI_MPI_" #id, desc, type, e, scope, rd, wr, count},
    C(NP, MPI_INT, -1, MPI_T_SCOPE_CONSTANT, read_np, NULL, NULL,
      "number of ranks the job started with")
    C(UNIVERSE_SIZE, MPI_INT, -1, MPI_T_SCOPE_CONSTANT, read_universe, NULL, NULL,
      "the MPI_UNIVERSE_SIZE attribute")
    C(PRIVATIZE, MPI_INT, -1, MPI_T_SCOPE_CONSTANT, read_privatize, NULL, NULL,
      "1: each rank runs its own copy of the program image; 0: one shared image")
    C(STACK, MPI_UNSIGNED_LONG_LONG, -1, MPI_T_SCOPE_CONSTANT, read_stack, NULL, NULL,
      "bytes of each rank's main thread stack")
    C(FT, MPI_INT, MMPI_ENUM_FT, MPI_T_SCOPE_CONSTANT, read_ft, NULL, NULL,
      "fault tolerance: no (the first death ends the job) or ulfm")
    C(EXIT_STATUS, MPI_INT, MMPI_ENUM_EXIT_STATUS, MPI_T_SCOPE_CONSTANT, read_exit, NULL, NULL,
      "exit status convention: ompi or mpich")
    C(INITIAL_ERRHANDLER, MPI_CHAR, -1, MPI_T_SCOPE_CONSTANT, read_errhandler, NULL,
      initial_errhandler, "the error handler communicators start with")
    C(CALL_COUNTS, MPI_CHAR, -1, MPI_T_SCOPE_CONSTANT, read_call_counts, NULL, call_counts,
      "file the per-rank MPI call counts are written to at the end, or empty")
    C(COLL_FAST_MAX, MPI_INT, -1, MPI_T_SCOPE_CONSTANT, read_fast_max, NULL, NULL,
      "largest communicator whose barrier and small allreduce take the per-rank cache-line path")
    C(VERBOSE, MPI_INT, -1, MPI_T_SCOPE_ALL_EQ, read_verbose, write_verbose, NULL,
      "nonzero: report rank failures, injected deaths and process-wide calls on stderr")
    C(HANG_CHECK, MPI_INT, -1, MPI_T_SCOPE_ALL_EQ, read_hang_check, write_hang_check, NULL,
      "nonzero: end a deadlocked job with status 123 and a report")
    C(TIMEOUT, MPI_DOUBLE, -1, MPI_T_SCOPE_ALL_EQ, read_timeout, write_timeout, NULL,
      "watchdog: seconds from the job's start after which it ends with status 124; 0: none")
    C(POISON, MPI_INT, -1, MPI_T_SCOPE_ALL_EQ, read_poison, write_poison, NULL,
      "nonzero: what a failure leaves undefined gets documented values (docs/io.md, docs/rma.md)")
    C(BIND, MPI_INT, -1, MPI_T_SCOPE_CONSTANT, read_bind, NULL, NULL,
      "1 (core): rank-threads run on CPUs of their own when they fit; 0 (none): anywhere")
#undef C
};
