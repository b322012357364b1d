/*
 * libc_env_fs.c: every rank has its own working directory and file mode creation mask, as each
 * process of a real job does, and a path it gives is resolved in its own directory. Each step
 * is taken by every rank together (a barrier between steps):
 *  - all start in the launch directory (the test's scratch directory);
 *  - each chdirs to a directory of its own (all but rank 0 one level deeper), by a relative path,
 *    and creates a file there by a relative path: with open() and with MPI_File_open on
 *    MPI_COMM_SELF; each finds its own file, and only its own, by the same relative name;
 *  - a collective MPI_File_open on MPI_COMM_WORLD of one file named by a relative path of each
 *    rank's own (rank 0 "../coll.dat", the others "../../coll.dat") with
 *    MPI_MODE_DELETE_ON_CLOSE: the file is the common one, and it is gone after the close,
 *    whichever rank's thread released it last;
 *  - umask: each rank sets a mask of its own, creates a file and finds its mode; umask returns
 *    the rank's previous mask;
 *  - a thread the rank creates shares its directory and mask; fchdir back to the start.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdbool.h>
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
            printf("rank %d: line %d: %s\n", rank, __LINE__, #cond);                       \
            fflush(stdout);                                                               \
        }                                                                                 \
    } while (0)

static void step(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The first int in file `name`, or -1. */
static int read_int(const char *name)
{
    int v = -1;
    FILE *f = fopen(name, "r");
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

struct probe {
    char dir[PATH_MAX];
    mode_t mask;
};

static void *in_thread(void *arg)
{
    struct probe *p = arg;
    if (!getcwd(p->dir, sizeof(p->dir)))
        p->dir[0] = '\0';
    p->mask = umask(0);
    umask(p->mask);
    return NULL;
}

int main(int argc, char **argv)
{
    int size;
    char start[PATH_MAX], here[PATH_MAX], want[PATH_MAX + 128], rel[64];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(getcwd(start, sizeof(start)) != NULL);
    int start_fd = open(".", O_RDONLY | O_DIRECTORY);
    CHECK(start_fd >= 0);
    if (rank == 0)
        CHECK(mkdir("envfs", 0777) == 0);
    step();

    /* A directory of the rank's own: envfs/d0 for rank 0, envfs/d<rank>/deep for the others. */
    snprintf(rel, sizeof(rel), "envfs/d%d", rank);
    CHECK(mkdir(rel, 0777) == 0);
    if (rank != 0) {
        snprintf(rel, sizeof(rel), "envfs/d%d/deep", rank);
        CHECK(mkdir(rel, 0777) == 0);
    }
    CHECK(chdir(rel) == 0);
    step();
    snprintf(want, sizeof(want), "%s/%s", start, rel);
    CHECK(getcwd(here, sizeof(here)) && !strcmp(here, want));
    int fd = open("own.txt", O_CREAT | O_EXCL | O_WRONLY, 0644);
    CHECK(fd >= 0);
    if (fd >= 0) {
        dprintf(fd, "%d\n", rank);
        close(fd);
    }
    MPI_File fh;
    int err = MPI_File_open(MPI_COMM_SELF, "mpiio.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY,
                            MPI_INFO_NULL, &fh);
    CHECK(err == MPI_SUCCESS);
    if (err == MPI_SUCCESS) {
        char text[16];
        int n = snprintf(text, sizeof(text), "%d\n", rank);
        CHECK(MPI_File_write(fh, text, n, MPI_CHAR, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        MPI_File_close(&fh);
    }
    step();
    CHECK(read_int("own.txt") == rank);
    CHECK(read_int("mpiio.dat") == rank);
    snprintf(want, sizeof(want), "%s/%s/own.txt", start, rel);
    CHECK(read_int(want) == rank);
    step();

    /* One file of the world, named from each rank's directory. */
    const char *coll = rank != 0 ? "../../coll.dat" : "../coll.dat";
    err = MPI_File_open(MPI_COMM_WORLD, coll,
                        MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh);
    CHECK(err == MPI_SUCCESS);
    snprintf(want, sizeof(want), "%s/envfs/coll.dat", start);
    if (err == MPI_SUCCESS) {
        CHECK(MPI_File_write_at_all(fh, rank, "x", 1, MPI_CHAR, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        MPI_File_sync(fh); /* §14.6.1: sync, barrier, sync */
        step();
        MPI_File_sync(fh);
        MPI_Offset bytes = 0;
        MPI_File_get_size(fh, &bytes);
        CHECK(bytes == size);
        struct stat st;
        CHECK(stat(want, &st) == 0 && st.st_size == size);
        MPI_File_close(&fh);
    }
    step();
    CHECK(access(want, F_OK) != 0 && errno == ENOENT);
    step();

    /* A mask of the rank's own. */
    mode_t mask = rank % 2 ? 077 : 022 | (mode_t)(rank % 4 == 2 ? 001 : 0);
    mode_t old = umask(mask);
    step();
    fd = open("mask.txt", O_CREAT | O_WRONLY, 0666);
    CHECK(fd >= 0);
    struct stat st;
    CHECK(fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask));
    if (fd >= 0)
        close(fd);
    step();
    CHECK(umask(old) == mask);
    CHECK(umask(mask) == old);

    /* A thread of the rank shares both. */
    struct probe p;
    pthread_t t;
    CHECK(pthread_create(&t, NULL, in_thread, &p) == 0 && pthread_join(t, NULL) == 0);
    snprintf(want, sizeof(want), "%s/%s", start, rel);
    CHECK(!strcmp(p.dir, want) && p.mask == mask);
    umask(old);
    step();

    CHECK(fchdir(start_fd) == 0);
    CHECK(getcwd(here, sizeof(here)) && !strcmp(here, start));
    close(start_fd);

    int total;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
