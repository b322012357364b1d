/*
 * static_results.c: C library calls that keep a position or return a pointer to static storage,
 * given one per rank, as one per process in a real job: strtok; localtime, gmtime (which share
 * one struct tm in glibc), ctime and asctime (which share one string); getpwnam, getpwuid,
 * getgrnam, getgrgid. Each is glibc's reentrant twin on the rank's buffers.
 *
 * Not here because glibc already keeps them per thread (a rank's main thread is a thread):
 * strerror, strsignal, inet_ntoa, and errno itself.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "libc/libc.h"

typedef char *(*strtok_fn)(char *, const char *);
typedef struct tm *(*time_to_tm_fn)(const time_t *);
typedef char *(*ctime_fn)(const time_t *);
typedef char *(*asctime_fn)(const struct tm *);
typedef struct passwd *(*getpwnam_fn)(const char *);
typedef struct passwd *(*getpwuid_fn)(uid_t);
typedef struct group *(*getgrnam_fn)(const char *);
typedef struct group *(*getgrgid_fn)(gid_t);
MMPI_REAL(strtok_fn, strtok)
MMPI_REAL(time_to_tm_fn, localtime)
MMPI_REAL(time_to_tm_fn, gmtime)
MMPI_REAL(ctime_fn, ctime)
MMPI_REAL(asctime_fn, asctime)
MMPI_REAL(getpwnam_fn, getpwnam)
MMPI_REAL(getpwuid_fn, getpwuid)
MMPI_REAL(getgrnam_fn, getgrnam)
MMPI_REAL(getgrgid_fn, getgrgid)

MMPI_EXPORT char *strtok(char *s, const char *delim)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real_strtok()(s, delim);
    return strtok_r(s, delim, &st->strtok_next);
}

MMPI_EXPORT struct tm *localtime(const time_t *t)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real_localtime()(t);
    tzset(); /* localtime, unlike localtime_r, notices a changed TZ at every call */
    return localtime_r(t, &st->tm);
}

MMPI_EXPORT struct tm *gmtime(const time_t *t)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real_gmtime()(t);
    return gmtime_r(t, &st->tm);
}

/* glibc's asctime: the C locale's names, "???" out of range, any year that fits an int. */
static char *format_asctime(const struct tm *tp, char *buf, size_t len)
{
    static const char days[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char months[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    if (tp == NULL) {
        errno = EINVAL;
        return NULL;
    }
    if (tp->tm_year > INT_MAX - 1900) {
        errno = EOVERFLOW;
        return NULL;
    }
    int n = snprintf(buf, len, "%.3s %.3s%3d %.2d:%.2d:%.2d %d\n",
                     tp->tm_wday < 0 || tp->tm_wday >= 7 ? "???" : days[tp->tm_wday],
                     tp->tm_mon < 0 || tp->tm_mon >= 12 ? "???" : months[tp->tm_mon],
                     tp->tm_mday, tp->tm_hour, tp->tm_min, tp->tm_sec, 1900 + tp->tm_year);
    if (n < 0)
        return NULL;
    if ((size_t)n >= len) {
        errno = EOVERFLOW;
        return NULL;
    }
    return buf;
}

MMPI_EXPORT char *asctime(const struct tm *tp)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real_asctime()(tp);
    return format_asctime(tp, st->asctime_buf, sizeof(st->asctime_buf));
}

MMPI_EXPORT char *ctime(const time_t *t)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real_ctime()(t);
    return asctime(localtime(t)); /* as glibc: both static results are overwritten */
}

/* Runs lookup (a getpw*_r / getgr*_r call) with the rank's buffer, grown while too small.
 * Returns what the non-reentrant call returns: the result, or NULL with errno set on error. */
#define LOOKUP(st, buf, len, call, result)                                                 \
    do {                                                                                    \
        for (;;) {                                                                          \
            if (!(st)->buf) {                                                               \
                (st)->len = (st)->len ? (st)->len * 2 : 1024;                               \
                (st)->buf = malloc((st)->len);                                              \
                if (!(st)->buf) {                                                           \
                    (st)->len = 0;                                                          \
                    errno = ENOMEM;                                                         \
                    return NULL;                                                            \
                }                                                                           \
            }                                                                               \
            int rc_ = (call);                                                               \
            if (rc_ == ERANGE && (st)->len < (1u << 24)) {                                  \
                free((st)->buf);                                                            \
                (st)->buf = NULL;                                                           \
                continue;                                                                   \
            }                                                                               \
            if (rc_ != 0)                                                                   \
                errno = rc_;                                                                \
            return rc_ == 0 ? (result) : NULL;                                              \
        }                                                                                   \
    } while (0)

MMPI_EXPORT struct passwd *getpwnam(const char *name)
{
    struct mmpi_libc *st = mmpi_libc_self();
    struct passwd *res = NULL;
    if (!st)
        return real_getpwnam()(name);
    LOOKUP(st, pw_buf, pw_len, getpwnam_r(name, &st->pw, st->pw_buf, st->pw_len, &res), res);
}

MMPI_EXPORT struct passwd *getpwuid(uid_t uid)
{
    struct mmpi_libc *st = mmpi_libc_self();
    struct passwd *res = NULL;
    if (!st)
        return real_getpwuid()(uid);
    LOOKUP(st, pw_buf, pw_len, getpwuid_r(uid, &st->pw, st->pw_buf, st->pw_len, &res), res);
}

MMPI_EXPORT struct group *getgrnam(const char *name)
{
    struct mmpi_libc *st = mmpi_libc_self();
    struct group *res = NULL;
    if (!st)
        return real_getgrnam()(name);
    LOOKUP(st, gr_buf, gr_len, getgrnam_r(name, &st->gr, st->gr_buf, st->gr_len, &res), res);
}

MMPI_EXPORT struct group *getgrgid(gid_t gid)
{
    struct mmpi_libc *st = mmpi_libc_self();
    struct group *res = NULL;
    if (!st)
        return real_getgrgid()(gid);
    LOOKUP(st, gr_buf, gr_len, getgrgid_r(gid, &st->gr, st->gr_buf, st->gr_len, &res), res);
}
