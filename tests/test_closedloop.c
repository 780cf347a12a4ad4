/* The one fast engine's closed-loop runs (sim/closedloop.c on the
 * open-loop network's fast path) against the reference: sim_run (fast when
 * supported) must give exactly sim_run_reference's metrics and link
 * statistics on every input, sim_run_lean the same but for the metrics it
 * leaves 0, and sim_run_cutoff must agree with both.  Every comparison
 * asserts that the fast engine really gave the result it compares
 * (sim_ran_fast); model choices it does not support are checked to be
 * reported as such by closedloop_supports and are not counted as compared. */
#include <check.h>

#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "router/route.h"
#include "router/routing.h"
#include "sim/closedloop.h"
#include "sim/decisions.h"
#include "sim/sim.h"
#include "traffic/traffic.h"
#include "util/rng.h"

/* ---- helpers ---- */

static int rng_int(uint64_t *s, int n) { return (int)(rng_splitmix64(s) % (uint64_t)n); }

static void same_metrics(const sim_metrics *a, const sim_metrics *b, const char *what)
{
    testutil_same_metrics(a, b, what, "fast", "reference");
}

/* Slices per sending node, from a finished run's packet count. */
static int run_slices(const sim_config *c, const sim_metrics *m)
{
    int64_t senders = c->nodes - m->idle_nodes;
    return senders > 0 ? (int)(m->packets / senders) : 1;
}

/* A lean run must give the full run's metrics but te, lb, ir, or_, ib and
 * ob, which it leaves 0, and the same tail cycles. */
static void check_lean(sim *s, const sim_config *c, const sim_metrics *full, const int64_t *tails, size_t npk,
                       const char *what)
{
    sim_metrics want = *full, ml;
    want.te = want.lb = want.ir = want.or_ = want.ib = want.ob = 0;
    sim_run_lean(s, c, INT64_MAX, NULL, &ml);
    ck_assert_msg(sim_ran_fast(s), "%s: the lean run was not the fast engine's", what);
    testutil_same_metrics(&ml, &want, what, "lean", "full");
    int64_t *tl = malloc(sizeof *tl * npk);
    ck_assert_ptr_nonnull(tl);
    sim_tail_cycles(s, tl);
    for (size_t k = 0; k < npk; k++)
        ck_assert_msg(tl[k] == tails[k], "%s: packet %zu: tail in cycle %lld (lean), %lld (full)", what, k,
                      (long long)tl[k], (long long)tails[k]);
    free(tl);
}

/* sim_run then sim_run_reference on the same sim; every metric, every
 * link's statistics and every packet's tail cycle must match, and a lean
 * run's (check_lean).  Returns the metrics. */
static sim_metrics check_equal(sim *s, const sim_config *c, const char *what)
{
    int links = c->nodes * 4;
    int64_t *st = malloc(sizeof *st * 3 * (size_t)links);
    ck_assert_ptr_nonnull(st);
    sim_metrics mf, mr;
    sim_run(s, c, &mf);
    ck_assert_msg(sim_ran_fast(s), "%s: the fast engine did not give this result (status %d)", what, (int)mf.status);
    for (int k = 0; k < links; k++) sim_link_stats(s, k, &st[3 * k], &st[3 * k + 1], &st[3 * k + 2]);
    size_t npk = (size_t)c->nodes * (size_t)run_slices(c, &mf);
    int64_t *tf = malloc(sizeof *tf * npk), *tr = malloc(sizeof *tr * npk);
    ck_assert(tf && tr);
    if (mf.status == SIM_OK) {
        sim_tail_cycles(s, tf);
        check_lean(s, c, &mf, tf, npk, what);
    }
    sim_run_reference(s, c, &mr);
    same_metrics(&mf, &mr, what);
    if (mr.status == SIM_OK) {
        sim_tail_cycles(s, tr);
        int64_t last = -1;
        for (size_t k = 0; k < npk; k++) {
            ck_assert_msg(tf[k] == tr[k], "%s: packet %zu: tail ejected in cycle %lld (fast), %lld (reference)", what, k,
                          (long long)tf[k], (long long)tr[k]);
            if (tr[k] > last) last = tr[k];
        }
        ck_assert_msg(last + 1 == mr.duration, "%s: last tail %lld, duration %lld", what, (long long)last,
                      (long long)mr.duration);
    }
    free(tf);
    free(tr);
    for (int k = 0; k < links; k++) {
        int64_t a, b, fl;
        sim_link_stats(s, k, &a, &b, &fl);
        ck_assert_msg(st[3 * k] == a && st[3 * k + 1] == b && st[3 * k + 2] == fl,
                      "%s: link %d fast (%lld %lld %lld), reference (%lld %lld %lld)", what, k,
                      (long long)st[3 * k], (long long)st[3 * k + 1], (long long)st[3 * k + 2], (long long)a,
                      (long long)b, (long long)fl);
    }
    free(st);
    return mr;
}

static sim *new_sim(const sim_params *p, const int32_t *dest)
{
    char err[256];
    sim *s = sim_new(p, dest, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    return s;
}

static traffic *pattern(const char *spec, int n, uint64_t seed)
{
    char err[256];
    traffic *t = traffic_new(spec, n, seed, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    return t;
}

/* ---- uniform configurations ---- */

/* Every pattern x every scheme x several intervals, 8x8, two slices (the
 * in-/out-of-order counts need more than one). */
START_TEST(patterns_schemes_intervals)
{
    const int intervals[] = { 8, 11, 16, 40 };
    for (int k = 0; k < traffic_builtin_count; k++) {
        traffic *t = pattern(traffic_builtin_names[k], 8, 1);
        sim_params p = testutil_params(8, 8, 2);
        sim *s = new_sim(&p, t->dest);
        for (int sc = 0; sc < VCSEL_NSCHEMES; sc++)
            for (int v = 0; v < 4; v++) {
                sim_config *c = sim_config_new(64, 3, sc, (uint32_t)intervals[v]);
                char what[96];
                snprintf(what, sizeof what, "%s C%02d V=%d", t->name, sc, intervals[v]);
                sim_metrics m = check_equal(s, c, what);
                ck_assert_int_eq(m.status, SIM_OK);
                sim_config_free(c);
            }
        sim_free(s);
        traffic_free(t);
    }
}
END_TEST

/* The paper's setting: 16x16, brev and the rest, two and three slices. */
START_TEST(patterns_16x16)
{
    for (int k = 0; k < traffic_builtin_count; k++) {
        traffic *t = pattern(traffic_builtin_names[k], 16, 1);
        for (int S = 2; S <= 3; S++) {
            sim_params p = testutil_params(16, 8, S);
            sim *s = new_sim(&p, t->dest);
            const int sc[] = { 0, 3, 5, 9 };
            for (int a = 0; a < 4; a++) {
                sim_config *c = sim_config_new(256, 3, sc[a], 16);
                char what[96];
                snprintf(what, sizeof what, "16x16 %s S=%d C%02d", t->name, S, sc[a]);
                check_equal(s, c, what);
                sim_config_free(c);
            }
            sim_free(s);
        }
        traffic_free(t);
    }
}
END_TEST

/* ---- random configurations ---- */

/* Random C, Q, I and V on every pattern, slices 1-4, sizes 4, 8, 16. */
START_TEST(random_configs)
{
    uint64_t r = 12345;
    const int sizes[] = { 4, 8, 16 };
    for (int si = 0; si < 3; si++) {
        int n = sizes[si];
        for (int k = 0; k <= traffic_builtin_count; k++) {
            const char *spec = k < traffic_builtin_count ? traffic_builtin_names[k] : "randperm";
            traffic *t = pattern(spec, n, (uint64_t)(k + 7));
            int S = 1 + rng_int(&r, 4);
            sim_params p = testutil_params(n, 8, S);
            sim *s = new_sim(&p, t->dest);
            int runs = n == 16 ? 2 : 6;
            for (int it = 0; it < runs; it++) {
                sim_config *c = sim_config_new(n * n, 3, 0, 8);
                testutil_random_genes(c, &r, 8, 3 * n, 3 * n);
                char what[96];
                snprintf(what, sizeof what, "random n=%d %s S=%d run %d", n, spec, S, it);
                check_equal(s, c, what);
                sim_config_free(c);
            }
            sim_free(s);
            traffic_free(t);
        }
    }
}
END_TEST

/* Random permutations (seeds), and even sizes that are not powers of two
 * with the patterns that allow them. */
START_TEST(random_permutations_and_odd_sizes)
{
    uint64_t r = 999;
    const int sizes[] = { 4, 6, 8, 10, 12, 14 };
    const char *specs[] = { "randperm", "torn", "trns" };
    for (int si = 0; si < 6; si++)
        for (int k = 0; k < 3; k++)
            for (int seed = 1; seed <= 2; seed++) {
                int n = sizes[si];
                traffic *t = pattern(specs[k], n, (uint64_t)seed * 31 + (uint64_t)n);
                int S = 1 + rng_int(&r, 4);
                sim_params p = testutil_params(n, 8, S);
                sim *s = new_sim(&p, t->dest);
                sim_config *c = sim_config_new(n * n, 3, 0, 8);
                testutil_random_genes(c, &r, 8, 2 * n, 2 * n);
                char what[96];
                snprintf(what, sizeof what, "n=%d %s seed %d S=%d", n, specs[k], seed, S);
                check_equal(s, c, what);
                sim_config_free(c);
                sim_free(s);
                traffic_free(t);
            }
}
END_TEST

/* 32x32: a few runs (the reference takes a while on it). */
START_TEST(size_32)
{
    uint64_t r = 4242;
    const char *specs[] = { "brev", "randperm", "torn" };
    for (int k = 0; k < 3; k++) {
        traffic *t = pattern(specs[k], 32, 5);
        sim_params p = testutil_params(32, 8, 2);
        sim *s = new_sim(&p, t->dest);
        sim_config *c = sim_config_new(32 * 32, 3, 0, 8);
        testutil_random_genes(c, &r, 8, 20, 16);
        char what[96];
        snprintf(what, sizeof what, "32x32 %s", specs[k]);
        check_equal(s, c, what);
        sim_config_free(c);
        sim_free(s);
        traffic_free(t);
    }
}
END_TEST

/* ---- other parameters and model choices ---- */

/* Every option the fast engine takes (tie, dateline, queue update, self,
 * VC count, buffer depth, packet length) on random configurations; the four
 * it leaves to the reference must say so (closedloop_supports) and sim_run must
 * then run the reference. */
START_TEST(model_choices)
{
    uint64_t r = 77;
    int unsupported = 0;
    for (int variant = 0; variant < 17; variant++) {
        for (int k = 0; k < 3; k++) {
            const char *spec = k == 0 ? "brev" : k == 1 ? "randperm" : "bcmp";
            traffic *t = pattern(spec, 8, 3);
            sim_params p = testutil_params(8, 8, 2);
            switch (variant) {
            case 0: p.tie = TIE_PLUS; break;
            case 1: p.tie = TIE_MINUS; break;
            case 2: p.dateline = DATELINE_AFTER; break;
            case 3: p.q_update = QUPDATE_ROTATE; break;
            case 4: p.self = SELF_SEND; break;
            case 5: p.vcs = 4; break;
            case 6: p.vcs = 8; p.tie = TIE_PLUS; p.dateline = DATELINE_AFTER; break;
            case 7: p.buffer = 1; break;
            case 8: p.buffer = 2; p.flits = 3; break;
            case 9: p.buffer = 6; p.flits = 16; p.slices = 3; break;
            case 10: p.flits = 2; p.slices = 4; break;
            case 11: p.slot_reuse = SLOT_SAME_CYCLE; break;
            case 12: p.input_limit = INPUT_PER_PORT; break;
            case 13: p.slice_reinit = 1; break;
            case 14: p.interlock = 1; break;
            case 15: p.buffer = 9; p.flits = 4; p.slices = 3; break; /* three packets in a FIFO: the ring */
            default: p.buffer = 1; p.self = SELF_SEND; p.flits = 2; break;
            }
            sim *s = new_sim(&p, t->dest);
            if (variant >= 11 && variant <= 14) {
                /* Not the fast engine's: reported, and sim_run is the reference. */
                ck_assert_msg(!closedloop_supports(&p), "variant %d: closedloop_supports claims it", variant);
                sim_config *c = sim_config_new(64, p.vcs, 0, 8);
                sim_metrics m;
                sim_run(s, c, &m);
                ck_assert_msg(!sim_ran_fast(s), "variant %d: sim_run used the fast engine", variant);
                sim_config_free(c);
                sim_free(s);
                traffic_free(t);
                unsupported++;
                continue;
            }
            ck_assert_msg(closedloop_supports(&p), "variant %d: the fast engine should support it", variant);
            for (int it = 0; it < 3; it++) {
                sim_config *c = sim_config_new(64, p.vcs, 0, 8);
                testutil_random_genes(c, &r, p.flits, 20, 20);
                char what[96];
                snprintf(what, sizeof what, "variant %d %s run %d", variant, spec, it);
                check_equal(s, c, what);
                sim_config_free(c);
            }
            sim_free(s);
            traffic_free(t);
        }
    }
    ck_assert_int_eq(unsupported, 4 * 3);
}
END_TEST

/* Meshes, under both VC rules, on random configurations: every metric,
 * link statistic and tail cycle as the reference (whose any-VC rule is
 * written apart, sim.c's queue_selection_any and injection_vc). */
START_TEST(mesh_both_rules)
{
    static const char *specs[] = { "brev", "randperm", "bcmp", "torn", "trns" };
    uint64_t r = 99;
    for (int n = 4; n <= 16; n *= 2)
        for (int k = 0; k < 5; k++)
            for (int it = 0; it < 4; it++) {
                traffic *t = pattern(specs[k], n, (uint64_t)it + 1);
                sim_params p = testutil_params(n, 2 + rng_int(&r, 10), 1 + rng_int(&r, 3));
                p.topo = TOPO_MESH;
                p.vc_rule = it % 2 ? VCRULE_ANY : VCRULE_DATELINE;
                p.vcs = 1 + rng_int(&r, 4);
                p.buffer = 1 + rng_int(&r, 8); /* past L + 1 sometimes: the ring */
                p.q_update = (qsel_update)rng_int(&r, 2);
                ck_assert(closedloop_supports(&p));
                sim *s = new_sim(&p, t->dest);
                sim_config *c = sim_config_new(n * n, p.vcs, 0, (uint32_t)p.flits);
                testutil_random_genes(c, &r, p.flits, 3 * n, 3 * n);
                char what[128];
                snprintf(what, sizeof what, "mesh n=%d %s L=%d S=%d V=%d B=%d rule=%d run %d", n, specs[k], p.flits,
                         p.slices, p.vcs, p.buffer, p.vc_rule, it);
                check_equal(s, c, what);
                sim_config_free(c);
                sim_free(s);
                traffic_free(t);
            }
}
END_TEST

/* Rectangular tori and meshes (n wide, h high): the per-dimension ring
 * sizes and the width-based coordinates of the fast engine's tables. */
START_TEST(rectangles)
{
    static const int sizes[][2] = { { 8, 4 }, { 4, 8 }, { 16, 4 }, { 4, 2 }, { 8, 16 } };
    static const char *specs[] = { "torn", "randperm", "bcmp", "brev" };
    uint64_t r = 5;
    for (int z = 0; z < 5; z++)
        for (int mesh = 0; mesh < 2; mesh++)
            for (int k = 0; k < 4; k++) {
                int w = sizes[z][0], h = sizes[z][1];
                char err[256];
                traffic *t = traffic_new_grid(specs[k], w, h, (uint64_t)k + 1, NULL, err, sizeof err);
                ck_assert_msg(t != NULL, "%s", err);
                sim_params p = testutil_params(w, 2 + rng_int(&r, 8), 1 + rng_int(&r, 3));
                p.h = h;
                p.topo = mesh ? TOPO_MESH : TOPO_TORUS;
                p.vc_rule = mesh && rng_int(&r, 2) ? VCRULE_ANY : VCRULE_DATELINE;
                p.tie = (route_tie)rng_int(&r, 3);
                sim *s = new_sim(&p, t->dest);
                sim_config *c = sim_config_new(w * h, p.vcs, 0, (uint32_t)p.flits);
                testutil_random_genes(c, &r, p.flits, 2 * (w + h), 2 * (w + h));
                char what[128];
                snprintf(what, sizeof what, "%dx%d %s %s L=%d S=%d rule=%d tie=%d", w, h, mesh ? "mesh" : "torus",
                         specs[k], p.flits, p.slices, p.vc_rule, p.tie);
                check_equal(s, c, what);
                sim_config_free(c);
                sim_free(s);
                traffic_free(t);
            }
}
END_TEST

/* A few packets only (file: traffic): the idle-stretch skipping and the
 * release heap with late injection timings. */
START_TEST(file_traffic)
{
    char path[TESTUTIL_PATH_MAX];
    testutil_temp_file(path, "test-fast");
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    fprintf(fp, "# one packet\n9 45\n");
    fclose(fp);
    char spec[TESTUTIL_PATH_MAX + 8];
    snprintf(spec, sizeof spec, "file:%s", path);
    uint64_t r = 5;
    traffic *t = pattern(spec, 8, 1);
    for (int S = 1; S <= 4; S++) {
        sim_params p = testutil_params(8, 8, S);
        sim *s = new_sim(&p, t->dest);
        for (int it = 0; it < 6; it++) {
            sim_config *c = sim_config_new(64, 3, 0, 8);
            testutil_random_genes(c, &r, 8, 100, 60);
            char what[64];
            snprintf(what, sizeof what, "file one packet S=%d run %d", S, it);
            sim_metrics m = check_equal(s, c, what);
            ck_assert_int_eq(m.packets, S);
            sim_config_free(c);
        }
        sim_free(s);
    }
    traffic_free(t);
    /* A handful of pairs that meet, with widely spread releases. */
    fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    fprintf(fp, "0 7\n1 6\n8 15\n63 0\n27 36\n36 27\n");
    fclose(fp);
    t = pattern(spec, 8, 1);
    for (int S = 1; S <= 3; S++) {
        sim_params p = testutil_params(8, 8, S);
        sim *s = new_sim(&p, t->dest);
        for (int it = 0; it < 6; it++) {
            sim_config *c = sim_config_new(64, 3, 0, 8);
            testutil_random_genes(c, &r, 8, it < 3 ? 10 : 200, 50);
            char what[64];
            snprintf(what, sizeof what, "file pairs S=%d run %d", S, it);
            check_equal(s, c, what);
            sim_config_free(c);
        }
        sim_free(s);
    }
    traffic_free(t);
    unlink(path);
}
END_TEST

/* The fast engine's own timeout and watchdog: closedloop_run must stop in
 * the same cycle with the same status and counts as the reference
 * (closedloop.h lists what is exact at such a stop); sim_run then hands the run to the
 * reference, so that sim_report_blocked describes it. */
static void check_stop(const sim_params *p, const int32_t *dest, const sim_config *c, sim_status want,
                       const char *what)
{
    sim *s = new_sim(p, dest);
    sim_metrics mr, mf, ms, stop;
    sim_run_reference(s, c, &mr);
    stop = mr;
    ck_assert_msg(mr.status == want, "%s: reference status %d, expected %d", what, (int)mr.status, (int)want);
    ck_assert(closedloop_supports(p));
    closedloop *f = closedloop_new(p, dest, 0);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(closedloop_run(f, c, INT64_MAX, NULL, CL_FULL, &mf), want);
#define SAME(field) ck_assert_msg(mf.field == mr.field, "%s: " #field " fast %lld, reference %lld", what, \
                                  (long long)mf.field, (long long)mr.field)
    SAME(status); SAME(stop_cycle); SAME(cycles); SAME(duration); SAME(flits_injected); SAME(flits_ejected);
    SAME(packets); SAME(idle_nodes);
#undef SAME
    /* The engine is reusable after a stop: a full run next matches. */
    sim_params full = *p;
    full.max_cycles = 100000000;
    full.deadlock_cycles = 1000;
    sim *s2 = new_sim(&full, dest);
    sim_run_reference(s2, c, &mr);
    ck_assert_int_eq(mr.status, SIM_OK);
    closedloop *f2 = closedloop_new(&full, dest, 1);
    ck_assert_ptr_nonnull(f2);
    closedloop_run(f2, c, 30, NULL, CL_FULL, &mf); /* a cut run first */
    closedloop_run(f2, c, INT64_MAX, NULL, CL_FULL, &mf);
    same_metrics(&mf, &mr, what);
    closedloop_free(f2);
    sim_free(s2);
    closedloop_free(f);
    sim_run(s, c, &ms);
    ck_assert_msg(!sim_ran_fast(s), "%s: sim_run kept the fast engine's stopped run", what);
    same_metrics(&ms, &stop, what);
    sim_free(s);
}

START_TEST(timeout_and_watchdog)
{
    traffic *t = pattern("brev", 8, 1);
    sim_params p = testutil_params(8, 8, 2);
    sim_config *c = sim_config_new(64, 3, 0, 16);
    const int64_t limits[] = { 1, 5, 30, 31, 40 };
    for (int k = 0; k < 5; k++) {
        p.max_cycles = limits[k];
        char what[64];
        snprintf(what, sizeof what, "timeout at %lld", (long long)limits[k]);
        check_stop(&p, t->dest, c, SIM_TIMEOUT, what);
    }
    /* The watchdog cannot fire in this model (datelines make it deadlock-free
     * and some flit of every waiting chain moves), but the fast engine counts
     * the moves of every cycle for it: with a watchdog of one idle cycle a
     * miscount (an injection not counted as a move, say) would stop a run. */
    uint64_t r = 8;
    p.max_cycles = 100000000;
    p.deadlock_cycles = 1;
    const char *specs[] = { "brev", "torn", "bcmp" };
    for (int k = 0; k < 3; k++) {
        traffic *tk = pattern(specs[k], 8, 1);
        sim *s = new_sim(&p, tk->dest);
        for (int it = 0; it < 3; it++) {
            testutil_random_genes(c, &r, 8, 40, 30);
            char what[64];
            snprintf(what, sizeof what, "watchdog 1 %s run %d", specs[k], it);
            sim_metrics m = check_equal(s, c, what);
            ck_assert_int_eq(m.status, SIM_OK);
        }
        sim_free(s);
        traffic_free(tk);
    }
    sim_config_free(c);
    traffic_free(t);
}
END_TEST

/* ---- sim_run_cutoff ---- */

/* cutoff >= duration: exactly sim_run's metrics; cutoff < duration:
 * SIM_CUTOFF and duration cutoff + 1.  Runs on one sim object in a mixed
 * order, so a run cut short must not leak state into the next one. */
START_TEST(cutoff)
{
    uint64_t r = 2024;
    const char *specs[] = { "brev", "shfl", "randperm", "torn" };
    for (int k = 0; k < 4; k++) {
        traffic *t = pattern(specs[k], 8, 9);
        sim_params p = testutil_params(8, 8, 2);
        sim *s = new_sim(&p, t->dest);
        for (int it = 0; it < 4; it++) {
            sim_config *c = sim_config_new(64, 3, 0, 8);
            testutil_random_genes(c, &r, 8, 12, 12);
            sim_metrics ref, m;
            sim_run_reference(s, c, &ref);
            ck_assert_int_eq(ref.status, SIM_OK);
            const int64_t D = ref.duration;
            const int64_t cuts[] = { D - 1, D, 0, D + 7, D / 2, INT64_MAX, 1, D - 2 };
            for (int q = 0; q < 8; q++) {
                sim_status st = sim_run_cutoff(s, c, cuts[q], &m);
                ck_assert_int_eq(st, m.status);
                ck_assert_msg(sim_ran_fast(s), "cutoff %lld: not the fast engine", (long long)cuts[q]);
                if (cuts[q] >= D) {
                    same_metrics(&m, &ref, "cutoff >= duration");
                } else {
                    ck_assert_msg(st == SIM_CUTOFF, "%s cutoff %lld < %lld: status %d", specs[k],
                                  (long long)cuts[q], (long long)D, (int)st);
                    ck_assert_int_eq(m.duration, cuts[q] + 1);
                }
            }
            /* And a full run right after a cut one. */
            sim_run_cutoff(s, c, D / 3, &m);
            check_equal(s, c, "after a cut run");
            sim_config_free(c);
        }
        sim_free(s);
        traffic_free(t);
    }
}
END_TEST

/* ---- routing functions other than dor [R-RF-*] ---- */

/* Every routing function of the table under every selection rule and both
 * VC rules (those it accepts), on meshes of 4 and 8 (dor2 on tori, 2 and
 * 3 VCs), random genes and buffers: the fast engine against the reference. */
START_TEST(routing_functions)
{
    static const char *specs[] = { "brev", "randperm", "trns", "torn", "bcmp" };
    uint64_t r = 2026;
    int compared = 0;
    for (int k = 0; k < ROUTING_COUNT; k++)
        for (int sel = 0; sel < SELECT_COUNT; sel++)
            for (int it = 0; it < 4; it++) {
                const int n = it < 2 ? 4 : 8;
                traffic *t = pattern(specs[(k + sel + it) % 5], n, (uint64_t)it + 1);
                sim_params p = testutil_params(n, 2 + rng_int(&r, 7), 1 + rng_int(&r, 3));
                p.routing = (routing_kind)k;
                p.selection = (routing_selection)sel;
                p.route_seed = (uint64_t)it * 77 + 5;
                /* dor2 on the torus; Valiant and min-adaptive there in one
                 * run of four [R-RF-11, 12]. */
                const int torus = k == ROUTING_DOR2 || ((k == ROUTING_VALIANT || k == ROUTING_MIN_ADAPTIVE) && it == 1);
                p.topo = torus ? TOPO_TORUS : TOPO_MESH;
                p.vc_rule = it % 2 ? VCRULE_ANY : VCRULE_DATELINE;
                const route_params grid = { .topo = p.topo };
                p.vcs = (k == ROUTING_DOR2 ? 2 : routing_classes((routing_kind)k, &grid)) + rng_int(&r, 3);
                p.buffer = 1 + rng_int(&r, 6);
                p.q_update = (qsel_update)rng_int(&r, 2);
                char err[256], what[160];
                ck_assert_msg(!sim_params_check(&p, err, sizeof err), "%s: %s", routing_info_of(p.routing)->name, err);
                sim *s = new_sim(&p, t->dest);
                sim_config *c = sim_config_new(n * n, p.vcs, 0, (uint32_t)p.flits);
                testutil_random_genes(c, &r, p.flits, 3 * n, 3 * n);
                snprintf(what, sizeof what, "%s/%s n=%d L=%d S=%d V=%d B=%d rule=%d run %d",
                         routing_info_of(p.routing)->name, routing_selection_name(p.selection), n, p.flits, p.slices,
                         p.vcs, p.buffer, p.vc_rule, it);
                const sim_metrics m = check_equal(s, c, what);
                ck_assert_msg(m.status == SIM_OK, "%s: status %d", what, (int)m.status);
                /* A cut run (no load bound off dor) is cut by a cutoff just below its
                 * duration and runs to the end at the duration itself. */
                sim_metrics mc;
                ck_assert_int_eq(sim_run_cutoff(s, c, m.duration - 1, &mc), SIM_CUTOFF);
                ck_assert_int_eq(mc.duration, m.duration);
                ck_assert_int_eq(sim_run_cutoff(s, c, m.duration, &mc), SIM_OK);
                same_metrics(&mc, &m, what);
                compared++;
                sim_config_free(c);
                sim_free(s);
                traffic_free(t);
            }
    ck_assert_int_eq(compared, ROUTING_COUNT * SELECT_COUNT * 4);
}
END_TEST

/* One packet of L = 8 flits from (0,0) to (3,3) on a 4x4 mesh, by hand: 6
 * hops, its header crossing the k-th link of its route in cycle k (injected
 * in cycle 0, one hop a cycle) and ejected in cycle 7, its tail 7 cycles
 * later: duration 6 + 8 + 1 = 15 under dor and under yx alike.  dor's route
 * is E from nodes 0, 1, 2, then N from 3, 7, 11; yx's N from 0, 4, 8, then
 * E from 12, 13, 14.  Each of these links carries 8 flits in cycles k to
 * k + 7; no other link carries any. */
START_TEST(one_packet_dor_and_yx_by_hand)
{
    static const int route[2][6][2] = { { { 0, PORT_E }, { 1, PORT_E }, { 2, PORT_E }, { 3, PORT_N }, { 7, PORT_N }, { 11, PORT_N } },
                                        { { 0, PORT_N }, { 4, PORT_N }, { 8, PORT_N }, { 12, PORT_E }, { 13, PORT_E }, { 14, PORT_E } } };
    int32_t dest[16];
    for (int i = 0; i < 16; i++) dest[i] = i; /* every other node addressed to itself: idle */
    dest[0] = 15;
    for (int yx = 0; yx < 2; yx++) {
        sim_params p = testutil_params(4, 8, 1);
        p.topo = TOPO_MESH;
        p.vc_rule = VCRULE_ANY;
        p.routing = yx ? ROUTING_YX : ROUTING_DOR;
        sim *s = new_sim(&p, dest);
        sim_config *c = sim_config_new(16, p.vcs, 0, 8);
        const char *what = yx ? "yx" : "dor";
        const sim_metrics m = check_equal(s, c, what);
        ck_assert_int_eq(m.status, SIM_OK);
        ck_assert_int_eq(m.duration, 15);
        ck_assert_int_eq(m.flits_ejected, 8);
        ck_assert_int_eq(m.max_link_flits, 8);
        for (int l = 0; l < 16 * 4; l++) {
            int hop = -1;
            for (int k = 0; k < 6; k++)
                if (route[yx][k][0] * 4 + route[yx][k][1] == l) hop = k + 1;
            int64_t first, last, flits;
            sim_link_stats(s, l, &first, &last, &flits);
            ck_assert_msg(flits == (hop > 0 ? 8 : 0) && first == (hop > 0 ? hop : -1) && last == (hop > 0 ? hop + 7 : -1),
                          "%s: link %d (node %d port %d): %lld flits in %lld..%lld, want hop %d", what, l, l / 4, l % 4,
                          (long long)flits, (long long)first, (long long)last, hop);
        }
        sim_config_free(c);
        sim_free(s);
    }
}
END_TEST

/* What the table refuses, sim_params_check refuses with its reason: a mesh
 * function on a torus, fewer VCs than classes; the any-VC rule on a torus
 * only under dor2, and dor2 runs a torus on 2 VCs where dor needs 3. */
START_TEST(routing_refusals)
{
    char err[256];
    sim_params p = testutil_params(8, 8, 1);
    p.routing = ROUTING_WEST_FIRST;
    ck_assert_int_eq(sim_params_check(&p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "west-first") && strstr(err, "only on a mesh"), "%s", err);
    p.topo = TOPO_MESH;
    ck_assert_int_eq(sim_params_check(&p, err, sizeof err), 0);
    p.routing = ROUTING_VALIANT;
    p.vcs = 1;
    ck_assert_int_eq(sim_params_check(&p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "needs at least 2 VCs"), "%s", err);
    p.vcs = 2;
    ck_assert_int_eq(sim_params_check(&p, err, sizeof err), 0);
    p = testutil_params(8, 8, 1);
    p.vcs = 2;
    ck_assert_int_eq(sim_params_check(&p, err, sizeof err), -1); /* dor on a torus: 3 */
    p.routing = ROUTING_DOR2;
    ck_assert_int_eq(sim_params_check(&p, err, sizeof err), 0);
    p.vc_rule = VCRULE_ANY;
    ck_assert_int_eq(sim_params_check(&p, err, sizeof err), 0);
    p.routing = ROUTING_DOR;
    p.vcs = 3;
    ck_assert_int_eq(sim_params_check(&p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "vc_rule any"), "%s", err);
}
END_TEST

/* The limit of closedloop_supports: run lengths in 31 bits (link times),
 * at the boundary.  (Packets, nodes x slices below 2^24, are sim_new's
 * limit for both engines.) */
START_TEST(supports_limits)
{
    sim_params p = testutil_params(1024, 8, 15);
    p.max_cycles = (int64_t)INT32_MAX - 1;
    ck_assert(closedloop_supports(&p));
    p.max_cycles = (int64_t)INT32_MAX;
    ck_assert(!closedloop_supports(&p));
}
END_TEST

/* reference_only turns the fast engine off: same results, from the
 * reference. */
/* One engine's run of c, every mode: what it gave (metrics, tail cycles,
 * link statistics) against the other engine's run of c in the same mode. */
static void same_engine_runs(closedloop *a, closedloop *b, const sim_config *c, closedloop_metrics what,
                             int nodes, int npk, const char *case_)
{
    sim_metrics ma, mb;
    closedloop_run(a, c, INT64_MAX, NULL, what, &ma);
    closedloop_run(b, c, INT64_MAX, NULL, what, &mb);
    testutil_same_metrics(&ma, &mb, case_, "scalar", "ssse3");
    if (ma.status != SIM_OK) return;
    int64_t *ta = malloc(sizeof *ta * (size_t)npk), *tb = malloc(sizeof *tb * (size_t)npk);
    ck_assert(ta && tb);
    closedloop_tail_cycles(a, ta);
    closedloop_tail_cycles(b, tb);
    for (int k = 0; k < npk; k++) ck_assert_msg(ta[k] == tb[k], "%s: packet %d's tail", case_, k);
    for (int k = 0; k < nodes * 4; k++) {
        int64_t f1, l1, n1, f2, l2, n2;
        closedloop_link_stats(a, k, &f1, &l1, &n1);
        closedloop_link_stats(b, k, &f2, &l2, &n2);
        ck_assert_msg(f1 == f2 && l1 == l2 && n1 == n2, "%s: link %d's statistics", case_, k);
    }
    free(ta);
    free(tb);
}

/* The fast path keeping its live masks move by move (scalar) gives the
 * runs it gives finding them by SSSE3 (where the CPU has it; elsewhere both
 * are the scalar path), in every mode, on the default router and others,
 * and both the reference's. */
START_TEST(scalar_and_ssse3_paths)
{
    uint64_t r = 4242;
    for (int variant = 0; variant < 5; variant++) {
        traffic *t = pattern(variant == 1 ? "randperm" : "brev", 8, 2);
        sim_params p = testutil_params(8, 8, 2);
        if (variant == 1) { p.topo = TOPO_MESH; p.vc_rule = VCRULE_ANY; p.vcs = 2; p.buffer = 3; }
        if (variant == 2) { p.vcs = 4; p.buffer = 2; p.flits = 5; }
        if (variant == 3) { p.topo = TOPO_MESH; p.vc_rule = VCRULE_ANY; p.routing = ROUTING_MIN_ADAPTIVE; }
        if (variant == 4) { p.vc_rule = VCRULE_ANY; p.routing = ROUTING_DOR2; p.vcs = 2; }
        closedloop *a = closedloop_new(&p, t->dest, 1), *b = closedloop_new(&p, t->dest, 0);
        ck_assert(a && b);
        sim *s = new_sim(&p, t->dest);
        for (int it = 0; it < 4; it++) {
            sim_config *c = sim_config_new(64, p.vcs, 0, (uint32_t)p.flits);
            testutil_random_genes(c, &r, p.flits, 12, 12);
            char what[64];
            snprintf(what, sizeof what, "variant %d run %d", variant, it);
            same_engine_runs(a, b, c, CL_FULL, 64, 64 * p.slices, what);
            same_engine_runs(a, b, c, CL_LEAN, 64, 64 * p.slices, what);
            sim_metrics ma, mr;
            closedloop_run(a, c, INT64_MAX, NULL, CL_FULL, &ma);
            sim_run_reference(s, c, &mr);
            same_metrics(&ma, &mr, what);
            sim_config_free(c);
        }
        sim_free(s);
        closedloop_free(a);
        closedloop_free(b);
        traffic_free(t);
    }
}
END_TEST

START_TEST(reference_only_switch)
{
    uint64_t r = 555;
    traffic *t = pattern("brev", 8, 1);
    sim_params p = testutil_params(8, 8, 2);
    sim *fast = new_sim(&p, t->dest);
    p.reference_only = 1;
    sim *ref = new_sim(&p, t->dest);
    for (int it = 0; it < 3; it++) {
        sim_config *c = sim_config_new(64, 3, 0, 8);
        testutil_random_genes(c, &r, 8, 12, 12);
        sim_metrics a, b;
        sim_run(fast, c, &a);
        ck_assert(sim_ran_fast(fast));
        sim_run(ref, c, &b);
        ck_assert_msg(!sim_ran_fast(ref), "reference_only: the fast engine ran");
        same_metrics(&a, &b, "reference_only");
        sim_config_free(c);
    }
    sim_free(fast);
    sim_free(ref);
    traffic_free(t);
}
END_TEST

/* ---- the load bound of sim_run_cutoff ---- */

/* Runs a traffic in which only nodes src[] send (to dst[]), two slices of 8
 * flits, V = 8, I = 0, with cutoffs cuts[]: the load bound must stop at
 * cycles stop[], and without it (no_load_bound) a run reaches its cutoff
 * cycle; at the duration nothing is cut either way. */
static void by_hand(const int *src, const int *dst, int nsrc, const int64_t *cuts, const int64_t *stop, int ncut,
                    int64_t min_duration)
{
    int32_t dest[64];
    for (int i = 0; i < 64; i++) dest[i] = i;
    for (int k = 0; k < nsrc; k++) dest[src[k]] = dst[k];
    sim_params p = testutil_params(8, 8, 2);
    sim *s = new_sim(&p, dest);
    p.no_load_bound = 1;
    sim *off = new_sim(&p, dest);
    sim_config *c = sim_config_new(64, 3, 0, 8);
    sim_metrics ref, m;
    sim_run_reference(s, c, &ref);
    ck_assert_int_ge(ref.duration, min_duration);
    for (int k = 0; k < ncut; k++) {
        ck_assert_int_eq(sim_run_cutoff(s, c, cuts[k], &m), SIM_CUTOFF);
        ck_assert(sim_ran_fast(s));
        ck_assert_msg(m.stop_cycle == stop[k] && m.cycles == stop[k], "cutoff %lld: stopped at %lld (%lld cycles), not %lld",
                      (long long)cuts[k], (long long)m.stop_cycle, (long long)m.cycles, (long long)stop[k]);
        ck_assert_int_eq(m.duration, cuts[k] + 1);
        ck_assert_int_eq(sim_run_cutoff(off, c, cuts[k], &m), SIM_CUTOFF);
        ck_assert_int_eq(m.stop_cycle, cuts[k]);
    }
    sim_run_cutoff(s, c, ref.duration, &m);
    same_metrics(&m, &ref, "load bound, cutoff = duration");
    sim_run_cutoff(off, c, ref.duration, &m);
    same_metrics(&m, &ref, "no load bound, cutoff = duration");
    sim_config_free(c);
    sim_free(s);
    sim_free(off);
}

/* Worked by hand on an 8x8 torus (node = 8y + x), two slices of 8 flits,
 * V = 8, I = 0.  No flit crosses a link in cycle 0 (injection comes last),
 * so a link's load is all still to come at the start of cycles 0 and 1.
 * (1) Nodes 0 and 1 send to node 2: link 1E carries 2 x 2 x 8 = 32 flits,
 *     the last of them to their destination (A = 0): duration >= t + 33.
 *     The static bound (last slice released at 8, 2 hops, 8 flits, + 1) is
 *     19, so cutoff 25 or 32 stops at cycle 0, cutoff 33 at cycle 1.
 * (2) Nodes 0 and 1 send to node 18 (x 2, y 2): link 1E carries 32 flits,
 *     each with two hops (north) after it: duration >= t + 32 + 2 + 1.
 *     Cutoff 34 stops at cycle 0, 35 at cycle 1 (static bound 21). */
START_TEST(load_bound_by_hand)
{
    const int src1[] = { 0, 1 }, dst1[] = { 2, 2 };
    const int64_t cuts1[] = { 25, 32, 33 }, stop1[] = { 0, 0, 1 };
    by_hand(src1, dst1, 2, cuts1, stop1, 3, 34);
    const int dst2[] = { 18, 18 };
    const int64_t cuts2[] = { 34, 35 }, stop2[] = { 0, 1 };
    by_hand(src1, dst2, 2, cuts2, stop2, 2, 36);
}
END_TEST

/* Random configurations on every pattern: a cutoff at the duration never
 * cuts (the bound is a true lower bound), one below always does, the bound
 * stops no later than the cutoff cycle and, over all runs, stops some of
 * them earlier; without it a cut run reaches the cutoff cycle. */
START_TEST(load_bound_random)
{
    uint64_t r = 77;
    int64_t earlier = 0, cut = 0;
    for (int k = 0; k < traffic_builtin_count; k++)
        for (int slices = 2; slices <= 3; slices++) {
            traffic *t = pattern(traffic_builtin_names[k], 8, 1);
            sim_params p = testutil_params(8, 8, slices);
            sim *s = new_sim(&p, t->dest);
            p.no_load_bound = 1;
            sim *off = new_sim(&p, t->dest);
            for (int it = 0; it < 6; it++) {
                sim_config *c = sim_config_new(64, 3, 0, 8);
                testutil_random_genes(c, &r, 8, 6, 6);
                sim_metrics ref, m, mo;
                sim_run_reference(s, c, &ref);
                ck_assert_int_eq(ref.status, SIM_OK);
                const int64_t D = ref.duration;
                sim_run_cutoff(s, c, D, &m);
                same_metrics(&m, &ref, "load bound, cutoff = duration");
                for (int64_t q = D - 1; q >= D - 12 && q > 0; q -= 3) {
                    ck_assert_int_eq(sim_run_cutoff(s, c, q, &m), SIM_CUTOFF);
                    ck_assert_int_eq(sim_run_cutoff(off, c, q, &mo), SIM_CUTOFF);
                    ck_assert_int_le(m.stop_cycle, q);
                    ck_assert_int_le(m.cycles, mo.cycles);
                    if (mo.cycles > 0) ck_assert_int_eq(mo.stop_cycle, q);
                    cut++;
                    earlier += m.cycles < mo.cycles;
                }
                sim_config_free(c);
            }
            sim_free(s);
            sim_free(off);
            traffic_free(t);
        }
    ck_assert_int_gt(cut, 100);
    ck_assert_msg(earlier > cut / 10, "the load bound stopped only %lld of %lld cut runs earlier",
                  (long long)earlier, (long long)cut);
}
END_TEST

/* The same sim object reused for many configurations gives what fresh
 * objects give (reset between runs touches only what was used). */
START_TEST(reuse_matches_fresh)
{
    uint64_t r = 31337;
    traffic *t = pattern("brot", 8, 1);
    sim_params p = testutil_params(8, 8, 3);
    sim *s = new_sim(&p, t->dest);
    for (int it = 0; it < 10; it++) {
        sim_config *c = sim_config_new(64, 3, 0, 8);
        testutil_random_genes(c, &r, 8, 16, 16);
        sim_metrics a, b;
        sim_run(s, c, &a);
        sim *fresh = new_sim(&p, t->dest);
        sim_run(fresh, c, &b);
        same_metrics(&a, &b, "reused vs fresh");
        sim_free(fresh);
        sim_config_free(c);
    }
    sim_free(s);
    traffic_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("closedloop");
    TCase *tc = tcase_create("equivalence");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, patterns_schemes_intervals);
    tcase_add_test(tc, patterns_16x16);
    tcase_add_test(tc, random_configs);
    tcase_add_test(tc, random_permutations_and_odd_sizes);
    tcase_add_test(tc, size_32);
    tcase_add_test(tc, model_choices);
    tcase_add_test(tc, mesh_both_rules);
    tcase_add_test(tc, rectangles);
    tcase_add_test(tc, file_traffic);
    tcase_add_test(tc, timeout_and_watchdog);
    tcase_add_test(tc, cutoff);
    tcase_add_test(tc, load_bound_by_hand);
    tcase_add_test(tc, load_bound_random);
    tcase_add_test(tc, reuse_matches_fresh);
    tcase_add_test(tc, reference_only_switch);
    tcase_add_test(tc, supports_limits);
    tcase_add_test(tc, scalar_and_ssse3_paths);
    tcase_add_test(tc, routing_functions);
    tcase_add_test(tc, one_packet_dor_and_yx_by_hand);
    tcase_add_test(tc, routing_refusals);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
