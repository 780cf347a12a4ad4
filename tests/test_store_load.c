/* The load_points table (store/load.c) and the migration of a version-1
 * database to version 2 (store.c). */
#include <check.h>

#include "tests/testutil.h"
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"

static char dir[] = "/tmp/nocsim-store-load-XXXXXX";
static char path[256];

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/l.db", dir);
}

static void teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    strcpy(dir, "/tmp/nocsim-store-load-XXXXXX");
}

static int64_t raw_int(const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static void raw_exec_in(const char *file, const char *sql)
{
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(file, &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

static void raw_exec(const char *sql)
{
    raw_exec_in(path, sql);
}

typedef struct {
    store_load_point p[8];
    int n;
} got;

static int collect(const store_load_point *p, void *ctx)
{
    got *g = ctx;
    g->p[g->n++] = *p;
    return 0;
}

static int64_t new_run(store *s)
{
    store_run r = store_run_init("load");
    r.traffic = "uniform";
    r.size = 8;
    char err[256];
    ck_assert_int_eq(store_run_create(s, &r, err, sizeof err), STORE_OK);
    return r.id;
}

START_TEST(points_round_trip)
{
    char err[256];
    store *s = store_open(path, STORE_CREATE, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    int64_t run = new_run(s);
    store_load_point a = { .rate = 0.3, .offered = 0.301, .accepted = 0.299, .latency = 34.5, .ci95 = 1.5,
                           .network_latency = 30.25, .hops = 5.33, .p50 = 28, .p99 = 120, .max = 238,
                           .tagged = 24000, .tagged_done = 24000, .warmup_cycles = 3000, .drain_cycles = 77,
                           .cycles = 13077, .steady = 1, .saturated = 0 };
    store_load_point b = a;
    b.rate = 0.1;
    b.saturated = 2 | 4;
    ck_assert_int_eq(store_load_add(s, run, &a, err, sizeof err), STORE_OK);
    ck_assert_int_eq(store_load_add(s, run, &b, err, sizeof err), STORE_OK);
    int dup = store_load_add(s, run, &a, err, sizeof err);
    ck_assert_msg(dup == STORE_EXISTS, "%d %s", dup, err);
    got g = { .n = 0 };
    ck_assert_int_eq(store_load_list(s, run, collect, &g, err, sizeof err), STORE_OK);
    ck_assert_int_eq(g.n, 2);
    ck_assert_double_eq(g.p[0].rate, 0.1); /* ascending rate */
    ck_assert_int_eq(g.p[0].saturated, 6);
    ck_assert(memcmp(&g.p[1], &a, sizeof a) == 0);
    g.n = 0;
    ck_assert_int_eq(store_load_list(s, run + 1, collect, &g, err, sizeof err), STORE_OK);
    ck_assert_int_eq(g.n, 0);
    /* Trimmed to the points at or below a rate; 0 removes all. */
    int64_t removed = -1;
    ck_assert_int_eq(store_load_trim(s, run, 0.1, &removed, err, sizeof err), STORE_OK);
    ck_assert_int_eq(removed, 1);
    g.n = 0;
    ck_assert_int_eq(store_load_list(s, run, collect, &g, err, sizeof err), STORE_OK);
    ck_assert_int_eq(g.n, 1);
    ck_assert_double_eq(g.p[0].rate, 0.1);
    ck_assert_int_eq(store_load_trim(s, run, 0, &removed, err, sizeof err), STORE_OK);
    ck_assert_int_eq(removed, 1);
    ck_assert_int_eq(store_load_add(s, run, &a, err, sizeof err), STORE_OK);
    store_close(s);
    /* A rate outside (0, 1] is refused by the table. */
    s = store_open(path, 0, err, sizeof err);
    a.rate = 1.5;
    ck_assert_int_eq(store_load_add(s, run, &a, err, sizeof err), STORE_ERROR);
    store_close(s);
}
END_TEST

START_TEST(migrates_version_1)
{
    char err[256];
    store *s = store_open(path, STORE_CREATE, err, sizeof err);
    ck_assert_ptr_nonnull(s);
    int64_t run = new_run(s);
    store_close(s);
    /* Make it the version-1 file an earlier nocsim wrote. */
    raw_exec("PRAGMA journal_mode = DELETE; DROP TABLE load_points; PRAGMA user_version = 1");
    ck_assert_int_eq(raw_int("PRAGMA user_version"), 1);
    /* Read-only: read as it is, no load points, nothing written. */
    s = store_open(path, STORE_READONLY, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    got g = { .n = 0 };
    ck_assert_int_eq(store_load_list(s, run, collect, &g, err, sizeof err), STORE_OK);
    ck_assert_int_eq(g.n, 0);
    store_close(s);
    ck_assert_int_eq(raw_int("PRAGMA user_version"), 1);
    /* Writable: migrated, the run kept. */
    s = store_open(path, 0, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    store_close(s);
    ck_assert_int_eq(raw_int("PRAGMA user_version"), 2);
    ck_assert_int_eq(raw_int("SELECT COUNT(*) FROM sqlite_master WHERE name = 'load_points'"), 1);
    ck_assert_int_eq(raw_int("SELECT COUNT(*) FROM runs"), 1);
    /* Version 3 is still refused. */
    raw_exec("PRAGMA user_version = 3");
    ck_assert_ptr_null(store_open(path, 0, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "schema version 3"));
}
END_TEST

/* A load run's points, as the database holds them. */
static got points_of(const char *file, int64_t run)
{
    char err[256];
    store *s = store_open(file, STORE_READONLY, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    got g = { .n = 0 };
    ck_assert_int_eq(store_load_list(s, run, collect, &g, err, sizeof err), STORE_OK);
    store_close(s);
    return g;
}

START_TEST(merge_copies_points)
{
    char err[256], dst[300];
    store *s = store_open(path, STORE_CREATE, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    int64_t run = new_run(s);
    store_load_point p[3];
    for (int k = 0; k < 3; k++) {
        p[k] = (store_load_point){ .rate = 0.1 * (k + 1), .offered = 0.1 * (k + 1) + 0.001 * k,
                                   .accepted = 0.099 * (k + 1), .latency = 20.5 + k, .ci95 = 0.25 * k,
                                   .network_latency = 19.125 + k, .hops = 5.33, .p50 = 20 + k,
                                   .p99 = 60 + k, .max = 90 + k, .tagged = 1000 * (k + 1),
                                   .tagged_done = 1000 * (k + 1) - k, .warmup_cycles = 3000 + k,
                                   .drain_cycles = 70 + k, .cycles = 13000 + k, .steady = k != 2,
                                   .saturated = k == 2 ? 5 : 0 };
        ck_assert_int_eq(store_load_add(s, run, &p[k], err, sizeof err), STORE_OK);
    }
    store_close(s);
    snprintf(dst, sizeof dst, "%s/m.db", dir);
    store *d = store_open(dst, STORE_CREATE, err, sizeof err);
    ck_assert_msg(d != NULL, "%s", err);
    int64_t other = new_run(d); /* ids differ between the files */
    store_merge_stats m;
    ck_assert_msg(store_merge(d, path, &m, err, sizeof err) == STORE_OK, "%s", err);
    ck_assert_int_eq(m.runs_added, 1);
    ck_assert_int_eq(m.load_points, 3);
    store_close(d);
    got g = points_of(dst, other + 1);
    ck_assert_int_eq(g.n, 3);
    for (int k = 0; k < 3; k++)
        ck_assert_msg(memcmp(&g.p[k], &p[k], sizeof p[k]) == 0, "point %d differs", k);
    ck_assert_int_eq(points_of(dst, other).n, 0);

    /* A second merge adds nothing ... */
    d = store_open(dst, 0, err, sizeof err);
    ck_assert_msg(store_merge(d, path, &m, err, sizeof err) == STORE_OK, "%s", err);
    ck_assert_int_eq(m.runs_skipped, 1);
    ck_assert_int_eq(m.load_points, 0);
    store_close(d);
    /* ... but brings the points of a run merged without them (an earlier
     * nocsim's merge). */
    raw_exec_in(dst, "DELETE FROM load_points");
    d = store_open(dst, 0, err, sizeof err);
    ck_assert_msg(store_merge(d, path, &m, err, sizeof err) == STORE_OK, "%s", err);
    ck_assert_int_eq(m.runs_skipped, 1);
    ck_assert_int_eq(m.load_points, 3);
    store_close(d);
    g = points_of(dst, other + 1);
    ck_assert_int_eq(g.n, 3);
    for (int k = 0; k < 3; k++)
        ck_assert_msg(memcmp(&g.p[k], &p[k], sizeof p[k]) == 0, "point %d differs", k);
}
END_TEST

/* A version-1 file (no load_points table) still merges. */
START_TEST(merge_from_version_1)
{
    char err[256], dst[300];
    store *s = store_open(path, STORE_CREATE, err, sizeof err);
    ck_assert_ptr_nonnull(s);
    new_run(s);
    store_close(s);
    raw_exec("PRAGMA journal_mode = DELETE; DROP TABLE load_points; PRAGMA user_version = 1");
    snprintf(dst, sizeof dst, "%s/m.db", dir);
    store *d = store_open(dst, STORE_CREATE, err, sizeof err);
    ck_assert_msg(d != NULL, "%s", err);
    store_merge_stats m;
    ck_assert_msg(store_merge(d, path, &m, err, sizeof err) == STORE_OK, "%s", err);
    ck_assert_int_eq(m.runs_added, 1);
    ck_assert_int_eq(m.load_points, 0);
    store_close(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("store_load");
    TCase *tc = tcase_create("store_load");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, points_round_trip);
    tcase_add_test(tc, migrates_version_1);
    tcase_add_test(tc, merge_copies_points);
    tcase_add_test(tc, merge_from_version_1);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
