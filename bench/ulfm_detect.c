/*
 * bench/ulfm_detect.c: failure detection time, measured where applications meet it: from the
 * moment a rank dies to the moment MPI_Barrier returns MPIX_ERR_PROC_FAILED at the survivors.
 *
 * The dead rank cannot report when it died, so it announces it beforehand, and the clocks are
 * related with MPI messages only (no shared file, nothing that needs the ranks to share a
 * machine or an address space; MPI_Wtime need not be global, and with Open MPI it is not:
 * each process counts from its own MPI_Init):
 *   1. Clock offsets. When the library sets MPI_WTIME_IS_GLOBAL (its clocks are synchronized,
 *      as in mini_mpi, whose ranks share one clock), the offset is 0 and exact. Otherwise every
 *      survivor s exchanges PINGS ping-pongs with the victim v (the last rank): s notes
 *      MPI_Wtime before (a) and after (b) the round trip, v answers with its MPI_Wtime (c).
 *      offset = c - (a+b)/2, wrong by at most (b-a)/2; the round trip with the smallest b-a is
 *      kept (Cristian's algorithm). With ranks asleep between pings (more ranks than cores),
 *      (b-a)/2 is several microseconds, as large as what we measure, hence the global clock
 *      when there is one.
 *   2. Announcement. v picks its time of death t_d = now + lead (its clock; lead leaves every
 *      survivor time to reach the barrier) and sends it to every survivor, which converts it
 *      to its own clock with its offset.
 *   3. Death. Survivors enter MPI_Barrier under MPI_ERRORS_RETURN. v sleeps until just before
 *      t_d, spins on MPI_Wtime until t_d (so that it is running, not waiting for a CPU, at the
 *      moment), and calls raise(SIGKILL), bound beforehand by a harmless raise(0): it dies
 *      within a microsecond or so of t_d.
 *   4. Each survivor takes MPI_Wtime when its barrier returns the error; detection = that minus
 *      t_d. Survivors send their figure and its uncertainty to rank 0 over the same
 *      communicator (point-to-point between live ranks works after a failure).
 * Reported: ulfm_detect (ms) = the slowest survivor, i.e. until every survivor knows;
 * ulfm_detect_first (ms) = the fastest. The uncertainty (the largest half round trip) is
 * printed on a line of its own. A negative figure beyond the uncertainty, or a barrier that
 * does not fail with MPIX_ERR_PROC_FAILED, makes the figure NA with a note.
 *
 * Without ULFM (no MPIX_ERR_PROC_FAILED) it prints value=NA note=no-ULFM.
 */
#include "common.h"
#include "ulfm.h"

#include <signal.h>
#include <time.h>

#define PINGS 5
#define TAG_PING 21
#define TAG_DEATH 22
#define TAG_REPORT 23

#if BENCH_HAVE_ULFM
static void sleep_until(double t)
{
    for (;;) {
        double left = t - MPI_Wtime();
        if (left <= 0)
            return;
        if (left > 2e-3) { /* sleep in slices, then spin the last 2 ms */
            struct timespec ts = {0, (long)((left - 2e-3) * 1e9)};
            if (ts.tv_nsec > 100000000L)
                ts.tv_nsec = 100000000L;
            nanosleep(&ts, NULL);
        }
    }
}

/* Whether MPI_Wtime is synchronized across MPI_COMM_WORLD (the same answer at every rank). */
static int wtime_is_global(void)
{
    int *value, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &flag);
    return flag && *value;
}

static void victim(int size, double lead, int global)
{
    double t;
    for (int s = 0; s < size - 1 && !global; s++) {
        for (int i = 0; i < PINGS; i++) {
            MPI_Recv(&t, 1, MPI_DOUBLE, s, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            t = MPI_Wtime();
            MPI_Send(&t, 1, MPI_DOUBLE, s, TAG_PING, MPI_COMM_WORLD);
        }
    }
    double td = MPI_Wtime() + lead;
    for (int s = 0; s < size - 1; s++)
        MPI_Send(&td, 1, MPI_DOUBLE, s, TAG_DEATH, MPI_COMM_WORLD);
    /* raise(0) delivers nothing; it binds the symbol now, so that the dynamic linker's lazy
     * binding (a few microseconds on a first call) is not counted as detection time. */
    raise(0);
    sleep_until(td);
    raise(SIGKILL);
}
#endif

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
#if !BENCH_HAVE_ULFM
    if (rank == 0) {
        bench_result_na("ulfm_detect", 0, size, "ms", "no-ULFM");
        bench_result_na("ulfm_detect_first", 0, size, "ms", "no-ULFM");
    }
    MPI_Finalize();
    return 0;
#else
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "ulfm_detect: needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int v = size - 1;
    /* Lead time: every survivor must have received the announcement and entered the barrier
     * by then; 20 ms plus 0.2 ms per rank is ample here. */
    double lead = 0.02 + 2e-4 * size;
    int global = wtime_is_global();
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == v) {
        victim(size, lead, global);
        return 0; /* not reached */
    }

    /* 1. Offset of the victim's clock from ours. Survivors take turns (the victim serves them
     * in rank order), so each ping-pong runs without competition from the others. */
    double offset = 0, half_rtt = global ? 0 : 1e9;
    for (int i = 0; i < PINGS && !global; i++) {
        double a = MPI_Wtime(), c;
        MPI_Send(&a, 1, MPI_DOUBLE, v, TAG_PING, MPI_COMM_WORLD);
        MPI_Recv(&c, 1, MPI_DOUBLE, v, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double b = MPI_Wtime();
        if ((b - a) / 2 < half_rtt) {
            half_rtt = (b - a) / 2;
            offset = c - (a + b) / 2;
        }
    }
    /* 2. The announced time of death, on our clock. */
    double td;
    MPI_Recv(&td, 1, MPI_DOUBLE, v, TAG_DEATH, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    td -= offset;
    /* 3, 4. Wait for it in a barrier. */
    int rc = MPI_Barrier(MPI_COMM_WORLD);
    double t_err = MPI_Wtime();
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    double mine[3] = {(t_err - td) * 1e3, half_rtt * 1e3, cls == MPIX_ERR_PROC_FAILED};
    if (rank != 0) {
        MPI_Send(mine, 3, MPI_DOUBLE, 0, TAG_REPORT, MPI_COMM_WORLD);
    } else {
        double lo = mine[0], hi = mine[0], unc = mine[1];
        int wrong = !mine[2];
        for (int s = 1; s < size - 1; s++) {
            double r[3];
            MPI_Recv(r, 3, MPI_DOUBLE, s, TAG_REPORT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            lo = r[0] < lo ? r[0] : lo;
            hi = r[0] > hi ? r[0] : hi;
            unc = r[1] > unc ? r[1] : unc;
            wrong |= !r[2];
        }
        printf("INFO ulfm_detect: ranks=%d first=%.4f ms last=%.4f ms clock uncertainty "
               "+-%.4f ms\n", size, lo, hi, unc);
        if (wrong) {
            fprintf(stderr, "ulfm_detect: a barrier did not fail with MPIX_ERR_PROC_FAILED\n");
            bench_result_na("ulfm_detect", 0, size, "ms", "wrong-error");
            bench_result_na("ulfm_detect_first", 0, size, "ms", "wrong-error");
        } else if (lo < -unc) {
            fprintf(stderr, "ulfm_detect: error %.4f ms before the death\n", -lo);
            bench_result_na("ulfm_detect", 0, size, "ms", "error-before-death");
            bench_result_na("ulfm_detect_first", 0, size, "ms", "error-before-death");
        } else {
            bench_result("ulfm_detect", 0, size, hi, "ms");
            bench_result("ulfm_detect_first", 0, size, lo, "ms");
        }
    }
    MPI_Finalize();
    return 0;
#endif
}
