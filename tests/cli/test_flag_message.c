/* cli/opt_group.c's opt_flag_message: a library message names a field
 * (util/options.h), the front end names its flag.  Each case's expected
 * text is written by hand from the rows' fields (sim/ol_options.c,
 * ga/ga_options.c): the leading field, a field after a joining word, and
 * what must stay as it is (a word that is no field, a field inside quotes
 * or not at a field's place, a message of no field). */
#include <check.h>
#include <string.h>

#include "cli/opt_group.h"
#include "ga/ga_options.h"
#include "sim/ol_options.h"
#include "tests/testutil.h"

static const char *flagged(const char *msg)
{
    static char buf[512];
    const opt_row *const tables[] = { ol_net_options, ol_measure_options, ga_search_options };
    return opt_flag_message(tables, 3, msg, buf, sizeof buf);
}

START_TEST(leading_field)
{
    /* net.scheme's last part: the flag is --arb (issue 36: not --scheme) */
    ck_assert_str_eq(flagged("scheme 12: allowed C00..C09"), "--arb 12: allowed C00..C09");
    ck_assert_str_eq(flagged("vc_rule any: only on a mesh"), "--vc-rule any: only on a mesh");
    ck_assert_str_eq(flagged("size 7x8: a torus needs even sides"), "--size 7x8: a torus needs even sides");
    ck_assert_str_eq(flagged("router_delay 9: allowed [0, 8]"), "--router-delay 9: allowed [0, 8]");
    ck_assert_str_eq(flagged("report_nodes: per-flow counts"), "--throughput: per-flow counts");
    ck_assert_str_eq(flagged("max_genes 0: must be in [1, 64]"), "--max-genes 0: must be in [1, 64]");
}
END_TEST

START_TEST(joined_fields)
{
    ck_assert_str_eq(flagged("watchdog and lifetime exclude each other"), "--watchdog and --lifetime exclude each other");
    ck_assert_str_eq(flagged("children 2 and perturb 1 exclude each other (set children 1 or perturb 0)"),
                     "--children 2 and --perturb 1 exclude each other (set --children 1 or --perturb 0)");
    ck_assert_str_eq(flagged("vc_rule any: or under routing dor2"), "--vc-rule any: or under --routing dor2");
}
END_TEST

START_TEST(left_alone)
{
    /* no field; a field not at a field's place; one inside quotes; a prefix of a field */
    ck_assert_str_eq(flagged("out of memory"), "out of memory");
    ck_assert_str_eq(flagged("ci 2: allowed [0, 1] (0: a fixed window)"), "--ci 2: allowed [0, 1] (0: a fixed window)");
    ck_assert_str_eq(flagged("'vcs' and 'pop' are names"), "'vcs' and 'pop' are names");
    ck_assert_str_eq(flagged("vc 3: unknown"), "vc 3: unknown");
    ck_assert_str_eq(flagged(""), "");
}
END_TEST

START_TEST(cut_to_the_buffer)
{
    char small[8];
    const opt_row *const tables[] = { ol_net_options };
    ck_assert_str_eq(opt_flag_message(tables, 1, "scheme 12: allowed C00..C09", small, sizeof small), "--arb 1");
    ck_assert_str_eq(opt_flag_message(tables, 1, "abcdefghijkl", small, sizeof small), "abcdefg");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("flag_message");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, leading_field);
    tcase_add_test(tc, joined_fields);
    tcase_add_test(tc, left_alone);
    tcase_add_test(tc, cut_to_the_buffer);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return testutil_run(suite()); }
