/*
 * call_counts_file.c: checking the MINI_MPI_CALL_COUNTS path and printing the lines of the call
 * counts file (call_counts_file.h). Who counts and when the file is written belongs to each
 * side: inject/call_counts.c, inject/pmpi/state.c.
 */
#include "call_counts_file.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calls.h"
#include "util/die.h"
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

void mmpi_call_counts_print_header(FILE *f, int nranks)
{
    fprintf(f, "# mini_mpi call counts: %d ranks\n", nranks);
}

void mmpi_call_counts_print_rank(FILE *f, int rank, uint32_t total, const uint32_t *counts)
{
    fprintf(f, "%d calls %u\n", rank, total);
    for (int c = 0; counts && c < MMPI_CALL_COUNT; c++) {
        uint32_t n = __atomic_load_n(&counts[c], __ATOMIC_ACQUIRE);
        if (n)
            fprintf(f, "%d %s %u\n", rank, mmpi_call_name((enum mmpi_call)c), n);
    }
}
