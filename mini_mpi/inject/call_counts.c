/*
 * call_counts.c: writing the per-rank MPI call counts of MINI_MPI_CALL_COUNTS (call_counts.h).
 * The counters themselves are the injector's (inject.c: rank->inject_total and
 * rank->inject_counts, maintained whenever mmpi_inject_active is set); this file only checks
 * the path at launch and writes the file at the end of the world:
 *   # mini_mpi call counts: <N> ranks
 *   <rank> calls <total MPI calls entered by the rank>
 *   <rank> <MPI_Name> <count>     one line per call the rank entered at least once
 * with ranks in increasing order, each rank's `calls` line first, then its calls in calls.def
 * order. A count includes the call a rank died on entering.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inject/call_counts.h"
#include "mmpi.h"
#include "util/parse.h"

static bool bad(const char *path, const char *why)
{
    char shown[160];
    fprintf(stderr, "mini_mpi: MINI_MPI_CALL_COUNTS='%s' is invalid: %s\n",
            mmpi_parse_escape(path, shown, sizeof shown), why);
    return false;
}

bool mmpi_call_counts_check(const char *path)
{
    struct stat st;
    if (!*path)
        return bad(path, "expected the path of a file to write");
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return bad(path, "it is a directory, expected the path of a file to write");
        if (access(path, W_OK) != 0)
            return bad(path, "the file is not writable");
        return true;
    }
    /* The file does not exist yet: its directory must, and be writable. */
    char *dir = mmpi_xstrdup(path);
    char *slash = strrchr(dir, '/');
    const char *d = !slash ? "." : slash == dir ? "/" : (*slash = '\0', dir);
    bool ok = stat(d, &st) == 0 && S_ISDIR(st.st_mode);
    bool writable = ok && access(d, W_OK | X_OK) == 0;
    free(dir);
    if (!ok)
        return bad(path, "its directory does not exist");
    if (!writable)
        return bad(path, "its directory is not writable");
    return true;
}

void mmpi_call_counts_write(const struct mmpi_world *w)
{
    const char *path = w->config.call_counts;
    if (!path)
        return;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "mini_mpi: MINI_MPI_CALL_COUNTS: cannot write '%s': %s\n", path,
                strerror(errno));
        return;
    }
    /* The initial ranks only: they are what MINI_MPI_FAULTS addresses (spawned ranks are not). */
    fprintf(f, "# mini_mpi call counts: %d ranks\n", w->initial_size);
    for (int i = 0; i < w->initial_size; i++) {
        const struct mmpi_rank *r = w->ranks[i];
        fprintf(f, "%d calls %u\n", i, __atomic_load_n(&r->inject_total, __ATOMIC_ACQUIRE));
        for (int c = 0; r->inject_counts && c < MMPI_CALL_COUNT; c++) {
            uint32_t n = __atomic_load_n(&r->inject_counts[c], __ATOMIC_ACQUIRE);
            if (n)
                fprintf(f, "%d %s %u\n", i, mmpi_call_name((enum mmpi_call)c), n);
        }
    }
    if (fclose(f) != 0)
        fprintf(stderr, "mini_mpi: MINI_MPI_CALL_COUNTS: cannot write '%s': %s\n", path,
                strerror(errno));
}
