/* Tests of store/: the SQLite database of runs, generations, chromosomes,
 * checkpoints and cc schedules; the --where language; merging. */
#include <check.h>

#include "tests/testutil.h"
#include <dirent.h>
#include <sqlite3.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/store.h"

static char tmpdir[64];
static char errbuf[512];
#define ERR errbuf, sizeof errbuf

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/nocsim-store-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    errbuf[0] = 0;
}

static void teardown(void)
{
    DIR *d = opendir(tmpdir);
    if (d) {
        struct dirent *e;
        char p[512];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(tmpdir);
}

static const char *tpath(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static bool exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

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

static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    ck_assert_msg(rc == SQLITE_OK, "%s: %s", sql, msg ? msg : "");
    sqlite3_free(msg);
    ck_assert_int_eq(sqlite3_close(db), SQLITE_OK);
}

static int64_t raw_int(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    ck_assert_int_eq(sqlite3_close(db), SQLITE_OK);
    return v;
}

static store *open_new(const char *name)
{
    store *s = store_open(tpath(name), STORE_CREATE, ERR);
    ck_assert_msg(s != NULL, "%s", errbuf);
    return s;
}

static int64_t new_run(store *s, const char *traffic, int32_t slices)
{
    store_run r = store_run_init("ga");
    r.traffic = traffic;
    r.slices = slices;
    r.size = 16;
    r.flits = 8;
    r.seed = 42;
    ck_assert_msg(store_run_create(s, &r, ERR) == STORE_OK, "%s", errbuf);
    return r.id;
}

/* Make the CRC-32 of genes[0..n) equal crc by choosing its last 4 bytes
 * (n >= 4): run the CRC back from crc through 4 bytes (the top bytes of the
 * table's entries are distinct, so each step's table index is known), then
 * the patch is the forward register xor the backward one. */
static void force_crc(uint8_t *genes, size_t n, uint32_t crc)
{
    uint32_t table[256];
    for (uint32_t j = 0; j < 256; j++) {
        uint32_t r = j;
        for (int b = 0; b < 8; b++) r = r & 1 ? (r >> 1) ^ 0xedb88320u : r >> 1;
        table[j] = r;
    }
    uint32_t fwd = ~(uint32_t)crc32(crc32(0L, Z_NULL, 0), genes, (uInt)(n - 4));
    uint32_t bkd = ~crc;
    for (int step = 0; step < 4; step++) {
        uint32_t j = 0;
        while (table[j] >> 24 != bkd >> 24) j++;
        bkd = ((bkd ^ table[j]) << 8) | j;
    }
    uint32_t patch = fwd ^ bkd;
    for (int b = 0; b < 4; b++) genes[n - 4 + (size_t)b] = (uint8_t)(patch >> (8 * b));
    ck_assert_uint_eq((uint32_t)crc32(crc32(0L, Z_NULL, 0), genes, (uInt)n), crc);
}

/* A chromosome whose genes and metrics derive from k, its genes signed crc
 * (the store checks the signature on every read; n = 0 signs as 0). */
static store_chrom chrom(int64_t run, uint32_t crc, int64_t score, int k, uint8_t *genes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        genes[i] = (uint8_t)(i * 7 + (size_t)k * 13);
    if (n >= 4) force_crc(genes, n, crc);
    store_chrom c = {.run = run, .generation = k, .crc = crc, .score = score, .duration = score,
                     .t_d = 100 + k, .t_e = 200 + k, .ir = k, .or_ = 2 * k, .ib = 3 * k,
                     .ob = 4 * k, .lb = 5 * k, .is_synonym = k % 2, .genes = genes,
                     .genes_len = n};
    return c;
}

static int64_t add(store *s, const store_chrom *c)
{
    int64_t id = 0;
    ck_assert_msg(store_chrom_add(s, c, &id, ERR) == STORE_OK, "%s", errbuf);
    ck_assert_int_gt(id, 0);
    return id;
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

/* ---- runs ---------------------------------------------------------------- */

START_TEST(test_runs)
{
    store *s = open_new("r.db");
    store_run r = store_run_init("ga");
    r.version = "0.1.0";
    r.seed = 0xfedcba9876543210ULL; /* above INT64_MAX */
    r.traffic = "brev";
    r.size = 16;
    r.slices = 2;
    r.flits = 8;
    r.genes = "V,I,C,Q";
    r.algorithm = "cup-stacking GA";
    r.params = "{\"pop\": 50, \"generations\": 1000}";
    ck_assert_msg(store_run_create(s, &r, ERR) == STORE_OK, "%s", errbuf);
    ck_assert_int_eq(r.id, 1);
    ck_assert_uint_eq(strlen(r.uuid), STORE_UUID_LEN);
    ck_assert_uint_eq(strspn(r.uuid, "0123456789abcdef"), STORE_UUID_LEN);

    store_run g;
    ck_assert_int_eq(store_run_get(s, r.id, &g, ERR), STORE_OK);
    ck_assert_str_eq(g.uuid, r.uuid);
    ck_assert_str_eq(g.kind, "ga");
    ck_assert_str_eq(g.version, "0.1.0");
    ck_assert_str_eq(g.status, "unfinished");
    ck_assert_ptr_null(g.finished);
    ck_assert_uint_eq(strlen(g.started), 20); /* 2026-01-01T00:00:00Z */
    ck_assert_int_eq(g.started[10], 'T');
    ck_assert_int_eq(g.started[19], 'Z');
    ck_assert(g.seed == 0xfedcba9876543210ULL);
    ck_assert_str_eq(g.traffic, "brev");
    ck_assert_int_eq(g.size, 16);
    ck_assert_int_eq(g.slices, 2);
    ck_assert_int_eq(g.flits, 8);
    ck_assert_str_eq(g.genes, "V,I,C,Q");
    ck_assert_str_eq(g.algorithm, "cup-stacking GA");
    ck_assert_str_eq(g.params, r.params);
    ck_assert_int_eq(g.best_duration, STORE_NONE);
    ck_assert_int_eq(g.best_crc, STORE_NONE);
    ck_assert_int_eq(g.base_stacking, STORE_NONE);
    ck_assert_int_eq(g.parent, 0);
    ck_assert_int_eq(g.synonyms, 0);
    store_run_clear(&g);

    ck_assert_int_eq(store_run_set_best(s, r.id, 500, 510, 0xdeadbeefu, ERR), STORE_OK);
    ck_assert_int_eq(store_run_set_baselines(s, r.id, 700, 900, ERR), STORE_OK);
    ck_assert_int_eq(store_run_set_status(s, r.id, "finished", ERR), STORE_OK);
    ck_assert_int_eq(store_run_set_status(s, r.id, "done", ERR), STORE_ERROR);
    ck_assert_int_eq(store_run_set_status(s, 99, "failed", ERR), STORE_NOTFOUND);
    ck_assert_int_eq(store_run_get(s, r.id, &g, ERR), STORE_OK);
    ck_assert_int_eq(g.best_score, 500);
    ck_assert_int_eq(g.best_duration, 510);
    ck_assert_int_eq(g.best_crc, 0xdeadbeefLL);
    ck_assert_int_eq(g.base_stacking, 700);
    ck_assert_int_eq(g.base_nonsplit, 900);
    ck_assert_str_eq(g.status, "finished");
    ck_assert_ptr_nonnull(g.finished);
    store_run_clear(&g);

    /* a derived run, with the parent's uuid lookup */
    store_run d = store_run_init("replay");
    d.parent = r.id;
    ck_assert_int_eq(store_run_create(s, &d, ERR), STORE_OK);
    ck_assert_str_ne(d.uuid, r.uuid);
    ck_assert_int_eq(store_run_get(s, d.id, &g, ERR), STORE_OK);
    ck_assert_int_eq(g.parent, r.id);
    store_run_clear(&g);
    int64_t found = 0;
    ck_assert_int_eq(store_run_find_uuid(s, r.uuid, &found, ERR), STORE_OK);
    ck_assert_int_eq(found, r.id);
    ck_assert_int_eq(store_run_find_uuid(s, "0123", &found, ERR), STORE_NOTFOUND);
    ck_assert_int_eq(store_run_get(s, 77, &g, ERR), STORE_NOTFOUND);
    ck_assert_ptr_nonnull(strstr(errbuf, "77"));

    /* bad input is refused by the schema */
    store_run bad = store_run_init("ga");
    bad.params = "{not json";
    ck_assert_int_eq(store_run_create(s, &bad, ERR), STORE_ERROR);
    bad = store_run_init("ga");
    bad.parent = 1234;
    ck_assert_int_eq(store_run_create(s, &bad, ERR), STORE_ERROR); /* foreign key */
    bad = store_run_init("");
    ck_assert_int_eq(store_run_create(s, &bad, ERR), STORE_ERROR);
    store_close(s);
}
END_TEST

struct collect {
    int n;
    int64_t ids[32];
    int64_t syn[32];
};

static int collect_run(const store_run *r, void *ctx)
{
    struct collect *c = ctx;
    c->syn[c->n] = r->synonyms;
    c->ids[c->n++] = r->id;
    return 0;
}

static int stop_first(const store_run *r, void *ctx)
{
    collect_run(r, ctx);
    return 1;
}

START_TEST(test_runs_list_best)
{
    store *s = open_new("l.db");
    int64_t a = new_run(s, "brev", 2), b = new_run(s, "brev", 2), c = new_run(s, "brev", 1),
            d = new_run(s, "shuffle", 2), e = new_run(s, "brev", 2);
    (void)e; /* no best: not in store_runs_best */
    ck_assert_int_eq(store_run_set_best(s, a, 600, 600, 1, ERR), STORE_OK);
    ck_assert_int_eq(store_run_set_best(s, b, 550, 550, 2, ERR), STORE_OK);
    ck_assert_int_eq(store_run_set_best(s, c, 300, 300, 3, ERR), STORE_OK);
    ck_assert_int_eq(store_run_set_best(s, d, 800, 800, 4, ERR), STORE_OK);
    uint8_t genes[16];
    store_chrom x = chrom(b, 10, 560, 1, genes, sizeof genes);
    add(s, &x);
    x = chrom(b, 11, 550, 2, genes, sizeof genes);
    add(s, &x);
    x = chrom(b, 12, 550, 3, genes, sizeof genes);
    add(s, &x);

    struct collect all = {0};
    ck_assert_int_eq(store_runs_list(s, NULL, collect_run, &all, ERR), STORE_OK);
    ck_assert_int_eq(all.n, 5);
    ck_assert_int_eq(all.syn[1], 2);
    ck_assert_int_eq(all.syn[0], 0);

    struct collect f = {0};
    store_run_filter flt = {.traffic = "brev", .slices = 2};
    ck_assert_int_eq(store_runs_list(s, &flt, collect_run, &f, ERR), STORE_OK);
    ck_assert_int_eq(f.n, 3);
    ck_assert_int_eq(f.ids[0], a);
    ck_assert_int_eq(f.ids[1], b);
    ck_assert_int_eq(f.ids[2], e);

    struct collect one = {0};
    ck_assert_int_eq(store_runs_list(s, NULL, stop_first, &one, ERR), STORE_OK);
    ck_assert_int_eq(one.n, 1);

    struct collect best = {0};
    ck_assert_int_eq(store_runs_best(s, NULL, collect_run, &best, ERR), STORE_OK);
    ck_assert_int_eq(best.n, 3); /* brev/1, brev/2, shuffle/2 */
    ck_assert_int_eq(best.ids[0], c);
    ck_assert_int_eq(best.ids[1], b);
    ck_assert_int_eq(best.ids[2], d);

    struct collect bb = {0};
    store_run_filter f2 = {.traffic = "brev", .slices = 2};
    ck_assert_int_eq(store_runs_best(s, &f2, collect_run, &bb, ERR), STORE_OK);
    ck_assert_int_eq(bb.n, 1);
    ck_assert_int_eq(bb.ids[0], b);
    store_close(s);
}
END_TEST

/* randperm's seed drew the pattern: runs of seeds 1 and 2 are two patterns,
 * each with its best; brev runs of two seeds are one (issue 26). */
START_TEST(test_runs_best_randperm_seed)
{
    store *s = open_new("rp.db");
    static const struct { const char *traffic; uint64_t seed; int64_t best; } runs[] = {
        { "randperm", 1, 500 }, { "randperm", 2, 600 }, { "randperm", 1, 450 }, { "brev", 1, 300 }, { "brev", 2, 290 },
    };
    int64_t id[5];
    for (int k = 0; k < 5; k++) {
        store_run r = store_run_init("ga");
        r.traffic = runs[k].traffic;
        r.seed = runs[k].seed;
        r.size = 4;
        r.slices = 2;
        r.flits = 8;
        ck_assert_msg(store_run_create(s, &r, ERR) == STORE_OK, "%s", errbuf);
        id[k] = r.id;
        ck_assert_int_eq(store_run_set_best(s, r.id, runs[k].best, runs[k].best, (uint32_t)k, ERR), STORE_OK);
    }
    struct collect best = {0};
    ck_assert_int_eq(store_runs_best(s, NULL, collect_run, &best, ERR), STORE_OK);
    ck_assert_int_eq(best.n, 3);   /* brev; randperm seed 1; randperm seed 2 */
    ck_assert_int_eq(best.ids[0], id[4]);
    ck_assert_int_eq(best.ids[1], id[2]);
    ck_assert_int_eq(best.ids[2], id[1]);
    store_close(s);
}
END_TEST

/* ---- chromosomes ---------------------------------------------------------- */

START_TEST(test_chrom_roundtrip)
{
    store *s = open_new("c.db");
    int64_t run = new_run(s, "brev", 2), run2 = new_run(s, "brev", 2);
    uint8_t genes[5000];
    store_chrom c = chrom(run, 0xffffffffu, 512, 7, genes, sizeof genes);
    int64_t id = add(s, &c);

    store_chrom g;
    ck_assert_int_eq(store_chrom_get(s, id, &g, ERR), STORE_OK);
    ck_assert_int_eq(g.id, id);
    ck_assert_int_eq(g.run, run);
    ck_assert_int_eq(g.generation, 7);
    ck_assert_uint_eq(g.crc, 0xffffffffu);
    ck_assert_int_eq(g.score, 512);
    ck_assert_int_eq(g.duration, 512);
    ck_assert_int_eq(g.t_d, 107);
    ck_assert_int_eq(g.t_e, 207);
    ck_assert_int_eq(g.ir, 7);
    ck_assert_int_eq(g.or_, 14);
    ck_assert_int_eq(g.ib, 21);
    ck_assert_int_eq(g.ob, 28);
    ck_assert_int_eq(g.lb, 35);
    ck_assert(g.is_synonym);
    ck_assert_uint_eq(g.genes_len, sizeof genes);
    ck_assert(memcmp(g.genes, genes, sizeof genes) == 0);
    store_chrom_clear(&g);

    /* stored compressed */
    store_close(s);
    ck_assert_int_lt(raw_int(tpath("c.db"), "SELECT length(genes) FROM chromosomes"),
                     (int64_t)sizeof genes);
    s = store_open(tpath("c.db"), 0, ERR);
    ck_assert_ptr_nonnull(s);

    /* zero-length genes */
    store_chrom e = chrom(run, 0, 600, 2, genes, 0);   /* no genes: CRC-32 0 */
    int64_t eid = add(s, &e);
    ck_assert_int_eq(store_chrom_get(s, eid, &g, ERR), STORE_OK);
    ck_assert_uint_eq(g.genes_len, 0);
    store_chrom_clear(&g);

    /* UNIQUE (run, crc) */
    store_chrom dup = chrom(run, 0xffffffffu, 1, 1, genes, 10);
    ck_assert_int_eq(store_chrom_add(s, &dup, NULL, ERR), STORE_EXISTS);
    ck_assert_ptr_nonnull(strstr(errbuf, "ffffffff"));
    dup.run = run2; /* the same CRC in another run is fine */
    int64_t id2 = add(s, &dup);
    ck_assert_int_eq(store_chrom_has_crc(s, run, 0xffffffffu, ERR), 1);
    ck_assert_int_eq(store_chrom_has_crc(s, run, 1234, ERR), 0);
    store_chrom_query q = {.run = run};
    int64_t n = -1;
    ck_assert_int_eq(store_chrom_count(s, &q, &n, ERR), STORE_OK);
    ck_assert_int_eq(n, 2);

    ck_assert_int_eq(store_chrom_find_crc(s, run2, 0xffffffffu, &g, ERR), STORE_OK);
    ck_assert_int_eq(g.id, id2);
    ck_assert_uint_eq(g.genes_len, 10);
    store_chrom_clear(&g);
    ck_assert_int_eq(store_chrom_find_crc(s, 0, 0xffffffffu, &g, ERR), STORE_OK);
    ck_assert_int_eq(g.id, id);
    store_chrom_clear(&g);
    ck_assert_int_eq(store_chrom_find_crc(s, 0, 0xabcdef, &g, ERR), STORE_NOTFOUND);
    ck_assert_ptr_nonnull(strstr(errbuf, "00abcdef"));
    ck_assert_int_eq(store_chrom_get(s, 9999, &g, ERR), STORE_NOTFOUND);

    /* a chromosome of a missing run is refused */
    store_chrom orphan = chrom(4242, 1, 1, 1, genes, 4);
    ck_assert_int_eq(store_chrom_add(s, &orphan, NULL, ERR), STORE_ERROR);
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

static int collect_gen(const store_gen *g, void *ctx)
{
    store_gen *out = ctx;
    out[g->generation] = *g;
    return 0;
}

START_TEST(test_generations_checkpoints)
{
    store *s = open_new("g.db");
    int64_t run = new_run(s, "brev", 2);
    for (int i = 0; i < 3; i++) {
        store_gen g = {.run = run, .generation = i, .best = 100 - i, .average = 110.5 - i,
                       .evaluations = 50, .elapsed = i * 0.5};
        ck_assert_int_eq(store_gen_add(s, &g, ERR), STORE_OK);
    }
    store_gen again = {.run = run, .generation = 2, .best = 7, .average = 8, .evaluations = 9,
                       .elapsed = 10};
    ck_assert_int_eq(store_gen_add(s, &again, ERR), STORE_OK); /* replaces */
    store_gen got[3];
    memset(got, 0, sizeof got);
    ck_assert_int_eq(store_gen_list(s, run, collect_gen, got, ERR), STORE_OK);
    ck_assert_int_eq(got[1].best, 99);
    ck_assert(got[1].average == 109.5);
    ck_assert(got[1].elapsed == 0.5);
    ck_assert_int_eq(got[2].best, 7);
    ck_assert_int_eq(got[2].evaluations, 9);

    uint8_t blob[3000];
    for (size_t i = 0; i < sizeof blob; i++)
        blob[i] = (uint8_t)(i * i);
    ck_assert_int_eq(store_checkpoint_put(s, run, 1, blob, 100, ERR), STORE_OK);
    ck_assert_int_eq(store_checkpoint_put(s, run, 2, blob, sizeof blob, ERR), STORE_OK);
    uint8_t *data = NULL;
    size_t len = 0;
    int64_t gen = -1;
    ck_assert_int_eq(store_checkpoint_get(s, run, &gen, &data, &len, ERR), STORE_OK);
    ck_assert_int_eq(gen, 2);
    ck_assert_uint_eq(len, sizeof blob);
    ck_assert(memcmp(data, blob, len) == 0);
    free(data);
    store_close(s);
    ck_assert_int_eq(raw_int(tpath("g.db"), "SELECT COUNT(*) FROM checkpoints"), 1);
}
END_TEST

static int collect_cc(const store_cc *c, void *ctx)
{
    int *n = ctx;
    ck_assert_int_eq(c->steps, 10 + *n);
    (*n)++;
    return 0;
}

START_TEST(test_cc)
{
    store *s = open_new("cc.db");
    store_run r = store_run_init("cc");
    ck_assert_int_eq(store_run_create(s, &r, ERR), STORE_OK);
    store_cc c = {.run = r.id, .steps = 10, .bound = 9, .schedule = "{\"steps\": [[0, 1]]}"};
    int64_t id = 0;
    ck_assert_int_eq(store_cc_add(s, &c, &id, ERR), STORE_OK);
    c.steps = 11;
    c.bound = STORE_NONE;
    ck_assert_int_eq(store_cc_add(s, &c, NULL, ERR), STORE_OK);
    store_cc g;
    ck_assert_int_eq(store_cc_get(s, id, &g, ERR), STORE_OK);
    ck_assert_int_eq(g.run, r.id);
    ck_assert_int_eq(g.steps, 10);
    ck_assert_int_eq(g.bound, 9);
    ck_assert_str_eq(g.schedule, "{\"steps\": [[0, 1]]}");
    store_cc_clear(&g);
    int n = 0;
    ck_assert_int_eq(store_cc_list(s, r.id, collect_cc, &n, ERR), STORE_OK);
    ck_assert_int_eq(n, 2);
    c.schedule = "not json";
    ck_assert_int_eq(store_cc_add(s, &c, NULL, ERR), STORE_ERROR);
    ck_assert_int_eq(store_cc_get(s, 999, &g, ERR), STORE_NOTFOUND);
    store_close(s);
}
END_TEST

/* ---- --where ------------------------------------------------------------- */

START_TEST(test_filter_table)
{
    static const struct {
        const char *expr;
        int errpos; /* -1: accepted */
    } cases[] = {
        {"lb<100", -1},
        {"  lb < 100 ", -1},
        {"LB<=100 AND ob>=2", -1},
        {"or < 5 or ir = 3", -1}, /* `or` both a metric and an operator */
        {"not (t_e != 4) and (duration<5 or score > -3)", -1},
        {"crc = 0xDEADBEEF", -1},
        {"ib <> ob", -1},
        {"generation == 3", -1},
        {"not not id > 1", -1},
        {"", 0},
        {"lb", 2},
        {"lb <", 4},
        {"lb < 1 2", 7},
        {"foo < 1", 0},
        {"lb < 1 and", 10},
        {"(lb < 1", 7},
        {"lb < 1)", 6},
        {"lb < 1; DROP TABLE runs", 6},
        {"lb<1; DROP TABLE runs", 4},
        {"lb < 'x'", 5},
        {"lb < 1 -- comment", 7},
        {"lb < 1 /* c */", 7},
        {"lb < 12abc", 5},
        {"lb < 0x", 5},
        {"lb < 99999999999999999999", 5},
        {"lb < 1 union select 1", 7},
        {"duration in (1,2)", 9},
        {"lb < ?", 5},
        {"lb < 1 && ob < 2", 7},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int pos = 123;
        errbuf[0] = 0;
        store_filter *f = store_filter_parse(cases[i].expr, &pos, ERR);
        if (cases[i].errpos < 0) {
            ck_assert_msg(f != NULL, "'%s' rejected: %s", cases[i].expr, errbuf);
            ck_assert_int_eq(pos, -1);
        } else {
            ck_assert_msg(f == NULL, "'%s' accepted as %s", cases[i].expr,
                          f ? store_filter_sql(f) : "");
            ck_assert_msg(pos == cases[i].errpos, "'%s': error at %d, expected %d (%s)",
                          cases[i].expr, pos, cases[i].errpos, errbuf);
            char want[32];
            snprintf(want, sizeof want, "position %d", cases[i].errpos);
            ck_assert_msg(strstr(errbuf, want) != NULL, "%s", errbuf);
        }
        store_filter_free(f);
    }
    /* the SQL holds only columns, operators and placeholders */
    store_filter *f = store_filter_parse("or < 5 or not lb >= -7", NULL, ERR);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(store_filter_sql(f), "((c.or_ < ?) OR NOT (c.lb >= ?))");
    ck_assert_int_eq(store_filter_nbinds(f), 2);
    ck_assert_int_eq(store_filter_bind(f, 0), 5);
    ck_assert_int_eq(store_filter_bind(f, 1), -7);
    store_filter_free(f);
    /* deep nesting is bounded */
    char deep[400];
    memset(deep, '(', 200);
    strcpy(deep + 200, "lb<1");
    ck_assert_ptr_null(store_filter_parse(deep, NULL, ERR));

    char sql[64];
    ck_assert_int_eq(store_order_parse("ob", sql, sizeof sql, ERR), STORE_OK);
    ck_assert_str_eq(sql, "c.ob");
    ck_assert_int_eq(store_order_parse(" T_E desc ", sql, sizeof sql, ERR), STORE_OK);
    ck_assert_str_eq(sql, "c.t_e DESC");
    ck_assert_int_eq(store_order_parse("ob; DROP TABLE runs", sql, sizeof sql, ERR), STORE_ERROR);
    ck_assert_ptr_nonnull(strstr(errbuf, "position 2"));
    ck_assert_int_eq(store_order_parse("random()", sql, sizeof sql, ERR), STORE_ERROR);
    ck_assert_int_eq(store_order_parse("", sql, sizeof sql, ERR), STORE_ERROR);
    ck_assert_int_eq(store_order_parse("ob desc asc", sql, sizeof sql, ERR), STORE_ERROR);
}
END_TEST

static int collect_chrom(const store_chrom *c, void *ctx)
{
    struct collect *col = ctx;
    col->ids[col->n] = c->lb;
    col->syn[col->n++] = c->genes ? (int64_t)c->genes_len : -1;
    return 0;
}

START_TEST(test_synonyms_query)
{
    store *s = open_new("q.db");
    int64_t run = new_run(s, "brev", 2), other = new_run(s, "brev", 2);
    uint8_t genes[32];
    /* k = 1..8: scores 700 for k <= 2, 600 for the rest; lb = 5k */
    for (int k = 1; k <= 8; k++) {
        store_chrom c = chrom(run, (uint32_t)k, k <= 2 ? 700 : 600, k, genes, sizeof genes);
        add(s, &c);
        c.run = other;
        c.score = 100; /* the other run's synonyms must not leak in */
        add(s, &c);
    }
    store_filter *f = store_filter_parse("lb < 30 and not ob = 16", NULL, ERR);
    ck_assert_ptr_nonnull(f);
    store_chrom_query q = {.run = run, .synonyms_only = true, .where = f, .order_by = "lb desc",
                           .with_genes = true};
    struct collect col = {0};
    ck_assert_int_eq(store_chrom_list(s, &q, collect_chrom, &col, ERR), STORE_OK);
    ck_assert_int_eq(col.n, 2); /* k = 3, 5 (k = 4 has ob = 16) */
    ck_assert_int_eq(col.ids[0], 25);
    ck_assert_int_eq(col.ids[1], 15);
    ck_assert_int_eq(col.syn[0], (int64_t)sizeof genes);
    int64_t n = 0;
    ck_assert_int_eq(store_chrom_count(s, &q, &n, ERR), STORE_OK);
    ck_assert_int_eq(n, 2);
    store_filter_free(f);

    q.where = NULL;
    q.order_by = NULL;
    q.limit = 3;
    q.with_genes = false;
    col.n = 0;
    ck_assert_int_eq(store_chrom_list(s, &q, collect_chrom, &col, ERR), STORE_OK);
    ck_assert_int_eq(col.n, 3);
    ck_assert_int_eq(col.ids[0], 15);
    ck_assert_int_eq(col.syn[0], -1);

    /* a harmless but hostile-looking value: parsed as a number, bound */
    f = store_filter_parse("lb > -1", NULL, ERR);
    q = (store_chrom_query){.run = run, .where = f};
    ck_assert_int_eq(store_chrom_count(s, &q, &n, ERR), STORE_OK);
    ck_assert_int_eq(n, 8);
    store_filter_free(f);

    q.order_by = "lb; DELETE FROM runs";
    ck_assert_int_eq(store_chrom_list(s, &q, collect_chrom, &col, ERR), STORE_ERROR);
    store_run r;
    ck_assert_int_eq(store_run_get(s, run, &r, ERR), STORE_OK);
    ck_assert_int_eq(r.synonyms, 6);
    store_run_clear(&r);
    store_close(s);
    ck_assert_int_eq(raw_int(tpath("q.db"), "SELECT COUNT(*) FROM runs"), 2);
    ck_assert_int_eq(raw_int(tpath("q.db"), "SELECT COUNT(*) FROM synonyms WHERE run = 1"), 6);
}
END_TEST

/* ---- merge --------------------------------------------------------------- */

static void fill(store *s, const char *traffic, int nchrom, int64_t *run_out)
{
    int64_t run = new_run(s, traffic, 2);
    uint8_t genes[100];
    for (int k = 0; k < nchrom; k++) {
        store_chrom c = chrom(run, (uint32_t)(k + 1), 500 + k, k, genes, sizeof genes);
        add(s, &c);
        store_gen g = {.run = run, .generation = k, .best = 500, .average = 510, .evaluations = 50,
                       .elapsed = k};
        ck_assert_int_eq(store_gen_add(s, &g, ERR), STORE_OK);
    }
    ck_assert_int_eq(store_checkpoint_put(s, run, nchrom, traffic, strlen(traffic), ERR), STORE_OK);
    store_cc cc = {.run = run, .steps = 3, .bound = 2, .schedule = "[]"};
    ck_assert_int_eq(store_cc_add(s, &cc, NULL, ERR), STORE_OK);
    *run_out = run;
}

static int64_t count(const char *db, const char *table)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM %s", table);
    return raw_int(db, sql);
}

START_TEST(test_merge)
{
    int64_t a1, a2, b1;
    store *a = open_new("A.db");
    fill(a, "brev", 3, &a1);
    fill(a, "shuffle", 2, &a2);
    store_run child = store_run_init("replay"); /* derived from a2 */
    child.parent = a2;
    ck_assert_int_eq(store_run_create(a, &child, ERR), STORE_OK);
    store *b = open_new("B.db");
    fill(b, "transpose", 4, &b1);
    store_close(a);

    store_merge_stats st;
    ck_assert_msg(store_merge(b, tpath("A.db"), &st, ERR) == STORE_OK, "%s", errbuf);
    ck_assert_int_eq(st.runs_added, 3);
    ck_assert_int_eq(st.runs_skipped, 0);
    ck_assert_int_eq(st.chromosomes, 5);
    ck_assert_int_eq(st.generations, 5);
    ck_assert_int_eq(st.checkpoints, 2);
    ck_assert_int_eq(st.schedules, 2);
    /* twice: nothing new */
    ck_assert_int_eq(store_merge(b, tpath("A.db"), &st, ERR), STORE_OK);
    ck_assert_int_eq(st.runs_added, 0);
    ck_assert_int_eq(st.runs_skipped, 3);
    ck_assert_int_eq(st.chromosomes, 0);
    /* into itself: nothing */
    ck_assert_int_eq(store_merge(b, tpath("B.db"), &st, ERR), STORE_OK);
    ck_assert_int_eq(st.runs_added, 0);

    /* content survived: the brev run's chromosome genes and the parent link */
    struct collect runs = {0};
    store_run_filter f = {.traffic = "brev"};
    ck_assert_int_eq(store_runs_list(b, &f, collect_run, &runs, ERR), STORE_OK);
    ck_assert_int_eq(runs.n, 1);
    ck_assert_int_ne(runs.ids[0], a1); /* new id */
    store_chrom g;
    ck_assert_int_eq(store_chrom_find_crc(b, runs.ids[0], 2, &g, ERR), STORE_OK);
    uint8_t genes[100];
    store_chrom want = chrom(runs.ids[0], 2, 501, 1, genes, sizeof genes);
    ck_assert_uint_eq(g.genes_len, want.genes_len);
    ck_assert(memcmp(g.genes, genes, sizeof genes) == 0);
    ck_assert_int_eq(g.lb, want.lb);
    store_chrom_clear(&g);
    uint8_t *data;
    size_t len;
    ck_assert_int_eq(store_checkpoint_get(b, runs.ids[0], NULL, &data, &len, ERR), STORE_OK);
    ck_assert_uint_eq(len, 4);
    ck_assert(memcmp(data, "brev", 4) == 0);
    free(data);
    int64_t child_here = 0, shuffle_here = 0;
    ck_assert_int_eq(store_run_find_uuid(b, child.uuid, &child_here, ERR), STORE_OK);
    store_run r;
    ck_assert_int_eq(store_run_get(b, child_here, &r, ERR), STORE_OK);
    store_run_filter fs = {.traffic = "shuffle"};
    struct collect sh = {0};
    ck_assert_int_eq(store_runs_list(b, &fs, collect_run, &sh, ERR), STORE_OK);
    shuffle_here = sh.ids[0];
    ck_assert_int_eq(r.parent, shuffle_here);
    store_run_clear(&r);
    store_close(b);

    ck_assert_int_eq(count(tpath("B.db"), "runs"), 4);
    ck_assert_int_eq(count(tpath("B.db"), "chromosomes"), 9);
    ck_assert_int_eq(count(tpath("B.db"), "generations"), 9);
    ck_assert_int_eq(count(tpath("B.db"), "checkpoints"), 3);
    ck_assert_int_eq(count(tpath("B.db"), "cc_schedules"), 3);

    /* and back: A gets only B's own run; both now hold the same union */
    a = store_open(tpath("A.db"), 0, ERR);
    ck_assert_int_eq(store_merge(a, tpath("B.db"), &st, ERR), STORE_OK);
    ck_assert_int_eq(st.runs_added, 1);
    ck_assert_int_eq(st.runs_skipped, 3);
    store_close(a);
    ck_assert_int_eq(count(tpath("A.db"), "runs"), 4);
    ck_assert_int_eq(count(tpath("A.db"), "chromosomes"), 9);
    ck_assert_int_eq(raw_int(tpath("A.db"), "SELECT COUNT(*) FROM pragma_foreign_key_check"), 0);

    /* bad sources: nothing written */
    b = store_open(tpath("B.db"), 0, ERR);
    ck_assert_int_eq(store_merge(b, tpath("missing.db"), &st, ERR), STORE_ERROR);
    ck_assert_ptr_nonnull(strstr(errbuf, "missing.db"));
    ck_assert(!exists(tpath("missing.db")));
    store_close(b);
    ck_assert_int_eq(count(tpath("B.db"), "runs"), 4);
    store *ro = store_open(tpath("B.db"), STORE_READONLY, ERR);
    ck_assert_int_eq(store_merge(ro, tpath("A.db"), &st, ERR), STORE_ERROR);
    store_close(ro);
}
END_TEST

START_TEST(test_merge_odd_path)
{
    /* a file name that needs URI escaping */
    store *a = open_new("we?ird #name%.db");
    int64_t run;
    fill(a, "brev", 1, &run);
    store_close(a);
    store *b = open_new("b.db");
    store_merge_stats st;
    ck_assert_msg(store_merge(b, tpath("we?ird #name%.db"), &st, ERR) == STORE_OK, "%s", errbuf);
    ck_assert_int_eq(st.runs_added, 1);
    store_close(b);
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

static int count_cb(const store_chrom *c, void *ctx)
{
    (void)c;
    ++*(int *)ctx;
    return 0;
}

/* A chromosome whose genes or recorded CRC-32 changed after it was written is
 * refused by every read that returns genes (issue 26: it replayed). */
START_TEST(test_chrom_signature_checked)
{
    store *s = open_new("sig.db");
    int64_t run = new_run(s, "brev", 1);
    uint8_t g[64];
    store_chrom c = chrom(run, 7, 100, 1, g, sizeof g);
    int64_t id = add(s, &c);
    store_close(s);
    /* The same genes, one byte changed, compressed as the store does. */
    uint8_t g2[64];
    memcpy(g2, g, sizeof g);
    g2[12] ^= 1;
    uint8_t z[256];
    uLongf zn = sizeof z;
    ck_assert_int_eq(compress(z, &zn, g2, sizeof g2), Z_OK);
    char want[64];
    snprintf(want, sizeof want, "database is damaged: chromosome %lld: ", (long long)id);
    for (int k = 0; k < 2; k++) {
        sqlite3 *db;
        ck_assert_int_eq(sqlite3_open(tpath("sig.db"), &db), SQLITE_OK);
        sqlite3_stmt *st;
        ck_assert_int_eq(sqlite3_prepare_v2(db, k == 0 ? "UPDATE chromosomes SET crc = 8"
                                                       : "UPDATE chromosomes SET crc = 7, genes = ?",
                                            -1, &st, NULL), SQLITE_OK);
        if (k == 1) ck_assert_int_eq(sqlite3_bind_blob(st, 1, z, (int)zn, SQLITE_STATIC), SQLITE_OK);
        ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
        sqlite3_finalize(st);
        sqlite3_close(db);
        s = store_open(tpath("sig.db"), STORE_READONLY, ERR);
        ck_assert_ptr_nonnull(s);
        store_chrom out;
        ck_assert_int_eq(store_chrom_get(s, id, &out, ERR), STORE_ERROR);
        ck_assert_msg(strstr(errbuf, want), "%s", errbuf);
        ck_assert_int_eq(store_last_fault(s), STORE_FAULT_DAMAGED);
        ck_assert_int_eq(store_chrom_find_crc(s, run, k == 0 ? 8 : 7, &out, ERR), STORE_ERROR);
        ck_assert_msg(strstr(errbuf, want), "%s", errbuf);
        int n = 0;
        store_chrom_query q = { .run = run, .with_genes = true };
        ck_assert_int_eq(store_chrom_list(s, &q, count_cb, &n, ERR), STORE_ERROR);
        ck_assert_int_eq(n, 0);
        /* Without genes there is nothing to check: the row is listed. */
        q.with_genes = false;
        ck_assert_int_eq(store_chrom_list(s, &q, count_cb, &n, ERR), STORE_OK);
        ck_assert_int_eq(n, 1);
        store_close(s);
    }
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

START_TEST(test_damaged_blobs)
{
    store *s = open_new("d.db");
    int64_t run = new_run(s, "brev", 1);
    uint8_t g[64];
    store_chrom c = chrom(run, 7, 100, 1, g, sizeof g);
    int64_t id = add(s, &c);
    ck_assert_int_eq(store_checkpoint_put(s, run, 3, g, sizeof g, ERR), STORE_OK);
    store_close(s);
    raw_exec(tpath("d.db"), "CREATE TABLE orig AS SELECT genes FROM chromosomes");
    /* A size claim beyond zlib's ratio, garbage data, a short claim. */
    static const char *const sql[] = {
        "UPDATE chromosomes SET genes_len = 1000000000000",
        "UPDATE chromosomes SET genes = x'00112233', genes_len = 64",
        "UPDATE chromosomes SET genes_len = 63",
    };
    for (size_t k = 0; k < sizeof sql / sizeof *sql; k++) {
        raw_exec(tpath("d.db"), "UPDATE chromosomes SET genes = (SELECT genes FROM orig), genes_len = 64");
        sqlite3 *db;
        ck_assert_int_eq(sqlite3_open(tpath("d.db"), &db), SQLITE_OK);
        ck_assert_int_eq(sqlite3_exec(db, sql[k], NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(db);
        s = store_open(tpath("d.db"), STORE_READONLY, ERR);
        ck_assert_ptr_nonnull(s);
        store_chrom out;
        ck_assert_int_eq(store_chrom_get(s, id, &out, ERR), STORE_ERROR);
        ck_assert_msg(strstr(errbuf, "database is damaged"), "%s", errbuf);
        ck_assert_int_eq(store_last_fault(s), STORE_FAULT_DAMAGED);
        store_close(s);
    }
    raw_exec(tpath("d.db"), "UPDATE checkpoints SET data_len = 1 << 40");
    s = store_open(tpath("d.db"), STORE_READONLY, ERR);
    uint8_t *blob = NULL;
    size_t len = 0;
    ck_assert_int_eq(store_checkpoint_get(s, run, NULL, &blob, &len, ERR), STORE_ERROR);
    ck_assert_ptr_null(blob);
    ck_assert_int_eq(store_last_fault(s), STORE_FAULT_DAMAGED);
    ck_assert_int_eq(store_quick_check(s, ERR), STORE_OK);
    store_close(s);
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
    tcase_add_test(t, test_runs);
    tcase_add_test(t, test_runs_list_best);
    tcase_add_test(t, test_chrom_roundtrip);
    tcase_add_test(t, test_transactions);
    tcase_add_test(t, test_generations_checkpoints);
    tcase_add_test(t, test_cc);
    tcase_add_test(t, test_filter_table);
    tcase_add_test(t, test_synonyms_query);
    tcase_add_test(t, test_merge);
    tcase_add_test(t, test_merge_odd_path);
    tcase_add_test(t, test_kill_mid_transaction);
    tcase_add_test(t, test_fault_kinds);
    tcase_add_test(t, test_readonly_leaves_nothing);
    tcase_add_test(t, test_damaged_blobs);
    tcase_add_test(t, test_chrom_signature_checked);
    tcase_add_test(t, test_runs_best_randperm_seed);
    tcase_add_test(t, test_damaged_schema_one_line);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return testutil_run(store_suite());
}
