/*
 * fs.c: the working directory and the file mode creation mask of a rank, its own as a
 * process's are. Linux keeps both (with the root directory) in a structure its threads share
 * unless a thread is created without CLONE_FS or leaves it with unshare(CLONE_FS). Each rank's
 * main thread leaves the process's at its start; threads the rank then creates share the
 * rank's, as a process's threads share the process's. So chdir, fchdir, umask and every path a
 * rank resolves (open, stat, MPI_File_open: io/file.c resolves a name in the opening rank's
 * directory) are the rank's own, with the C library's calls unchanged: nothing is interposed.
 *
 * A rank starts in the launch directory with the launch mask: the launcher's when the first
 * rank started. A spawned rank starts in the directory its spawn names (the spawning root's, or
 * the info key "wdir": spawn/spawn.c). The runtime's own threads keep the process's.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libc/libc.h"

static int launch_dir = -1;     /* immutable once made: O_PATH descriptor of the directory */
static mode_t launch_mask;      /* immutable once made */
static pthread_once_t launch_once = PTHREAD_ONCE_INIT;

/* Run by the first rank after it left the process's structure, which it copied: reading the
 * mask (umask has no query) changes only its own. */
static void launch_snapshot(void)
{
    launch_dir = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC); /* -1: a removed directory */
    launch_mask = umask(0);
    umask(launch_mask);
}

void mmpi_libc_fs_start(struct mmpi_rank *r)
{
    if (unshare(CLONE_FS) != 0)
        mmpi_die("unshare(CLONE_FS) for rank %d's working directory", r->world_rank);
    pthread_once(&launch_once, launch_snapshot);
    /* A spawned or restarted rank's thread was created by another rank's, whose directory and
     * mask it copied: start from the launcher's as every rank does. */
    if (launch_dir >= 0 && fchdir(launch_dir) != 0)
        mmpi_die("fchdir to the launch directory");
    umask(launch_mask);
    if (r->start_dir && chdir(r->start_dir) != 0)
        fprintf(stderr, "mini_mpi: rank %d: cannot start in %s: %s\n", r->world_rank,
                r->start_dir, strerror(errno));
}
