/*
 * launch_config.c: reads the MINI_MPI_* variables that shape a run (rank count, universe size,
 * privatization, stack size, fault tolerance, exit-status convention, initial error handler,
 * verbosity, fault plan, call-count file, hang detector, watchdog, CPU binding). bin/mpiexec sets
 * them from its options; a program started directly reads them too. A bad value is reported in one
 * line naming the variable, and the launcher exits with status 2 before any rank starts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject/call_counts.h"
#include "inject/inject.h"
#include "runtime/rank.h"
#include "util/die.h"
#include "util/parse.h"

/* The one line of a bad value: the value escaped (util/parse.h), so that a newline or a control
 * character in it cannot break the line. */
static bool bad(const char *var, const char *value, const char *expected)
{
    char shown[160];
    fprintf(stderr, "mini_mpi: %s='%s' is invalid: expected %s\n", var,
            mmpi_parse_escape(value, shown, sizeof shown), expected);
    return false;
}

static bool read_bool(const char *var, bool *out)
{
    static const char *const words[] = {"0", "1"};
    const char *v = getenv(var);
    if (!v)
        return true;
    int i = mmpi_parse_word(v, words, 2);
    if (i < 0)
        return bad(var, v, "0 or 1");
    *out = i == 1;
    return true;
}

/* A keyword variable: *out = the index of its value among words, unchanged when unset. */
static bool read_word(const char *var, const char *const *words, int n, const char *expected,
                      int *out)
{
    const char *v = getenv(var);
    if (!v)
        return true;
    int i = mmpi_parse_word(v, words, n);
    if (i < 0)
        return bad(var, v, expected);
    *out = i;
    return true;
}

bool mmpi_launch_config_read(struct mmpi_launch_config *c)
{
    static const char *const handlers[] = {"mpi_errors_are_fatal", "mpi_errors_abort",
                                           "mpi_errors_return"};
    const char *v;
    long n;

    memset(c, 0, sizeof(*c));
    c->nranks = 1;
    c->privatize = true;
    c->stack_size = 8u << 20;
    c->fault_tolerant = true;
    c->exit_convention = MMPI_EXIT_OMPI;
    c->initial_errhandler = handlers[0];
    c->hang_check = true;
    c->max_comms = 2048;
    c->bind_cores = true;

    if ((v = getenv("MINI_MPI_NP"))) {
        if (!mmpi_parse_long(v, 1, MMPI_MAX_RANKS, &n))
            return bad("MINI_MPI_NP", v, "a rank count from 1 to 32768");
        c->nranks = (int)n;
    }
    c->universe_size = c->nranks;
    if ((v = getenv("MINI_MPI_UNIVERSE_SIZE"))) {
        if (!mmpi_parse_long(v, 1, MMPI_MAX_RANKS, &n))
            return bad("MINI_MPI_UNIVERSE_SIZE", v, "a rank count from 1 to 32768");
        c->universe_size = (int)n;
    }
    if (!read_bool("MINI_MPI_PRIVATIZE", &c->privatize) ||
        !read_bool("MINI_MPI_VERBOSE", &c->verbose) ||
        !read_bool("MINI_MPI_HANG_CHECK", &c->hang_check))
        return false;
    if ((v = getenv("MINI_MPI_STACK")) &&
        !mmpi_parse_size(v, 64u << 10, (size_t)1 << 32, &c->stack_size))
        return bad("MINI_MPI_STACK", v, "a size from 64k to 4g (digits, suffix k, m or g)");
    c->stack_size = (c->stack_size + 4095) & ~(size_t)4095;
    static const char *const ft_words[] = {"ulfm", "mpi", "no"};
    static const char *const exit_words[] = {"ompi", "mpich"};
    int ft = 0, exit_word = 0, handler = 0;
    if (!read_word("MINI_MPI_FT", ft_words, 3, "ulfm, mpi or no", &ft) ||
        !read_word("MINI_MPI_EXIT_STATUS", exit_words, 2, "ompi or mpich", &exit_word) ||
        !read_word("MINI_MPI_INITIAL_ERRHANDLER", handlers, 3,
                   "mpi_errors_are_fatal, mpi_errors_abort or mpi_errors_return", &handler))
        return false;
    static const char *const bind_words[] = {"none", "core"};
    int bind = 1;
    if (!read_word("MINI_MPI_BIND", bind_words, 2, "core or none", &bind))
        return false;
    c->bind_cores = bind == 1;
    c->fault_tolerant = ft != 2;
    c->exit_convention = exit_word ? MMPI_EXIT_MPICH : MMPI_EXIT_OMPI;
    c->initial_errhandler = handlers[handler];
    /* One switch for windows and files: poison what a failure left undefined. */
    if (!read_bool("MINI_MPI_POISON", &c->poison))
        return false;
    /* MPIEXEC_TIMEOUT is MPICH's name for the same watchdog. */
    const char *timeout_var = getenv("MINI_MPI_TIMEOUT") ? "MINI_MPI_TIMEOUT" : "MPIEXEC_TIMEOUT";
    if ((v = getenv(timeout_var)) && !mmpi_parse_seconds(v, 365 * 86400.0, &c->timeout))
        return bad(timeout_var, v,
                   "a number of seconds greater than 0, at most a year (e.g. 30 or 0.5)");
    /* bin/mpiexec marks a value that came from its option, so the report names what was typed. */
    c->timeout_by = timeout_var;
    if (!strcmp(timeout_var, "MINI_MPI_TIMEOUT") && (v = getenv("MINI_MPI_TIMEOUT_SOURCE")))
        c->timeout_by = !strcmp(v, "--timeout") ? "--timeout"
                        : !strcmp(v, "-timeout") ? "-timeout" : timeout_var;
    /* MINI_MPI_COLL_SNAPSHOT is read by the collectives (coll/engine.c); checked here so that a
     * malformed value stops the launch like every other variable instead of being ignored. */
    size_t snapshot;
    if ((v = getenv("MINI_MPI_COLL_SNAPSHOT")) && !mmpi_parse_size(v, 0, SIZE_MAX / 2, &snapshot))
        return bad("MINI_MPI_COLL_SNAPSHOT", v, "a size in bytes (suffix k, m or g), 0 allowed");
    /* MINI_MPI_COLL_FAST_MAX likewise (coll/fast.c reads it; it accepts the same range). */
    long fast_max;
    if ((v = getenv("MINI_MPI_COLL_FAST_MAX")) && !mmpi_parse_long(v, 0, (1L << 20) - 1, &fast_max))
        return bad("MINI_MPI_COLL_FAST_MAX", v, "a member count from 0 to 1048575");
    if ((v = getenv("MINI_MPI_MAX_COMMS")) && !mmpi_parse_long(v, 0, 1L << 30, &c->max_comms))
        return bad("MINI_MPI_MAX_COMMS", v, "a communicator count from 0 (no limit) to 1073741824");
    /* One plan per process (one world runs at a time); the C API appends to it. */
    static struct mmpi_fault_plan plan;
    c->faults = &plan;
    if (!mmpi_fault_plan_parse(getenv("MINI_MPI_FAULTS"), c->nranks, c->universe_size, &plan))
        return false;
    plan.retire = mmpi_inject_retire_directives; /* ranks read while mini_mpi_arm appends */
    /* Copied: the program may change its environment before the world ends. */
    if ((v = getenv("MINI_MPI_CALL_COUNTS"))) {
        if (!mmpi_call_counts_check(v))
            return false;
        c->call_counts = mmpi_xstrdup(v);
    }
    return true;
}
