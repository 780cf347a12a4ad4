/* Tests of util/outfile: the one rule for output paths, the output-is-an-input
 * check (links, spellings, SQLite companions) and temporary-then-rename
 * writing.  Each case is worked out from the file system state it builds. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "util/outfile.h"

static char dir[] = "/tmp/test_outfile.XXXXXX";
static char path[64][4200];
static int npath;

/* name inside the test's folder; each call its own buffer (reset per test). */
static const char *in(const char *name)
{
    ck_assert_int_lt(npath, 64);
    snprintf(path[npath], sizeof path[npath], "%s/%s", dir, name);
    return path[npath++];
}

static void touch(const char *name, const char *text)
{
    FILE *f = fopen(in(name), "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static char *slurp(const char *name)
{
    static char buf[256];
    FILE *f = fopen(in(name), "r");
    if (!f) return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

START_TEST(bad_paths_refused)
{
    char err[512];
    touch("file", "x");
    ck_assert_int_eq(mkdir(in("sub"), 0755), 0);
    const char *badp[] = { "", in("sub"), in("sub/"), in("new/"), in("nodir/x"), in("file/x") };
    for (size_t k = 0; k < sizeof badp / sizeof badp[0]; k++) {
        err[0] = '\0';
        ck_assert_msg(outfile_check(badp[k], err, sizeof err) == OUTFILE_BADINPUT, "%s accepted", badp[k]);
        ck_assert_msg(err[0] && !strchr(err, '\n'), "%s: message '%s'", badp[k], err);
    }
    ck_assert_int_eq(outfile_check(in("new.out"), err, sizeof err), OUTFILE_OK);
    ck_assert_int_eq(outfile_check(in("file"), err, sizeof err), OUTFILE_OK);
    ck_assert_int_eq(outfile_check(in("sub/new.out"), err, sizeof err), OUTFILE_OK);
}
END_TEST

START_TEST(input_through_links_and_companions)
{
    touch("a.db", "database");
    touch("b.db", "other");
    ck_assert_int_eq(symlink("a.db", in("sym.db")), 0);
    ck_assert_int_eq(link(in("a.db"), in("hard.db")), 0);
    ck_assert_int_eq(mkdir(in("d"), 0755), 0);
    char a[4200];
    snprintf(a, sizeof a, "%s", in("a.db"));
    const char *same[] = { in("a.db"), in("sym.db"), in("hard.db"), in("d/../a.db"), in("a.db-wal"),
                           in("a.db-journal"), in("a.db-shm") };
    for (size_t k = 0; k < sizeof same / sizeof same[0]; k++)
        ck_assert_msg(outfile_is_input(same[k], a) == 1, "%s not seen as %s", same[k], a);
    /* The input named through the link is the same file too. */
    ck_assert_int_eq(outfile_is_input(in("a.db"), in("sym.db")), 1);
    const char *other[] = { in("b.db"), in("a.db2"), in("d/a.db"), in("a.db-walx"), "-" };
    for (size_t k = 0; k < sizeof other / sizeof other[0]; k++)
        ck_assert_msg(outfile_is_input(other[k], a) == 0, "%s taken for %s", other[k], a);
    ck_assert_int_eq(outfile_is_input(in("x"), NULL), 0);
    ck_assert_int_eq(outfile_is_input(in("a.db"), "-"), 0);
}
END_TEST

START_TEST(written_whole_or_not_at_all)
{
    char err[512];
    outfile o;
    touch("keep", "old");
    ck_assert_int_eq(outfile_open(&o, in("keep"), err, sizeof err), OUTFILE_OK);
    fputs("new", o.f);
    /* Not there under its name until committed. */
    ck_assert_str_eq(slurp("keep"), "old");
    ck_assert_int_eq(outfile_commit(&o, err, sizeof err), OUTFILE_OK);
    ck_assert_str_eq(slurp("keep"), "new");
    ck_assert_int_eq(outfile_open(&o, in("keep"), err, sizeof err), OUTFILE_OK);
    fputs("half", o.f);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s", o.tmp);
    outfile_abort(&o);
    ck_assert_str_eq(slurp("keep"), "new");
    ck_assert_int_eq(access(tmp, F_OK), -1);
    ck_assert_ptr_null(o.tmp);
    outfile_abort(&o);   /* safe on a released o */
    /* A failed write (a stream in error) removes the file, keeps the old one. */
    ck_assert_int_eq(outfile_open(&o, in("keep"), err, sizeof err), OUTFILE_OK);
    snprintf(tmp, sizeof tmp, "%s", o.tmp);
    fputs("broken", o.f);
    fclose(o.f);
    o.f = fopen("/dev/full", "w");
    ck_assert_ptr_nonnull(o.f);
    fputs("x", o.f);
    ck_assert_int_eq(outfile_commit(&o, err, sizeof err), OUTFILE_FAIL);
    ck_assert_str_eq(slurp("keep"), "new");
    ck_assert_int_eq(access(tmp, F_OK), -1);
    ck_assert_int_eq(outfile_open(&o, in("nodir/x"), err, sizeof err), OUTFILE_BADINPUT);
    ck_assert_ptr_null(o.tmp);
}
END_TEST

static void setup(void)
{
    strcpy(dir, "/tmp/test_outfile.XXXXXX");
    npath = 0;
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

int main(void)
{
    Suite *s = suite_create("outfile");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, bad_paths_refused);
    tcase_add_test(tc, input_through_links_and_companions);
    tcase_add_test(tc, written_whole_or_not_at_all);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
