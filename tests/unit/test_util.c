/*
 * test_util.c: unit tests of the MPI-agnostic helpers: the handle slot table (util/slots.c)
 * and strict number parsing (util/parse.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit_world.h"
#include "util/parse.h"
#include "util/slots.h"

static void slots_insert_get_remove(void **state)
{
    struct mmpi_slots s;
    int objs[300];
    mmpi_slots_init(&s);
    for (int i = 0; i < 300; i++)
        assert_int_equal(mmpi_slots_insert(&s, &objs[i]), i);
    for (int i = 0; i < 300; i++)
        assert_ptr_equal(mmpi_slots_get(&s, (uint32_t)i), &objs[i]);
    assert_null(mmpi_slots_get(&s, 300));
    assert_null(mmpi_slots_get(&s, 1u << 22)); /* never allocated chunk */
    assert_ptr_equal(mmpi_slots_remove(&s, 7), &objs[7]);
    assert_null(mmpi_slots_get(&s, 7));
    assert_null(mmpi_slots_remove(&s, 7)); /* double remove */
    assert_int_equal(mmpi_slots_insert(&s, &objs[7]), 7); /* freed index reused */
    mmpi_slots_destroy(&s);
}

static void slots_chunk_boundaries(void **state)
{
    struct mmpi_slots s;
    static char dummy;
    mmpi_slots_init(&s);
    /* 64 + 128 + 256 entries: crosses two chunk boundaries. */
    for (int i = 0; i < 64 + 128 + 256 + 1; i++)
        assert_int_equal(mmpi_slots_insert(&s, &dummy), i);
    for (uint32_t i = 62; i < 66; i++)
        assert_ptr_equal(mmpi_slots_get(&s, i), &dummy);
    for (uint32_t i = 190; i < 194; i++)
        assert_ptr_equal(mmpi_slots_get(&s, i), &dummy);
    mmpi_slots_destroy(&s);
}

static void parse_long_strict(void **state)
{
    long v;
    assert_true(mmpi_parse_long("42", 1, 100, &v));
    assert_int_equal(v, 42);
    assert_false(mmpi_parse_long("0", 1, 100, &v));
    assert_false(mmpi_parse_long("101", 1, 100, &v));
    assert_false(mmpi_parse_long("", 1, 100, &v));
    assert_false(mmpi_parse_long(" 8", 1, 100, &v));
    assert_false(mmpi_parse_long("8x", 1, 100, &v));
    assert_false(mmpi_parse_long("abc", 1, 100, &v));
    assert_false(mmpi_parse_long("99999999999999999999999", 1, 100, &v));
    assert_false(mmpi_parse_long(NULL, 1, 100, &v));
}

static void parse_size_suffixes(void **state)
{
    size_t v;
    assert_true(mmpi_parse_size("64k", 1, SIZE_MAX, &v));
    assert_int_equal(v, 64 * 1024);
    assert_true(mmpi_parse_size("2m", 1, SIZE_MAX, &v));
    assert_int_equal(v, 2 * 1024 * 1024);
    assert_false(mmpi_parse_size("2M", 1, SIZE_MAX, &v)); /* suffixes are lower case */
    assert_true(mmpi_parse_size("1g", 1, SIZE_MAX, &v));
    assert_int_equal(v, 1024UL * 1024 * 1024);
    assert_true(mmpi_parse_size("4096", 1, SIZE_MAX, &v));
    assert_int_equal(v, 4096);
    assert_false(mmpi_parse_size("4q", 1, SIZE_MAX, &v));
    assert_false(mmpi_parse_size("k", 1, SIZE_MAX, &v));
    assert_false(mmpi_parse_size("1kk", 1, SIZE_MAX, &v));
    assert_false(mmpi_parse_size("+1k", 1, SIZE_MAX, &v));
    assert_false(mmpi_parse_size("01k", 1, SIZE_MAX, &v));
}

static void parse_strict_forms(void **state)
{
    long v;
    double d;
    const char *const words[] = {"ulfm", "no"};
    assert_false(mmpi_parse_long("+8", 0, 100, &v));
    assert_false(mmpi_parse_long("-0", 0, 100, &v));
    assert_false(mmpi_parse_long("010", 0, 100, &v));
    assert_false(mmpi_parse_long("0x1", 0, 100, &v));
    assert_true(mmpi_parse_long("0", 0, 100, &v));
    assert_true(mmpi_parse_seconds("0.5", 10, &d));
    assert_true(d == 0.5);
    assert_false(mmpi_parse_seconds("0x10", 100, &d));
    assert_false(mmpi_parse_seconds(".5", 100, &d));
    assert_false(mmpi_parse_seconds("5.", 100, &d));
    assert_false(mmpi_parse_seconds("1e3", 10000, &d));
    assert_false(mmpi_parse_seconds("0", 100, &d));
    assert_false(mmpi_parse_seconds("11", 10, &d));
    assert_int_equal(mmpi_parse_word("no", words, 2), 1);
    assert_int_equal(mmpi_parse_word("ULFM", words, 2), -1);
    char buf[16];
    assert_string_equal(mmpi_parse_escape("a\nb'\x01", buf, sizeof buf), "a\\nb\\'\\x01");
    assert_string_equal(mmpi_parse_escape("abcdefghijklmnopqrstuvwxyz", buf, sizeof buf),
                        "abcdefghijkl...");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slots_insert_get_remove),
        cmocka_unit_test(slots_chunk_boundaries),
        cmocka_unit_test(parse_long_strict),
        cmocka_unit_test(parse_size_suffixes),
        cmocka_unit_test(parse_strict_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
