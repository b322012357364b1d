/*
 * die.h: the one exit for impossible failures (a pthread call failing, memory exhausted in a
 * place that cannot report an MPI error). Prints file, line and errno, then aborts the process
 * with the real abort(), never the rank-local one. In the manner of urcu_die.
 */
#ifndef MMPI_UTIL_DIE_H
#define MMPI_UTIL_DIE_H

#include <stddef.h>

__attribute__((noreturn, format(printf, 3, 4))) void mmpi_die_at(const char *file, int line,
                                                                 const char *fmt, ...);
#define mmpi_die(...) mmpi_die_at(__FILE__, __LINE__, __VA_ARGS__)

/* Checks the return value of a pthread_* call (0 on success) and dies on anything else. */
#define MMPI_CHECK_PTHREAD(call)                                       \
    do {                                                               \
        int mmpi_rc_ = (call);                                         \
        if (mmpi_rc_ != 0)                                             \
            mmpi_die("%s failed: error %d", #call, mmpi_rc_);          \
    } while (0)

/* malloc/calloc that die on exhaustion: for bookkeeping too small to report as MPI_ERR_NO_MEM. */
void *mmpi_xmalloc(size_t size);
void *mmpi_xcalloc(size_t n, size_t size);
char *mmpi_xstrdup(const char *s);

#endif
