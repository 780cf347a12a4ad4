/* Tests of what an island gives and takes (ga/island.c), without MPI: the
 * emigrant is the island's best; an immigrant is considered for the best and
 * replaces the worst member when no worse (strictly better under the paper's
 * GA); bytes that are no chromosome of the network are refused and change
 * nothing. */
#include <check.h>

#include "tests/testutil.h"
#include <stdlib.h>
#include <zlib.h>
#include <string.h>

#include "ga/chrom.h"
#include "ga/ga_internal.h"
#include "ga/operators.h"
#include "ga/ga.h"
#include "ga/island.h"
#include "sim/decisions.h"
#include "traffic/traffic.h"

static ga *island(ga_algo algo, int n, uint64_t seed, int gens, traffic **tout)
{
    ga_params gp;
    ga_params_default(&gp);
    ga_params_for_algo(&gp, algo);
    gp.pop = 6;
    gp.generations = gens;
    gp.train = 2;
    gp.threads = 1;
    gp.seed = seed;
    gp.stack_vmax = 40;
    sim_params sp;
    sim_params_default(&sp);
    sp.n = n;
    sp.slices = 2;
    char err[256];
    traffic *t = traffic_new("shfl", n, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    ga *g = ga_new(&gp, &sp, t->dest, "shfl", NULL, "test", "{}", NULL, err, sizeof err);
    ck_assert_msg(g != NULL, "%s", err);
    ck_assert_msg(ga_start(g, err, sizeof err) == 0, "%s", err);
    int more;
    for (int i = 0; i < gens && (more = ga_step(g, err, sizeof err)) > 0; i++) {}
    *tout = t;
    return g;
}

/* The emigrant is the canonical encoding of the best, signature included. */
START_TEST(emigrant_is_the_best)
{
    traffic *t;
    ga *g = island(GA_ALGO_LOCAL, 4, 1, 10, &t);
    size_t len = ga_island_size(g);
    ck_assert_uint_eq(len, chrom_encoded_size(4, 3));
    uint8_t *buf = malloc(len);
    ga_island_emigrant(g, buf);
    sim_metrics m;
    uint32_t crc;
    ga_best(g, &m, &crc);
    ck_assert_uint_eq(crc32(0, buf, (unsigned)len), crc);
    free(buf);
    ga_free(g);
    traffic_free(t);
}
END_TEST

/* A random paper population is worse than a searched best: the immigrant
 * replaces a member, becomes the island's best, and lowers the average. */
START_TEST(better_immigrant_replaces_worst)
{
    traffic *ta, *tb;
    ga *a = island(GA_ALGO_LOCAL, 4, 1, 30, &ta);
    ga *b = island(GA_ALGO_PAPER, 4, 2, 0, &tb);
    sim_metrics ma, mb;
    uint32_t ca, cb;
    ga_best(a, &ma, &ca);
    ga_best(b, &mb, &cb);
    ga_progress before, after;
    ga_get_progress(b, &before);
    uint8_t *buf = malloc(ga_island_size(a));
    ga_island_emigrant(a, buf);
    char err[256];
    ck_assert_int_eq(ga_island_immigrant(b, buf, ga_island_size(a), err, sizeof err), 1);
    ga_get_progress(b, &after);
    sim_metrics m;
    uint32_t c;
    ga_best(b, &m, &c);
    ck_assert_int_eq(m.duration, ma.duration < mb.duration ? ma.duration : mb.duration);
    if (ma.duration < mb.duration) ck_assert_uint_eq(c, ca);
    ck_assert(after.average < before.average);
    ck_assert_int_gt(after.evals, before.evals); /* its run, and the single-slice run of its record */
    free(buf);
    ga_free(a); ga_free(b);
    traffic_free(ta); traffic_free(tb);
}
END_TEST

/* Importing an island's own best once per member makes every member as good
 * as the best; one more import is then refused by the paper's strict
 * replacement and accepted by the local search's "no worse". */
START_TEST(equal_immigrant_strict_for_paper_only)
{
    for (int algo = 0; algo < 2; algo++) {
        traffic *t;
        ga *g = island((ga_algo)algo, 4, 3, 0, &t);
        size_t len = ga_island_size(g);
        uint8_t *buf = malloc(len);
        char err[256];
        for (int k = 0; k < 6; k++) {
            ga_island_emigrant(g, buf);
            ck_assert_int_ge(ga_island_immigrant(g, buf, len, err, sizeof err), 0);
        }
        ga_progress p;
        ga_get_progress(g, &p);
        ck_assert_double_eq_tol(p.average, (double)p.best_duration, 1e-9);
        ga_island_emigrant(g, buf);
        ck_assert_int_eq(ga_island_immigrant(g, buf, len, err, sizeof err), algo == GA_ALGO_PAPER ? 0 : 1);
        free(buf);
        ga_free(g);
        traffic_free(t);
    }
}
END_TEST

/* An immigrant that replaces a member brings its own run's decisions
 * (sim/decisions.h): a child of the new member that the slot's record
 * proves to repeat must run exactly as the new member.  One lineage on 8x8
 * brev takes a migrant from another island; then 300 children of the
 * migrant, each of one to three moves, are checked on the slot's record
 * and every proven one is simulated. */
START_TEST(immigrant_brings_its_decisions)
{
    char err[256];
    traffic *t = traffic_new("brev", 8, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    ga *g[2];
    for (int k = 0; k < 2; k++) {
        ga_params gp;
        ga_params_default(&gp);
        gp.pop = 1;
        gp.generations = 400;
        gp.threads = 1;
        gp.seed = (uint64_t)k + 3;
        gp.stack_vmax = 40;
        sim_params sp;
        sim_params_default(&sp);
        sp.n = 8;
        sp.slices = 2;
        g[k] = ga_new(&gp, &sp, t->dest, "brev", NULL, "test", "{}", NULL, err, sizeof err);
        ck_assert_msg(g[k] && ga_start(g[k], err, sizeof err) == 0, "%s", err);
        for (int i = 0; i < (k ? 50 : 300); i++) ck_assert_int_gt(ga_step(g[k], err, sizeof err), 0);
    }
    size_t len = ga_island_size(g[0]);
    uint8_t *buf = malloc(len);
    ga_island_emigrant(g[0], buf);
    ck_assert_int_eq(ga_island_immigrant(g[1], buf, len, err, sizeof err), 1);
    ga *h = g[1];
    ck_assert_ptr_nonnull(h->rp.dec);
    sim *s = sim_new(&h->sp, t->dest, NULL, err, sizeof err);
    sim_config *c = sim_config_new(h->nodes, h->sp.vcs, 0, 8);
    ck_assert(s && c);
    static const double mix[4] = { 0.05, 0.30, 0.20, 0.45 };
    int proven = 0;
    for (int k = 0; k < 300; k++) {
        sim_config_copy(c, h->pop[0]);
        ga_mutate_local_mix(c, &h->space, h->eff, 1 + k % 3, mix, &h->rng);
        if (!sim_decisions_repeat(h->rp.dec[0], h->pop[0], c)) continue;
        proven++;
        /* The GA's runs count what its score reads (sim_run_lean), and so
         * does the migrant's metrics: every one the same. */
        sim_metrics m;
        sim_run_lean(s, c, INT64_MAX, NULL, &m);
        char what[64];
        snprintf(what, sizeof what, "child %d proven to repeat the migrant", k);
        testutil_same_metrics(&m, &h->pop_m[0], what, "child", "migrant");
    }
    ck_assert_int_gt(proven, 0);
    sim_config_free(c);
    sim_free(s);
    free(buf);
    ga_free(g[0]);
    ga_free(g[1]);
    traffic_free(t);
}
END_TEST

/* Bytes of the wrong length, of another network size or damaged: refused,
 * nothing changes. */
START_TEST(bad_immigrants_refused)
{
    traffic *t4, *t8;
    ga *g = island(GA_ALGO_LOCAL, 4, 1, 5, &t4);
    ga *h = island(GA_ALGO_LOCAL, 8, 1, 0, &t8);
    size_t len = ga_island_size(g), len8 = ga_island_size(h);
    uint8_t *buf = malloc(len8);
    char err[256];
    ga_progress before, after;
    ga_get_progress(g, &before);
    ga_island_emigrant(g, buf);
    ck_assert_int_eq(ga_island_immigrant(g, buf, len - 1, err, sizeof err), -FAULT_INTERNAL);
    ga_island_emigrant(h, buf);
    ck_assert_int_eq(ga_island_immigrant(g, buf, len8, err, sizeof err), -FAULT_INTERNAL);
    ck_assert_ptr_nonnull(strstr(err, "4x4"));
    ga_island_emigrant(g, buf);
    buf[len - 1] = 9; /* the last queue order is no permutation */
    ck_assert_int_eq(ga_island_immigrant(g, buf, len, err, sizeof err), -FAULT_INTERNAL);
    ga_get_progress(g, &after);
    ck_assert_int_eq(after.evals, before.evals);
    ck_assert_double_eq(after.average, before.average);
    ck_assert_int_eq(after.best_duration, before.best_duration);
    free(buf);
    ga_free(g); ga_free(h);
    traffic_free(t4); traffic_free(t8);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("island");
    TCase *tc = tcase_create("island");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, emigrant_is_the_best);
    tcase_add_test(tc, better_immigrant_replaces_worst);
    tcase_add_test(tc, equal_immigrant_strict_for_paper_only);
    tcase_add_test(tc, bad_immigrants_refused);
    tcase_add_test(tc, immigrant_brings_its_decisions);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
