/*
 * futex.h: sleeping and waking on a 32-bit word (Linux futex, process-private). Waiting ranks
 * sleep here after a short spin, so that hundreds of rank-threads can share two cores.
 */
#ifndef MMPI_UTIL_FUTEX_H
#define MMPI_UTIL_FUTEX_H

#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Sleeps while *word == expected, until woken, a signal, or timeout (NULL: none). */
static inline void mmpi_futex_wait(uint32_t *word, uint32_t expected,
                                   const struct timespec *timeout)
{
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, timeout, NULL, 0);
}

/* Wakes every thread sleeping on word. */
static inline void mmpi_futex_wake_all(uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

static inline void mmpi_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

#endif
