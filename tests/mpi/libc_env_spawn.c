/*
 * libc_env_spawn.c: a spawned rank starts as a process that MPI_Comm_spawn starts: from the
 * launch environment, plus the lines of the spawn's info key "env" (Open MPI's: newline-
 * separated NAME=value), not from the spawner's edits; in the root's working directory (or the
 * info key "wdir", relative to it); with the launch umask. The parents first change all three
 * (the root edits a launch variable in place, sets another, chdirs, sets umask 077), then spawn
 * twice: 2 children with an "env", 1 with a "wdir" and no "env". Each child checks its start and
 * sends its error count to the root over the intercommunicator.
 * The testlist sets MINI_MPI_TEST_ENV_LAUNCH=a:b:c:d and MINI_MPI_TEST_ENV_KEEP=k.
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static __thread int rank, errors;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            errors++;                                                                     \
            printf("%s %d: line %d: %s\n", parent == MPI_COMM_NULL ? "parent" : "child",   \
                   rank, __LINE__, #cond);                                                \
            fflush(stdout);                                                               \
        }                                                                                 \
    } while (0)

static __thread MPI_Comm parent;

static int is(const char *got, const char *want)
{
    return got && !strcmp(got, want);
}

/* argv: "child", the spawn (1 or 2), the launch umask in octal, the expected directory. */
static void child(char **argv)
{
    int which = atoi(argv[1]);
    mode_t launch_mask = (mode_t)strtol(argv[2], NULL, 8), mask = umask(0);
    char here[PATH_MAX];
    umask(mask);
    CHECK(mask == launch_mask);
    CHECK(getcwd(here, sizeof(here)) && !strcmp(here, argv[3]));
    CHECK(getenv("MINI_MPI_TEST_PARENT_EDIT") == NULL);
    CHECK(is(getenv("MINI_MPI_TEST_ENV_KEEP"), "k"));
    if (which == 1) {
        CHECK(is(getenv("MINI_MPI_TEST_CHILD_A"), "1"));
        CHECK(is(getenv("MINI_MPI_TEST_CHILD_B"), "two words=2"));
        CHECK(is(getenv("MINI_MPI_TEST_ENV_LAUNCH"), "overridden"));
    } else {
        CHECK(getenv("MINI_MPI_TEST_CHILD_A") == NULL);
        CHECK(is(getenv("MINI_MPI_TEST_ENV_LAUNCH"), "a:b:c:d")); /* not the root's edit */
    }
    MPI_Send(&errors, 1, MPI_INT, 0, 0, parent);
    MPI_Comm_disconnect(&parent);
}

static void spawn(const char *cmd, int which, int n, MPI_Info info, const char *mask,
                  const char *dir)
{
    char w[8];
    snprintf(w, sizeof(w), "%d", which);
    char *args[] = {"child", w, (char *)mask, (char *)dir, NULL};
    MPI_Comm inter;
    int codes[2];
    CHECK(MPI_Comm_spawn(cmd, args, n, info, 0, MPI_COMM_WORLD, &inter, codes) == MPI_SUCCESS);
    if (rank == 0)
        for (int i = 0; i < n; i++) {
            int theirs = 1;
            MPI_Recv(&theirs, 1, MPI_INT, i, 0, inter, MPI_STATUS_IGNORE);
            errors += theirs;
            if (theirs)
                printf("child %d of spawn %d: %d errors\n", i, which, theirs);
        }
    MPI_Comm_disconnect(&inter);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        if (argc == 5 && !strcmp(argv[1], "child"))
            child(argv + 1);
        else
            printf("child %d: bad arguments\n", rank);
        MPI_Finalize();
        return 0;
    }

    char cmd[PATH_MAX], mask[16], start[PATH_MAX], dir1[PATH_MAX + 16], dir2[PATH_MAX + 32];
    mode_t launch_mask = umask(0);
    umask(launch_mask);
    snprintf(mask, sizeof(mask), "%o", (unsigned)launch_mask);
    CHECK(realpath(argv[0], cmd) != NULL);
    CHECK(getcwd(start, sizeof(start)) != NULL);
    snprintf(dir1, sizeof(dir1), "%s/spawn_wd", start);
    snprintf(dir2, sizeof(dir2), "%s/spawn_wd/sub", start);
    if (rank == 0) {
        CHECK(mkdir("spawn_wd", 0777) == 0 && mkdir("spawn_wd/sub", 0777) == 0);
        CHECK(chdir("spawn_wd") == 0);
        char *v = getenv("MINI_MPI_TEST_ENV_LAUNCH");
        CHECK(is(v, "a:b:c:d"));
        if (v)
            v[1] = '\0';
    } else {
        CHECK(chdir("/") == 0); /* another parent's directory is not the children's */
    }
    CHECK(setenv("MINI_MPI_TEST_PARENT_EDIT", "x", 1) == 0);
    umask(077);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "env", "MINI_MPI_TEST_CHILD_A=1\nMINI_MPI_TEST_CHILD_B=two words=2\n"
                              "MINI_MPI_TEST_ENV_LAUNCH=overridden");
    spawn(cmd, 1, 2, info, mask, dir1);
    MPI_Info_free(&info);
    MPI_Info_create(&info);
    MPI_Info_set(info, "wdir", "sub");
    spawn(cmd, 2, 1, info, mask, dir2);
    MPI_Info_free(&info);

    int total;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
