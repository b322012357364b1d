/*
 * getopt.c: getopt, getopt_long, getopt_long_only and __posix_getopt (what <unistd.h> names
 * getopt in strict POSIX modes) for ranks. Each rank parses with its own state
 * (util/getopt.c, glibc's behaviour), and reads and writes optind, opterr, optopt and optarg
 * where its program reads them (libc/bind.c), exactly as glibc's getopt copies them in and out
 * around its reentrant core. A thread outside the ranks gets the C library's getopt.
 */
#include "libc/libc.h"

typedef int (*getopt_fn)(int, char *const *, const char *);
typedef int (*getopt_long_fn)(int, char *const *, const char *, const struct option *, int *);
MMPI_REAL(getopt_fn, getopt)
MMPI_REAL(getopt_fn, __posix_getopt)
MMPI_REAL(getopt_long_fn, getopt_long)
MMPI_REAL(getopt_long_fn, getopt_long_only)

static int rank_getopt(struct mmpi_libc *st, int argc, char *const *argv, const char *optstring,
                       const struct option *longopts, int *longind, int long_only, int posix)
{
    struct mmpi_getopt_state *d = &st->getopt;
    d->optind = *st->optind;
    d->opterr = *st->opterr;
    /* POSIXLY_CORRECT as the rank's environment has it (glibc reads the process's). */
    posix = posix || mmpi_libc_getenv(st, "POSIXLY_CORRECT") != NULL;
    int c = mmpi_getopt_r(d, argc, argv, optstring, longopts, longind, long_only, posix);
    *st->optind = d->optind;
    *st->optarg = d->optarg;
    *st->optopt = d->optopt;
    return c;
}

MMPI_EXPORT int getopt(int argc, char *const argv[], const char *optstring)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real_getopt()(argc, argv, optstring);
    return rank_getopt(st, argc, argv, optstring, NULL, NULL, 0, 0);
}

MMPI_EXPORT int __posix_getopt(int argc, char *const argv[], const char *optstring);
MMPI_EXPORT int __posix_getopt(int argc, char *const argv[], const char *optstring)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real___posix_getopt()(argc, argv, optstring);
    return rank_getopt(st, argc, argv, optstring, NULL, NULL, 0, 1);
}

MMPI_EXPORT int getopt_long(int argc, char *const argv[], const char *optstring,
                            const struct option *longopts, int *longind)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real_getopt_long()(argc, argv, optstring, longopts, longind);
    return rank_getopt(st, argc, argv, optstring, longopts, longind, 0, 0);
}

MMPI_EXPORT int getopt_long_only(int argc, char *const argv[], const char *optstring,
                                 const struct option *longopts, int *longind)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real_getopt_long_only()(argc, argv, optstring, longopts, longind);
    return rank_getopt(st, argc, argv, optstring, longopts, longind, 1, 0);
}
