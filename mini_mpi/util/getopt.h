/*
 * getopt.h: a reentrant getopt with GNU semantics (argument permutation, "+"/"-" and ":" at the
 * head of optstring, POSIXLY_CORRECT, "W;", long options with abbreviations, getopt_long_only,
 * and glibc's messages), whose whole state lives in a struct the caller owns. glibc keeps that
 * state in one static struct behind getopt(); mini_mpi gives each rank its own (libc/getopt.c).
 * No MPI knowledge.
 */
#ifndef MMPI_UTIL_GETOPT_H
#define MMPI_UTIL_GETOPT_H

#include <getopt.h>

/* Everything one parse remembers between calls. Zero-initialized means "never used". The four
 * public variables are copied in and out by the caller around each call, as glibc does. */
struct mmpi_getopt_state {
    int optind;      /* in/out: next argv element (0: restart from scratch) */
    int opterr;      /* in: print messages */
    int optopt;      /* out: the option character that caused an error */
    char *optarg;    /* out: the argument of the option returned */
    int initialized;
    char *nextchar;  /* inside a cluster of short options ("-abc"), or NULL */
    int ordering;    /* enum in getopt.c */
    int first_nonopt, last_nonopt; /* non-options skipped and not yet permuted */
};

/* One step of getopt / getopt_long / getopt_long_only on state s (longopts NULL for getopt).
 * posixly_correct: stop at the first non-option (glibc's __posix_getopt). */
int mmpi_getopt_r(struct mmpi_getopt_state *s, int argc, char *const *argv,
                  const char *optstring, const struct option *longopts, int *longind,
                  int long_only, int posixly_correct);

#endif
