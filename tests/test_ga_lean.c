/* The GA's lean runs (sim_run_lean, when ga_score_lean says its score reads
 * none of te, lb, ir, or_, ib, ob): the rule at its edge, for every fitness
 * and sort key, and the best's metrics, which must still be every metric of
 * a full run. */
#include <check.h>

#include <stdlib.h>

#include "ga/ga.h"
#include "sim/sim.h"
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

/* A lean search's best comes with every metric: those of a full run of the
 * best chromosome (the GA computes them by a run of its own). */
START_TEST(best_has_every_metric)
{
    char err[256];
    traffic *t = traffic_new("brev", 8, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    ga_params gp;
    ga_params_default(&gp);
    gp.generations = 300;
    gp.threads = 1;
    gp.stack_vmax = 40;
    ck_assert(ga_score_lean(&gp));
    sim_params sp = testutil_params(8, 8, 2);
    ga *g = ga_new(&gp, &sp, t->dest, "brev", NULL, "test", "{}", NULL, err, sizeof err);
    ck_assert_msg(g && ga_start(g, err, sizeof err) == 0, "%s", err);
    while (ga_step(g, err, sizeof err) > 0) {}
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

int main(void)
{
    Suite *s = suite_create("ga_lean");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lean_iff_score_ignores_the_six);
    tcase_add_test(tc, best_has_every_metric);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
