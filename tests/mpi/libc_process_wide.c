/*
 * libc_process_wide.c: a signal handler set by one rank is every rank's (the README says what
 * each process-wide call does to the other ranks), while a directory change, an environment
 * variable and the umask set by one rank stay its own (libc_env*.c test them in depth). With
 * MINI_MPI_VERBOSE=1 the runtime says so once per kind of process-wide call (one line each for
 * sigaction/signal and fork, however often they are called; none for chdir, setenv, unsetenv,
 * umask), and not at all without it: stderr is captured around the calls and its lines counted.
 * A process forked by a rank runs another program (execl) and its status reaches waitpid.
 */
#include <limits.h>
#include <mpi.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static __thread int rank, errors;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            errors++;                                                                     \
            printf("rank %d: line %d: %s\n", rank, __LINE__, #cond);                       \
        }                                                                                 \
    } while (0)

static void on_usr1(int sig) { (void)sig; }

int main(int argc, char **argv)
{
    int size, saved = -1;
    char start[PATH_MAX], here[PATH_MAX], dir[] = "/tmp/mini_mpi_pw_XXXXXX";
    FILE *tmp = NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(getcwd(start, sizeof(start)) != NULL);
    mode_t launch_mask = umask(0);
    umask(launch_mask);

    if (rank == 0) { /* capture what the runtime prints from here on */
        CHECK(mkdtemp(dir) != NULL);
        tmp = tmpfile();
        fflush(stderr);
        saved = dup(2);
        dup2(fileno(tmp), 2);
    }
    MPI_Bcast(dir, sizeof(dir), MPI_CHAR, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        CHECK(chdir(dir) == 0);
        CHECK(setenv("MINI_MPI_PW_TEST", "set by rank 0", 1) == 0);
        umask(077);
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_usr1;
        CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(getcwd(here, sizeof(here)) && !strcmp(here, rank == 0 ? dir : start));
    if (rank == 0)
        CHECK(getenv("MINI_MPI_PW_TEST") && !strcmp(getenv("MINI_MPI_PW_TEST"), "set by rank 0"));
    else
        CHECK(getenv("MINI_MPI_PW_TEST") == NULL);
    struct sigaction now;
    /* Rank 0's handler: with private images, the on_usr1 of rank 0's copy of the program. */
    CHECK(sigaction(SIGUSR1, NULL, &now) == 0 && now.sa_handler != SIG_DFL &&
          now.sa_handler != SIG_IGN && (rank != 0 || now.sa_handler == on_usr1));
    MPI_Barrier(MPI_COMM_WORLD);

    if (rank == (size > 1 ? 1 : 0)) { /* the same kinds again, and fork */
        CHECK(chdir(start) == 0);
        CHECK(unsetenv("MINI_MPI_PW_TEST") == 0);
        mode_t old = umask(022);
        CHECK(old == (rank == 0 ? 077 : launch_mask));
        signal(SIGUSR1, SIG_DFL);
        pid_t child = fork();
        if (child == 0) {
            execl("/bin/sh", "sh", "-c", "exit 7", (char *)NULL);
            _exit(99);
        }
        int status = 0;
        CHECK(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
              WEXITSTATUS(status) == 7);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(getcwd(here, sizeof(here)) && !strcmp(here, rank == 0 && size > 1 ? dir : start));
    CHECK(getenv("MINI_MPI_PW_TEST") == NULL || (rank == 0 && size > 1));
    if (rank == 0)
        CHECK(chdir(start) == 0);

    if (rank == 0) {
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        rmdir(dir);
        rewind(tmp);
        char line[512];
        int lines = 0, chdirs = 0;
        while (fgets(line, sizeof(line), tmp)) {
            lines++;
            chdirs += strstr(line, "called chdir(): the working directory") != NULL;
        }
        fclose(tmp);
        const char *v = getenv("MINI_MPI_VERBOSE");
        bool verbose = v && !strcmp(v, "1") && size > 1;
        CHECK(lines == (verbose ? 2 : 0)); /* sigaction, fork */
        CHECK(chdirs == 0);
    }

    int total;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
