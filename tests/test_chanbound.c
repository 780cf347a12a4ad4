/* The channel-load bound and the zero-load latency in closed form (issue
 * 35: O(w^2 + h^2 + nodes) instead of enumerating every pair) against the
 * enumeration on small networks: meshes and tori, squares and rectangles
 * (odd sides on a mesh), every torus tie rule, uniform and permutation
 * patterns, hotspots, --self skip and send.  The bound must agree to 1e-9
 * and name the same busiest channel; the mean hops are checked against a
 * brute-force sum over the pattern's pairs. */
#include <check.h>

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "sim/openloop.h"
#include "tests/testutil.h"
#include "traffic/synth.h"

static ol_params params(route_topology topo, route_tie tie, int w, int h)
{
    ol_params p;
    ol_params_default(&p);
    p.net.rp.topo = topo;
    p.net.rp.tie = tie;
    p.net.rp.w = p.net.rp.n = w;
    p.net.rp.h = h;
    p.net.vc_rule = topo == TOPO_MESH ? VCRULE_ANY : VCRULE_DATELINE;
    return p;
}

/* Hops from a to b under p's routing function, by brute force: Valiant's
 * route through every node in turn, averaged; every other function's
 * routes are minimal (tests/test_routing.c). */
static double pair_hops(const ol_params *p, const route_params *rp, int a, int b)
{
    if (p->net.routing != ROUTING_VALIANT) return route_hops(rp, a, b);
    int nodes = route_width(rp) * route_height(rp);
    double sum = 0;
    for (int m = 0; m < nodes; m++) sum += route_hops(rp, a, m) + route_hops(rp, m, b);
    return sum / nodes;
}
#define route_hops(rp, a, b) pair_hops(p, rp, a, b)

/* Mean hops by brute force: every sending source, every destination it can
 * draw, with its probability (as synth_draw draws them). */
static double brute_hops(const ol_params *p, const synth *s)
{
    route_params rp = p->net.rp;
    double sum = 0, weight = 0;
    for (int i = 0; i < s->nodes; i++) {
        if (!synth_sends(s, i)) continue;
        double base = 1.0;
        if (s->nhot) {
            double share = s->hot_fraction / s->nhot, back = 0;
            for (int k = 0; k < s->nhot; k++) {
                if (s->hot[k] == i && s->self == SYNTH_SELF_SKIP) back += share;
                else { sum += share * route_hops(&rp, i, s->hot[k]); weight += share; }
            }
            base = 1.0 - s->hot_fraction + back;
        }
        if (!s->uniform) {
            sum += base * route_hops(&rp, i, s->dest[i]);
            weight += base;
            continue;
        }
        int others = s->self == SYNTH_SELF_SEND ? s->nodes : s->nodes - 1;
        for (int d = 0; d < s->nodes; d++)
            if (d != i || s->self == SYNTH_SELF_SEND) {
                sum += base / others * route_hops(&rp, i, d);
                weight += base / others;
            }
    }
    return weight > 0 ? sum / weight : 0;
}
#undef route_hops

static int compared;

static void compare_routed(routing_kind k, route_topology topo, route_tie tie, int w, int h, const char *pattern,
                           synth_self self, const char *hot)
{
    char err[256], what[96], what_enum[96];
    ol_params p = params(topo, tie, w, h);
    p.net.routing = k;
    synth *s = synth_new(pattern, w, h, self, 7, NULL, err, sizeof err);
    if (!s) return; /* a pattern this grid does not take (bit patterns, transpose) */
    if (hot) ck_assert_msg(synth_set_hotspot(s, hot, err, sizeof err) == 0, "%s", err);
    double fast = ol_channel_bound(&p, s, what, sizeof what);
    double ref = ol_channel_bound_enum(&p, s, what_enum, sizeof what_enum);
    ck_assert_msg(fabs(fast - ref) <= 1e-9 * ref, "%s %dx%d %s tie %d self %d hot %s: bound %.12f, enumeration %.12f",
                  topo == TOPO_MESH ? "mesh" : "torus", w, h, pattern, (int)tie, (int)self, hot ? hot : "-", fast, ref);
    ck_assert_msg(!strcmp(what, what_enum), "%s %dx%d %s tie %d self %d hot %s: busiest %s, enumeration %s",
                  topo == TOPO_MESH ? "mesh" : "torus", w, h, pattern, (int)tie, (int)self, hot ? hot : "-", what,
                  what_enum);
    double hops;
    (void)ol_zero_load(&p, s, &hops);
    double want = brute_hops(&p, s);
    ck_assert_msg(fabs(hops - want) <= 1e-9 * (want > 1 ? want : 1), "%s %dx%d %s: hops %.12f, brute force %.12f",
                  topo == TOPO_MESH ? "mesh" : "torus", w, h, pattern, hops, want);
    synth_free(s);
    compared++;
}

static void compare(route_topology topo, route_tie tie, int w, int h, const char *pattern, synth_self self,
                    const char *hot)
{
    compare_routed(ROUTING_DOR, topo, tie, w, h, pattern, self, hot);
}

START_TEST(closed_form_equals_enumeration)
{
    static const char *const patterns[] = { "uniform", "transpose", "tornado", "randperm", "neighbor", "bitcomp" };
    static const int sizes[][2] = { { 4, 4 }, { 8, 8 }, { 6, 4 }, { 4, 8 }, { 2, 6 }, { 5, 5 }, { 5, 3 }, { 3, 7 } };
    static const char *const hots[] = { NULL, "3:0.3", "0,5:0.4" };
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
        for (int topo = 0; topo < 2; topo++) {
            int w = sizes[z][0], h = sizes[z][1];
            route_topology t = topo ? TOPO_TORUS : TOPO_MESH;
            if (t == TOPO_TORUS && (w % 2 || h % 2)) continue;
            for (int tie = 0; tie < (t == TOPO_TORUS ? 3 : 1); tie++)
                for (size_t k = 0; k < sizeof patterns / sizeof *patterns; k++)
                    for (int self = 0; self < 2; self++)
                        for (size_t hh = 0; hh < sizeof hots / sizeof *hots; hh++)
                            compare(t, (route_tie)tie, w, h, patterns[k], (synth_self)self, hots[hh]);
        }
    ck_assert_int_gt(compared, 500);
}
END_TEST

/* The same for every routing function but dor on meshes: the legs added by
 * rows and columns (Valiant's from what each node sends and receives)
 * against every link of every plan's route walked; the mean hops against
 * Valiant's routes through every node summed. */
START_TEST(routed_equals_enumeration)
{
    static const char *const patterns[] = { "uniform", "transpose", "tornado", "randperm", "bitcomp" };
    static const int sizes[][2] = { { 4, 4 }, { 6, 4 }, { 5, 3 }, { 3, 7 } };
    static const char *const hots[] = { NULL, "0,5:0.4" };
    compared = 0;
    for (int k = ROUTING_YX; k < ROUTING_COUNT; k++)
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
            for (size_t q = 0; q < sizeof patterns / sizeof *patterns; q++)
                for (int self = 0; self < 2; self++)
                    for (size_t hh = 0; hh < sizeof hots / sizeof *hots; hh++)
                        compare_routed((routing_kind)k, TOPO_MESH, TIE_NOWRAP, sizes[z][0], sizes[z][1], patterns[q],
                                       (synth_self)self, hots[hh]);
    ck_assert_int_gt(compared, 200);
    /* The functions a torus takes besides dor, on tori, every tie rule
     * (min-adaptive's uniform part destination by destination against its
     * spread pair by pair; Valiant's legs by rows against every route). */
    static const routing_kind on_torus[] = { ROUTING_VALIANT, ROUTING_MIN_ADAPTIVE, ROUTING_DOR2 };
    const int before = compared;
    for (size_t k = 0; k < sizeof on_torus / sizeof *on_torus; k++)
        for (int z = 0; z < 2; z++)
            for (int tie = 0; tie < 3; tie++)
                for (size_t q = 0; q < sizeof patterns / sizeof *patterns; q++)
                    for (int self = 0; self < 2; self++)
                        for (size_t hh = 0; hh < sizeof hots / sizeof *hots; hh++)
                            compare_routed(on_torus[k], TOPO_TORUS, (route_tie)tie, sizes[z][0], sizes[z][1],
                                           patterns[q], (synth_self)self, hots[hh]);
    ck_assert_int_gt(compared - before, 250);
}
END_TEST

/* Bounds worked out by hand on the 8x8 mesh.  Valiant: each leg is traffic
 * to or from a uniformly drawn node, so the link from x = 3 to x = 4 of a
 * row carries, per unit rate, 4 sources x 1/2 of their first legs plus 4
 * intermediate nodes x 1/2 of the second legs: 4, a bound of 1/4 whatever
 * the permutation of senders (uniform here).  O1TURN on transpose: the YX
 * half of each route is the mirror image of another pair's XY half, so the
 * busiest link carries half what it does under dor: twice dor's bound. */
START_TEST(routed_bounds_by_hand)
{
    char err[256];
    ol_params p = params(TOPO_MESH, TIE_NOWRAP, 8, 8);
    synth *u = synth_new("uniform", 8, 8, SYNTH_SELF_SEND, 1, NULL, err, sizeof err);
    synth *t = synth_new("transpose", 8, 8, SYNTH_SELF_SKIP, 1, NULL, err, sizeof err);
    ck_assert_msg(u && t, "%s", err);
    p.net.routing = ROUTING_VALIANT;
    ck_assert_double_eq_tol(ol_channel_bound(&p, u, NULL, 0), 0.25, 1e-12);
    /* Mean hops: 2 legs x 2 dimensions x (64 - 1) / 24 = 10.5. */
    double hops;
    (void)ol_zero_load(&p, u, &hops);
    ck_assert_double_eq_tol(hops, 10.5, 1e-12);
    p.net.routing = ROUTING_DOR;
    const double dor = ol_channel_bound(&p, t, NULL, 0);
    /* Under dor the 7 sources (x, 0), x > 0, all turn north at (0,0) to (0,x). */
    ck_assert_double_eq_tol(dor, 1.0 / 7, 1e-12);
    p.net.routing = ROUTING_O1TURN;
    ck_assert_double_eq_tol(ol_channel_bound(&p, t, NULL, 0), 2 * dor, 1e-12);
    synth_free(u);
    synth_free(t);
}
END_TEST

/* On tori [R-RF-11], [R-RF-12].  Valiant: as on the mesh, each leg is to or
 * from a uniform node, so every link carries twice dor's uniform load (the
 * source included).  A 4x4 ring under --tie plus: a source sends 1/4 one hop
 * E, 1/4 two hops E, 1/4 one hop W, so each E link carries 3/4 and Valiant
 * 3/2, a bound of 2/3; under the default tie half a ring goes the way
 * without the wrap, the E link from x = 1 carries the ties of x = 0 and 1
 * (1/4 each) and the one hop of x = 1: 3/4 too.  Hops: a ring distance of 1
 * on average, 2 legs x 2 dimensions: 4.  The 8x8 torus under the default
 * tie: the E link from x = 3 carries 6/8 from the offsets 1..3 and the ties
 * of x = 0..3, 4/8: 5/4, Valiant 5/2, a bound of 0.4; hops 2 x 2 x 2 = 8.
 * Min-adaptive on transpose, 4x4 torus, --tie plus (self skip): the pairs
 * one hop apart in each dimension take either order, 1/2 each; those half
 * a ring apart (+2, +2) spread over their 3x3 quadrant.  Summed link by
 * link (docs/model.md's example) every E and N link carries 3/4, every W
 * and S link 1/2 or nothing: no link reaches the injection channel's 1, a
 * bound of 1, where dor's XY routes put two packets on the E link out of
 * (0,1) (from (0,1) and (3,1)): 1/2. */
START_TEST(torus_bounds_by_hand)
{
    char err[256];
    for (int tie = 0; tie < 3; tie++) {
        ol_params p = params(TOPO_TORUS, (route_tie)tie, 4, 4);
        p.net.routing = ROUTING_VALIANT;
        synth *u = synth_new("uniform", 4, 4, SYNTH_SELF_SEND, 1, NULL, err, sizeof err);
        synth *b = synth_new("bitcomp", 4, 4, SYNTH_SELF_SKIP, 1, NULL, err, sizeof err);
        ck_assert_msg(u && b, "%s", err);
        ck_assert_double_eq_tol(ol_channel_bound(&p, u, NULL, 0), 2.0 / 3, 1e-12);
        ck_assert_double_eq_tol(ol_channel_bound(&p, b, NULL, 0), 2.0 / 3, 1e-12);
        double hops;
        (void)ol_zero_load(&p, u, &hops);
        ck_assert_double_eq_tol(hops, 4.0, 1e-12);
        synth_free(u);
        synth_free(b);
    }
    ol_params p = params(TOPO_TORUS, TIE_NOWRAP, 8, 8);
    p.net.routing = ROUTING_VALIANT;
    synth *u8 = synth_new("uniform", 8, 8, SYNTH_SELF_SEND, 1, NULL, err, sizeof err);
    ck_assert_msg(u8 != NULL, "%s", err);
    ck_assert_double_eq_tol(ol_channel_bound(&p, u8, NULL, 0), 0.4, 1e-12);
    double hops;
    (void)ol_zero_load(&p, u8, &hops);
    ck_assert_double_eq_tol(hops, 8.0, 1e-12);
    synth_free(u8);
    p = params(TOPO_TORUS, TIE_PLUS, 4, 4);
    synth *t = synth_new("transpose", 4, 4, SYNTH_SELF_SKIP, 1, NULL, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    char what[96];
    p.net.routing = ROUTING_DOR;
    ck_assert_double_eq_tol(ol_channel_bound(&p, t, what, sizeof what), 0.5, 1e-12);
    p.net.routing = ROUTING_MIN_ADAPTIVE;
    ck_assert_double_eq_tol(ol_channel_bound(&p, t, what, sizeof what), 1.0, 1e-12);
    ck_assert_str_eq(what, "injection channel");
    /* Its zero-load hops are the minimal ones: 8 pairs of 2, 4 pairs of 4,
     * over 12 sources. */
    (void)ol_zero_load(&p, t, &hops);
    ck_assert_double_eq_tol(hops, (8 * 2 + 4 * 4) / 12.0, 1e-12);
    synth_free(t);
}
END_TEST

/* The case: a 128 x 128 mesh took minutes before its first cycle. */
START_TEST(large_is_fast)
{
    char err[256];
    ol_params p = params(TOPO_MESH, TIE_NOWRAP, 128, 128);
    synth *s = synth_new("uniform", 128, 128, SYNTH_SELF_SKIP, 1, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    clock_t t0 = clock();
    double b = ol_channel_bound(&p, s, NULL, 0), hops;
    (void)ol_zero_load(&p, s, &hops);
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    /* The E link out of x = 63: 64 x 64 sources' share of the 128 x 64 nodes
     * to its right, each 1 / (nodes - 1): load 64 * 64 * 128 / 16383. */
    ck_assert_double_eq_tol(b, 16383.0 / (64.0 * 64 * 128), 1e-12);
    /* Mean |dx| + |dy| over distinct pairs: 2 h^2 (n^3 - n) / 3 / (N (N - 1))
     * = 2 n / 3 for n = h = 128. */
    ck_assert_double_eq_tol(hops, 256.0 / 3, 1e-9);
    ck_assert_msg(cpu < 1.0, "%.2f s of CPU for a 128 x 128 bound", cpu);
    synth_free(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chanbound");
    TCase *tc = tcase_create("chanbound");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, closed_form_equals_enumeration);
    tcase_add_test(tc, routed_equals_enumeration);
    tcase_add_test(tc, routed_bounds_by_hand);
    tcase_add_test(tc, torus_bounds_by_hand);
    tcase_add_test(tc, large_is_fast);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
