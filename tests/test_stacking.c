/* Tests of the evaluation services on the simulator side: the simple-stacking
 * sweep (sim/stacking.c) against a second, plain implementation (one sim_run
 * per scheme and interval) and against a timeline worked out by hand, and the
 * choice of the best scheme. */
#include <check.h>

#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>

#include "router/arbiter.h"
#include "router/route.h"
#include "sim/interval.h"
#include "sim/pool.h"
#include "sim/stacking.h"
#include "traffic/traffic.h"

/* The plain implementation: simple stacking of scheme k at interval v, run
 * by one simulator; -1 if it does not finish. */
static int64_t plain_stacking(const sim_params *p, const int32_t *dest, int k, uint32_t v)
{
    char err[256];
    sim *s = sim_new(p, dest, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    sim_config *c = sim_config_new(p->n * p->n, p->vcs, k, v);
    ck_assert_ptr_nonnull(c);
    sim_metrics m;
    int64_t d = sim_run(s, c, &m) == SIM_OK ? m.duration : -1;
    sim_config_free(c);
    sim_free(s);
    return d;
}

/* Every scheme on a 4x4 bit-reversal, V = 8..24: the sweep's durations, best
 * V and best duration equal the plain loop's, whatever the thread count. */
START_TEST(sweep_equals_plain_loop)
{
    sim_params p = testutil_params(4, 8, 2);
    char err[256];
    traffic *t = traffic_new("brev", p.n, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    enum { LO = 8, HI = 24, W = HI - LO + 1 };
    int schemes[VCSEL_NSCHEMES];
    for (int k = 0; k < VCSEL_NSCHEMES; k++) schemes[k] = k;
    for (int threads = 1; threads <= 3; threads += 2) {
        sim_pool *pl = sim_pool_new(&p, t->dest, threads, NULL, err, sizeof err);
        ck_assert_msg(pl != NULL, "%s", err);
        uint32_t bv[VCSEL_NSCHEMES];
        int64_t bd[VCSEL_NSCHEMES], dur[VCSEL_NSCHEMES * W], sims = 0;
        ck_assert_int_eq(sim_stacking_sweep(pl, t->nodes, p.vcs, schemes, VCSEL_NSCHEMES, LO, HI, bv, bd, dur, &sims), 0);
        ck_assert_int_eq(sims, VCSEL_NSCHEMES * W);
        for (int k = 0; k < VCSEL_NSCHEMES; k++) {
            int64_t best = -1;
            uint32_t best_v = LO;
            for (uint32_t v = LO; v <= HI; v++) {
                int64_t d = plain_stacking(&p, t->dest, k, v);
                ck_assert_int_eq(dur[k * W + (int)(v - LO)], d);
                if (d >= 0 && (best < 0 || d < best)) { best = d; best_v = v; }
            }
            ck_assert_int_eq(bd[k], best);
            ck_assert_uint_eq(bv[k], best_v);
        }
        sim_pool_free(pl);
    }
    traffic_free(t);
}
END_TEST

/* One sender alone (node 0 to its east neighbour): nothing contends, so the
 * second slice, released at V, arrives exactly V cycles after the first
 * would have finished alone; the duration grows by one per cycle of V and the
 * shortest is at the smallest V (the packet length), for every scheme. */
START_TEST(isolated_sender_by_hand)
{
    sim_params p = testutil_params(4, 8, 2);
    int32_t dest[16];
    for (int i = 0; i < 16; i++) dest[i] = i;
    dest[0] = 1;
    char err[256];
    sim_pool *pl = sim_pool_new(&p, dest, 2, NULL, err, sizeof err);
    ck_assert_msg(pl != NULL, "%s", err);
    int schemes[] = { 0, 5, 9 };
    enum { LO = 8, HI = 20, W = HI - LO + 1 };
    uint32_t bv[3];
    int64_t bd[3], dur[3 * W], sims = 0;
    ck_assert_int_eq(sim_stacking_sweep(pl, 16, p.vcs, schemes, 3, LO, HI, bv, bd, dur, &sims), 0);
    sim_params one = testutil_params(4, 8, 1);
    int64_t alone = plain_stacking(&one, dest, 0, LO);   /* the first slice by itself */
    for (int s = 0; s < 3; s++) {
        for (int j = 0; j < W; j++) ck_assert_int_eq(dur[s * W + j], alone + LO + j);
        ck_assert_uint_eq(bv[s], LO);
        ck_assert_int_eq(bd[s], alone + LO);
    }
    sim_pool_free(pl);
}
END_TEST

/* The bounded sweep (what the GA runs) finds each scheme's optimum of the
 * full sweep, on patterns and slice counts where it stops early; and the
 * bound it stops on, (S - 1) V + L <= duration, holds at every V of the
 * full sweep. */
START_TEST(optima_equal_full_sweep)
{
    static const struct { const char *traffic; int n, slices; } cases[] = {
        { "brev", 4, 2 }, { "bcmp", 8, 2 }, { "brot", 8, 3 }, { "shfl", 8, 2 },
    };
    enum { LO = 8, HI = 90, W = HI - LO + 1 };
    int schemes[VCSEL_NSCHEMES];
    for (int k = 0; k < VCSEL_NSCHEMES; k++) schemes[k] = k;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sim_params p = testutil_params(cases[c].n, 8, cases[c].slices);
        char err[256];
        traffic *t = traffic_new(cases[c].traffic, p.n, 1, err, sizeof err);
        ck_assert_msg(t != NULL, "%s", err);
        sim_pool *pl = sim_pool_new(&p, t->dest, 2, NULL, err, sizeof err);
        ck_assert_msg(pl != NULL, "%s", err);
        uint32_t bv[VCSEL_NSCHEMES], ov[VCSEL_NSCHEMES];
        int64_t bd[VCSEL_NSCHEMES], od[VCSEL_NSCHEMES], dur[VCSEL_NSCHEMES * W], full = 0, bounded = 0;
        ck_assert_int_eq(sim_stacking_sweep(pl, t->nodes, p.vcs, schemes, VCSEL_NSCHEMES, LO, HI, bv, bd, dur, &full), 0);
        ck_assert_int_eq(sim_stacking_optima(pl, t->nodes, p.vcs, p.slices, p.flits, schemes, VCSEL_NSCHEMES, LO, HI,
                                             ov, od, &bounded), 0);
        for (int k = 0; k < VCSEL_NSCHEMES; k++) {
            ck_assert_int_eq(od[k], bd[k]);
            ck_assert_uint_eq(ov[k], bv[k]);
            for (int j = 0; j < W; j++)
                if (dur[k * W + j] >= 0) ck_assert_int_ge(dur[k * W + j], (int64_t)(p.slices - 1) * (LO + j) + p.flits);
        }
        ck_assert_int_eq(full, VCSEL_NSCHEMES * W);
        ck_assert_int_lt(bounded, full);
        ck_assert_int_eq(bounded % SIM_INTERVAL_BLOCK == 0 || bounded == full, 1);
        sim_pool_free(pl);
        traffic_free(t);
    }
}
END_TEST

/* The isolated sender again, bounded: its best, alone + 8 at V = 8, is found
 * in the first block (V = 8..23); the next block would start at V = 24, where
 * 24 + 8 exceeds it, so each scheme costs exactly one block of 16 runs. */
START_TEST(optima_isolated_sender_one_block)
{
    sim_params p = testutil_params(4, 8, 2);
    int32_t dest[16];
    for (int i = 0; i < 16; i++) dest[i] = i;
    dest[0] = 1;
    char err[256];
    sim_pool *pl = sim_pool_new(&p, dest, 2, NULL, err, sizeof err);
    ck_assert_msg(pl != NULL, "%s", err);
    int schemes[] = { 0, 5, 9 };
    uint32_t bv[3];
    int64_t bd[3], sims = 0;
    ck_assert_int_eq(sim_stacking_optima(pl, 16, p.vcs, 2, 8, schemes, 3, 8, 200, bv, bd, &sims), 0);
    sim_params one = testutil_params(4, 8, 1);
    int64_t alone = plain_stacking(&one, dest, 0, 8);
    ck_assert_int_lt(alone + 8, 24 + 8);   /* the premise: the stop comes after one block */
    for (int s = 0; s < 3; s++) {
        ck_assert_uint_eq(bv[s], 8);
        ck_assert_int_eq(bd[s], alone + 8);
    }
    ck_assert_int_eq(sims, 3 * SIM_INTERVAL_BLOCK);
    sim_pool_free(pl);
}
END_TEST

START_TEST(best_scheme_skips_unfinished)
{
    const int64_t a[] = { -1, 5, 3, 3 }, b[] = { -1, -1 }, c[] = { 7 }, d[] = { 4, -1, 4 };
    ck_assert_int_eq(sim_stacking_best(a, 4), 2);   /* the first of the equal shortest */
    ck_assert_int_eq(sim_stacking_best(b, 2), 0);   /* none finished */
    ck_assert_int_eq(sim_stacking_best(c, 1), 0);
    ck_assert_int_eq(sim_stacking_best(d, 3), 0);
}
END_TEST

START_TEST(default_threads_in_range)
{
    int k = sim_pool_default_threads();
    ck_assert_int_ge(k, 1);
    ck_assert_int_le(k, SIM_POOL_MAX_THREADS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stacking");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sweep_equals_plain_loop);
    tcase_add_test(tc, isolated_sender_by_hand);
    tcase_add_test(tc, optima_equal_full_sweep);
    tcase_add_test(tc, optima_isolated_sender_one_block);
    tcase_add_test(tc, best_scheme_skips_unfinished);
    tcase_add_test(tc, default_threads_in_range);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
