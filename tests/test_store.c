/* Tests of store/ (1 of 3): opening a database (creation, reopening,
 * refusals of what is not ours, fault kinds), transactions, and what a
 * killed writer or a read-only open leaves behind.  Runs, generations,
 * checkpoints, schedules and merging are tested in test_store_runs.c,
 * chromosomes and the --where language in test_store_chrom.c. */
#include <check.h>

#include "tests/testutil.h"
#include "tests/store_testutil.h"
#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/store.h"

/* The whole file, malloc'd. */
static unsigned char *slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long len = ftell(f);
    ck_assert_int_ge(len, 0);
    rewind(f);
    unsigned char *b = malloc((size_t)len + 1);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* ---- opening ------------------------------------------------------------- */

START_TEST(test_create_reopen)
{
    store *s = open_new("a.db");
    ck_assert_str_eq(store_path(s), tpath("a.db"));
    int64_t run = new_run(s, "brev", 2);
    store_close(s);
    ck_assert_int_eq(raw_int(tpath("a.db"), "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    ck_assert_int_eq(raw_int(tpath("a.db"), "PRAGMA application_id"), STORE_APPLICATION_ID);
    /* WAL is persistent in the file header */
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(tpath("a.db"), &db), SQLITE_OK);
    sqlite3_stmt *st;
    ck_assert_int_eq(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    sqlite3_close(db);

    s = store_open(tpath("a.db"), 0, ERR);
    ck_assert_msg(s != NULL, "%s", errbuf);
    store_run r;
    ck_assert_int_eq(store_run_get(s, run, &r, ERR), STORE_OK);
    ck_assert_str_eq(r.traffic, "brev");
    store_run_clear(&r);
    store_close(s);

    s = store_open(tpath("a.db"), STORE_READONLY, ERR);
    ck_assert_msg(s != NULL, "%s", errbuf);
    ck_assert_int_eq(store_run_get(s, run, &r, ERR), STORE_OK);
    store_run_clear(&r);
    /* writes fail cleanly */
    store_run w = store_run_init("ga");
    ck_assert_int_eq(store_run_create(s, &w, ERR), STORE_ERROR);
    ck_assert_ptr_nonnull(strstr(errbuf, tpath("a.db")));
    store_close(s);
}
END_TEST

START_TEST(test_open_missing)
{
    ck_assert_ptr_null(store_open(tpath("none.db"), STORE_READONLY, ERR));
    ck_assert_ptr_nonnull(strstr(errbuf, tpath("none.db")));
    ck_assert(!exists(tpath("none.db")));
    ck_assert_ptr_null(store_open(tpath("none.db"), 0, ERR));
    ck_assert(!exists(tpath("none.db")));
    /* read-only wins over create */
    ck_assert_ptr_null(store_open(tpath("none.db"), STORE_READONLY | STORE_CREATE, ERR));
    ck_assert(!exists(tpath("none.db")));
}
END_TEST

START_TEST(test_open_unwritable)
{
    ck_assert_ptr_null(store_open("/nonexistent-dir/sub/x.db", STORE_CREATE, ERR));
    ck_assert_ptr_nonnull(strstr(errbuf, "/nonexistent-dir/sub/x.db"));
    ck_assert_ptr_null(store_open(tmpdir, STORE_CREATE, ERR)); /* a directory */
    ck_assert_ptr_nonnull(strstr(errbuf, "directory"));
    if (geteuid() != 0) { /* root ignores permissions */
        store_close(open_new("ro.db"));
        ck_assert_int_eq(chmod(tpath("ro.db"), 0444), 0);
        ck_assert_ptr_null(store_open(tpath("ro.db"), 0, ERR));
        ck_assert_ptr_nonnull(strstr(errbuf, "ro.db"));
    }
}
END_TEST

START_TEST(test_schema_mismatch)
{
    store *s = open_new("v.db");
    new_run(s, "brev", 2);
    store_close(s);
    raw_exec(tpath("v.db"), "PRAGMA journal_mode = DELETE; PRAGMA user_version = 99");
    size_t n0, n1;
    unsigned char *before = slurp(tpath("v.db"), &n0);
    ck_assert_ptr_null(store_open(tpath("v.db"), STORE_CREATE, ERR));
    ck_assert_ptr_nonnull(strstr(errbuf, tpath("v.db")));
    ck_assert_ptr_nonnull(strstr(errbuf, "schema version 99"));
    ck_assert_ptr_null(store_open(tpath("v.db"), STORE_READONLY, ERR));
    /* merging it is refused too */
    store *d = open_new("d.db");
    ck_assert_int_eq(store_merge(d, tpath("v.db"), NULL, ERR), STORE_ERROR);
    ck_assert_ptr_nonnull(strstr(errbuf, "schema version 99"));
    int64_t nruns = -1;
    store_close(d);
    nruns = raw_int(tpath("d.db"), "SELECT COUNT(*) FROM runs");
    ck_assert_int_eq(nruns, 0);
    unsigned char *after = slurp(tpath("v.db"), &n1);
    ck_assert_uint_eq(n0, n1);
    ck_assert(memcmp(before, after, n0) == 0);
    ck_assert(!exists(tpath("v.db-wal")));
    free(before);
    free(after);

    /* the same with the version change still in an uncheckpointed WAL */
    store_close(open_new("w.db"));
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(tpath("w.db"), &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db, "PRAGMA user_version = 7", NULL, NULL, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_close(db), SQLITE_OK);
    ck_assert(exists(tpath("w.db-wal")));
    before = slurp(tpath("w.db"), &n0);
    ck_assert_ptr_null(store_open(tpath("w.db"), 0, ERR));
    ck_assert_ptr_nonnull(strstr(errbuf, "schema version 7"));
    after = slurp(tpath("w.db"), &n1);
    ck_assert(n0 == n1 && memcmp(before, after, n0) == 0);
    free(before);
    free(after);
}
END_TEST

START_TEST(test_not_nocsim)
{
    FILE *f = fopen(tpath("text.db"), "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 100; i++)
        fputs("this is not an SQLite database at all\n", f);
    fclose(f);
    size_t n0, n1;
    unsigned char *before = slurp(tpath("text.db"), &n0);
    ck_assert_ptr_null(store_open(tpath("text.db"), STORE_CREATE, ERR));
    ck_assert_ptr_nonnull(strstr(errbuf, "not a nocsim database"));
    ck_assert_ptr_nonnull(strstr(errbuf, tpath("text.db")));
    unsigned char *after = slurp(tpath("text.db"), &n1);
    ck_assert(n0 == n1 && memcmp(before, after, n0) == 0);
    free(before);
    free(after);

    /* another application's SQLite file */
    raw_exec(tpath("other.db"), "CREATE TABLE t (x); INSERT INTO t VALUES (1)");
    before = slurp(tpath("other.db"), &n0);
    ck_assert_ptr_null(store_open(tpath("other.db"), STORE_CREATE, ERR));
    ck_assert_ptr_nonnull(strstr(errbuf, "not a nocsim database"));
    after = slurp(tpath("other.db"), &n1);
    ck_assert(n0 == n1 && memcmp(before, after, n0) == 0);
    free(before);
    free(after);

    /* an empty existing file (e.g. from mkstemp) becomes a database with CREATE only */
    fclose(fopen(tpath("empty.db"), "w"));
    ck_assert_ptr_null(store_open(tpath("empty.db"), 0, ERR));
    store *s = store_open(tpath("empty.db"), STORE_CREATE, ERR);
    ck_assert_msg(s != NULL, "%s", errbuf);
    store_close(s);
}
END_TEST

START_TEST(test_transactions)
{
    store *s = open_new("t.db");
    int64_t run = new_run(s, "brev", 2);
    uint8_t genes[64];

    ck_assert_int_eq(store_begin(s, ERR), STORE_OK);
    ck_assert_int_eq(store_begin(s, ERR), STORE_ERROR); /* no nesting */
    store_chrom c = chrom(run, 1, 100, 1, genes, sizeof genes);
    add(s, &c);
    store_gen gen = {.run = run, .generation = 0, .best = 100, .average = 120.5, .evaluations = 50,
                     .elapsed = 0.25};
    ck_assert_int_eq(store_gen_add(s, &gen, ERR), STORE_OK);
    ck_assert_int_eq(store_checkpoint_put(s, run, 0, "state", 5, ERR), STORE_OK);
    int64_t run2 = new_run(s, "shuffle", 1);
    ck_assert_int_eq(store_rollback(s, ERR), STORE_OK);

    ck_assert_int_eq(store_chrom_has_crc(s, run, 1, ERR), 0);
    store_run r;
    ck_assert_int_eq(store_run_get(s, run2, &r, ERR), STORE_NOTFOUND);
    uint8_t *data;
    size_t len;
    ck_assert_int_eq(store_checkpoint_get(s, run, NULL, &data, &len, ERR), STORE_NOTFOUND);
    ck_assert_int_eq(store_rollback(s, ERR), STORE_ERROR);

    /* commit persists across a reopen */
    ck_assert_int_eq(store_begin(s, ERR), STORE_OK);
    add(s, &c);
    ck_assert_int_eq(store_gen_add(s, &gen, ERR), STORE_OK);
    ck_assert_int_eq(store_commit(s, ERR), STORE_OK);
    /* a transaction left open at close is rolled back */
    ck_assert_int_eq(store_begin(s, ERR), STORE_OK);
    store_chrom c2 = chrom(run, 2, 90, 2, genes, sizeof genes);
    add(s, &c2);
    store_close(s);
    s = store_open(tpath("t.db"), 0, ERR);
    ck_assert_int_eq(store_chrom_has_crc(s, run, 1, ERR), 1);
    ck_assert_int_eq(store_chrom_has_crc(s, run, 2, ERR), 0);
    store_close(s);
    ck_assert_int_eq(raw_int(tpath("t.db"), "SELECT COUNT(*) FROM generations"), 1);
}
END_TEST

/* A writer SIGKILLed in the middle of a transaction leaves a valid database
 * holding exactly the committed generations, its run still unfinished. */
START_TEST(test_kill_mid_transaction)
{
    enum { COMMITTED = 20 };
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        store *s = store_open(tpath("k.db"), STORE_CREATE, ERR);
        if (!s)
            _exit(3);
        int64_t run = new_run(s, "brev", 2);
        uint8_t genes[256], state[4096];
        memset(state, 7, sizeof state);
        for (int g = 0;; g++) {
            if (store_begin(s, ERR) != STORE_OK)
                _exit(4);
            store_chrom c = chrom(run, (uint32_t)g + 1, 1000 - g, g, genes, sizeof genes);
            store_gen gen = {.run = run, .generation = g, .best = 1000 - g, .average = 1000,
                             .evaluations = 50, .elapsed = g};
            if (store_chrom_add(s, &c, NULL, ERR) != STORE_OK ||
                store_gen_add(s, &gen, ERR) != STORE_OK ||
                store_checkpoint_put(s, run, g, state, sizeof state, ERR) != STORE_OK ||
                store_run_set_best(s, run, 1000 - g, 1000 - g, (uint32_t)g + 1, ERR) != STORE_OK)
                _exit(5);
            if (g == COMMITTED) { /* mid-transaction: tell the parent, wait to die */
                if (write(fds[1], "x", 1) != 1)
                    _exit(6);
                for (;;)
                    pause();
            }
            if (store_commit(s, ERR) != STORE_OK)
                _exit(7);
        }
    }
    close(fds[1]);
    char ch;
    ck_assert_int_eq(read(fds[0], &ch, 1), 1);
    close(fds[0]);
    ck_assert_int_eq(kill(pid, SIGKILL), 0);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    store *s = store_open(tpath("k.db"), 0, ERR);
    ck_assert_msg(s != NULL, "%s", errbuf);
    store_run r;
    ck_assert_int_eq(store_run_get(s, 1, &r, ERR), STORE_OK);
    ck_assert_str_eq(r.status, "unfinished");
    ck_assert_int_eq(r.best_score, 1000 - (COMMITTED - 1));
    store_run_clear(&r);
    int64_t gen = -1;
    uint8_t *data;
    size_t len;
    ck_assert_int_eq(store_checkpoint_get(s, 1, &gen, &data, &len, ERR), STORE_OK);
    ck_assert_int_eq(gen, COMMITTED - 1);
    free(data);
    store_close(s);
    sqlite3 *db;
    sqlite3_stmt *st;
    ck_assert_int_eq(sqlite3_open(tpath("k.db"), &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "ok");
    sqlite3_finalize(st);
    sqlite3_close(db);
    ck_assert_int_eq(count(tpath("k.db"), "chromosomes"), COMMITTED);
    ck_assert_int_eq(count(tpath("k.db"), "generations"), COMMITTED);
}
END_TEST

/* ---- hardening: fault kinds, damaged blobs, files left behind ------------- */

/* Number of directory entries of tmpdir. */
static int entries(void)
{
    DIR *d = opendir(tmpdir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static store_fault open_fault(const char *path, int flags)
{
    store_fault f = STORE_FAULT_IO;
    store *s = store_open_fault(path, flags, &f, ERR);
    if (s) {
        store_close(s);
        return STORE_FAULT_NONE;
    }
    return f;
}

START_TEST(test_fault_kinds)
{
    FILE *f = fopen(tpath("text.db"), "w");
    ck_assert_ptr_nonnull(f);
    fputs("not a database\n", f);
    fclose(f);
    raw_exec(tpath("foreign.db"), "CREATE TABLE t (x)");
    store *s = open_new("v.db");
    store_close(s);
    raw_exec(tpath("v.db"), "PRAGMA user_version = 99");
    static const int flags[] = {0, STORE_READONLY, STORE_CREATE};
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(open_fault(tpath("text.db"), flags[k]), STORE_FAULT_INPUT);
        ck_assert_int_eq(open_fault(tpath("foreign.db"), flags[k]), STORE_FAULT_INPUT);
        ck_assert_int_eq(open_fault(tpath("v.db"), flags[k]), STORE_FAULT_INPUT);
        ck_assert_int_eq(open_fault(tmpdir, flags[k]), STORE_FAULT_INPUT);
    }
    ck_assert_int_eq(open_fault(tpath("missing.db"), 0), STORE_FAULT_INPUT);
    ck_assert_int_eq(open_fault(tpath("missing.db"), STORE_READONLY), STORE_FAULT_INPUT);
    ck_assert(!exists(tpath("missing.db")));
    ck_assert_int_eq(open_fault(tpath("no/such/dir.db"), STORE_CREATE), STORE_FAULT_INPUT);
    ck_assert_int_eq(open_fault(tpath("text.db/x.db"), STORE_CREATE), STORE_FAULT_INPUT);
    if (geteuid() != 0) { /* root may write anywhere */
        ck_assert_int_eq(chmod(tmpdir, 0500), 0);
        ck_assert_int_eq(open_fault(tpath("denied.db"), STORE_CREATE), STORE_FAULT_IO);
        ck_assert_int_eq(chmod(tmpdir, 0700), 0);
    }
    ck_assert_int_eq(open_fault(tpath("new.db"), STORE_CREATE), STORE_FAULT_NONE);
    /* Refused files and the new one leave no side file or private copy. */
    ck_assert_int_eq(entries(), 4);
}
END_TEST

START_TEST(test_readonly_leaves_nothing)
{
    store *s = open_new("a.db");
    int64_t run = new_run(s, "brev", 1);
    uint8_t g[64];
    store_chrom c = chrom(run, 7, 100, 1, g, sizeof g);
    add(s, &c);
    store_close(s);
    ck_assert_int_eq(entries(), 1);
    s = store_open(tpath("a.db"), STORE_READONLY, ERR);
    ck_assert_msg(s != NULL, "%s", errbuf);
    store_chrom out;
    ck_assert_int_eq(store_chrom_get(s, 1, &out, ERR), STORE_OK);
    ck_assert_mem_eq(out.genes, g, sizeof g);
    store_chrom_clear(&out);
    ck_assert_int_eq(entries(), 1);   /* no -wal, no -shm while open */
    /* A writer's WAL present: the read-only handle sees its commits. */
    store *w = store_open(tpath("a.db"), 0, ERR);
    ck_assert_msg(w != NULL, "%s", errbuf);
    new_run(w, "shfl", 1);
    store *r = store_open(tpath("a.db"), STORE_READONLY, ERR);
    ck_assert_msg(r != NULL, "%s", errbuf);
    store_run got;
    ck_assert_int_eq(store_run_get(r, 2, &got, ERR), STORE_OK);
    ck_assert_str_eq(got.traffic, "shfl");
    store_run_clear(&got);
    store_close(r);
    store_close(w);
    store_close(s);
    ck_assert_int_eq(entries(), 1);
}
END_TEST

/* SQLite's finding on a damaged schema quotes the CREATE text, newlines
 * and all: the message stays one line (found by fuzz_db_file). */
START_TEST(test_damaged_schema_one_line)
{
    store *s = open_new("sch.db");
    store_close(s);
    raw_exec(tpath("sch.db"), "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = "
                              "'CREATE TABLE cc_schedules (id INTEGER, x ''abc\n  def\n' WHERE name = 'cc_schedules'");
    store_fault fault;
    s = store_open_fault(tpath("sch.db"), STORE_READONLY, &fault, ERR);
    ck_assert_ptr_null(s);
    ck_assert_msg(strstr(errbuf, "malformed database schema"), "%s", errbuf);
    ck_assert_msg(!strchr(errbuf, '\n'), "not one line: %s", errbuf);
    ck_assert_int_eq(fault, STORE_FAULT_DAMAGED);
}
END_TEST

static Suite *store_suite(void)
{
    Suite *s = suite_create("store");
    TCase *t = tcase_create("store");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 30);
    tcase_add_test(t, test_create_reopen);
    tcase_add_test(t, test_open_missing);
    tcase_add_test(t, test_open_unwritable);
    tcase_add_test(t, test_schema_mismatch);
    tcase_add_test(t, test_not_nocsim);
    tcase_add_test(t, test_transactions);
    tcase_add_test(t, test_kill_mid_transaction);
    tcase_add_test(t, test_fault_kinds);
    tcase_add_test(t, test_readonly_leaves_nothing);
    tcase_add_test(t, test_damaged_schema_one_line);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return testutil_run(store_suite());
}
