/*
 * launch_config.c: reads the MINI_MPI_* variables that shape a run (rank count, universe size,
 * privatization, stack size, fault tolerance, exit-status convention, initial error handler,
 * verbosity, fault plan, call-count file, hang detector and watchdog). bin/mpiexec sets them from its options; a
 * program started directly reads them too. A bad value is reported in one line naming the
 * variable, and the launcher exits with status 2 before any rank starts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "inject/call_counts.h"
#include "inject/inject.h"
#include "runtime/rank.h"
#include "util/die.h"
#include "util/parse.h"

static bool bad(const char *var, const char *value, const char *expected)
{
    fprintf(stderr, "mini_mpi: %s='%s' is invalid: expected %s\n", var, value, expected);
    return false;
}

static bool read_bool(const char *var, bool *out)
{
    const char *v = getenv(var);
    if (!v)
        return true;
    if (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on"))
        *out = true;
    else if (!strcmp(v, "0") || !strcasecmp(v, "no") || !strcasecmp(v, "false") ||
             !strcasecmp(v, "off"))
        *out = false;
    else
        return bad(var, v, "0 or 1");
    return true;
}

/* "30", "0.5": a positive, finite number of seconds, at most a year. */
static bool parse_seconds(const char *v, double *out)
{
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || !(d > 0) || d > 365 * 86400.0)
        return false;
    *out = d;
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
        return bad("MINI_MPI_STACK", v, "a size from 64k to 4g (suffix k, m or g)");
    c->stack_size = (c->stack_size + 4095) & ~(size_t)4095;
    if ((v = getenv("MINI_MPI_FT"))) {
        if (!strcasecmp(v, "ulfm") || !strcasecmp(v, "mpi"))
            c->fault_tolerant = true;
        else if (!strcasecmp(v, "no"))
            c->fault_tolerant = false;
        else
            return bad("MINI_MPI_FT", v, "ulfm, mpi or no");
    }
    if ((v = getenv("MINI_MPI_EXIT_STATUS"))) {
        if (!strcasecmp(v, "ompi"))
            c->exit_convention = MMPI_EXIT_OMPI;
        else if (!strcasecmp(v, "mpich"))
            c->exit_convention = MMPI_EXIT_MPICH;
        else
            return bad("MINI_MPI_EXIT_STATUS", v, "ompi or mpich");
    }
    /* Strict: exactly 0 or 1 (one switch for windows and files). */
    if ((v = getenv("MINI_MPI_POISON"))) {
        if (strcmp(v, "0") && strcmp(v, "1"))
            return bad("MINI_MPI_POISON", v, "0 or 1");
        c->poison = v[0] == '1';
    }
    if ((v = getenv("MINI_MPI_INITIAL_ERRHANDLER"))) {
        unsigned i;
        for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
            if (!strcasecmp(v, handlers[i]))
                break;
        if (i == sizeof(handlers) / sizeof(handlers[0]))
            return bad("MINI_MPI_INITIAL_ERRHANDLER", v,
                       "mpi_errors_are_fatal, mpi_errors_abort or mpi_errors_return");
        c->initial_errhandler = handlers[i];
    }
    /* MPIEXEC_TIMEOUT is MPICH's name for the same watchdog. */
    const char *timeout_var = getenv("MINI_MPI_TIMEOUT") ? "MINI_MPI_TIMEOUT" : "MPIEXEC_TIMEOUT";
    if ((v = getenv(timeout_var)) && !parse_seconds(v, &c->timeout))
        return bad(timeout_var, v, "a number of seconds greater than 0 (e.g. 30 or 0.5)");
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
    /* One plan per process (one world runs at a time); the C API appends to it. */
    static struct mmpi_fault_plan plan;
    c->faults = &plan;
    if (!mmpi_fault_plan_parse(getenv("MINI_MPI_FAULTS"), c->nranks, c->universe_size, &plan))
        return false;
    /* Copied: the program may change its environment before the world ends. */
    if ((v = getenv("MINI_MPI_CALL_COUNTS"))) {
        if (!mmpi_call_counts_check(v))
            return false;
        c->call_counts = mmpi_xstrdup(v);
    }
    return true;
}
