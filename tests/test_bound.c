/* Tests of the per-link bounds (ga/bound.h): small cases worked out by hand,
 * the branch and bound against a brute force over every packet order, and a
 * 4x4 network where the packet bound is one cycle above the floor, which the
 * simulator attains and no random chromosome beats. */
#include <check.h>

#include "tests/testutil.h"
#include <stdlib.h>

#include "ga/bound.h"
#include "ga/floor.h"
#include "ga/operators.h"
#include "util/rng.h"

/* Two packets of two flits: A released at 1 with tail 5, B at 1 with tail 1.
 * Jackson: A's head at 1 (6), A's body at 2 (7), B at 3 and 4 (4, 5): 7.
 * The floor's reading (all released at 1, every tail 1) gives 1 + 4 - 1 + 1 = 5. */
START_TEST(flits_by_hand)
{
    int64_t r[2] = { 1, 1 }, q[2] = { 5, 1 };
    ck_assert_int_eq(ga_bound_flits(2, r, q, 2), 7);
    ck_assert_int_eq(ga_bound_flits(0, r, q, 2), 0);
    /* B released later than A can finish: no interaction, B's own 6 + 1 + 1. */
    int64_t r2[2] = { 1, 6 };
    ck_assert_int_eq(ga_bound_flits(2, r2, q, 2), 8);
}
END_TEST

/* A released at 0 with tail 0, B at 1 with tail 1, two flits each.  Flits:
 * A0 at 0 (0), B at 1 and 2 (2, 3), A1 at 3 (3): 3.  Whole packets: A then B
 * ends B at 3 (4); B then A starts A at 3, ends it at 4 (4): 4.  On two VCs
 * each alone: A at 0-1 gives 1, B at 1-2 gives 3. */
START_TEST(packets_by_hand)
{
    int64_t r[2] = { 0, 1 }, q[2] = { 0, 1 }, nodes = 0;
    ck_assert_int_eq(ga_bound_flits(2, r, q, 2), 3);
    ck_assert_int_eq(ga_bound_packets(2, r, q, NULL, 0, 2, 0, &nodes), 4);
    ck_assert_int_gt(nodes, 0);
    int vc[2] = { 0, 1 };
    ck_assert_int_eq(ga_bound_packets(2, r, q, vc, 0, 2, 0, NULL), 1);
    ck_assert_int_eq(ga_bound_packets(2, r, q, vc, 1, 2, 0, NULL), 3);
    ck_assert_int_eq(ga_bound_packets(2, r, q, vc, 2, 2, 0, NULL), 0);
    /* A node limit of one cannot finish the search. */
    ck_assert_int_eq(ga_bound_packets(2, r, q, NULL, 0, 2, 1, NULL), -1);
}
END_TEST

/* The optimum over every order of m packets, each started as early as its
 * release and the one before allow (for a fixed order that is optimal). */
static int64_t brute(int m, const int64_t *r, const int64_t *q, int len, int *perm, int k)
{
    if (k == m) {
        int64_t t = INT64_MIN / 2, worst = INT64_MIN;
        for (int i = 0; i < m; i++) {
            int64_t s = r[perm[i]] > t ? r[perm[i]] : t;
            if (s + len - 1 + q[perm[i]] > worst) worst = s + len - 1 + q[perm[i]];
            t = s + len;
        }
        return worst;
    }
    int64_t best = INT64_MAX;
    for (int i = k; i < m; i++) {
        int x = perm[k]; perm[k] = perm[i]; perm[i] = x;
        int64_t v = brute(m, r, q, len, perm, k + 1);
        if (v < best) best = v;
        x = perm[k]; perm[k] = perm[i]; perm[i] = x;
    }
    return best;
}

START_TEST(packets_match_brute_force)
{
    rng g;
    rng_seed(&g, 11);
    int differ = 0;
    for (int it = 0; it < 400; it++) {
        int m = 1 + (int)rng_below(&g, 7), len = 1 + (int)rng_below(&g, 8);
        int64_t r[7], q[7];
        int perm[7];
        for (int j = 0; j < m; j++) {
            r[j] = (int64_t)rng_below(&g, 20);
            q[j] = (int64_t)rng_below(&g, 12);
            perm[j] = j;
        }
        int64_t want = brute(m, r, q, len, perm, 0), got = ga_bound_packets(m, r, q, NULL, 0, len, 0, NULL);
        ck_assert_int_eq(got, want);
        int64_t fl = ga_bound_flits(m, r, q, len);
        ck_assert_int_le(fl, got);   /* interleaving flits can only help */
        differ += fl < got;
    }
    ck_assert_int_gt(differ, 0);     /* and sometimes does */
}
END_TEST

/* 4x4 torus, one 8-flit slice.  Node 1 (1,0) sends to (2,0): one link, 1->2
 * East, which crosses the dateline x = N/2, so VC 1.  Node 0 (0,0) sends to
 * (2,2): E, E, N, N, the second link 1->2 East on VC 1 too.  On that link A
 * (from 1) is released at hop 1 with tail 0 + 2, B (from 0) at hop 2 with
 * tail 2 + 2.  Floor: 16 + 1 + 0 + 1 = 18.  Flits: A's head at 1, B's eight
 * at 2..9 (13), A's body at 10..16 (18): 18.  Packets on one VC: A first
 * puts B at 9..16 (20); B first (from 2) puts A at 10..17 (19): 19.  The
 * simulator: with I = 0, A is granted first and the run takes 20; with
 * I[1] = 1 both heads request in cycle 2 and W comes before P in the default
 * queue order, so B goes first: 19. */
START_TEST(network_by_hand)
{
    sim_params sp = testutil_params(4, 8, 1);
    int32_t dest[16];
    for (int i = 0; i < 16; i++) dest[i] = i;
    dest[1] = 2;
    dest[0] = 2 * 4 + 2;
    ga_bound_info b;
    ck_assert_int_eq(ga_bound(&sp, dest, 0, &b), 0);
    ck_assert_int_eq(b.floor, 18);
    ck_assert_int_eq(ga_floor(&sp, dest), 18);
    ck_assert_int_eq(b.flit, 18);
    ck_assert_int_eq(b.packet, 19);
    ck_assert_int_eq(b.packet_link, 1 * 4 + PORT_E);
    ck_assert_int_eq(b.packet_vc, 1);
    ck_assert_int_eq(b.bound, 19);
    ck_assert_int_eq(b.exact, 1);

    char err[256];
    sim *s = sim_new(&sp, dest, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(s);
    sim_config *c = sim_config_new(16, sp.vcs, 0, 8);
    sim_metrics m;
    ck_assert_int_eq(sim_run(s, c, &m), SIM_OK);
    ck_assert_int_eq(m.duration, 20);
    c->inject[1] = 1;
    ck_assert_int_eq(sim_run(s, c, &m), SIM_OK);
    ck_assert_int_eq(m.duration, 19);
    rng r;
    rng_seed(&r, 5);
    ga_space space = { .genes = GENE_ALL, .vmin = 8, .vmax = 30, .imax = 12 };
    int at = 0;
    for (int k = 0; k < 2000; k++) {
        ga_init_random(c, &space, &r);
        ck_assert_int_eq(sim_run(s, c, &m), SIM_OK);
        ck_assert_int_ge(m.duration, 19);
        at += m.duration == 19;
    }
    ck_assert_int_gt(at, 0);
    sim_config_free(c);
    sim_free(s);

    /* On a mesh under the any-VC rule A and B may take different VCs and
     * interleave: no packet bound, the flit bound (18) stands. */
    sp.topo = TOPO_MESH;
    sp.vc_rule = VCRULE_ANY;
    ck_assert_int_eq(ga_bound(&sp, dest, 0, &b), 0);
    ck_assert_int_eq(b.packet, 0);
    ck_assert_int_eq(b.bound, 18);
    sp.vc_rule = VCRULE_DATELINE;   /* on the mesh both stay in VC 0: 19 again */
    ck_assert_int_eq(ga_bound(&sp, dest, 0, &b), 0);
    ck_assert_int_eq(b.packet, 19);
    ck_assert_int_eq(b.packet_vc, 0);
}
END_TEST

/* network_by_hand's two packets under another routing function than dor: A
 * (0 -> 10) under yx goes N from 0 and 4, then E from 8 and 9, and no longer
 * shares 1's E link with B (1 -> 2).  The floor of a function but dor (and
 * dor2) is the sources' alone: A's 8 flits + 4 hops + 1 = 13 (B's 8 + 1 + 1
 * = 10), and the simulator attains it: 13 cycles under yx, 20 under dor.
 * Under valiant or min-adaptive the floor is the same 13 and every run is
 * at least as long. */
START_TEST(floor_other_routing)
{
    sim_params sp = testutil_params(4, 8, 1);
    sp.topo = TOPO_MESH;
    sp.vc_rule = VCRULE_ANY;
    int32_t dest[16];
    for (int i = 0; i < 16; i++) dest[i] = i;
    dest[1] = 2;
    dest[0] = 2 * 4 + 2;
    ck_assert_int_eq(ga_floor(&sp, dest), 18);
    static const routing_kind kinds[] = { ROUTING_YX, ROUTING_VALIANT, ROUTING_MIN_ADAPTIVE, ROUTING_ODD_EVEN };
    for (int k = 0; k < 4; k++) {
        sp.routing = kinds[k];
        ck_assert_int_eq(ga_floor(&sp, dest), 13);
        ga_bound_info b;
        ck_assert_int_eq(ga_bound(&sp, dest, 0, &b), 0);
        ck_assert_int_eq(b.bound, 13);
        ck_assert_int_eq(b.packet, 0);
        char err[256];
        sim *s = sim_new(&sp, dest, NULL, err, sizeof err);
        ck_assert_msg(s != NULL, "%s", err);
        sim_config *c = sim_config_new(16, sp.vcs, 0, 8);
        sim_metrics m;
        ck_assert_int_eq(sim_run(s, c, &m), SIM_OK);
        if (kinds[k] == ROUTING_YX) ck_assert_int_eq(m.duration, 13);
        else ck_assert_int_ge(m.duration, 13);
        sim_config_free(c);
        sim_free(s);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bound");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, flits_by_hand);
    tcase_add_test(tc, packets_by_hand);
    tcase_add_test(tc, packets_match_brute_force);
    tcase_add_test(tc, network_by_hand);
    tcase_add_test(tc, floor_other_routing);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
