/*
 * libc_env_restart.c: a restarted rank starts as a new process would: from the launch
 * environment, in the launch directory, with the launch umask, whatever its dead incarnation
 * had done to its own. Three ranks; rank 1 sets a variable, edits a launch variable in place,
 * chdirs and sets umask 077, then dies; ranks 0 and 2 learn of the death and restart it; the
 * new incarnation checks its start. The testlist sets MINI_MPI_TEST_ENV_LAUNCH=a:b:c:d.
 */
#include <limits.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static __thread int me, errors;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            errors++;                                                                     \
            printf("rank %d: line %d: %s\n", me, __LINE__, #cond);                         \
            fflush(stdout);                                                               \
        }                                                                                 \
    } while (0)

static int is(const char *got, const char *want)
{
    return got && !strcmp(got, want);
}

int main(int argc, char **argv)
{
    int *inc, flag = 0, v = 0, err;
    char start[PATH_MAX], here[PATH_MAX];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MINI_MPI_INCARNATION, &inc, &flag);
    CHECK(flag);
    CHECK(getcwd(start, sizeof(start)) != NULL);
    mode_t mask = umask(0);
    umask(mask);

    if (flag && *inc == 1) { /* the new incarnation of rank 1 */
        char launch[PATH_MAX]; /* rank 0's directory, sent once its restart call returned */
        MPI_Recv(launch, sizeof(launch), MPI_CHAR, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(!strcmp(start, launch));
        CHECK(getenv("MINI_MPI_TEST_DEAD_EDIT") == NULL);
        CHECK(is(getenv("MINI_MPI_TEST_ENV_LAUNCH"), "a:b:c:d"));
        CHECK(mask != 077);
    } else {
        if (me == 1) {
            CHECK(setenv("MINI_MPI_TEST_DEAD_EDIT", "1", 1) == 0);
            char *l = getenv("MINI_MPI_TEST_ENV_LAUNCH");
            CHECK(is(l, "a:b:c:d"));
            if (l)
                l[0] = 'X';
            CHECK(mkdir("dead_dir", 0777) == 0 && chdir("dead_dir") == 0);
            umask(077);
            MPI_Barrier(MPI_COMM_WORLD);
            raise(SIGKILL);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        err = MPI_Recv(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(err == MPI_ERR_PROC_FAILED);
        err = MPIX_Comm_restart_rank(MPI_COMM_WORLD, 1);
        CHECK(err == MPI_SUCCESS);
        CHECK(getcwd(here, sizeof(here)) && !strcmp(here, start));
        if (me == 0)
            MPI_Send(start, sizeof(start), MPI_CHAR, 1, 8, MPI_COMM_WORLD);
    }
    int total = 0;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
