/*
 * test_getopt.c: the reentrant getopt (util/getopt.c) against glibc's own getopt, getopt_long,
 * getopt_long_only and __posix_getopt, on a table of command lines: every step's return value,
 * optind, optopt, optarg (which argument and where in it), *longind and flag variable, the
 * final order of argv, and every byte written to stderr must be the same.
 */
#include <dlfcn.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/getopt.h"

enum mode { GETOPT, LONG, LONG_ONLY, POSIX };

struct step { int ret, optind, optopt, arg_index, arg_offset, longind, flag; };
struct outcome { struct step steps[64]; int nsteps; int order[32]; char err[2048]; };

static int flag_var;
static const struct option longs[] = {
    {"verbose", no_argument, &flag_var, 7},
    {"verify", no_argument, NULL, 'V'},
    {"count", required_argument, NULL, 'c'},
    {"color", optional_argument, NULL, 'C'},
    {"colour", optional_argument, NULL, 'C'},  /* same as color: not ambiguous */
    {"name", required_argument, NULL, 'n'},
    {"nap", no_argument, NULL, 'p'},
    {"a", no_argument, NULL, 'A'},
    {NULL, 0, NULL, 0},
};

struct tcase { enum mode mode; const char *optstring; int opterr; int posixly; const char *args[16]; };

static const struct tcase cases[] = {
    {GETOPT, "ab:c::", 1, 0, {"p", "-a", "-b", "x", "-cy", "-c", "z", NULL}},
    {GETOPT, "ab:c::", 1, 0, {"p", "one", "-a", "two", "-bx", "three", "-ab", "arg", NULL}},
    {GETOPT, "ab:", 1, 0, {"p", "-a", "--", "-b", "x", NULL}},
    {GETOPT, "ab:", 1, 0, {"p", "x", "-", "-a", "--", "-b", NULL}},
    {GETOPT, "ab:", 1, 0, {"p", "-b", NULL}},
    {GETOPT, ":ab:", 1, 0, {"p", "-b", NULL}},
    {GETOPT, "ab:", 1, 0, {"p", "-q", "-a", "-:", "-;", NULL}},
    {GETOPT, "ab:", 0, 0, {"p", "-q", "-a", "-b", NULL}},
    {GETOPT, ":ab", 1, 0, {"p", "-aqb", NULL}},
    {GETOPT, "+ab", 1, 0, {"p", "-a", "x", "-b", NULL}},
    {GETOPT, "-ab", 1, 0, {"p", "-a", "x", "-b", "y", NULL}},
    {GETOPT, "ab", 1, 1, {"p", "-a", "x", "-b", NULL}},
    {POSIX, "ab", 1, 0, {"p", "-a", "x", "-b", NULL}},
    {GETOPT, "abc:", 1, 0, {"p", "a1", "a2", "-a", "a3", "-b", "-c", "v", "a4", "a5", NULL}},
    {GETOPT, "W;a", 1, 0, {"p", "-W", "foo", "-a", NULL}},
    {LONG, "W;a", 1, 0, {"p", "-W", "verbose", "-Wcount=3", "-W", "col", "-a", NULL}},
    {LONG, "W;a", 1, 0, {"p", "-a", "-W", NULL}},
    {LONG, "ab:", 1, 0, {"p", "--verbose", "--count", "5", "--count=6", "--color", "--color=red",
                         NULL}},
    {LONG, "ab:", 1, 0, {"p", "--verb", "--veri", "--col", "--co", "--n", "--na", NULL}},
    {LONG, "ab:", 1, 0, {"p", "--ve", "x", NULL}},
    {LONG, "ab:", 0, 0, {"p", "--ve", "--bogus", "--nap=1", "--count", NULL}},
    {LONG, ":ab:", 1, 0, {"p", "--count", NULL}},
    {LONG, "ab:", 1, 0, {"p", "--bogus=3", "--nap=1", "--verbose=2", "--", "--count", NULL}},
    {LONG, "ab:", 1, 0, {"p", "x", "--verbose", "y", "-a", "--name", "n", "z", NULL}},
    {LONG, "ab:", 1, 0, {"p", "--a", "--", NULL}},
    {LONG, "ab:", 1, 0, {"p", "-ab", "--verbose", "-b", NULL}},
    {LONG_ONLY, "ab:", 1, 0, {"p", "-verbose", "-a", "-b", "x", "-count", "3", "-co", NULL}},
    {LONG_ONLY, "ab:n", 1, 0, {"p", "-n", "-na", "-nap", "-q", "-bz", "-ax", NULL}},
    {LONG_ONLY, "ab:", 1, 0, {"p", "-c", "-ve", "-zz", "--zz", NULL}},
    {LONG_ONLY, "ab:", 0, 0, {"p", "-c", "-ve", "-zz", NULL}},
    {LONG, "-ab", 1, 0, {"p", "x", "--verbose", "y", "-a", NULL}},
    {LONG, "+ab", 1, 0, {"p", "--verbose", "y", "-a", NULL}},
    {LONG, "ab", 1, 0, {"p", NULL}},
    {GETOPT, "a", 1, 0, {"p", "-", "--", NULL}},
};

typedef int (*getopt_fn)(int, char *const *, const char *);
typedef int (*getopt_long_fn)(int, char *const *, const char *, const struct option *, int *);

/* Runs a parse to its end (or 60 steps) and records everything observable. */
static void run(const struct tcase *tc, bool reference, struct outcome *out)
{
    char *strs[16], *argv[17];
    int argc = 0;
    struct mmpi_getopt_state st;
    memset(out, 0, sizeof(*out));
    memset(&st, 0, sizeof(st));
    for (; tc->args[argc]; argc++)
        argv[argc] = strs[argc] = strdup(tc->args[argc]);
    argv[argc] = NULL;
    flag_var = 0;
    if (tc->posixly)
        setenv("POSIXLY_CORRECT", "1", 1);

    FILE *tmp = tmpfile();
    int saved = dup(2);
    fflush(stderr);
    dup2(fileno(tmp), 2);

    optind = 0; /* glibc starts afresh */
    opterr = tc->opterr;
    st.optind = 0;
    st.opterr = tc->opterr;
    st.optopt = optopt; /* glibc keeps optopt from the previous parse: start equal */
    for (int i = 0; i < 60; i++) {
        int longind = -2, ret;
        const char *arg;
        struct step *s = &out->steps[out->nsteps++];
        if (reference) {
            switch (tc->mode) {
            case GETOPT:
                ret = ((getopt_fn)dlsym(RTLD_NEXT, "getopt"))(argc, argv, tc->optstring);
                break;
            case POSIX:
                ret = ((getopt_fn)dlsym(RTLD_NEXT, "__posix_getopt"))(argc, argv,
                                                                      tc->optstring);
                break;
            default:
                ret = ((getopt_long_fn)dlsym(RTLD_NEXT, tc->mode == LONG ? "getopt_long"
                                                                          : "getopt_long_only"))(
                    argc, argv, tc->optstring, longs, &longind);
                break;
            }
            s->optind = optind;
            s->optopt = optopt;
            arg = optarg;
        } else {
            ret = mmpi_getopt_r(&st, argc, argv, tc->optstring,
                                tc->mode == LONG || tc->mode == LONG_ONLY ? longs : NULL,
                                &longind, tc->mode == LONG_ONLY, tc->mode == POSIX);
            s->optind = st.optind;
            s->optopt = st.optopt;
            arg = st.optarg;
        }
        s->ret = ret;
        s->longind = longind;
        s->flag = flag_var;
        s->arg_index = -1;
        for (int k = 0; arg && k < argc; k++)
            if (arg >= strs[k] && arg <= strs[k] + strlen(strs[k])) {
                s->arg_index = k;
                s->arg_offset = (int)(arg - strs[k]);
            }
        if (ret == -1)
            break;
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(out->err, 1, sizeof(out->err) - 1, tmp);
    out->err[n] = '\0';
    fclose(tmp);
    for (int k = 0; k < argc; k++)
        for (int j = 0; j < argc; j++)
            if (argv[k] == strs[j])
                out->order[k] = j;
    for (int k = 0; k < argc; k++)
        free(strs[k]);
    if (tc->posixly)
        unsetenv("POSIXLY_CORRECT");
}

static void matches_glibc(void **state)
{
    (void)state;
    /* glibc's optopt is its internal one once a parse ran: run one, so that "leftover" below
     * is what glibc's next parse starts from. */
    char *none[] = {"p", NULL};
    optind = 0;
    ((getopt_fn)dlsym(RTLD_NEXT, "getopt"))(1, none, "a");
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct outcome ref, ours;
        int leftover = optopt;
        run(&cases[c], true, &ref);
        int after = optopt;
        optopt = leftover;
        run(&cases[c], false, &ours);
        optopt = after;
        if (ref.nsteps != ours.nsteps || memcmp(ref.steps, ours.steps, sizeof(ref.steps)) ||
            memcmp(ref.order, ours.order, sizeof(ref.order)) || strcmp(ref.err, ours.err)) {
            print_error("case %zu differs (steps %d vs %d; stderr \"%s\" vs \"%s\")\n", c,
                        ref.nsteps, ours.nsteps, ref.err, ours.err);
            for (int i = 0; i < ref.nsteps || i < ours.nsteps; i++)
                print_error("  step %d: ret %d/%d optind %d/%d optopt %d/%d arg %d+%d/%d+%d "
                            "longind %d/%d flag %d/%d\n", i, ref.steps[i].ret, ours.steps[i].ret,
                            ref.steps[i].optind, ours.steps[i].optind, ref.steps[i].optopt,
                            ours.steps[i].optopt, ref.steps[i].arg_index,
                            ref.steps[i].arg_offset, ours.steps[i].arg_index,
                            ours.steps[i].arg_offset, ref.steps[i].longind,
                            ours.steps[i].longind, ref.steps[i].flag, ours.steps[i].flag);
            fail();
        }
    }
}

/* Sanity of the comparison itself: the outcomes are not trivially equal. */
static void outcomes_differ_between_cases(void **state)
{
    (void)state;
    struct outcome a, b;
    run(&cases[0], false, &a);
    run(&cases[1], false, &b);
    assert_true(memcmp(a.steps, b.steps, sizeof(a.steps)) != 0);
    run(&cases[6], true, &a);
    assert_non_null(strstr(a.err, "invalid option -- 'q'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matches_glibc),
        cmocka_unit_test(outcomes_differ_between_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
