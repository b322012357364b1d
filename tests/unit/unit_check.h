/*
 * unit_check.h: checks for unit-test bodies that run in rank threads (unit_world.h), where
 * cmocka's assertions must not run: CHECK, CHECK_EQ and OK record a failure with its line, and
 * run(body), called by the test thread, runs body in a world of one rank, prints what failed
 * and fails the test if anything did. Include after <cmocka.h> and unit_world.h.
 */
#ifndef UNIT_CHECK_H
#define UNIT_CHECK_H

#include <stdio.h>

#define MAXFAIL 32
static char failures[MAXFAIL][320];
static int nfail;

static void record(int line, const char *what, long long a, long long b)
{
    int i = __atomic_fetch_add(&nfail, 1, __ATOMIC_RELAXED);
    if (i < MAXFAIL)
        snprintf(failures[i], sizeof(failures[i]), "line %d: %.200s (%lld vs %lld)", line, what,
                 a, b);
}

#define CHECK(cond)                        \
    do {                                   \
        if (!(cond))                       \
            record(__LINE__, #cond, 0, 0); \
    } while (0)
#define CHECK_EQ(x, y)                                      \
    do {                                                    \
        long long x_ = (long long)(x), y_ = (long long)(y); \
        if (x_ != y_)                                       \
            record(__LINE__, #x " == " #y, x_, y_);         \
    } while (0)
#define OK(call) CHECK_EQ((call), MPI_SUCCESS)

/* Runs body in a world of one rank and fails the test if any check failed. */
static void run(unit_rank_body *body)
{
    nfail = 0;
    assert_int_equal(unit_world_run(1, body, NULL), 0);
    for (int i = 0; i < nfail && i < MAXFAIL; i++)
        print_error("%s\n", failures[i]);
    assert_int_equal(nfail, 0);
}

#endif
