/*
 * fault_spec.c: parsing MINI_MPI_FAULTS (and run-time directives of the C API) into a fault plan,
 * and the rule of which directive fires at an MPI entry (fault_spec.h). Compiled into both the
 * library and the PMPI injector, so that one spec, `random` draw included, means the same thing
 * on both. Whitespace-tolerant, case-sensitive, numbers as util/parse.h reads them (plain
 * decimal); any error is one line naming the bad token.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fault_spec.h"
#include "util/die.h"
#include "util/parse.h"

#define RANDOM_WITHIN 32 /* kill random without `within`: the N-th MPI call, N in [1, 32] */

struct cursor {
    char *tokens[16];
    int n, i;
    const char *directive; /* for messages */
    enum mmpi_fault_dialect dialect;
    char *error;
    size_t error_len;
};

/* The error names the token and its directive escaped (util/parse.h), so that the message stays
 * one line whatever the spec holds (a newline separates words, other control characters do
 * not). */
static bool fail(struct cursor *c, const char *what, const char *token)
{
    char t[96], d[192];
    snprintf(c->error, c->error_len, "%s '%s' in '%s'", what,
             token ? mmpi_parse_escape(token, t, sizeof t) : "(end)",
             mmpi_parse_escape(c->directive, d, sizeof d));
    return false;
}

static const char *next(struct cursor *c)
{
    return c->i < c->n ? c->tokens[c->i++] : NULL;
}

/* A rank of the job: one of the nranks the launcher starts, or, up to the universe size, one
 * that MPI_Comm_spawn will add (they are numbered on in spawn order, as reports name them). */
static bool parse_rank(struct cursor *c, int nranks, int universe, int *rank)
{
    const char *t = next(c);
    long v;
    if (!t || !mmpi_parse_long(t, 0, 1L << 30, &v))
        return fail(c, "expected a rank, got", t);
    if (v >= universe) { /* universe >= nranks */
        char what[160];
        if (c->dialect == MMPI_FAULT_DIALECT_REAL_MPI)
            snprintf(what, sizeof what, "rank out of range (MPI_COMM_WORLD has %d ranks):",
                     nranks);
        else if (universe > nranks)
            snprintf(what, sizeof what,
                     "rank out of range (the world has %d ranks, the universe %d):", nranks,
                     universe);
        else
            snprintf(what, sizeof what,
                     "rank out of range (the world has %d ranks; spawned ranks need a "
                     "universe size, mpiexec -usize):", nranks);
        return fail(c, what, t);
    }
    *rank = (int)v;
    return true;
}

/* `R.k` (the k-th restarted incarnation of launcher rank R, restart/restart.h): cuts the
 * rank token at the dot and stores k; R must then be a rank the launcher starts. */
static bool split_incarnation(struct cursor *c, int nranks, int *incarnation)
{
    char *t = c->i < c->n ? c->tokens[c->i] : NULL;
    char *dot = t ? strchr(t, '.') : NULL;
    long v;
    if (!dot)
        return true;
    if (c->dialect == MMPI_FAULT_DIALECT_REAL_MPI)
        return fail(c, "not possible on another MPI (no restarted incarnations; name a rank of "
                       "MPI_COMM_WORLD):", t);
    if (!mmpi_parse_long(dot + 1, 0, 1L << 20, &v))
        return fail(c, "expected an incarnation after the dot, got", t);
    *dot = '\0';
    *incarnation = (int)v;
    long r;
    if (v > 0 && mmpi_parse_long(t, 0, 1L << 30, &r) && r >= nranks) {
        *dot = '.';
        return fail(c, "only ranks the launcher starts are restarted, got", t);
    }
    return true;
}

/* "5ms", "5 ms", "300us": returns false (without error) if t does not start with a digit. */
static bool parse_time(struct cursor *c, const char *t, uint64_t *ns, bool *is_time)
{
    *is_time = t && t[0] >= '0' && t[0] <= '9';
    if (!*is_time)
        return true;
    char num[32];
    size_t k = strspn(t, "0123456789");
    const char *unit = t + k;
    if (k >= sizeof num)
        return fail(c, "time too large:", t);
    memcpy(num, t, k);
    num[k] = '\0';
    if (!*unit)
        unit = next(c);
    long v;
    if (!mmpi_parse_long(num, 0, 1L << 40, &v))
        return fail(c, "bad time", t);
    if (unit && !strcmp(unit, "ms"))
        *ns = (uint64_t)v * 1000000u;
    else if (unit && !strcmp(unit, "us"))
        *ns = (uint64_t)v * 1000u;
    else
        return fail(c, "expected a time unit (ms or us), got", unit);
    return true;
}

/* CALL[#N] */
static bool parse_call(struct cursor *c, const char *t, int *call, uint32_t *nth)
{
    char name[96];
    const char *hash = t ? strchr(t, '#') : NULL;
    size_t len = hash ? (size_t)(hash - t) : (t ? strlen(t) : 0);
    if (!t || len == 0 || len >= sizeof name)
        return fail(c, "expected an MPI function name or 'any', got", t);
    memcpy(name, t, len);
    name[len] = '\0';
    *nth = 1;
    if (hash) {
        long v;
        if (!mmpi_parse_long(hash + 1, 1, 1L << 31, &v))
            return fail(c, "bad call count", t);
        *nth = (uint32_t)v;
    }
    if (!strcmp(name, "any")) {
        *call = MMPI_FAULT_ANY_CALL;
        return true;
    }
    *call = mmpi_call_by_name(name);
    if (*call < 0)
        return fail(c, "unknown MPI function", name);
    return true;
}

/* Calls that meet on a collective board (coll/board.h), where `kill R during CALL` can cut a
 * collective in two. */
static bool is_board_collective(const char *name)
{
    static const char *const names[] = {
        "Barrier", "Bcast", "Gather", "Gatherv", "Scatter", "Scatterv", "Allgather",
        "Allgatherv", "Alltoall", "Alltoallv", "Alltoallw", "Reduce", "Allreduce",
        "Reduce_scatter", "Reduce_scatter_block", "Scan", "Exscan", "Comm_dup",
        "Comm_dup_with_info", "Comm_idup", "Comm_split", "Comm_split_type", "Comm_create",
        "Comm_create_group", "Comm_agree", "Comm_iagree", "Comm_shrink", "Comm_ishrink",
        /* the Sessions Model's: members meet in comm/create_group.c's rendezvous */
        "Comm_create_from_group", "Intercomm_create_from_groups",
        "Win_fence", "Win_free", /* on the board of the window's communicator (osc/win.h) */
        /* files: collective access meets on the file's board (io/io.h) */
        "File_open", "File_close", "File_set_size", "File_preallocate", "File_set_view",
        "File_set_atomicity", "File_sync", "File_seek_shared", "File_read_at_all",
        "File_write_at_all", "File_read_all", "File_write_all", "File_read_ordered",
        "File_write_ordered",
    };
    const char *base = !strncmp(name, "MPIX_", 5) ? name + 5 : name + 4;
    for (int nonblocking = 0; nonblocking < 2; nonblocking++) {
        const char *b = base;
        if (nonblocking) {
            if (*b != 'I')
                return false;
            b++;
        }
        for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
            if (!strcmp(b, names[i]))
                return true;
    }
    return false;
}

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void add(struct mmpi_fault_plan *p, struct mmpi_fault f)
{
    struct mmpi_fault *grown = mmpi_xmalloc(((size_t)p->n + 1) * sizeof(*grown));
    if (p->n)
        memcpy(grown, p->faults, (size_t)p->n * sizeof(*grown));
    grown[p->n] = f;
    struct mmpi_fault *old = p->faults;
    /* A reader that sees the new count sees the new array (both release; readers load n
     * first); one that still holds the old array reads at most the old count. */
    __atomic_store_n(&p->faults, grown, __ATOMIC_RELEASE);
    __atomic_store_n(&p->n, p->n + 1, __ATOMIC_RELEASE);
    if (p->retire)
        p->retire(old);
    else
        free(old);
}

/* Where `kill random` draws each rank's call: uniformly in [1, within], or with a call counts
 * file of an earlier run (`within FILE`), in [1, that rank's total of MPI calls there]. */
struct random_range {
    long within;
    long *totals; /* [nranks], from the file; NULL: `within` for every rank */
};

/* The `<rank> calls <total>` lines of a call counts file (call_counts_file.h); for a rank
 * listed more than once (appended runs) the last line counts. Every rank must be listed. */
static bool read_call_totals(struct cursor *c, const char *path, int nranks, long *totals)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(c, "cannot read the call counts file", path);
    for (int r = 0; r < nranks; r++)
        totals[r] = -1;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        long rank, total;
        if (sscanf(line, "%ld calls %ld", &rank, &total) == 2 && rank >= 0 && rank < nranks &&
            total >= 0)
            totals[rank] = total;
    }
    fclose(f);
    for (int r = 0; r < nranks; r++)
        if (totals[r] < 0) {
            char what[160];
            snprintf(what, sizeof what, "no '%d calls' line (a call counts file of a run of %d "
                                        "ranks, MINI_MPI_CALL_COUNTS) in", r, nranks);
            return fail(c, what, path);
        }
    return true;
}

/* `within N` (a number of calls) or `within FILE` (a call counts file). */
static bool parse_within(struct cursor *c, int nranks, struct random_range *range)
{
    const char *t = next(c);
    if (!t)
        return fail(c, "expected a number of calls or a call counts file, got", t);
    if (mmpi_parse_long(t, 1, 1L << 31, &range->within))
        return true;
    if (t[0] >= '0' && t[0] <= '9' && access(t, F_OK) != 0)
        return fail(c, "expected a number of calls (1 or more) or a call counts file, got", t);
    range->totals = mmpi_xcalloc((size_t)nranks, sizeof(long));
    return read_call_totals(c, t, nranks, range->totals);
}

/* `seed S` and `within X`, each at most once, in either order. */
static bool parse_random_options(struct cursor *c, int nranks, long *seed,
                                 struct random_range *range)
{
    bool have_seed = false, have_within = false;
    const char *t;
    while ((t = next(c))) {
        if (!strcmp(t, "seed") && !have_seed) {
            have_seed = true;
            t = next(c);
            if (!t || !mmpi_parse_long(t, 0, 1L << 62, seed))
                return fail(c, "expected a seed, got", t);
        } else if (!strcmp(t, "within") && !have_within) {
            have_within = true;
            if (!parse_within(c, nranks, range))
                return false;
        } else {
            bool repeated = !strcmp(t, "seed") || !strcmp(t, "within");
            return fail(c, repeated ? "repeated" : "expected 'seed' or 'within', got", t);
        }
    }
    return true;
}

/* The call index for rank r: uniform in [1, its limit]. A rank that made no call in the
 * calibration run gets 1 (it never fires if the rank makes no call again). */
static uint32_t draw_call(uint64_t *state, const struct random_range *range, int r)
{
    long limit = range->totals ? range->totals[r] : range->within;
    if (limit < 1)
        limit = 1;
    return (uint32_t)(1 + splitmix(state) % (uint64_t)limit);
}

static bool parse_random(struct cursor *c, int nranks, struct mmpi_fault_plan *p)
{
    const char *t = next(c);
    long k, seed = -1;
    struct random_range range = {RANDOM_WITHIN, NULL};
    if (!t || !mmpi_parse_long(t, 1, nranks, &k))
        return fail(c, "expected a number of ranks to kill (1 to world size), got", t);
    if (!parse_random_options(c, nranks, &seed, &range)) {
        free(range.totals);
        return false;
    }
    if (seed < 0) {
        seed = (long)(((uint64_t)time(NULL) * 2654435761u) ^ (uint64_t)getpid()) & ((1L << 31) - 1);
        fprintf(stderr, "mini_mpi: kill random %ld: seed %ld\n", k, seed);
    }
    /* The draw: a rank, then its call, K times. The default range is [1, 32] so that a seed
     * quoted in a test or a reproducer keeps naming the same deaths. */
    uint64_t state = (uint64_t)seed;
    char *chosen = mmpi_xcalloc((size_t)nranks, 1);
    for (long i = 0; i < k; i++) {
        int r;
        do
            r = (int)(splitmix(&state) % (uint64_t)nranks);
        while (chosen[r]);
        chosen[r] = 1;
        struct mmpi_fault f = {r, MMPI_FAULT_AT_CALL, MMPI_FAULT_ANY_CALL,
                               draw_call(&state, &range, r), 0, 0};
        add(p, f);
    }
    free(chosen);
    free(range.totals);
    return true;
}

static bool parse_directive(struct cursor *c, int nranks, int universe,
                            struct mmpi_fault_plan *p)
{
    const char *t = next(c);
    if (!t || strcmp(t, "kill"))
        return fail(c, "expected 'kill', got", t);
    t = c->i < c->n ? c->tokens[c->i] : NULL;
    if (t && !strcmp(t, "random")) {
        c->i++;
        return parse_random(c, nranks, p);
    }
    struct mmpi_fault f = {0, MMPI_FAULT_AT_CALL, MMPI_FAULT_ANY_CALL, 1, 0, 0};
    if (!split_incarnation(c, nranks, &f.incarnation) ||
        !parse_rank(c, nranks, universe, &f.rank))
        return false;
    const char *rank_token = c->tokens[c->i - 1];
    t = next(c);
    if (!t || (strcmp(t, "at") && strcmp(t, "after") && strcmp(t, "during")))
        return fail(c, "expected 'at', 'after' or 'during', got", t);
    bool after = !strcmp(t, "after"), during = !strcmp(t, "during");
    if (during && c->dialect == MMPI_FAULT_DIALECT_REAL_MPI)
        return fail(c, "not possible on another MPI (only mini_mpi can cut a collective; use "
                       "'at' or 'after'):", t);
    const char *when = t;
    t = next(c);
    bool is_time;
    if (!parse_time(c, t, &f.time_ns, &is_time))
        return false;
    if (is_time) {
        if (after || during) {
            char what[64];
            snprintf(what, sizeof what, "a time goes with 'at', not '%s':", when);
            return fail(c, what, t);
        }
        if (f.rank >= nranks) {
            char what[96];
            snprintf(what, sizeof what, "a time directive names a rank the launcher starts "
                                        "(0 to %d), got", nranks - 1);
            return fail(c, what, rank_token);
        }
        if (f.incarnation > 0)
            return fail(c, "a time directive names a rank as started (no .k), got", rank_token);
        f.when = MMPI_FAULT_AT_TIME;
    } else {
        if (!parse_call(c, t, &f.call, &f.nth))
            return false;
        if (during && (f.call == MMPI_FAULT_ANY_CALL ||
                       !is_board_collective(mmpi_call_name((enum mmpi_call)f.call))))
            return fail(c, "'during' needs a collective call (MPI_Barrier, MPI_Allreduce, "
                           "MPI_Comm_split, ...), got", t);
        f.when = after ? MMPI_FAULT_AFTER_CALL
                 : during ? MMPI_FAULT_DURING_CALL
                          : MMPI_FAULT_AT_CALL;
    }
    if ((t = next(c)))
        return fail(c, "unexpected", t);
    add(p, f);
    return true;
}

bool mmpi_fault_plan_append_dialect(struct mmpi_fault_plan *plan, const char *spec, int nranks,
                                    int universe, enum mmpi_fault_dialect dialect, char *error,
                                    size_t error_len)
{
    char *copy = mmpi_xstrdup(spec ? spec : "");
    bool ok = true;
    char *save = NULL;
    for (char *d = strtok_r(copy, ";", &save); ok && d; d = strtok_r(NULL, ";", &save)) {
        struct cursor c = {.directive = d, .dialect = dialect, .error = error,
                           .error_len = error_len};
        char *dcopy = mmpi_xstrdup(d), *s2 = NULL;
        for (char *t = strtok_r(dcopy, " \t\n", &s2); t; t = strtok_r(NULL, " \t\n", &s2)) {
            if (c.n == (int)(sizeof c.tokens / sizeof c.tokens[0])) {
                ok = fail(&c, "too many words at", t);
                break;
            }
            c.tokens[c.n++] = t;
        }
        /* Trim the directive for messages. */
        while (*c.directive == ' ' || *c.directive == '\t' || *c.directive == '\n')
            c.directive++;
        if (ok && c.n > 0)
            ok = parse_directive(&c, nranks, universe, plan);
        free(dcopy);
    }
    free(copy);
    return ok;
}

bool mmpi_fault_plan_append(struct mmpi_fault_plan *plan, const char *spec, int nranks,
                            int universe, char *error, size_t error_len)
{
    return mmpi_fault_plan_append_dialect(plan, spec, nranks, universe,
                                          MMPI_FAULT_DIALECT_MINI_MPI, error, error_len);
}

bool mmpi_fault_plan_parse(const char *spec, int nranks, int universe,
                           struct mmpi_fault_plan *plan)
{
    char error[512];
    plan->n = 0;
    plan->faults = NULL;
    plan->retire = NULL;
    if (mmpi_fault_plan_append(plan, spec, nranks, universe, error, sizeof error))
        return true;
    fprintf(stderr, "mini_mpi: MINI_MPI_FAULTS: %s\n", error);
    return false;
}

int mmpi_fault_plan_match(const struct mmpi_fault_plan *plan, int from, int rank,
                          int incarnation, enum mmpi_call call, uint32_t n_call, uint32_t n_any)
{
    int n = __atomic_load_n(&plan->n, __ATOMIC_ACQUIRE);
    const struct mmpi_fault *f = __atomic_load_n(&plan->faults, __ATOMIC_ACQUIRE);
    for (int i = from; i < n; i++) {
        if (f[i].rank != rank || f[i].incarnation != incarnation ||
            f[i].when == MMPI_FAULT_AT_TIME)
            continue;
        bool any = f[i].call == MMPI_FAULT_ANY_CALL;
        if (any ? n_any == f[i].nth : (f[i].call == (int)call && n_call == f[i].nth))
            return i;
    }
    return -1;
}
