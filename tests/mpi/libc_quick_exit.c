/*
 * libc_quick_exit.c: quick_exit() from a rank ends that rank only, running its at_quick_exit
 * handlers (last registered first) and not its atexit ones, as in a process; the job's status
 * is the first non-zero status of a rank (rank 1 ends with 3). Each rank's handlers append a
 * line to a file; a handler the process registered before any rank started checks it at
 * process exit and prints " No Errors". Thread-clean (MINI_MPI_PRIVATIZE=0 too).
 */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char log_path[256];
static __thread int rank;
static __thread char order[8];

static void append_line(const char *line)
{
    int fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd >= 0) {
        if (write(fd, line, strlen(line)) < 0)
            perror("write");
        close(fd);
    }
}

static void q2(void) { strcat(order, "2"); }
static void q1(void)
{
    char line[64];
    strcat(order, "1");
    snprintf(line, sizeof(line), "quick %d %s\n", rank, order);
    append_line(line);
}
static void at_exit_handler(void)
{
    char line[64];
    snprintf(line, sizeof(line), "atexit %d ran\n", rank);
    append_line(line);
}

static void check_at_process_exit(void)
{
    FILE *f = fopen(log_path, "r");
    int size = -1, seen[1024] = {0}, bad = 0, r;
    char kind[16], ord[16];
    if (!f || fscanf(f, "size %d\n", &size) != 1 || size < 1 || size > 1024) {
        printf("no log or no size line\n");
        bad++;
    }
    while (f && fscanf(f, "%15s %d %15s\n", kind, &r, ord) == 3) {
        if (strcmp(kind, "quick") || strcmp(ord, "21") || r < 0 || r >= size) {
            printf("unexpected: %s %d %s\n", kind, r, ord);
            bad++;
        } else {
            seen[r]++;
        }
    }
    for (r = 0; r < size; r++)
        if (seen[r] != 1) {
            printf("rank %d ran its quick_exit handlers %d times\n", r, seen[r]);
            bad++;
        }
    if (f)
        fclose(f);
    unlink(log_path);
    if (!bad)
        printf(" No Errors\n");
    fflush(stdout);
}

__attribute__((constructor)) static void arm(void)
{
    if (getenv("LIBC_QUICK_EXIT_TEST_LOG")) { /* a private image of the armed job */
        snprintf(log_path, sizeof(log_path), "%s", getenv("LIBC_QUICK_EXIT_TEST_LOG"));
        return;
    }
    snprintf(log_path, sizeof(log_path), "/tmp/mini_mpi_libc_quick_exit.%d", (int)getpid());
    unlink(log_path);
    setenv("LIBC_QUICK_EXIT_TEST_LOG", log_path, 1);
    atexit(check_at_process_exit);
}

int main(int argc, char **argv)
{
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        char line[32];
        snprintf(line, sizeof(line), "size %d\n", size);
        append_line(line);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    atexit(at_exit_handler);
    at_quick_exit(q1);
    at_quick_exit(q2);
    MPI_Finalize();
    quick_exit(rank == 1 ? 3 : 0);
}
