/*
 * state.c: the PMPI injector's state in one process of another MPI's job (pmpi.h): who this
 * process is (world rank and size, from the launcher's environment before MPI_Init, from
 * MPI_COMM_WORLD after it), its fault plan (parsed by the shared fault_spec.c, in the dialect
 * that refuses what only mini_mpi can do), its call counters, and its death.
 *
 * Semantics are mini_mpi's (README "Killing ranks on purpose"), the process standing for the
 * rank: `at` dies on entering the call (the call has no effect); `after` dies at the next MPI
 * entry, or when the process exits (atexit) if none comes; `at T ms` dies T after MPI_Init
 * returned, wherever the process is (a timer thread). A death prints mini_mpi's line when
 * MINI_MPI_VERBOSE=1, writes the call counts (MINI_MPI_CALL_COUNTS), flushes stdio (a rank of
 * mini_mpi keeps its buffered output too, since the buffers outlive it) and raises SIGKILL, as
 * ULFM test programs kill a process.
 *
 * Not here: the wrappers (generated, gen_wrappers.py), the syntax (fault_spec.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/sockios.h>

#include "call_counts_file.h"
#include "fault_spec.h"
#include "pmpi/pmpi.h"
#include "util/parse.h"

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static int my_rank = -1, world_size;  /* -1: not known yet (no launcher variables) */
static bool verbose;
static const char *counts_path;       /* MINI_MPI_CALL_COUNTS, or NULL */
static const char *spec;              /* MINI_MPI_FAULTS, or NULL */
static struct mmpi_fault_plan plan;   /* written before `armed` is released */
static int armed;                     /* atomic: plan parsed for my_rank */
static int die_after;                 /* atomic: 1 + the call an `after` directive named */
static int counts_written;            /* atomic */
static uint32_t counts[MMPI_CALL_COUNT], total; /* atomic */

/* One line on stderr (rank 0's only, so that a job prints it once) and status 2, as mini_mpi
 * does for a bad variable. Before MPI_Init: the launcher sees a process that exited. */
__attribute__((noreturn)) static void bad_setting(const char *line)
{
    if (my_rank <= 0)
        fprintf(stderr, "mini_mpi: %s\n", line);
    fflush(NULL);
    _exit(2);
}

static bool env_int(const char *var, long max, long *out)
{
    const char *v = getenv(var);
    return v && mmpi_parse_long(v, 0, max, out);
}

/* The launchers' variables: Open MPI, MPICH's Hydra and PMI launchers, PMIx, Slurm. */
static void identity_from_environment(void)
{
    static const char *const vars[][2] = {
        {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
        {"PMI_RANK", "PMI_SIZE"},
        {"PMIX_RANK", "OMPI_COMM_WORLD_SIZE"},
        {"SLURM_PROCID", "SLURM_NTASKS"},
    };
    for (unsigned i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        long r, n;
        if (env_int(vars[i][0], 1L << 30, &r) && env_int(vars[i][1], 1L << 30, &n) && r < n) {
            my_rank = (int)r;
            world_size = (int)n;
            return;
        }
    }
}

static void parse_plan(void)
{
    char error[512], line[600];
    if (!mmpi_fault_plan_append_dialect(&plan, spec, world_size, world_size,
                                        MMPI_FAULT_DIALECT_REAL_MPI, error, sizeof error)) {
        snprintf(line, sizeof line, "MINI_MPI_FAULTS: %s", error);
        bad_setting(line);
    }
    for (int i = 0; i < plan.n; i++) {
        int call = plan.faults[i].call;
        if (plan.faults[i].when != MMPI_FAULT_AT_TIME && call != MMPI_FAULT_ANY_CALL &&
            !mmpi_pmpi_wrapped[call]) {
            snprintf(line, sizeof line, "MINI_MPI_FAULTS: this MPI library has no %s, so a "
                     "directive naming it could never fire", mmpi_call_name(call));
            bad_setting(line);
        }
    }
    __atomic_store_n(&armed, 1, __ATOMIC_RELEASE);
}

static void write_counts(void)
{
    if (!counts_path || __atomic_exchange_n(&counts_written, 1, __ATOMIC_ACQ_REL))
        return;
    /* Several processes append to one file: each writes its block in one write(2). */
    char *block = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&block, &len);
    if (!m)
        return;
    mmpi_call_counts_print_header(m, world_size);
    mmpi_call_counts_print_rank(m, my_rank < 0 ? 0 : my_rank,
                                __atomic_load_n(&total, __ATOMIC_ACQUIRE), counts);
    fclose(m);
    int fd = open(counts_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, block, len) != (ssize_t)len)
        fprintf(stderr, "mini_mpi: MINI_MPI_CALL_COUNTS: cannot write '%s': %s\n", counts_path,
                strerror(errno));
    if (fd >= 0)
        close(fd);
    free(block);
}

/* The launcher reads a rank's standard error from a pipe or a socket, and ends the job as soon
 * as it sees the rank die: what is still queued then (the death line) may never be forwarded,
 * and Hydra, tearing down while a rank that died in MPI_Init is still being read, has been seen
 * to end on SIGPIPE instead of reporting the kill. So a dying process waits, 200 ms at most,
 * until the reader has taken everything it wrote. */
static void wait_until_stderr_read(void)
{
    struct stat st;
    unsigned long request;
    if (fstat(STDERR_FILENO, &st) != 0)
        return;
    if (S_ISFIFO(st.st_mode))
        request = FIONREAD; /* bytes in the pipe, asked from either end */
    else if (S_ISSOCK(st.st_mode))
        request = SIOCOUTQ; /* bytes sent and not yet read by the peer */
    else
        return;
    for (int i = 0; i < 200; i++) {
        int queued = 0;
        if (ioctl(STDERR_FILENO, request, &queued) != 0 || queued <= 0)
            return;
        nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
}

__attribute__((noreturn)) static void die(void)
{
    write_counts();
    fflush(NULL);
    wait_until_stderr_read();
    raise(SIGKILL);
    _exit(137); /* not reached: SIGKILL cannot be caught */
}

static void report(const char *how, enum mmpi_call call, uint32_t n)
{
    if (verbose)
        fprintf(stderr, "mini_mpi: injected death: rank %d %s %s #%u\n", my_rank, how,
                call == (enum mmpi_call)MMPI_FAULT_ANY_CALL ? "any call" : mmpi_call_name(call),
                n);
}

static void at_exit(void)
{
    if (__atomic_load_n(&die_after, __ATOMIC_ACQUIRE))
        die(); /* `kill after` of the last MPI call: the process ends killed, as a rank would */
    write_counts();
}

static void setup(void)
{
    const char *v = getenv("MINI_MPI_VERBOSE");
    identity_from_environment();
    if (v) {
        if (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") ||
            !strcasecmp(v, "on"))
            verbose = true;
        else if (strcmp(v, "0") && strcasecmp(v, "no") && strcasecmp(v, "false") &&
                 strcasecmp(v, "off"))
            bad_setting("MINI_MPI_VERBOSE: expected 0 or 1");
    }
    if ((v = getenv("MINI_MPI_CALL_COUNTS"))) {
        /* Checked by rank 0, which prints the one line and ends the job; another rank would
         * print it again (it then fails to write, and says so, if it lives that long). */
        if (my_rank <= 0 && !mmpi_call_counts_check(v)) {
            fflush(NULL);
            _exit(2);
        }
        counts_path = strdup(v);
    }
    spec = getenv("MINI_MPI_FAULTS");
    spec = spec ? strdup(spec) : NULL; /* the program may change its environment */
    if (my_rank >= 0)
        parse_plan();
    atexit(at_exit);
}

void mmpi_pmpi_enter(enum mmpi_call call)
{
    pthread_once(&setup_once, setup);
    if (__atomic_load_n(&die_after, __ATOMIC_ACQUIRE))
        die(); /* `kill after`: the previous call has returned */
    uint32_t n_call = __atomic_add_fetch(&counts[call], 1, __ATOMIC_RELAXED);
    uint32_t n_any = __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
    if (!__atomic_load_n(&armed, __ATOMIC_ACQUIRE))
        return;
    for (int i = -1; (i = mmpi_fault_plan_match(&plan, i + 1, my_rank, 0, call, n_call,
                                                   n_any)) >= 0;) {
        const struct mmpi_fault *f = &plan.faults[i];
        bool any = f->call == MMPI_FAULT_ANY_CALL;
        if (f->when == MMPI_FAULT_AT_CALL) {
            report("at", any ? (enum mmpi_call)MMPI_FAULT_ANY_CALL : call, any ? n_any : n_call);
            die();
        }
        report("after", call, n_call);
        __atomic_store_n(&die_after, 1 + (int)call, __ATOMIC_RELEASE);
    }
}

static struct timespec timer_deadline;
static uint64_t timer_delay_ns;

static void *timer_main(void *arg)
{
    (void)arg;
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &timer_deadline, NULL) == EINTR)
        ;
    if (verbose)
        fprintf(stderr, "mini_mpi: injected death: rank %d at %.3f ms\n", my_rank,
                (double)timer_delay_ns * 1e-6);
    die();
}

void mmpi_pmpi_init_done(void)
{
    int initialized = 0, rank, size;
    PMPI_Initialized(&initialized);
    if (!initialized || PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS ||
        PMPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS)
        return;
    if (my_rank < 0) { /* no launcher variables: a singleton, or a launcher we do not know */
        my_rank = rank;
        world_size = size;
        parse_plan();
    } else if (rank != my_rank || size != world_size) {
        fprintf(stderr, "mini_mpi: injector: the launcher said rank %d of %d, MPI_COMM_WORLD "
                "says %d of %d; using MPI_COMM_WORLD's\n", my_rank, world_size, rank, size);
        my_rank = rank;
        world_size = size;
    }
    /* The earliest time directive for this rank, if any. */
    bool timed = false;
    for (int i = 0; i < plan.n; i++) {
        const struct mmpi_fault *f = &plan.faults[i];
        if (f->when == MMPI_FAULT_AT_TIME && f->rank == my_rank &&
            (!timed || f->time_ns < timer_delay_ns)) {
            timed = true;
            timer_delay_ns = f->time_ns;
        }
    }
    if (!timed)
        return;
    clock_gettime(CLOCK_MONOTONIC, &timer_deadline);
    uint64_t ns = (uint64_t)timer_deadline.tv_nsec + timer_delay_ns;
    timer_deadline.tv_sec += (time_t)(ns / 1000000000u);
    timer_deadline.tv_nsec = (long)(ns % 1000000000u);
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, timer_main, NULL) != 0)
        bad_setting("MINI_MPI_FAULTS: cannot start the thread of a time directive");
    pthread_attr_destroy(&attr);
}
