/* The one mapping from a failure's kind to the exit status (cli/status.c,
 * util/fault.h), at every kind, against the table of the contract written
 * here by hand: 2 for bad input only; 1 for the machine (memory, threads),
 * I/O, bugs, and a failure that forgot its kind (FAULT_NONE: never "bad
 * input").  The store's own codes go through the same mapping.  From
 * outside, tests/exit_codes.sh and tests/oom_exit.sh bring real faults of
 * each kind to it (the latter every allocation of a few commands). */
#include <check.h>

#include "cli/status.h"
#include "tests/testutil.h"

START_TEST(every_kind)
{
    static const struct { fault_kind kind; int status; } want[] = {
        { FAULT_NONE, 1 }, { FAULT_INPUT, 2 }, { FAULT_RESOURCE, 1 }, { FAULT_IO, 1 }, { FAULT_INTERNAL, 1 },
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        ck_assert_msg(cli_fault_status(want[k].kind) == want[k].status, "kind %d: status %d, want %d",
                      (int)want[k].kind, cli_fault_status(want[k].kind), want[k].status);
    ck_assert_int_eq(EXIT_USAGE, 2);
    ck_assert_int_eq(EXIT_FAIL, 1);
}
END_TEST

/* A failure's int result, as the library returns it, reaches the same
 * statuses: -FAULT_x, and a code outside the kinds is internal (1). */
START_TEST(results_of_failures)
{
    ck_assert_int_eq(cli_fault_status(fault_of(-FAULT_INPUT)), 2);
    ck_assert_int_eq(cli_fault_status(fault_of(-FAULT_RESOURCE)), 1);
    ck_assert_int_eq(cli_fault_status(fault_of(-1 - (int)FAULT_INTERNAL)), 1);
    ck_assert_int_eq(cli_fault_status(fault_of(fault_rc(FAULT_NONE))), 1);
}
END_TEST

START_TEST(store_faults)
{
    ck_assert_int_eq(cli_store_status(STORE_FAULT_INPUT), 2);
    ck_assert_int_eq(cli_store_status(STORE_FAULT_DAMAGED), 1);
    ck_assert_int_eq(cli_store_status(STORE_FAULT_IO), 1);
    ck_assert_int_eq(cli_store_status(STORE_FAULT_NONE), 1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("status");
    TCase *tc = tcase_create("mapping");
    tcase_add_test(tc, every_kind);
    tcase_add_test(tc, results_of_failures);
    tcase_add_test(tc, store_faults);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return testutil_run(suite()); }
