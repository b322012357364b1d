/*
 * libc.h: the C library state of a rank. In a real MPI job every rank is a process with its own
 * C library; here the ranks share one. The program's own globals are per rank already (private
 * images, runtime/private_image.c); this module gives each rank what the C library keeps in
 * static storage and a program can observe: getopt's state and its four variables, the
 * rand/random and drand48 generators, strtok's position, the static results of localtime,
 * gmtime, ctime, asctime and the passwd/group lookups, the atexit/on_exit handlers, which
 * run when the rank ends normally, and the environment (`environ`, getenv, setenv, ...).
 * libmini_mpi exports the C library's names (libc/getopt.c, random.c, static_results.c,
 * exit.c, env.c); called from a thread that belongs to no rank, each forwards to the C library
 * unchanged. The working directory and umask are the kernel's, made per rank at its start
 * (libc/fs.c). Calls that stay process-wide are in libc/process_wide.c.
 *
 * The state is created by the rank's main thread before it calls main (mmpi_libc_rank_start),
 * used by the rank's threads, and freed with the rank (mmpi_libc_rank_free).
 */
#ifndef MMPI_LIBC_LIBC_H
#define MMPI_LIBC_LIBC_H

#include <pthread.h>
#include <pwd.h>
#include <grp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "libc/env.h"
#include "mmpi.h"
#include "util/getopt.h"
#include "util/real.h"

/* The C library variables a rank's program reads, given a per-rank home (libc/bind.c). */
enum { MMPI_LIBC_OPTIND, MMPI_LIBC_OPTERR, MMPI_LIBC_OPTOPT, MMPI_LIBC_OPTARG, MMPI_LIBC_ENVIRON,
       MMPI_LIBC_NVARS };

/* Handlers registered with atexit (__cxa_atexit), on_exit or at_quick_exit, in order. */
struct mmpi_libc_exit_handler {
    int kind;                   /* enum in exit.c */
    void (*fn)(void);           /* cast to its kind's type */
    void *arg;
};
struct mmpi_libc_handlers {
    struct mmpi_libc_exit_handler *items;
    int count, cap;
};

/* The C library state of one rank. Fields are used by the rank's own threads only. */
struct mmpi_libc {
    /* getopt: the parser's state, and where the rank's program reads the four variables (its
     * image's own copies, or cells below that its image was bound to: libc/bind.c). */
    struct mmpi_getopt_state getopt;
    int *optind, *opterr, *optopt;
    char **optarg;
    struct { int optind, opterr, optopt; char *optarg; char **environ; } cells;
    void *homes[MMPI_LIBC_NVARS]; /* each variable's home: a cell above or an image's copy */

    /* The environment (libc/env.c): *environ_home is the vector the program sees as environ. */
    char ***environ_home;
    struct mmpi_env env;

    /* rand/random share one generator, as in glibc; random_state is its default buffer. */
    pthread_mutex_t random_lock;
    struct random_data random;
    int32_t random_state[32];   /* glibc's default: TYPE_3, 128 bytes */
    struct drand48_data drand48;

    char *strtok_next;          /* strtok's saved position */
    struct tm tm;               /* localtime/gmtime/ctime share it, as in glibc */
    char asctime_buf[114];      /* asctime/ctime share it; glibc's size */
    struct passwd pw;           /* getpwnam/getpwuid */
    char *pw_buf;
    size_t pw_len;
    struct group gr;            /* getgrnam/getgrgid */
    char *gr_buf;
    size_t gr_len;

    /* Exit handlers, run last-registered first when the rank ends normally. */
    pthread_mutex_t exit_lock;
    struct mmpi_libc_handlers at_exit, at_quick_exit;
    void *image;                /* link map of the rank's program image (dladdr1 of its main) */
};

/* Creates the calling rank's state and binds its image's getopt variables. Called by the rank's
 * main thread before main. */
void mmpi_libc_rank_start(struct mmpi_rank *r);
/* Frees r's state (world end). */
void mmpi_libc_rank_free(struct mmpi_rank *r);
/* The rank ends normally with `status` (exit(), or main returned): runs its atexit and on_exit
 * handlers, last registered first. Called on the ending thread, with no lock held. */
void mmpi_libc_run_exit_handlers(struct mmpi_rank *r, int status);
/* The same for quick_exit() and its at_quick_exit handlers. */
void mmpi_libc_run_quick_exit_handlers(struct mmpi_rank *r);
/* Called by exit() outside ranks: in a process forked from a rank, runs the handlers the rank
 * had registered, as a forked child's exit() would; elsewhere does nothing. */
void mmpi_libc_run_forked_exit_handlers(int status);
/* The same for quick_exit() outside ranks and the rank's at_quick_exit handlers. */
void mmpi_libc_run_forked_quick_exit_handlers(void);
/* The calling thread, a rank's, has just been forked: it is now the only thread of a new
 * process, which is not an MPI process. */
void mmpi_libc_forked_child(void);

/* Gives the C library variables of r's program image their per-rank homes (libc/bind.c). */
void mmpi_libc_bind(struct mmpi_rank *r, struct mmpi_libc *st);

/* libc/env.c: makes the rank's environment (the launch environment, plus r->start_env), after
 * mmpi_libc_bind; frees it; in a forked child, makes it the process's. */
void mmpi_libc_env_start(struct mmpi_rank *r, struct mmpi_libc *st);
void mmpi_libc_env_free(struct mmpi_libc *st);
void mmpi_libc_env_forked(struct mmpi_libc *st);
/* The environment of st (a rank's, or the forked child's); the process's for NULL. */
char **mmpi_libc_environ(struct mmpi_libc *st);
/* The value of `name` in st's environment (the process's for NULL). */
char *mmpi_libc_getenv(struct mmpi_libc *st, const char *name);

/* libc/fs.c: the calling rank thread leaves the process's working directory and umask for its
 * own, starting in the launch directory (or r->start_dir) with the launch umask. Called by the
 * rank's main thread first thing. */
void mmpi_libc_fs_start(struct mmpi_rank *r);

/* In a process forked from a rank (libc/process_wide.c): the state of that rank, which the
 * child inherits as a forked process inherits its C library. NULL in the job's process. */
extern struct mmpi_libc *mmpi_libc_forked;

/* The calling rank's state; NULL outside ranks. */
static inline struct mmpi_libc *mmpi_libc_self(void)
{
    struct mmpi_rank *r = mmpi_self;
    return r ? r->libc : mmpi_libc_forked;
}

/* The C library's own definition of a name this module interposes: MMPI_REAL (util/real.h). */

#define MMPI_EXPORT __attribute__((visibility("default")))

#endif
