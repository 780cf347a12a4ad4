/* Tests of store/ (2 of 3): runs (creating, updating, listing, the best
 * per pattern), generations, checkpoints, cc schedules, and merging one
 * database into another. */
#include <check.h>

#include "tests/testutil.h"
#include "tests/store_testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

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

static Suite *store_suite(void)
{
    Suite *s = suite_create("store_runs");
    TCase *t = tcase_create("store_runs");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 30);
    tcase_add_test(t, test_runs);
    tcase_add_test(t, test_runs_list_best);
    tcase_add_test(t, test_generations_checkpoints);
    tcase_add_test(t, test_cc);
    tcase_add_test(t, test_merge);
    tcase_add_test(t, test_merge_odd_path);
    tcase_add_test(t, test_runs_best_randperm_seed);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return testutil_run(store_suite());
}
