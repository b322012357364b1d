/*
 * bench/memory.c: memory of an N-rank job right after start-up, summed over its processes.
 *
 * After MPI_Init and a barrier, rank 0 learns every rank's (host, pid) by point-to-point
 * messages and names one rank per distinct process, the lowest. Each of those reads its
 * process's VmRSS (/proc/self/status) and Pss (/proc/self/smaps_rollup) and sends them to
 * rank 0, which prints the sums:
 *   memory_pss  MB: proportional set size, shared pages split between the processes that map
 *                   them; sums to the memory the job really occupies. The fair figure.
 *   memory_rss  MB: resident set size; counts shared libraries once per process.
 *   memory_processes: how many distinct processes the ranks live in (N for MPICH and Open MPI,
 *                   1 for mini_mpi, where every rank is a thread of one process).
 * Launcher processes (mpiexec, hydra_pmi_proxy, orted) are not counted; for mini_mpi the
 * launcher execs the program, so there is none.
 */
#include "common.h"

#include <unistd.h>

struct who {
    long host, pid;
};

static long host_hash(void)
{
    char name[256] = {0};
    gethostname(name, sizeof name - 1);
    unsigned long h = 1469598103934665603UL; /* FNV-1a */
    for (const char *c = name; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211UL;
    return (long)(h >> 1);
}

/* Value in kB of the line "key:   1234 kB" of a /proc file, or -1. */
static long proc_kb(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[256];
    size_t klen = strlen(key);
    long v = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            v = atol(line + klen + 1);
            break;
        }
    }
    fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
    MPI_Barrier(MPI_COMM_WORLD);

    long me[2] = {host_hash(), (long)getpid()};
    long measure = 0;
    if (rank == 0) {
        long *all = malloc(sizeof(long) * 2 * (size_t)size);
        long nproc = 1;
        all[0] = me[0];
        all[1] = me[1];
        for (int r = 1; r < size; r++)
            MPI_Recv(&all[2 * r], 2, MPI_LONG, r, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        long rss = 0, pss = 0;
        int bad = 0;
        /* Rank 0 is the lowest rank of its process; measure it last, after the others. */
        for (int r = 1; r < size; r++) {
            int first = 1;
            for (int q = 0; q < r && first; q++)
                first = !(all[2 * q] == all[2 * r] && all[2 * q + 1] == all[2 * r + 1]);
            long flag = first;
            MPI_Send(&flag, 1, MPI_LONG, r, 4, MPI_COMM_WORLD);
            if (first) {
                long m[2];
                MPI_Recv(m, 2, MPI_LONG, r, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (m[0] < 0 || m[1] < 0)
                    bad = 1;
                rss += m[0];
                pss += m[1];
                nproc++;
            }
        }
        long r0 = proc_kb("/proc/self/status", "VmRSS");
        long p0 = proc_kb("/proc/self/smaps_rollup", "Pss");
        if (r0 < 0 || p0 < 0 || bad) {
            bench_result_na("memory_pss", 0, size, "MB", "no-proc");
            bench_result_na("memory_rss", 0, size, "MB", "no-proc");
        } else {
            bench_result("memory_pss", 0, size, (double)(pss + p0) / 1024.0, "MB");
            bench_result("memory_rss", 0, size, (double)(rss + r0) / 1024.0, "MB");
        }
        bench_result("memory_processes", 0, size, (double)nproc, "count");
        free(all);
    } else {
        MPI_Send(me, 2, MPI_LONG, 0, 3, MPI_COMM_WORLD);
        MPI_Recv(&measure, 1, MPI_LONG, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (measure) {
            long m[2] = {proc_kb("/proc/self/status", "VmRSS"),
                         proc_kb("/proc/self/smaps_rollup", "Pss")};
            MPI_Send(m, 2, MPI_LONG, 0, 5, MPI_COMM_WORLD);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
