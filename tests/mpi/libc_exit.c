/*
 * libc_exit.c: a rank's atexit and on_exit handlers run when that rank ends normally, last
 * registered first, as a process's do: odd ranks end with exit(0), even ones return from main;
 * a handler registered while handlers run runs next; on_exit handlers get the status. A rank
 * that ends with _exit runs none. A process forked by a rank is a plain process: its exit(5)
 * ends it (with status 5, seen by waitpid) and runs the handlers it inherited.
 *
 * The handlers cannot use MPI (the ranks have finalized), so each rank's last handler appends a
 * line to a file, and a handler the program registered before any rank started (from a
 * constructor: it belongs to the process) checks the file when the process exits and prints
 * " No Errors". Thread-clean, so that it also runs with MINI_MPI_PRIVATIZE=0.
 */
#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char log_path[256];
static pid_t job_pid;
static __thread int rank;
static __thread char order[16]; /* the rank's handlers append their letter */

static void append_line(const char *line)
{
    int fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd >= 0) {
        if (write(fd, line, strlen(line)) < 0)
            perror("write");
        close(fd);
    }
}

static void note(char c)
{
    size_t n = strlen(order);
    order[n] = c;
    order[n + 1] = '\0';
}

static void h1(void)
{
    char line[64];
    note('1');
    snprintf(line, sizeof(line), "%s %d %s\n", getpid() == job_pid ? "rank" : "child", rank,
             order);
    append_line(line);
}
static void h2(int status, void *arg)
{
    int expected = getpid() == job_pid ? 0 : 5; /* the child exits with 5 */
    note(status == expected && (intptr_t)arg == rank + 100 ? '2' : 'X');
}
static void h4(void) { note('4'); }
static void h3(void)
{
    note('3');
    atexit(h4); /* registered during the run: runs next */
}

/* At process exit: every rank's line, in order, none from the killed rank. */
static void check_at_process_exit(void)
{
    if (getpid() != job_pid)
        return; /* the forked child inherited this handler */
    FILE *f = fopen(log_path, "r");
    int size = -1, seen[1024] = {0}, bad = 0, children = 0;
    char kind[16], ord[16];
    int r;
    if (!f || fscanf(f, "size %d\n", &size) != 1 || size < 1 || size > 1024) {
        printf("no log or no size line\n");
        bad++;
    }
    while (f && fscanf(f, "%15s %d %15s\n", kind, &r, ord) == 3) {
        if (strcmp(ord, "3421") || r < 0 || r >= size) {
            printf("%s %d ran its handlers as %s\n", kind, r, ord);
            bad++;
        } else if (!strcmp(kind, "child")) {
            children++;
        } else {
            seen[r]++;
        }
    }
    for (r = 0; r < size; r++) {
        int expected = size >= 3 && r == size - 1 ? 0 : 1; /* the last rank called _exit */
        if (seen[r] != expected) {
            printf("rank %d ran its handlers %d times, expected %d\n", r, seen[r], expected);
            bad++;
        }
    }
    if (size >= 2 && children != 1) {
        printf("the forked child ran its handlers %d times\n", children);
        bad++;
    }
    if (f)
        fclose(f);
    unlink(log_path);
    if (!bad)
        printf(" No Errors\n");
    fflush(stdout);
}

/* Runs in the program's main image before anything else (and in each private image as it is
 * loaded, where it finds the job already armed). */
__attribute__((constructor)) static void arm(void)
{
    if (getenv("LIBC_EXIT_TEST_LOG")) {
        snprintf(log_path, sizeof(log_path), "%s", getenv("LIBC_EXIT_TEST_LOG"));
        job_pid = getpid();
        return;
    }
    job_pid = getpid();
    snprintf(log_path, sizeof(log_path), "/tmp/mini_mpi_libc_exit.%d", (int)job_pid);
    unlink(log_path);
    setenv("LIBC_EXIT_TEST_LOG", log_path, 1);
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

    atexit(h1);
    on_exit(h2, (void *)(intptr_t)(rank + 100));
    atexit(h3);

    if (rank == 1) {
        pid_t child = fork();
        if (child == 0)
            exit(5); /* ends the child only, running the handlers above */
        int status = 0;
        if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 5)
            printf("rank 1: the forked child did not exit with 5 (status %#x)\n", status);
    }
    MPI_Finalize();
    if (size >= 3 && rank == size - 1)
        _exit(0); /* as for a process, no handler runs */
    if (rank % 2)
        exit(0);
    return 0;
}
