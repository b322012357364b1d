/*
 * bench/pingpong_load.c: 8-byte ping-pong latency between ranks 0 and 1 while another process
 * keeps a CPU busy, as on a shared CI runner (MPI_Send/MPI_Recv, one-way time = round trip / 2).
 *
 * Before timing, rank 0 forks a child that spins until it is killed (or its parent dies); the
 * child runs no MPI and is the same for every library. Then as bench/pingpong.c: warm-up,
 * batches sized to about 0.2 s (BENCH_TIME overrides), median. Where the kernel puts the three
 * busy threads decides the figure: both ranks on one CPU cost a thread switch per message, a
 * rank sharing its CPU with the spinner stops for the spinner's time slices
 * (docs/performance.md, "Under load").
 *
 * Output (rank 0): RESULT name=pingpong_load_latency bytes=8 ranks=2 value=<us> unit=us
 */
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

struct pp {
    char buf[8];
    int rank;
};

static void pp_step(void *arg)
{
    struct pp *p = arg;
    if (p->rank == 0) {
        MPI_Send(p->buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(p->buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (p->rank == 1) {
        MPI_Recv(p->buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(p->buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
}

/* A process that keeps one CPU busy until it is killed or its parent ends. */
static pid_t start_spinner(void)
{
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        for (unsigned long i = 0;; i++)
            if (!(i & 0xffffff) && getppid() != parent)
                _exit(0);
    }
    return pid;
}

int main(int argc, char **argv)
{
    int rank, size;
    bench_init(&argc, &argv, &rank, &size);
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "pingpong_load: needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    pid_t spinner = rank == 0 ? start_spinner() : 0;
    if (rank == 0 && spinner < 0)
        MPI_Abort(MPI_COMM_WORLD, 3);
    usleep(20000); /* the spinner runs before the first batch */
    struct pp p = {{0}, rank};
    double rt = bench_time_steps(pp_step, &p, MPI_COMM_WORLD, bench_budget(0.2), 5, 200);
    if (rank == 0) {
        kill(spinner, SIGKILL);
        waitpid(spinner, NULL, 0);
        bench_result("pingpong_load_latency", 8, 2, rt / 2 * 1e6, "us");
    }
    MPI_Finalize();
    return 0;
}
