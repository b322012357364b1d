/*
 * die.c: implementation of mmpi_die and the allocation helpers that use it. The real abort() is
 * reached through mmpi_real (the exported abort is rank-local, see runtime/interpose.c).
 */
#include "util/die.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/real.h"

void mmpi_die_at(const char *file, int line, const char *fmt, ...)
{
    int saved_errno = errno;
    va_list ap;

    fprintf(stderr, "mini_mpi: internal error at %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (errno %d: %s)\n", saved_errno, strerror(saved_errno));
    fflush(NULL);
    mmpi_real_abort();
}

void *mmpi_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        mmpi_die("out of memory allocating %zu bytes", size);
    return p;
}

void *mmpi_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        mmpi_die("out of memory allocating %zu x %zu bytes", n, size);
    return p;
}

char *mmpi_xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p)
        mmpi_die("out of memory duplicating a string");
    return p;
}
