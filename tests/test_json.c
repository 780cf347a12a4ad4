/* util/json.h: strings of any bytes become valid JSON (quotes, backslashes
 * and control bytes escaped by jansson, bytes that are not UTF-8 replaced by
 * U+FFFD), and numbers are written exactly.  Expected texts worked out by
 * hand from RFC 8259 and the UTF-8 rules (RFC 3629). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/json.h"

/* The one-line text of v (released). */
static char *text_of(json_t *v)
{
    ck_assert_ptr_nonnull(v);
    char *t = ujson_text(v);
    ck_assert_ptr_nonnull(t);
    json_decref(v);
    return t;
}

static void expect_str(const char *in, const char *want)
{
    char *t = text_of(ujson_str(in));
    ck_assert_msg(strcmp(t, want) == 0, "'%s' gave '%s', want '%s'", in, t, want);
    free(t);
}

#define FFFD "\xef\xbf\xbd"

START_TEST(strings_of_any_bytes)
{
    expect_str("plain", "\"plain\"");
    expect_str("a\"b\\c", "\"a\\\"b\\\\c\"");
    expect_str("tab\tnl\ncr\rbel\x07", "\"tab\\tnl\\ncr\\rbel\\u0007\"");
    expect_str("caf\xc3\xa9", "\"caf\xc3\xa9\"");                    /* valid UTF-8 kept */
    expect_str("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");           /* 4 bytes, U+1F600 */
    expect_str("x\xffy", "\"x" FFFD "y\"");                           /* not UTF-8 at all */
    expect_str("\xc0\xaf", "\"" FFFD FFFD "\"");                      /* overlong '/' */
    expect_str("\xed\xa0\x80", "\"" FFFD FFFD FFFD "\"");             /* a surrogate */
    expect_str("\xe2\x82", "\"" FFFD FFFD "\"");                      /* cut short */
    expect_str("\xf4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"");    /* above U+10FFFF */
    expect_str("", "\"\"");
}
END_TEST

START_TEST(numbers_exact)
{
    char *t = text_of(json_pack("[I, I, f, f, f]", (json_int_t)9007199254740993LL, (json_int_t)INT64_MIN, 0.1, 1.0, 1e300));
    /* 2^53 + 1 stays an integer; 0.1 with 17 digits reads back as the same double. */
    ck_assert_str_eq(t, "[9007199254740993, -9223372036854775808, 0.10000000000000001, 1.0, 1.0000000000000001e300]");
    json_t *back = json_loads(t, 0, NULL);
    ck_assert(json_real_value(json_array_get(back, 2)) == 0.1);
    ck_assert(json_real_value(json_array_get(back, 4)) == 1e300);
    json_decref(back);
    free(t);
}
END_TEST

START_TEST(dump_to_a_stream)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    json_t *v = json_pack("{s:i, s:[s, n]}", "a", 1, "b", "x", NULL);
    ck_assert_int_eq(ujson_dump(f, v), 0);
    ck_assert_int_eq(ujson_dump(f, NULL), -1);   /* a builder that failed */
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_str_eq(buf, "{\"a\": 1, \"b\": [\"x\", null]}\n");
    json_decref(v);
    free(buf);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("json");
    tcase_add_test(tc, strings_of_any_bytes);
    tcase_add_test(tc, numbers_exact);
    tcase_add_test(tc, dump_to_a_stream);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
