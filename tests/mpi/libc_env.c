/*
 * libc_env.c: every rank has its own environment, as each process of a real job does. The ranks
 * go through each step together (a barrier between steps), each with a value of its own:
 *  - the launch environment (MINI_MPI_TEST_ENV_LAUNCH=a:b:c:d:e:f:g:h, set by the testlist) is
 *    every rank's at start, in strings of its own (distinct addresses), also as main's envp;
 *  - setenv, getenv, and the same entry found by walking `environ`;
 *  - a string getenv returned, edited in place (HDF5 cuts a variable at a separator by writing
 *    a NUL into it): only the editing rank sees the edit;
 *  - setenv without overwrite, putenv (the program's own string, edited afterwards), unsetenv;
 *  - `environ` assigned a vector of the program's: getenv reads it, setenv copies it;
 *  - a thread the rank creates shares its environment; secure_getenv;
 *  - a process forked from the rank has the rank's environment, passes it to the program it
 *    runs, and searches the rank's PATH (execlp);
 *  - clearenv on half the ranks leaves the others' environment whole.
 * Built twice (tests/mpi/testlist.libc): with mpicc's -fPIC, where the program reaches environ
 * through its GOT, and with -fPIE, where it has its own copy of environ. With
 * MINI_MPI_PRIVATIZE=0 (argument "shared") `environ` is the process's: the steps through
 * environ are skipped.
 */
#define _GNU_SOURCE /* secure_getenv */
#include <mpi.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static __thread int rank, errors;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            errors++;                                                                     \
            printf("rank %d: line %d: %s\n", rank, __LINE__, #cond);                       \
            fflush(stdout);                                                               \
        }                                                                                 \
    } while (0)

#define LAUNCH "MINI_MPI_TEST_ENV_LAUNCH"
#define LAUNCH_VALUE "a:b:c:d:e:f:g:h"

static void step(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

static bool is(const char *got, const char *want)
{
    return got && !strcmp(got, want);
}

/* The value of name found by walking environ, as a program may. */
static const char *walk(const char *name)
{
    size_t len = strlen(name);
    for (char **e = environ; e && *e; e++)
        if (!strncmp(*e, name, len) && (*e)[len] == '=')
            return *e + len + 1;
    return NULL;
}

static void *in_thread(void *arg)
{
    char *want = arg;
    const char *v = getenv("MINI_MPI_TEST_RANK");
    int ok = is(v, want);
    setenv("MINI_MPI_TEST_FROM_THREAD", want, 1);
    return ok ? arg : NULL;
}

/* A forked child: the rank's environment is its own, and what it execs gets it. */
static void forked_child(const char *want)
{
    if (!is(getenv("MINI_MPI_TEST_RANK"), want) || !is(walk("MINI_MPI_TEST_RANK"), want))
        _exit(3);
    char script[128];
    snprintf(script, sizeof(script), "test \"$MINI_MPI_TEST_RANK\" = '%s' && exit 7", want);
    pid_t pid = fork(); /* a grandchild execs through PATH, which is the rank's */
    if (pid == 0) {
        setenv("PATH", "/nonexistent-mini_mpi", 1);
        execlp("sh", "sh", "-c", "exit 9", (char *)NULL);
        _exit(11); /* not found: right */
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 11)
        _exit(4);
    execl("/bin/sh", "sh", "-c", script, (char *)NULL);
    _exit(5);
}

int main(int argc, char **argv, char **envp)
{
    int size;
    char mine[64], own[64];
    bool shared = argc > 1 && !strcmp(argv[1], "shared");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(mine, sizeof(mine), "rank-%d", rank);

    /* The launch environment, in strings of the rank's own. */
    char *launch = getenv(LAUNCH);
    CHECK(is(launch, LAUNCH_VALUE));
    CHECK(envp != NULL);
    if (!shared) {
        CHECK(envp == environ);
        CHECK(walk(LAUNCH) == launch);
    }
    uintptr_t addr = (uintptr_t)launch, *all = malloc((size_t)size * sizeof(*all));
    MPI_Allgather(&addr, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        CHECK(i == rank || all[i] != addr);
    free(all);
    CHECK(getenv("MINI_MPI_TEST_RANK") == NULL);
    step();

    CHECK(setenv("MINI_MPI_TEST_RANK", mine, 1) == 0);
    step();
    CHECK(is(getenv("MINI_MPI_TEST_RANK"), mine));
    if (!shared)
        CHECK(is(walk("MINI_MPI_TEST_RANK"), mine));
    step();

    /* Edits in place, at a place of each rank's own. */
    char *v = getenv(LAUNCH);
    int cut = 1 + 2 * (rank % 7);
    CHECK(v == launch);
    if (v)
        v[cut] = '\0';
    char *r = getenv("MINI_MPI_TEST_RANK");
    if (r)
        r[0] = 'R';
    step();
    CHECK(v && strlen(getenv(LAUNCH)) == (size_t)cut && !strncmp(getenv(LAUNCH), LAUNCH_VALUE, cut));
    snprintf(own, sizeof(own), "Rank-%d", rank);
    CHECK(is(getenv("MINI_MPI_TEST_RANK"), own));
    step();

    /* setenv without overwrite, putenv of the program's string, unsetenv. */
    CHECK(setenv("MINI_MPI_TEST_RANK", "other", 0) == 0);
    CHECK(is(getenv("MINI_MPI_TEST_RANK"), own));
    static __thread char put[64];
    snprintf(put, sizeof(put), "MINI_MPI_TEST_PUT=p%d", rank);
    CHECK(putenv(put) == 0);
    step();
    snprintf(own, sizeof(own), "p%d", rank);
    CHECK(is(getenv("MINI_MPI_TEST_PUT"), own));
    put[strlen("MINI_MPI_TEST_PUT=")] = 'q'; /* the string itself is the entry */
    own[0] = 'q';
    step();
    CHECK(is(getenv("MINI_MPI_TEST_PUT"), own));
    CHECK(unsetenv("MINI_MPI_TEST_PUT") == 0);
    CHECK(setenv("", "x", 1) == -1 && setenv("A=B", "x", 1) == -1 && unsetenv("A=B") == -1);
    step();
    CHECK(getenv("MINI_MPI_TEST_PUT") == NULL);
    if (!shared)
        CHECK(walk("MINI_MPI_TEST_PUT") == NULL);
    CHECK(setenv("MINI_MPI_TEST_RANK", mine, 1) == 0);
    step();

    /* environ replaced by a vector of the program's. */
    if (!shared) {
        char entry[64];
        snprintf(entry, sizeof(entry), "MINI_MPI_TEST_ONLY=%d", rank);
        char *vec[] = {entry, NULL}, **saved = environ;
        environ = vec;
        step();
        snprintf(own, sizeof(own), "%d", rank);
        CHECK(is(getenv("MINI_MPI_TEST_ONLY"), own));
        CHECK(getenv("MINI_MPI_TEST_RANK") == NULL && getenv(LAUNCH) == NULL);
        CHECK(setenv("MINI_MPI_TEST_MORE", own, 1) == 0); /* copies the vector */
        CHECK(vec[1] == NULL && environ != vec && is(walk("MINI_MPI_TEST_ONLY"), own));
        step();
        CHECK(is(getenv("MINI_MPI_TEST_MORE"), own));
        environ = saved;
        step();
        CHECK(is(getenv("MINI_MPI_TEST_RANK"), mine) && getenv("MINI_MPI_TEST_MORE") == NULL);
    }
    step();

    /* A thread of the rank shares its environment. */
    pthread_t t;
    void *res = NULL;
    CHECK(pthread_create(&t, NULL, in_thread, mine) == 0 && pthread_join(t, &res) == 0);
    CHECK(res == mine);
    CHECK(is(getenv("MINI_MPI_TEST_FROM_THREAD"), mine));
    CHECK(secure_getenv("MINI_MPI_TEST_RANK") == getenv("MINI_MPI_TEST_RANK"));
    step();

    /* A forked child (a few ranks: each fork copies the whole job's process). */
    if (rank % 64 == 0 || rank == size - 1) {
        pid_t pid = fork();
        if (pid == 0)
            forked_child(mine);
        int status = 0;
        CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 7);
    }
    step();

    /* clearenv on the odd ranks. */
    if (rank % 2) {
        CHECK(clearenv() == 0);
        if (!shared)
            CHECK(environ == NULL);
        CHECK(getenv("MINI_MPI_TEST_RANK") == NULL && getenv(LAUNCH) == NULL);
        CHECK(setenv("MINI_MPI_TEST_AFTER", mine, 1) == 0);
    }
    step();
    if (rank % 2) {
        CHECK(is(getenv("MINI_MPI_TEST_AFTER"), mine) && getenv("PATH") == NULL);
        if (!shared)
            CHECK(environ && environ[0] && !environ[1]);
    } else {
        CHECK(is(getenv("MINI_MPI_TEST_RANK"), mine) && getenv("MINI_MPI_TEST_AFTER") == NULL);
        CHECK(getenv("PATH") != NULL);
    }

    int total;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
