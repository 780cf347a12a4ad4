/* Tests of store/ (3 of 3): chromosomes (recording, reading, the
 * signature checked on every read, damaged blobs refused), the --where
 * language and the synonym listings it filters. */
#include <check.h>

#include "tests/testutil.h"
#include "tests/store_testutil.h"
#include <sqlite3.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

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
    Suite *s = suite_create("store_chrom");
    TCase *t = tcase_create("store_chrom");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 30);
    tcase_add_test(t, test_chrom_roundtrip);
    tcase_add_test(t, test_filter_table);
    tcase_add_test(t, test_synonyms_query);
    tcase_add_test(t, test_damaged_blobs);
    tcase_add_test(t, test_chrom_signature_checked);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return testutil_run(store_suite());
}
