/*
 * test_env.c: one environment (libc/env.h) against glibc's own: the same sequence of setenv,
 * unsetenv, putenv and clearenv calls applied to a mmpi_env and to the process's environ must
 * leave the same entries in the same order, with the same return values and errno, and getenv
 * must agree after every step. Also: the copy made at init owns its strings, the "env" lines
 * of a spawn are added, a vector the program stores in *home is the environment (and setenv
 * copies it), and a string getenv returned stays valid after the vector grows.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libc/env.h"

extern char **environ;

enum op { SET, SET_KEEP, UNSET, PUT, CLEAR };
struct step { enum op op; const char *name, *value; };

static const struct step steps[] = {
    {SET, "A", "1"},        {SET, "B", "2"},     {SET, "A", "3"},      {SET_KEEP, "A", "4"},
    {SET_KEEP, "C", "5"},   {PUT, "D=6", NULL},  {PUT, "A=7", NULL},   {UNSET, "B", NULL},
    {UNSET, "missing", NULL}, {PUT, "C", NULL},  {SET, "", "x"},       {SET, "E=F", "x"},
    {UNSET, "", NULL},      {UNSET, "E=F", NULL}, {SET, "E", ""},      {CLEAR, NULL, NULL},
    {SET, "F", "8"},        {PUT, "G=9", NULL},  {SET, "F", "10"},     {UNSET, "F", NULL},
};
static const char *const probes[] = {"A", "B", "C", "D", "E", "F", "G", "missing", ""};

static int apply_glibc(const struct step *s)
{
    switch (s->op) {
    case SET: return setenv(s->name, s->value, 1);
    case SET_KEEP: return setenv(s->name, s->value, 0);
    case UNSET: return unsetenv(s->name);
    case PUT: return putenv((char *)s->name);
    default: return clearenv();
    }
}

static int apply_ours(struct mmpi_env *e, const struct step *s)
{
    switch (s->op) {
    case SET: return mmpi_env_set(e, s->name, s->value, 1);
    case SET_KEEP: return mmpi_env_set(e, s->name, s->value, 0);
    case UNSET: return mmpi_env_unset(e, s->name);
    case PUT: return mmpi_env_put(e, (char *)s->name);
    default: return mmpi_env_clear(e);
    }
}

static void same_entries(char **ours, char **theirs)
{
    size_t i = 0;
    for (; ours && ours[i] && theirs && theirs[i]; i++)
        assert_string_equal(ours[i], theirs[i]);
    assert_true((!ours || !ours[i]) && (!theirs || !theirs[i]));
}

static void matches_glibc(void **state)
{
    (void)state;
    char **home = NULL;
    struct mmpi_env e;
    clearenv();
    setenv("START", "s", 1);
    setenv("PATH", "/bin", 1);
    mmpi_env_init(&e, &home, environ, NULL);
    same_entries(home, environ);
    for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
        errno = 0;
        int theirs = apply_glibc(&steps[k]), their_errno = errno;
        errno = 0;
        int ours = apply_ours(&e, &steps[k]);
        assert_int_equal(ours, theirs);
        if (theirs)
            assert_int_equal(errno, their_errno);
        same_entries(home, environ);
        for (size_t p = 0; p < sizeof(probes) / sizeof(probes[0]); p++) {
            const char *a = mmpi_env_get(&e, probes[p]), *b = getenv(probes[p]);
            assert_true((a == NULL) == (b == NULL));
            if (a)
                assert_string_equal(a, b);
        }
    }
    mmpi_env_free(&e);
}

static void owns_copies_and_adds_lines(void **state)
{
    (void)state;
    char a[] = "X=1", b[] = "Y=2", *from[] = {a, b, NULL};
    char **home = NULL;
    struct mmpi_env e;
    mmpi_env_init(&e, &home, from, "Z=3\nnoequals\nX=one=1\n=bad\n");
    assert_ptr_not_equal(home[1], b);
    a[2] = '9'; /* the launch copy is not the rank's */
    assert_string_equal(mmpi_env_get(&e, "X"), "one=1");
    assert_string_equal(mmpi_env_get(&e, "Y"), "2");
    assert_string_equal(mmpi_env_get(&e, "Z"), "3");
    assert_null(mmpi_env_get(&e, "noequals"));
    char *y = mmpi_env_get(&e, "Y");
    for (int i = 0; i < 100; i++) { /* the vector grows; y stays valid */
        char name[16];
        snprintf(name, sizeof(name), "V%d", i);
        assert_int_equal(mmpi_env_set(&e, name, name, 1), 0);
    }
    assert_ptr_equal(mmpi_env_get(&e, "Y"), y);
    assert_string_equal(mmpi_env_get(&e, "V99"), "V99");
    mmpi_env_free(&e);
}

static void program_vector_is_the_environment(void **state)
{
    (void)state;
    char **home = NULL;
    struct mmpi_env e;
    mmpi_env_init(&e, &home, NULL, NULL);
    assert_non_null(home);
    assert_null(home[0]);
    char entry[] = "MINE=yes", *mine[] = {entry, NULL};
    home = mine;
    assert_string_equal(mmpi_env_get(&e, "MINE"), "yes");
    assert_int_equal(mmpi_env_set(&e, "MORE", "1", 1), 0);
    assert_ptr_not_equal(home, mine);
    assert_null(mine[1]);
    assert_string_equal(mmpi_env_get(&e, "MINE"), "yes");
    assert_string_equal(mmpi_env_get(&e, "MORE"), "1");
    home = mine;
    assert_int_equal(mmpi_env_unset(&e, "MINE"), 0); /* in place, as glibc does */
    assert_null(mine[0]);
    mmpi_env_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matches_glibc),
        cmocka_unit_test(owns_copies_and_adds_lines),
        cmocka_unit_test(program_vector_is_the_environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
