/* The GA's lean runs (sim_run_lean, when ga_score_lean says its score reads
 * none of te, lb, ir, or_, ib, ob): the rule at its edge, for every fitness
 * and sort key, and the best's metrics, which must still be every metric of
 * a full run, as must every chromosome it stores. */
#include <check.h>

#include <stdlib.h>
#include <unistd.h>

#include "ga/chrom.h"
#include "ga/ga.h"
#include "sim/sim.h"
#include "store/store.h"
#include "tests/testutil.h"
#include "traffic/traffic.h"

/* ga_score_lean is 1 exactly when changing the six metrics a lean run
 * leaves 0 cannot change the score: for every fitness and key, metrics that
 * differ in all six (each to a value the score would notice: te, lb, ir,
 * or_, ib, ob and ib + ob all change) score alike iff the rule says lean. */
START_TEST(lean_iff_score_ignores_the_six)
{
    const sim_metrics a = { .status = SIM_OK, .duration = 100, .te = 50, .lb = 30, .ir = 3, .or_ = 4, .ib = 5,
                            .ob = 6, .late = 2, .late_sum = 300, .tail_profile = 0x010203 };
    sim_metrics b = a;
    b.te = 70; b.lb = 10; b.ir = 9; b.or_ = 1; b.ib = 2; b.ob = 8;
    int lean = 0;
    for (int f = 0; f < GA_FIT_COUNT; f++)
        for (int k = 0; k < GA_KEY_COUNT; k++) {
            ga_params gp;
            ga_params_default(&gp);
            gp.fitness = (ga_fitness)f;
            gp.sort_key = (ga_sort_key)k;
            const int same = ga_score(&gp, &a) == ga_score(&gp, &b);
            ck_assert_msg(ga_score_lean(&gp) == same, "fitness %s, key %s: lean %d but the six %s the score",
                          ga_fitness_names[f], ga_key_names[k], ga_score_lean(&gp), same ? "do not change" : "change");
            lean += same;
        }
    /* Duration with none, late, tail, late3, late-sum: five. */
    ck_assert_int_eq(lean, 5);
}
END_TEST

/* A default (lean) search of 300 generations on 8x8 brev, two slices, on
 * `threads` threads, into db (NULL: none), run to its end. */
static ga *lean_search(const traffic *t, const sim_params *sp, int threads, store *db)
{
    char err[256];
    ga_params gp;
    ga_params_default(&gp);
    gp.generations = 300;
    gp.threads = threads;
    gp.stack_vmax = 40;
    ck_assert(ga_score_lean(&gp));
    ga *g = ga_new(&gp, sp, t->dest, "brev", db, "test", "{}", NULL, err, sizeof err);
    ck_assert_msg(g && ga_start(g, err, sizeof err) == 0, "%s", err);
    int more;
    while ((more = ga_step(g, err, sizeof err)) > 0) {}
    ck_assert_msg(more == 0 && ga_finish(g, err, sizeof err) == 0, "%s", err);
    return g;
}

/* A lean search's best comes with every metric: those of a full run of the
 * best chromosome (the GA computes them by a run of its own). */
START_TEST(best_has_every_metric)
{
    char err[256];
    traffic *t = traffic_new("brev", 8, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    sim_params sp = testutil_params(8, 8, 2);
    ga *g = lean_search(t, &sp, 1, NULL);
    sim_metrics best, full;
    const sim_config *c = ga_best(g, &best, NULL);
    ck_assert_ptr_nonnull(c);
    sim *s = sim_new(&sp, t->dest, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    sim_run(s, c, &full);
    testutil_same_metrics(&best, &full, "the best", "GA", "full run");
    ck_assert_int_gt(full.lb + full.ir + full.or_ + full.ib + full.ob, 0); /* not all 0 by chance */
    ck_assert_int_gt(full.te, 0);
    sim_free(s);
    ga_free(g);
    traffic_free(t);
}
END_TEST

/* What a lean search stores: each chromosome's ir, or_, ib, ob and lb are
 * those of a full run of its genes. */
typedef struct {
    sim *s;
    sim_config *c;
    int n, checked, nonzero;
} stored_check;

static int check_stored(const store_chrom *sc, void *arg)
{
    stored_check *x = arg;
    char err[256];
    ck_assert_msg(chrom_decode(x->c, sc->genes, sc->genes_len, err, sizeof err) == 0, "%s", err);
    sim_metrics m;
    sim_run(x->s, x->c, &m);
    ck_assert_int_eq(sc->duration, m.duration);
    ck_assert_msg(sc->ir == m.ir && sc->or_ == m.or_ && sc->ib == m.ib && sc->ob == m.ob && sc->lb == m.lb,
                  "chromosome %lld: stored ir %lld or %lld ib %lld ob %lld lb %lld, a full run's %lld %lld %lld %lld %lld",
                  (long long)sc->id, (long long)sc->ir, (long long)sc->or_, (long long)sc->ib, (long long)sc->ob,
                  (long long)sc->lb, (long long)m.ir, (long long)m.or_, (long long)m.ib, (long long)m.ob,
                  (long long)m.lb);
    x->checked++;
    x->nonzero += m.lb + m.ir + m.or_ + m.ib + m.ob > 0;
    return 0;
}

START_TEST(stored_chromosomes_have_every_metric)
{
    char path[TESTUTIL_PATH_MAX], err[256];
    testutil_temp_db(path, "lean");
    store *db = store_open(path, STORE_CREATE, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    traffic *t = traffic_new("brev", 8, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    sim_params sp = testutil_params(8, 8, 2);
    ga *g = lean_search(t, &sp, 2, db);
    stored_check x = { .s = sim_new(&sp, t->dest, NULL, err, sizeof err), .c = sim_config_new(64, 3, 0, 8) };
    ck_assert(x.s && x.c);
    store_chrom_query q = { .run = ga_run_id(g), .with_genes = true };
    ck_assert_int_eq(store_chrom_list(db, &q, check_stored, &x, err, sizeof err), STORE_OK);
    ck_assert_int_gt(x.checked, 1);
    ck_assert_int_gt(x.nonzero, 0);
    sim_config_free(x.c);
    sim_free(x.s);
    ga_free(g);
    traffic_free(t);
    store_close(db);
    unlink(path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ga_lean");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lean_iff_score_ignores_the_six);
    tcase_add_test(tc, best_has_every_metric);
    tcase_add_test(tc, stored_chromosomes_have_every_metric);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
