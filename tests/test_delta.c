/* Issue 38's delta runs (sim/delta_run.h) against full runs: which params
 * delta_supports takes, at their boundaries, and lineages walked as the GA
 * walks them on the GA's default network and on other patterns, a mesh,
 * rectangles, 1 and 3 slices, other packet lengths and both dateline
 * variants, each step checked by tests/delta_harness.h (every metric and
 * tail cycle of every child run on its cone equal to sim_run_lean's, and
 * after an accept the record and decisions those of the child's own run).
 *
 * Exactness alone would hold for an engine that never runs a child on its
 * cone, so each lineage case also asserts coverage: at least half the
 * children the GA makes most (the parent's interval, its duration for the
 * cutoff) ran on their cone, some cut children too, every lineage had an
 * accept that patched the record, and one record was patched three
 * generations in a row. */
#include <check.h>

#include "tests/delta_harness.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/delta_internal.h"
#include "traffic/traffic.h"
#include "util/rng.h"

/* ---- delta_supports ---- */

static int supports(const sim_params *p)
{
    char err[256];
    ck_assert_msg(sim_params_check(p, err, sizeof err) == 0, "test params rejected: %s", err);
    return delta_supports(p);
}

/* The default router on every network shape, packet length and dateline
 * variant is served; one step off it (a VC, a flit of FIFO, the any-VC rule,
 * another routing function, a model choice only the reference runs, a
 * time-out past the fast engine's 32-bit cycles) is not. */
START_TEST(supports_boundaries)
{
    sim_params p = testutil_params(16, SIM_DEFAULT_FLITS, 2), q;
    ck_assert(supports(&p));
    q = p; q.topo = TOPO_MESH; ck_assert(supports(&q));
    q = p; q.n = 8; q.h = 4; ck_assert(supports(&q));
    q = p; q.topo = TOPO_MESH; q.n = 4; q.h = 10; ck_assert(supports(&q));
    q = p; q.dateline = DATELINE_AFTER; ck_assert(supports(&q));
    q = p; q.slices = 1; ck_assert(supports(&q));
    q = p; q.slices = 3; q.flits = 4; ck_assert(supports(&q));
    q = p; q.max_cycles = INT32_MAX - 1; ck_assert(supports(&q));

    q = p; q.vcs = 4; ck_assert(!supports(&q));
    q = p; q.buffer = 3; ck_assert(!supports(&q));
    q = p; q.buffer = 5; ck_assert(!supports(&q));
    q = p; q.topo = TOPO_MESH; q.vc_rule = VCRULE_ANY; ck_assert(!supports(&q));
    q = p; q.topo = TOPO_MESH; q.vc_rule = VCRULE_ANY; q.vcs = 2; ck_assert(!supports(&q));
    q = p; q.routing = ROUTING_DOR2; q.vc_rule = VCRULE_ANY; q.vcs = 2; ck_assert(!supports(&q));
    q = p; q.slot_reuse = SLOT_SAME_CYCLE; ck_assert(!supports(&q));
    q = p; q.input_limit = INPUT_PER_PORT; ck_assert(!supports(&q));
    q = p; q.slice_reinit = 1; ck_assert(!supports(&q));
    q = p; q.interlock = 1; ck_assert(!supports(&q));
    q = p; q.max_cycles = INT32_MAX; ck_assert(!supports(&q));
    /* Every other routing function, on a topology it takes, with its VC
     * rule and VCs for its classes (3 at least, as the default router). */
    int others = 0;
    for (int k = 1; k < ROUTING_COUNT; k++)
        for (int topo = TOPO_TORUS; topo <= TOPO_MESH; topo++) {
            if (!(routing_info_of((routing_kind)k)->topologies & (1u << topo))) continue;
            q = p;
            q.routing = (routing_kind)k;
            q.topo = (route_topology)topo;
            q.vc_rule = routing_default_vc_rule(q.routing, q.topo);
            const route_params grid = sim_route_params(&q);
            q.vcs = routing_classes(q.routing, &grid) > 3 ? routing_classes(q.routing, &grid) : 3;
            char err[256];
            if (sim_params_check(&q, err, sizeof err)) continue; /* needs more than this to be a network */
            ck_assert_msg(!delta_supports(&q), "routing %s on topology %d taken", routing_info_of(q.routing)->name,
                          topo);
            others++;
        }
    ck_assert_msg(others >= ROUTING_COUNT - 1, "only %d other routing functions tried", others);
}
END_TEST

/* ---- lineages ---- */

static unsigned take_splitmix(void *ctx, unsigned range) { return (unsigned)(rng_splitmix64(ctx) % range); }

static const struct {
    const char *pat;
    int w, h, topo, slices, flits;
    route_dateline dateline;
    int lineages, children;
} cases[] = {
    { "brev", 16, 16, TOPO_TORUS, 2, 8, DATELINE_ON_LINK, 3, 120 }, /* the GA's default run */
    { "bcmp", 8, 8, TOPO_TORUS, 2, 8, DATELINE_ON_LINK, 3, 60 },
    { "shfl", 8, 8, TOPO_TORUS, 3, 6, DATELINE_ON_LINK, 3, 60 },
    { "randperm", 8, 8, TOPO_TORUS, 1, 8, DATELINE_ON_LINK, 3, 60 },
    { "trns", 8, 8, TOPO_TORUS, 2, 8, DATELINE_AFTER, 3, 60 },
    { "torn", 8, 8, TOPO_TORUS, 2, 4, DATELINE_AFTER, 3, 60 },
    { "brev", 8, 8, TOPO_MESH, 2, 8, DATELINE_ON_LINK, 3, 60 },
    { "brot", 8, 4, TOPO_TORUS, 2, 8, DATELINE_ON_LINK, 3, 60 },
    { "torn", 6, 10, TOPO_MESH, 3, 8, DATELINE_ON_LINK, 3, 60 },
};

/* Case i: its lineages from a GA start, a start moved 40 times, and (from
 * the third on) random genes; every step checked, then the coverage. */
START_TEST(lineages)
{
    const char *pat = cases[_i].pat;
    sim_params p = testutil_params(cases[_i].w, cases[_i].flits, cases[_i].slices);
    p.h = cases[_i].h == cases[_i].w ? 0 : cases[_i].h;
    p.topo = (route_topology)cases[_i].topo;
    p.dateline = cases[_i].dateline;
    ck_assert(supports(&p));
    char err[256], what[128];
    traffic *t = traffic_new_grid(pat, cases[_i].w, cases[_i].h, 38, NULL, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    snprintf(what, sizeof what, "%s %dx%d %s S=%d L=%d dateline %d", pat, cases[_i].w, cases[_i].h,
             cases[_i].topo == TOPO_MESH ? "mesh" : "torus", p.slices, p.flits, (int)p.dateline);
    dh h;
    ck_assert_msg(dh_open(&h, &p, t->dest, what) == 0, "%s", h.msg);
    uint64_t r = 3800 + (uint64_t)_i;
    const dh_draw d = { take_splitmix, &r };
    int patched = 0;
    for (int l = 0; l < cases[_i].lineages; l++) {
        sim_config *c = sim_config_new(h.nodes, p.vcs, 0, (uint32_t)p.flits);
        ck_assert_ptr_nonnull(c);
        if (l < 2) dh_start(&h, c, &d, 40 * l);
        else testutil_random_genes(c, &r, p.flits, h.imax, 2 * p.flits);
        const long before = h.accepted, ran = h.children;
        const char *bad = dh_lineage(&h, c, cases[_i].children, &d);
        sim_config_free(c);
        ck_assert_msg(bad == NULL, "%s", bad);
        /* The default router does not deadlock: every child was compared. */
        ck_assert_msg(h.children - ran == cases[_i].children, "%s: lineage %d ended after %ld children", what, l,
                      h.children - ran);
        patched += h.accepted > before;
    }
    fprintf(stderr,
            "delta: %s: %ld children, %ld on their cone (%ld of %ld with the parent's interval and duration for "
            "the cutoff, %ld of %ld cut), %ld on to the whole network; "
            "%ld of %ld accepts patched the record (%d generations at most); %ld parents recorded; "
            "%ld of %ld verdicts repeats\n",
            what, h.children, h.cone, h.ga_case_cone, h.ga_case, h.cone_cut, h.cut, h.whole, h.accepted, h.accepts, h.longest,
            h.parents, h.proven, h.verdicts);
    /* The verdicts compared must include repeats, or they compare little. */
    ck_assert_msg(h.proven > 0, "%s: no grandchild proven to repeat", what);
    /* Coverage: exactness checked on the cone, and on patched records. */
    ck_assert_msg(2 * h.ga_case_cone >= h.ga_case, "%s: coverage: %ld of %ld children with the parent's interval "
                  "and the GA's cutoff ran on their cone (want half)", what, h.ga_case_cone, h.ga_case);
    ck_assert_msg(patched == cases[_i].lineages, "%s: coverage: %d of %d lineages had an accept that patched the record",
                  what, patched, cases[_i].lineages);
    ck_assert_msg(h.whole > 0, "%s: coverage: no child went on from its cone to the whole network", what);
    ck_assert_msg(h.cone_cut > 0, "%s: coverage: none of %ld cut children ran on its cone", what, h.cut);
    ck_assert_msg(h.longest >= 3, "%s: coverage: at most %d generations walked on one patched record (want 3)", what,
                  h.longest);
    dh_close(&h);
    traffic_free(t);
}
END_TEST

/* ---- the record's memory budget ---- */

/* The parent c with node i's injection at `inject`, recorded into r: its
 * duration (its metrics checked against a full run's). */
static int64_t late_parent(sim *s, delta_engine *e, delta_rec *r, sim_decisions *d, sim_config *c, int i, int inject)
{
    sim_metrics m, full;
    c->inject[i] = (uint16_t)inject;
    ck_assert_int_eq(delta_run_parent(e, c, d, r, &m, NULL), 1);
    sim_run_lean(s, c, INT64_MAX, NULL, &full);
    ck_assert_int_eq(m.status, SIM_OK);
    ck_assert_int_eq(m.duration, full.duration);
    ck_assert_int_eq(m.late_sum, full.late_sum);
    return m.duration;
}

/* A record takes at most DELTA_REC_BUDGET bytes of cycles: a parent's run
 * of T cycles is recorded while T x (the bytes a cycle: 4 link entries and
 * the dfull bits a router, a 16th of its snapshot, the activity bitmap, an
 * ejection offset) fits, and past that the record is given up for good.
 * One node's injection moved late makes the run end where the test wants
 * it: at the last cycle that fits, and one after. */
START_TEST(record_budget)
{
    sim_params p = testutil_params(16, SIM_DEFAULT_FLITS, 2);
    char err[256];
    traffic *t = traffic_new_grid("brev", 16, 16, 38, NULL, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    const int N = sim_nodes(&p), W = (N + 63) / 64;
    fault_kind kind;
    sim *s = sim_new(&p, t->dest, &kind, err, sizeof err);
    delta_engine *e = delta_engine_new(&p, t->dest);
    delta_rec *r = delta_rec_new(&p);
    sim_decisions *d = sim_decisions_new(&p);
    sim_config *c = sim_config_new(N, p.vcs, 0, 60);
    ck_assert(s && e && r && d && c);
    const size_t per_cycle = (size_t)N * (4 * 4 + 2 + sizeof(rsnap) / DK) + (size_t)W * 8 + 4;
    const int64_t fits = (int64_t)(DELTA_REC_BUDGET / per_cycle);
    /* Node 1's packets alone at the end: the duration follows its injection. */
    const int64_t k = late_parent(s, e, r, d, c, 1, 1000) - 1000;
    ck_assert_int_eq(late_parent(s, e, r, d, c, 1, 1001), 1001 + k);
    ck_assert(delta_rec_valid(r));
    ck_assert_int_eq(late_parent(s, e, r, d, c, 1, (int)(fits - k)), fits);
    ck_assert_msg(delta_rec_valid(r), "a %lld-cycle record (the most that fit) was given up", (long long)fits);
    ck_assert(delta_rec_bytes(r) <= DELTA_REC_BUDGET + 2 * (size_t)N * sizeof(rsnap) + ((size_t)1 << 20));
    ck_assert_int_eq(late_parent(s, e, r, d, c, 1, (int)(fits - k + 1)), fits + 1);
    ck_assert(!delta_rec_valid(r) && !delta_rec_recordable(r));
    /* Given up for good: a short parent is not recorded again. */
    late_parent(s, e, r, d, c, 1, 0);
    ck_assert(!delta_rec_valid(r) && !delta_rec_recordable(r));
    sim_config_free(c);
    sim_decisions_free(d);
    delta_rec_free(r);
    delta_engine_free(e);
    sim_free(s);
    traffic_free(t);
}
END_TEST

/* ---- when a child goes on to the whole network ---- */

/* The cone is given up past half the network: 128 of 256 routers stay,
 * 129 go on; 30 of 60 stay, 31 go on. */
START_TEST(past_half)
{
    ck_assert(!delta_cone_past_half(128, 256));
    ck_assert(delta_cone_past_half(129, 256));
    ck_assert(!delta_cone_past_half(30, 60));
    ck_assert(delta_cone_past_half(31, 60));
}
END_TEST

/* A child with another interval goes on at the snapshot at or before the
 * earliest second slice, worked out by hand on 4 nodes, node 3 silent:
 * parent V = 60, I = (5, 9, 2, 0); child V = 58, I = (5, 9, 7, 0).  Second
 * slices: node 0 at 65 / 63, node 1 at 69 / 67, node 2 at 62 / 65 (node 3
 * sends nothing): the earliest is 62, so the snapshot at 48.  With node 2's
 * at 64 in both runs (I = 4 / 6) node 0's 63 is the earliest: still 48;
 * with node 0's at 65 / 64 too (child I = 6) the earliest is 64, a
 * snapshot itself. */
START_TEST(whole_from_interval)
{
    const int32_t first[4] = { 0, 2, 4, -1 };
    sim_config *p = sim_config_new(4, 3, 0, 60), *c = sim_config_new(4, 3, 0, 58);
    ck_assert(p && c);
    const uint16_t pi[4] = { 5, 9, 2, 0 }, ci[4] = { 5, 9, 7, 0 };
    memcpy(p->inject, pi, sizeof pi);
    memcpy(c->inject, ci, sizeof ci);
    ck_assert_int_eq(delta_whole_from(first, 4, 2, p, c), 48);
    p->inject[2] = 4, c->inject[2] = 6; /* 64 and 64: node 0's 63 is the earliest */
    ck_assert_int_eq(delta_whole_from(first, 4, 2, p, c), 48);
    c->inject[0] = 6; /* node 0: 65 and 64, node 2: 64 and 64 */
    ck_assert_int_eq(delta_whole_from(first, 4, 2, p, c), 64);
    ck_assert_int_eq(delta_whole_from(first, 4, 1, p, c), INT64_MAX); /* one slice: no later ones */
    c->interval = 60;
    ck_assert_int_eq(delta_whole_from(first, 4, 2, p, c), INT64_MAX);
    c->interval = 2, c->inject[0] = c->inject[1] = c->inject[2] = 0; /* a second slice at 2: snapshot 0 */
    ck_assert_int_eq(delta_whole_from(first, 4, 2, p, c), 0);
    sim_config_free(p);
    sim_config_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("delta");
    TCase *tc = tcase_create("delta");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, supports_boundaries);
    tcase_add_test(tc, record_budget);
    tcase_add_test(tc, past_half);
    tcase_add_test(tc, whole_from_interval);
    tcase_add_loop_test(tc, lineages, 0, (int)(sizeof cases / sizeof cases[0]));
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
