/* Tests of the rule for resuming a GA run (ga/resume.c): each kind of run
 * in a fresh database, and the answer the rule must give for it. */
#include <check.h>

#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ga/resume.h"
#include "store/store.h"

/* A new database in its own directory, removed by drop_db. */
static store *new_db(char *dir, size_t len, char *path, size_t plen)
{
    snprintf(dir, len, "/tmp/nocsim-resume-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, plen, "%s/r.db", dir);
    char err[512];
    store *db = store_open(path, STORE_CREATE, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    return db;
}

static void drop_db(store *db, const char *dir, const char *path)
{
    store_close(db);
    const char *suffix[] = { "", "-wal", "-shm" };
    char p[512];
    for (int k = 0; k < 3; k++) {
        snprintf(p, sizeof p, "%s%s", path, suffix[k]);
        unlink(p);
    }
    rmdir(dir);
}

static int64_t add_run(store *db, const char *kind, const char *status)
{
    char err[512];
    store_run r = store_run_init(kind);
    ck_assert_int_eq(store_run_create(db, &r, err, sizeof err), STORE_OK);
    if (status) ck_assert_int_eq(store_run_set_status(db, r.id, status, err, sizeof err), STORE_OK);
    return r.id;
}

START_TEST(which_runs_may_be_resumed)
{
    char dir[64], path[128], err[512];
    store *db = new_db(dir, sizeof dir, path, sizeof path);
    int64_t open = add_run(db, "ga", NULL);              /* a new run is unfinished */
    int64_t failed = add_run(db, "ga", "failed");
    int64_t done = add_run(db, "ga", "finished");
    int64_t stack = add_run(db, "stack", NULL);
    ck_assert_int_eq(ga_resume_allowed(db, open, err, sizeof err), GA_RESUME_OK);
    ck_assert_int_eq(ga_resume_allowed(db, failed, err, sizeof err), GA_RESUME_OK);
    ck_assert_int_eq(ga_resume_allowed(db, done, err, sizeof err), GA_RESUME_REFUSED);
    ck_assert_msg(strstr(err, "finished already") != NULL, "%s", err);
    ck_assert_int_eq(ga_resume_allowed(db, stack, err, sizeof err), GA_RESUME_REFUSED);
    ck_assert_msg(strstr(err, "not a GA run") != NULL, "%s", err);
    ck_assert_int_eq(ga_resume_allowed(db, stack + 100, err, sizeof err), GA_RESUME_REFUSED);
    ck_assert_msg(strstr(err, "is not in") != NULL && strstr(err, path) != NULL, "%s", err);
    drop_db(db, dir, path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("resume");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, which_runs_may_be_resumed);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
