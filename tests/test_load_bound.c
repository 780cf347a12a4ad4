/* The GA with and without the load bound of sim_run_cutoff (the skip that
 * stops a rejected child once the links' remaining load proves it cannot
 * match its parent; sim_params.no_load_bound turns it off): on brev, brot
 * and bcmp, two seeds, two and three slices, the runs must give the same
 * best, the same generation rows and the same recorded chromosomes. */
#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/ga.h"
#include "store/store.h"
#include "tests/testutil.h"
#include "traffic/traffic.h"

#define MAXROWS 4096

/* What a run left in the store, in the order the store lists it. */
typedef struct {
    store_gen gen[MAXROWS];
    int ngen;
    store_chrom chrom[MAXROWS];
    uint8_t *genes[MAXROWS];
    int nchrom;
} rows;

static int take_gen(const store_gen *g, void *arg)
{
    rows *r = arg;
    ck_assert_int_lt(r->ngen, MAXROWS);
    r->gen[r->ngen++] = *g;
    return 0;
}

static int take_chrom(const store_chrom *c, void *arg)
{
    rows *r = arg;
    ck_assert_int_lt(r->nchrom, MAXROWS);
    r->chrom[r->nchrom] = *c;
    r->genes[r->nchrom] = malloc(c->genes_len);
    ck_assert_ptr_nonnull(r->genes[r->nchrom]);
    memcpy(r->genes[r->nchrom], c->genes, c->genes_len);
    r->nchrom++;
    return 0;
}

/* One local-search run into db; its rows, best chromosome and signature. */
static void run_ga(store *db, const char *tname, uint64_t seed, int slices, int no_load_bound, rows *out,
                   sim_metrics *best, uint32_t *crc, int64_t *evals)
{
    char err[256];
    traffic *t = traffic_new(tname, 8, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    ga_params gp;
    ga_params_default(&gp);
    ga_params_for_algo(&gp, GA_ALGO_LOCAL);
    gp.generations = 60;
    gp.threads = 2;
    gp.seed = seed;
    gp.stack_vmax = 30;
    sim_params sp;
    sim_params_default(&sp);
    sp.n = 8;
    sp.slices = slices;
    sp.no_load_bound = no_load_bound;
    ga *g = ga_new(&gp, &sp, t->dest, tname, db, "test", "{}", NULL, err, sizeof err);
    ck_assert_msg(g != NULL, "%s", err);
    ck_assert_msg(ga_start(g, err, sizeof err) == 0, "%s", err);
    int more;
    while ((more = ga_step(g, err, sizeof err)) > 0) {}
    ck_assert_msg(more == 0, "%s", err);
    ck_assert_msg(ga_finish(g, err, sizeof err) == 0, "%s", err);
    ga_best(g, best, crc);
    ga_progress pr;
    ga_get_progress(g, &pr);
    *evals = pr.evals;
    int64_t run = ga_run_id(g);
    memset(out, 0, sizeof *out);
    ck_assert_int_eq(store_gen_list(db, run, take_gen, out, err, sizeof err), STORE_OK);
    store_chrom_query q = { .run = run, .with_genes = true };
    ck_assert_int_eq(store_chrom_list(db, &q, take_chrom, out, err, sizeof err), STORE_OK);
    ga_free(g);
    traffic_free(t);
}

static void free_rows(rows *r)
{
    for (int k = 0; k < r->nchrom; k++) free(r->genes[k]);
}

START_TEST(same_search_with_and_without)
{
    char path[TESTUTIL_PATH_MAX];
    testutil_temp_db(path, "lb");
    char err[256];
    store *db = store_open(path, STORE_CREATE, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    const char *patterns[] = { "brev", "brot", "bcmp" };
    static rows a, b;
    for (int k = 0; k < 3; k++)
        for (uint64_t seed = 1; seed <= 2; seed++)
            for (int slices = 2; slices <= 3; slices++) {
                sim_metrics ma, mb;
                uint32_t ca, cb;
                int64_t ea, eb;
                run_ga(db, patterns[k], seed, slices, 0, &a, &ma, &ca, &ea);
                run_ga(db, patterns[k], seed, slices, 1, &b, &mb, &cb, &eb);
                const char *what = patterns[k];
                ck_assert_msg(ca == cb, "%s seed %d S %d: best %08x with the bound, %08x without", what, (int)seed,
                              slices, ca, cb);
                ck_assert_mem_eq(&ma, &mb, sizeof ma);
                ck_assert_int_eq(ea, eb);
                ck_assert_int_eq(a.ngen, b.ngen);
                ck_assert_int_gt(a.ngen, 50);
                for (int r = 0; r < a.ngen; r++) {
                    ck_assert_int_eq(a.gen[r].generation, b.gen[r].generation);
                    ck_assert_int_eq(a.gen[r].best, b.gen[r].best);
                    ck_assert(a.gen[r].average == b.gen[r].average);
                    ck_assert_int_eq(a.gen[r].evaluations, b.gen[r].evaluations);
                }
                ck_assert_int_eq(a.nchrom, b.nchrom);
                ck_assert_int_gt(a.nchrom, 0);
                for (int r = 0; r < a.nchrom; r++) {
                    const store_chrom *x = &a.chrom[r], *y = &b.chrom[r];
                    ck_assert_int_eq(x->generation, y->generation);
                    ck_assert_uint_eq(x->crc, y->crc);
                    ck_assert_int_eq(x->score, y->score);
                    ck_assert_int_eq(x->duration, y->duration);
                    ck_assert_int_eq(x->t_d, y->t_d);
                    ck_assert_int_eq(x->t_e, y->t_e);
                    ck_assert_int_eq(x->ir, y->ir);
                    ck_assert_int_eq(x->or_, y->or_);
                    ck_assert_int_eq(x->ib, y->ib);
                    ck_assert_int_eq(x->ob, y->ob);
                    ck_assert_int_eq(x->lb, y->lb);
                    ck_assert_int_eq(x->is_synonym, y->is_synonym);
                    ck_assert_uint_eq(x->genes_len, y->genes_len);
                    ck_assert_mem_eq(a.genes[r], b.genes[r], x->genes_len);
                }
                free_rows(&a);
                free_rows(&b);
            }
    store_close(db);
    testutil_remove_db(path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("load_bound");
    TCase *tc = tcase_create("ga");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, same_search_with_and_without);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
