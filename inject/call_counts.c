/*
 * call_counts.c: writing the per-rank MPI call counts of MINI_MPI_CALL_COUNTS (call_counts.h).
 * The counters themselves are the injector's (inject.c: rank->inject_total and
 * rank->inject_counts, maintained whenever mmpi_inject_active is set); this file only writes
 * the file at the end of the world, ranks in increasing order, in the format of
 * inject/call_counts_file.h (shared with the PMPI injector, which also checks the path). A count
 * includes the call a rank died on entering.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject/call_counts.h"
#include "mmpi.h"

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
    mmpi_call_counts_print_header(f, w->initial_size);
    for (int i = 0; i < w->initial_size; i++) {
        const struct mmpi_rank *r = w->ranks[i];
        mmpi_call_counts_print_rank(f, i, __atomic_load_n(&r->inject_total, __ATOMIC_ACQUIRE),
                                    r->inject_counts);
    }
    if (fclose(f) != 0)
        fprintf(stderr, "mini_mpi: MINI_MPI_CALL_COUNTS: cannot write '%s': %s\n", path,
                strerror(errno));
}
