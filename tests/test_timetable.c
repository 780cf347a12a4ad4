/* Tests of the timetable start (ga/timetable.h): a 4x4 case worked out by
 * hand, a conflict-free timetable running exactly as it predicts, and the
 * GA's --start timetable taking it only when it beats stacking, counting its
 * simulations and resuming identically. */
#include <check.h>

#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>

#include "ga/bound.h"
#include "ga/ga.h"
#include "ga/timetable.h"
#include "store/store.h"
#include "traffic/traffic.h"

/* The case of test_bound.c's network_by_hand: 4x4, one slice, A from node 1
 * to (2,0) (link 1->2 East only), B from node 0 to (2,2) (E, E, N, N; its
 * second link is 1->2 East).  Both routes meet the 16-flit link, so the order
 * is by hops: B first, I = 0, holds 1->2 East in cycles 2..9.  A's single
 * link in cycles I + 1 .. I + 8 is free from I = 9 on, so I[1] = 9, and A
 * ends at 9 + 1 + 8 + 1 = 19: the bound.  With imax 5 no I is free; A meets
 * B's cycles 2..9 in 7, 8, 7, 6, 5, 4 of its own for I = 0..5, fewest at
 * I = 5.  One V (vmin = vmax) and two orders: two simulations. */
START_TEST(timetable_by_hand)
{
    sim_params sp = testutil_params(4, 8, 1);
    int32_t dest[16];
    for (int i = 0; i < 16; i++) dest[i] = i;
    dest[1] = 2;
    dest[0] = 2 * 4 + 2;
    sim_config *c = sim_config_new(16, sp.vcs, 0, 8);
    sim_metrics m;
    int64_t sims = 0;
    char err[256];
    ck_assert_int_eq(ga_timetable(&sp, dest, 8, 8, 20, c, &m, &sims, err, sizeof err), 0);
    ck_assert_int_eq(sims, 2);
    ck_assert_int_eq(c->inject[0], 0);
    ck_assert_int_eq(c->inject[1], 9);
    ck_assert_int_eq(m.status, SIM_OK);
    ck_assert_int_eq(m.duration, 19);
    ga_bound_info b;
    ck_assert_int_eq(ga_bound(&sp, dest, 0, &b), 0);
    ck_assert_int_eq(m.duration, b.bound);

    sims = 0;
    ck_assert_int_eq(ga_timetable(&sp, dest, 8, 8, 5, c, &m, &sims, err, sizeof err), 0);
    ck_assert_int_eq(c->inject[0], 0);
    ck_assert_int_eq(c->inject[1], 5);
    ck_assert_int_ge(m.duration, 19);
    sim_config_free(c);
}
END_TEST

/* 8x8 bit-complement, two slices: the timetable finds a free I for every
 * source (its prediction, the latest I + (S - 1) V + H + l_c + 1, is then
 * exact); the run it reports is the simulator's for its genes, and it is
 * below simple stacking's 45 (data/ga_study.md: 38). */
START_TEST(timetable_resimulates)
{
    sim_params sp = testutil_params(8, 8, 2);
    char err[256];
    traffic *t = traffic_new("bcmp", 8, 1, err, sizeof err);
    ck_assert_ptr_nonnull(t);
    sim_config *c = sim_config_new(64, sp.vcs, 0, 8);
    sim_metrics m, m2;
    int64_t sims = 0;
    ck_assert_int_eq(ga_timetable(&sp, t->dest, 8, 40, 60, c, &m, &sims, err, sizeof err), 0);
    ck_assert_int_eq(sims, 2 * 33);
    sim *s = sim_new(&sp, t->dest, NULL, err, sizeof err);
    ck_assert_int_eq(sim_run(s, c, &m2), SIM_OK);
    testutil_same_metrics(&m, &m2, "bcmp 8x8", "timetable", "re-run");
    ck_assert_int_eq(m.duration, 38);
    sim_free(s);
    sim_config_free(c);
    traffic_free(t);
}
END_TEST

static void run_ga(const char *trf, int n, ga_start_rule start, int gens, const char *db, int64_t *best,
                   int64_t *stack, int64_t *evals, uint32_t *crc, int64_t *run)
{
    ga_params gp;
    ga_params_default(&gp);
    ga_params_for_algo(&gp, GA_ALGO_LOCAL);
    gp.start = start;
    gp.generations = gens;
    gp.max_evals = 0;
    gp.threads = 1;
    sim_params sp = testutil_params(n, 8, 2);
    char err[256];
    traffic *t = traffic_new(trf, n, 1, err, sizeof err);
    store *st = NULL;
    if (db) ck_assert_ptr_nonnull(st = store_open(db, STORE_CREATE, err, sizeof err));
    ga *g = ga_new(&gp, &sp, t->dest, trf, st, "test", "{}", NULL, err, sizeof err);
    ck_assert_msg(g != NULL, "%s", err);
    ck_assert_int_eq(ga_start(g, err, sizeof err), 0);
    while (ga_step(g, err, sizeof err) == 1) {}
    ga_progress p;
    ga_get_progress(g, &p);
    ga_baselines(g, NULL, NULL, stack, NULL);
    sim_metrics m;
    ga_best(g, &m, crc);
    *best = m.duration;
    *evals = p.evals;
    if (run) *run = ga_run_id(g);
    ck_assert_int_eq(ga_finish(g, err, sizeof err), 0);
    ga_free(g);
    if (st) store_close(st);
    traffic_free(t);
}

/* At generation 0 the timetable start is the better of the two starts: on
 * 8x8 bcmp the timetable's 38 (stacking 45), its simulations counted on top
 * of the stacking start's; on 8x8 torn, whose stacking meets the floor (the
 * timetable: 72), stacking stays.  A few generations on, the run is never worse than stacking and
 * resumes identically (the rule is in the checkpoint). */
START_TEST(ga_start_timetable)
{
    int64_t b0, s0, e0, b1, s1, e1;
    uint32_t c0, c1;
    run_ga("bcmp", 8, GA_START_STACKING, 0, NULL, &b0, &s0, &e0, &c0, NULL);
    run_ga("bcmp", 8, GA_START_TIMETABLE, 0, NULL, &b1, &s1, &e1, &c1, NULL);
    ck_assert_int_eq(s0, 45);
    ck_assert_int_eq(s1, 45);
    ck_assert_int_eq(b0, 45);
    ck_assert_int_eq(b1, 38);
    ck_assert_int_gt(e1, e0);
    run_ga("torn", 8, GA_START_STACKING, 0, NULL, &b0, &s0, &e0, &c0, NULL);
    run_ga("torn", 8, GA_START_TIMETABLE, 0, NULL, &b1, &s1, &e1, &c1, NULL);
    ck_assert_int_eq(b1, b0);
    ck_assert_uint_eq(c1, c0);
    ck_assert_int_gt(e1, e0);

    char db[TESTUTIL_PATH_MAX], err[256];
    testutil_temp_db(db, "timetable");
    int64_t run;
    run_ga("brev", 8, GA_START_TIMETABLE, 300, db, &b0, &s0, &e0, &c0, &run);
    ck_assert_int_le(b0, s0);
    /* The same run again, stopped at generation 100 and resumed. */
    ga_params gp;
    ga_params_default(&gp);
    ga_params_for_algo(&gp, GA_ALGO_LOCAL);
    gp.start = GA_START_TIMETABLE;
    gp.generations = 300;
    gp.max_evals = 0;
    gp.threads = 1;
    sim_params sp = testutil_params(8, 8, 2);
    traffic *t = traffic_new("brev", 8, 1, err, sizeof err);
    store *st = store_open(db, 0, err, sizeof err);
    ck_assert_ptr_nonnull(st);
    ga *g = ga_new(&gp, &sp, t->dest, "brev", st, "test", "{}", NULL, err, sizeof err);
    ck_assert_int_eq(ga_start(g, err, sizeof err), 0);
    ga_progress p;
    do ga_get_progress(g, &p); while (p.generation < 100 && ga_step(g, err, sizeof err) == 1);
    ck_assert_int_eq(ga_flush(g, err, sizeof err), 0);
    int64_t run2 = ga_run_id(g);
    ga_free(g);
    g = ga_resume(st, run2, 1, NULL, err, sizeof err);
    ck_assert_msg(g != NULL, "%s", err);
    ck_assert_int_eq(ga_get_params(g)->start, GA_START_TIMETABLE);
    while (ga_step(g, err, sizeof err) == 1) {}
    sim_metrics m;
    ga_best(g, &m, &c1);
    ga_get_progress(g, &p);
    ck_assert_int_eq(m.duration, b0);
    ck_assert_uint_eq(c1, c0);
    ck_assert_int_eq(p.evals, e0);
    ga_free(g);
    store_close(st);
    traffic_free(t);
    testutil_remove_db(db);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("timetable");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, timetable_by_hand);
    tcase_add_test(tc, timetable_resimulates);
    tcase_add_test(tc, ga_start_timetable);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
