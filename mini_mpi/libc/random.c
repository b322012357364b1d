/*
 * random.c: the pseudo-random generators of the C library, one per rank, as one per process in
 * a real job: rand/srand and random/srandom/initstate/setstate (one generator, as in glibc,
 * where rand() is random()), and the drand48 family (one 48-bit state and its parameters).
 * Each call is glibc's reentrant twin (random_r, drand48_r, ...) on the rank's state, so a
 * rank's sequence after srand(s) is exactly a process's. The rank's threads share its
 * generator, serialized by a lock, as a process's threads share glibc's.
 */
#include <stdint.h>

#include "libc/libc.h"

typedef int (*rand_fn)(void);
typedef void (*srand_fn)(unsigned);
typedef long (*random_fn)(void);
typedef char *(*initstate_fn)(unsigned, char *, size_t);
typedef char *(*setstate_fn)(char *);
typedef double (*drand48_fn)(void);
typedef double (*erand48_fn)(unsigned short[3]);
typedef long (*lrand48_fn)(void);
typedef long (*nrand48_fn)(unsigned short[3]);
typedef void (*srand48_fn)(long);
typedef unsigned short *(*seed48_fn)(unsigned short[3]);
typedef void (*lcong48_fn)(unsigned short[7]);
MMPI_REAL(rand_fn, rand)
MMPI_REAL(srand_fn, srand)
MMPI_REAL(random_fn, random)
MMPI_REAL(srand_fn, srandom)
MMPI_REAL(initstate_fn, initstate)
MMPI_REAL(setstate_fn, setstate)
MMPI_REAL(drand48_fn, drand48)
MMPI_REAL(erand48_fn, erand48)
MMPI_REAL(lrand48_fn, lrand48)
MMPI_REAL(nrand48_fn, nrand48)
MMPI_REAL(lrand48_fn, mrand48)
MMPI_REAL(nrand48_fn, jrand48)
MMPI_REAL(srand48_fn, srand48)
MMPI_REAL(seed48_fn, seed48)
MMPI_REAL(lcong48_fn, lcong48)

static int32_t next_random(struct mmpi_libc *st)
{
    int32_t r;
    pthread_mutex_lock(&st->random_lock);
    random_r(&st->random, &r);
    pthread_mutex_unlock(&st->random_lock);
    return r;
}

MMPI_EXPORT int rand(void)
{
    struct mmpi_libc *st = mmpi_libc_self();
    return st ? (int)next_random(st) : real_rand()();
}

MMPI_EXPORT long random(void)
{
    struct mmpi_libc *st = mmpi_libc_self();
    return st ? (long)next_random(st) : real_random()();
}

static void seed_random(struct mmpi_libc *st, unsigned seed)
{
    pthread_mutex_lock(&st->random_lock);
    srandom_r(seed, &st->random);
    pthread_mutex_unlock(&st->random_lock);
}

MMPI_EXPORT void srand(unsigned seed)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (st)
        seed_random(st, seed);
    else
        real_srand()(seed);
}

MMPI_EXPORT void srandom(unsigned seed)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (st)
        seed_random(st, seed);
    else
        real_srandom()(seed);
}

/* Both return the previous state buffer as glibc does: the word before the state array,
 * where the generator's type and position are saved. */
MMPI_EXPORT char *initstate(unsigned seed, char *state, size_t n)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real_initstate()(seed, state, n);
    pthread_mutex_lock(&st->random_lock);
    char *old = (char *)&st->random.state[-1];
    int rc = initstate_r(seed, state, n, &st->random);
    pthread_mutex_unlock(&st->random_lock);
    return rc < 0 ? NULL : old;
}

MMPI_EXPORT char *setstate(char *state)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real_setstate()(state);
    pthread_mutex_lock(&st->random_lock);
    char *old = (char *)&st->random.state[-1];
    int rc = setstate_r(state, &st->random);
    pthread_mutex_unlock(&st->random_lock);
    return rc < 0 ? NULL : old;
}

/* The drand48 family. erand48/nrand48/jrand48 take their state from the caller but use the
 * generator's parameters, which lcong48 may have changed: the rank's, here. */
MMPI_EXPORT double drand48(void)
{
    struct mmpi_libc *st = mmpi_libc_self();
    double r;
    if (!st)
        return real_drand48()();
    drand48_r(&st->drand48, &r);
    return r;
}

MMPI_EXPORT double erand48(unsigned short xsubi[3])
{
    struct mmpi_libc *st = mmpi_libc_self();
    double r;
    if (!st)
        return real_erand48()(xsubi);
    erand48_r(xsubi, &st->drand48, &r);
    return r;
}

MMPI_EXPORT long lrand48(void)
{
    struct mmpi_libc *st = mmpi_libc_self();
    long r;
    if (!st)
        return real_lrand48()();
    lrand48_r(&st->drand48, &r);
    return r;
}

MMPI_EXPORT long nrand48(unsigned short xsubi[3])
{
    struct mmpi_libc *st = mmpi_libc_self();
    long r;
    if (!st)
        return real_nrand48()(xsubi);
    nrand48_r(xsubi, &st->drand48, &r);
    return r;
}

MMPI_EXPORT long mrand48(void)
{
    struct mmpi_libc *st = mmpi_libc_self();
    long r;
    if (!st)
        return real_mrand48()();
    mrand48_r(&st->drand48, &r);
    return r;
}

MMPI_EXPORT long jrand48(unsigned short xsubi[3])
{
    struct mmpi_libc *st = mmpi_libc_self();
    long r;
    if (!st)
        return real_jrand48()(xsubi);
    jrand48_r(xsubi, &st->drand48, &r);
    return r;
}

MMPI_EXPORT void srand48(long seed)
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        real_srand48()(seed);
    else
        srand48_r(seed, &st->drand48);
}

/* Returns the previous seed, kept in the rank's generator (glibc: in its one generator). */
MMPI_EXPORT unsigned short *seed48(unsigned short seed16v[3])
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        return real_seed48()(seed16v);
    seed48_r(seed16v, &st->drand48);
    return st->drand48.__old_x;
}

MMPI_EXPORT void lcong48(unsigned short param[7])
{
    struct mmpi_libc *st = mmpi_libc_self();
    if (!st)
        real_lcong48()(param);
    else
        lcong48_r(param, &st->drand48);
}
