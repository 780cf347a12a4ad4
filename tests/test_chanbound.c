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

static int compared;

static void compare(route_topology topo, route_tie tie, int w, int h, const char *pattern, synth_self self,
                    const char *hot)
{
    char err[256], what[96], what_enum[96];
    ol_params p = params(topo, tie, w, h);
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
    tcase_add_test(tc, large_is_fast);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
