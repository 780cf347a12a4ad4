/* Open-loop measurement (sim/openloop.c): zero-load latency and channel-
 * load bounds against values worked out by hand, every pattern's measured
 * zero-load latency against the analytic one, saturation throughput below
 * the bound on the 8x8 mesh and torus, the packet-mix parser, and results
 * that depend only on the seed. */
#include <check.h>

#include "tests/testutil.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/openloop.h"
#include "traffic/synth.h"

static const char *const seven[] = { "uniform", "transpose", "bitcomp", "bitrev", "shuffle", "tornado", "neighbor" };

static ol_params params(route_topology topo)
{
    ol_params p;
    ol_params_default(&p);
    p.net.rp.topo = topo;
    p.net.vc_rule = topo == TOPO_MESH ? VCRULE_ANY : VCRULE_DATELINE;
    return p;
}

static synth *pattern(const char *name)
{
    char err[256];
    synth *s = synth_new(name, 8, 8, SYNTH_SELF_SKIP, 1, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    return s;
}

/* [R-TM-4]: BookSim2's reference router (D = S = L = C = 1) on the 8x8
 * mesh with 3 VCs of 4 flits.  By hand, a lone 1-flit packet over H links
 * is injected in cycle 0, lands at the end of 1 (L), leaves each of the
 * H + 1 routers 1 + D = 2 cycles after landing there and lands S + L = 2
 * cycles later at the next router or the ejection: out at the end of
 * 1 + 4 (H + 1), latency (+ 1) 4H + 6.  An 8-flit packet's tail follows 7
 * cycles behind plus what its 4-flit FIFOs cost it; the values are
 * BookSim2's own lone packets (commit 28f4329, reference config): 18, 22,
 * 26 at H = 1, 2, 3 for 8 flits (one cycle lost to the credit loop) and
 * 10, 14, 18 for 1 flit.  Uniform without self: mean hops 16 / 3, so
 * T0 = 4 x 16 / 3 + 14. */
START_TEST(zero_load_timed_by_hand)
{
    ol_params p = params(TOPO_MESH);
    p.net.router_delay = 1;
    p.net.switch_delay = 1;
    p.net.link_delay = 1;
    p.net.credit_delay = 1;
    for (int h = 1; h <= 3; h++) ck_assert_double_eq_tol(ol_lone_latency(&p, h, 8), 4 * h + 14, 1e-12);
    synth *u = pattern("uniform");
    double hops;
    ck_assert_double_eq_tol(ol_zero_load(&p, u, &hops), 4 * 16.0 / 3 + 14, 1e-9);
    ck_assert_double_eq_tol(hops, 16.0 / 3, 1e-9);
    for (int h = 1; h <= 3; h++) ck_assert_double_eq_tol(ol_lone_latency(&p, h, 1), 4 * h + 6, 1e-12);
    synth_free(u);
}
END_TEST

/* [R-OL-BOUND-1] by hand.  8x8 mesh, uniform without self: a packet's hops are |dx| + |dy| with dx,
 * dy independent-ish; the mean over the 64 * 63 ordered pairs of distinct
 * nodes is 2 * (sum over x, x' of |x - x'|) * 64 / (64 * 63) = 2 * 168 * 64
 * / 4032 = 5.3333 (sum |x - x'| over 8 x 8 = 168), so T0 = 5.3333 + 8 + 1.
 * Busiest channel: the E link out of x = 3 in a row carries the packets of
 * that row's 4 left nodes to the 32 nodes with x >= 4, each 1/63 of its
 * rate: load 4 * 32 / 63 = 2.0317, bound 0.4922.  Transpose on the mesh: the
 * N link out of (0,0) carries the 7 sources (x,0), x > 0, bound 1/7. */
START_TEST(analytic_by_hand)
{
    ol_params p = params(TOPO_MESH);
    synth *u = pattern("uniform"), *t = pattern("transpose");
    double hops;
    ck_assert_double_eq_tol(ol_zero_load(&p, u, &hops), 5.0 + 1.0 / 3 + 9, 1e-9);
    ck_assert_double_eq_tol(hops, 16.0 / 3, 1e-9);
    char what[64];
    ck_assert_double_eq_tol(ol_channel_bound(&p, u, what, sizeof what), 63.0 / 128, 1e-9);
    ck_assert_str_eq(what, "link (3,0) E");
    ck_assert_double_eq_tol(ol_channel_bound(&p, t, what, sizeof what), 1.0 / 7, 1e-9);
    ck_assert_str_eq(what, "link (0,0) N");
    /* Transpose's 8 fixed points send nothing: 56 sources, mean hops over
     * them 2 * (sum |x - y| over x != y) / 56 = 2 * 168 / 56 = 6. */
    ck_assert_double_eq_tol(ol_zero_load(&p, t, &hops), 6 + 8 + 1, 1e-9);
    /* A hotspot share of 0.5 on node 0: the 63 other nodes send it half
     * their packets plus 1/63 of the other half (uniform), and node 0, whose
     * hotspot draws fall back to the pattern, none: its ejection channel
     * carries 63 x 0.5 + 63 x 0.5 / 63 = 32 times a node's rate. */
    char err[128];
    ck_assert_int_eq(synth_set_hotspot(u, "0:0.5", err, sizeof err), 0);
    ck_assert_double_eq_tol(ol_channel_bound(&p, u, what, sizeof what), 1.0 / 32, 1e-9);
    ck_assert_str_eq(what, "ejection at node 0");
    synth_free(u);
    synth_free(t);
}
END_TEST

/* The measured mean latency at a rate near zero equals the analytic zero-
 * load latency within 1 % on both 8x8 networks for the seven patterns.  At
 * 0.001 queueing adds well under 0.1 %, and the mean hops of the ~4,000
 * packets of 500,000 cycles (sources have different routes, and each sends
 * a random number of packets) are within about 0.3 % of the average
 * [R-OL-LAT-1, R-OL-BOUND-1]. */
START_TEST(zero_load_every_pattern)
{
    for (int topo = 0; topo < 2; topo++)
        for (int k = 0; k < 7; k++) {
            ol_params p = params((route_topology)topo);
            p.window = 500;
            synth *s = pattern(seven[k]);
            ol_point pt;
            char err[256];
            ck_assert_int_eq(ol_run_point(&p, s, 0.001, 7, NULL, &pt, err, sizeof err), 0);
            double t0 = ol_zero_load(&p, s, NULL);
            ck_assert_msg(fabs(pt.lat_avg - t0) <= 0.01 * t0, "%s %s: measured %.3f, analytic %.3f",
                          topo ? "mesh" : "torus", seven[k], pt.lat_avg, t0);
            ck_assert_msg(pt.lat_avg >= t0 - 0.01 * t0, "below the analytic value");
            ck_assert_int_eq(pt.saturated, 0);
            synth_free(s);
        }
}
END_TEST

/* Saturation on the 8x8 mesh and torus.  With the per-flow rule (a source
 * whose backlog grows past 8 packets and 2 % of a window's traffic) the
 * saturation rate is at most the channel-load bound: an overloaded channel
 * makes its flows' backlogs grow from the first cycle.  The field's network-
 * wide rule alone (the default, BookSim2's) cannot see a few flows fall short
 * (mesh transpose: 7 of 56 flows 9 % short is 1 % of the traffic) and may
 * pass the bound by up to 10 %, as BookSim2's own mesh transpose does (1.12 x,
 * shared/reference/booksim2_openloop.md).  The measured offered load is the
 * rate asked (per sending node) and the accepted one close to it. */
static double saturation(route_topology topo, const char *name, int per_flow, double *bound)
{
    ol_params p = params(topo);
    p.per_flow = per_flow;
    synth *s = pattern(name);
    int senders = 0;
    for (int i = 0; i < s->nodes; i++) senders += synth_sends(s, i);
    *bound = ol_channel_bound(&p, s, NULL, 0);
    ol_point sat;
    char err[256];
    double hi = *bound + 0.1 > 1 ? 1 : *bound + 0.1;
    ck_assert_int_eq(ol_saturation(&p, s, 0.3 * *bound, hi, 0.02, 3, NULL, &sat, err, sizeof err), 0);
    /* Accepted and offered in the window differ only by the backlog's change
     * over it: a few per cent near saturation, not more. */
    ck_assert_msg(fabs(sat.accepted - sat.offered) <= 0.05 * sat.offered, "%s: accepted %.4f, offered %.4f", name,
                  sat.accepted, sat.offered);
    ck_assert_msg(fabs(sat.offered * s->nodes / senders - sat.rate) <= 0.05 * sat.rate,
                  "%s: offered %.4f per sender at rate %.4f", name, sat.offered * s->nodes / senders, sat.rate);
    synth_free(s);
    return sat.rate;
}

START_TEST(saturation_below_bound)
{
    for (int topo = 0; topo < 2; topo++)
        for (int k = 0; k < 7; k++) {
            double bound, flow = saturation((route_topology)topo, seven[k], 1, &bound);
            ck_assert_msg(flow <= bound, "%s %s: per-flow saturation %.4f above the bound %.4f",
                          topo ? "mesh" : "torus", seven[k], flow, bound);
            ck_assert_msg(flow > 0.1, "%s %s: saturates at %.3f", topo ? "mesh" : "torus", seven[k], flow);
            double field = saturation((route_topology)topo, seven[k], 0, &bound);
            ck_assert_msg(field <= bound * 1.10 && field >= flow - 0.02, "%s %s: field rule %.4f, per-flow %.4f, bound %.4f",
                          topo ? "mesh" : "torus", seven[k], field, flow, bound);
        }
}
END_TEST

START_TEST(packet_mix)
{
    ol_params p;
    ol_params_default(&p);
    char err[256];
    ck_assert_int_eq(ol_parse_packet_mix(&p, "1:0.5,8:0.5", err, sizeof err), 0);
    ck_assert_int_eq(p.nlen, 2);
    ck_assert_double_eq_tol(ol_mean_length(&p), 4.5, 1e-12);
    ck_assert_int_eq(ol_parse_packet_mix(&p, "1:0.5,8:0.4", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "sum to 0.9"));
    ck_assert_int_eq(p.nlen, 2); /* unchanged */
    static const char *bad[] = { "", "0", "256", "8:", ":0.5", "8:0", "8:1.5", "1:0.5,", "1:0.5,,8:0.5", "x" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        ck_assert_msg(ol_parse_packet_mix(&p, bad[k], err, sizeof err) == -1, "'%s' accepted", bad[k]);
    ck_assert_int_eq(ol_parse_packet_mix(&p, "5", err, sizeof err), 0);
    ck_assert_double_eq(ol_mean_length(&p), 5);
    /* A measured mix: 1- and 8-flit packets half and half at 0.001 on the
     * mesh's neighbor pattern (7 sources a row 1 hop in X, one 7 hops back:
     * mean 1.75 per dimension) have a zero-load latency of 3.5 + 4.5 + 1;
     * the drawn lengths of ~5,700 packets average 4.5 within about 0.1. */
    ck_assert_int_eq(ol_parse_packet_mix(&p, "1:0.5,8:0.5", err, sizeof err), 0);
    p.window = 400;
    synth *s = pattern("neighbor");
    ck_assert_double_eq_tol(ol_zero_load(&p, s, NULL), 3.5 + 4.5 + 1, 1e-9);
    ol_point pt;
    ck_assert_int_eq(ol_run_point(&p, s, 0.001, 5, NULL, &pt, err, sizeof err), 0);
    ck_assert_double_eq_tol(pt.lat_avg, 3.5 + 4.5 + 1, 0.2);
    synth_free(s);
}
END_TEST

/* Same seed, same point; the curve does not depend on the threads. */
START_TEST(seed_and_threads)
{
    ol_params p = params(TOPO_MESH);
    synth *s = pattern("uniform");
    double rates[] = { 0.1, 0.2, 0.3, 0.45, 0.6 };
    ol_point a[5], b[5];
    int na, nb;
    char err[256];
    ck_assert_int_eq(ol_curve(&p, s, rates, 5, 9, 1, 1, NULL, NULL, NULL, a, &na, err, sizeof err), 0);
    ck_assert_int_eq(ol_curve(&p, s, rates, 5, 9, 2, 1, NULL, NULL, NULL, b, &nb, err, sizeof err), 0);
    ck_assert_int_eq(na, nb);
    ck_assert_int_eq(na, 4); /* 0.45 is past the mesh's 0.39: the curve stops there */
    ck_assert_uint_ne(a[3].saturated, 0);
    for (int k = 0; k < na; k++) {
        ck_assert_double_eq(a[k].lat_avg, b[k].lat_avg);
        ck_assert_int_eq(a[k].tagged, b[k].tagged);
        ck_assert_int_eq(a[k].cycles, b[k].cycles);
    }
    ol_point c;
    ck_assert_int_eq(ol_run_point(&p, s, 0.2, ol_point_seed(9, 0.2), NULL, &c, err, sizeof err), 0);
    ck_assert_double_eq(c.lat_avg, a[1].lat_avg);
    ck_assert_int_eq(ol_run_point(&p, s, 0.2, ol_point_seed(10, 0.2), NULL, &c, err, sizeof err), 0);
    ck_assert_double_ne(c.lat_avg, a[1].lat_avg);
    synth_free(s);
}
END_TEST

/* The saturation rules [R-OL-SAT-1..4] at their boundaries, by hand, with
 * tolerances exact in binary.  accept_tol 1/4: offered 1/2 needs accepted
 * 3/4 x 1/2 = 0.375 (stable at exactly that, saturated just below).  The
 * drain: one tagged packet left, or the sources full with none left, is
 * saturated.  Latency limit 100: 100 is stable, just above is not.  The
 * per-flow limit for 8-flit packets is the larger of 8 x 8 = 64 flits and
 * 1/4 of a window's offer: 1/8 packet a cycle x 8 flits x 1000 cycles =
 * 1000 flits, share 250; over 100 cycles the offer is 100 flits, share 25,
 * and the 64-flit floor holds. */
START_TEST(judge_by_hand)
{
    ol_params p;
    ol_params_default(&p);
    ck_assert_int_eq(p.len[0], 8);
    p.accept_tol = 0.25;
    p.latency_limit = 100;
    ck_assert_double_eq(ol_flow_limit(&p, 0.125, 1000), 250);
    ck_assert_double_eq(ol_flow_limit(&p, 0.125, 100), 64);
    /* Offered 1/2 and a source rate of 1/8 packet a cycle in every row. */
    static const struct {
        double accepted, lat;
        int64_t left;
        int full;
        int64_t backlog;
        double cycles;
        int per_flow;
        unsigned want;
    } row[] = {
        { 0.375, 100, 0, 0, 250, 1000, 0, 0 },
        { 0.374, 100, 0, 0, 250, 1000, 0, OL_SAT_ACCEPT },
        { 0.375, 100, 1, 0, 250, 1000, 0, OL_SAT_DRAIN },
        { 0.375, 100, 0, 1, 250, 1000, 0, OL_SAT_DRAIN },
        { 0.375, 100.001, 0, 0, 250, 1000, 0, OL_SAT_LATENCY },
        { 0.375, 100, 0, 0, 1000000, 1000, 0, 0 },   /* per flow is off by default, whatever the backlog */
        { 0.375, 100, 0, 0, 250, 1000, 1, 0 },
        { 0.375, 100, 0, 0, 251, 1000, 1, OL_SAT_FLOW },
        { 0.375, 100, 0, 0, 64, 100, 1, 0 },
        { 0.375, 100, 0, 0, 65, 100, 1, OL_SAT_FLOW },
        { 0.1, 1000, 3, 0, 5000, 1000, 1, OL_SAT_DRAIN | OL_SAT_ACCEPT | OL_SAT_LATENCY | OL_SAT_FLOW },
    };
    for (size_t k = 0; k < sizeof row / sizeof row[0]; k++) {
        ol_evidence e = { .offered = 0.5, .accepted = row[k].accepted, .lat_avg = row[k].lat, .left = row[k].left,
                          .full = row[k].full, .backlog_max = row[k].backlog, .source_rate = 0.125,
                          .window_cycles = row[k].cycles };
        p.per_flow = row[k].per_flow;
        ck_assert_msg(ol_judge(&p, &e) == row[k].want, "row %zu: %u, want %u", k, ol_judge(&p, &e), row[k].want);
    }
}
END_TEST

/* The warm-up rule [R-OL-WARM-1] by hand: warmup_min 3 and tolerance 1/4.
 * After batch b = 2 (the third) with the batch before at 8, a mean of 10
 * or 6 differs by exactly 1/4 x 8 = 2: steady; 10.01 is not.  After batch
 * b = 1 (two run) it is never steady; nor without a batch before (prev <= 0,
 * the first batch or one without packets). */
/* The watchdog at its boundary: OL_DEADLOCK_CYCLES quiet cycles in a row
 * with flits in the network, one fewer not; a move or an empty network
 * starts the count again; a deadlocked point is saturated for that reason. */
START_TEST(watchdog_by_hand)
{
    int64_t quiet = 0;
    for (int c = 1; c < OL_DEADLOCK_CYCLES; c++) ck_assert_int_eq(ol_watchdog(0, 5, &quiet), 0);
    ck_assert_int_eq(quiet, OL_DEADLOCK_CYCLES - 1);
    ck_assert_int_eq(ol_watchdog(1, 5, &quiet), 0); /* a move: again from 0 */
    ck_assert_int_eq(quiet, 0);
    for (int c = 1; c < OL_DEADLOCK_CYCLES; c++) ck_assert_int_eq(ol_watchdog(0, 5, &quiet), 0);
    ck_assert_int_eq(ol_watchdog(0, 0, &quiet), 0); /* an empty network is idle, not stuck */
    ck_assert_int_eq(quiet, 0);
    for (int c = 1; c < OL_DEADLOCK_CYCLES; c++) ck_assert_int_eq(ol_watchdog(0, 1, &quiet), 0);
    ck_assert_int_eq(ol_watchdog(0, 1, &quiet), 1);
    ol_params p;
    ol_params_default(&p);
    ol_evidence e = { .offered = 0.1, .accepted = 0.1, .lat_avg = 20, .deadlock = 1 };
    ck_assert_uint_eq(ol_judge(&p, &e), OL_SAT_DEADLOCK);
    e.deadlock = 0;
    ck_assert_uint_eq(ol_judge(&p, &e), 0);
}
END_TEST

START_TEST(warmup_by_hand)
{
    ol_params p;
    ol_params_default(&p);
    p.warmup_min = 3;
    p.warmup_tol = 0.25;
    ck_assert_int_eq(ol_warmup_steady(&p, 2, 8, 10), 1);
    ck_assert_int_eq(ol_warmup_steady(&p, 2, 8, 6), 1);
    ck_assert_int_eq(ol_warmup_steady(&p, 2, 8, 10.01), 0);
    ck_assert_int_eq(ol_warmup_steady(&p, 2, 8, 5.99), 0);
    ck_assert_int_eq(ol_warmup_steady(&p, 1, 8, 8), 0);
    ck_assert_int_eq(ol_warmup_steady(&p, 9, 8, 8), 1);
    ck_assert_int_eq(ol_warmup_steady(&p, 9, 0, 0), 0);
    ck_assert_int_eq(ol_warmup_steady(&p, 9, -1, 0), 0);
    /* warmup_min 1: the second batch (b = 1) may already be steady. */
    p.warmup_min = 1;
    ck_assert_int_eq(ol_warmup_steady(&p, 1, 8, 8), 1);
}
END_TEST

/* [R-OL-EARLY-1] by hand.  Four tagged packets: two done with latencies 10
 * and 20 (done_sum 30), two still in the network generated at cycles 100
 * and 104 (left_gen 204).  At cycle 150 (not yet stepped) each of those ends
 * at 150 or later, with latencies of at least 51 and 47: the floor is
 * (30 + 51 + 47) / 4 = 32.  The judge takes the floor as the mean: with the
 * limit at 32 it is stable, at 31.999 saturated; a cut drain's packets
 * left are not the drain rule's, the sources' overflow still is. */
START_TEST(early_by_hand)
{
    ck_assert_double_eq(ol_latency_floor(4, 30, 2, 204, 150), 32);
    ck_assert_double_eq(ol_latency_floor(4, 30, 2, 204, 151), 32.5);
    ck_assert_double_eq(ol_latency_floor(2, 30, 0, 0, 1000), 15);   /* all done: the mean itself */
    ck_assert_double_eq(ol_latency_floor(0, 0, 0, 0, 1000), 0);
    ol_params p;
    ol_params_default(&p);
    ol_evidence e = { .offered = 0.5, .accepted = 0.5, .lat_avg = 20, .lat_floor = 32, .left = 2, .cut = 1 };
    p.latency_limit = 32;
    ck_assert_uint_eq(ol_judge(&p, &e), 0);
    p.latency_limit = 31.999;
    ck_assert_uint_eq(ol_judge(&p, &e), OL_SAT_LATENCY);
    e.cut = 0;
    ck_assert_uint_eq(ol_judge(&p, &e), OL_SAT_LATENCY | OL_SAT_DRAIN);
    e.cut = 1;
    e.full = 1;
    ck_assert_uint_eq(ol_judge(&p, &e), OL_SAT_LATENCY | OL_SAT_DRAIN);
}
END_TEST

/* [R-OL-CI-1] and [R-OL-EARLY-2] at their boundaries, by hand.  ci 1/4 of a
 * mean of 10: a CI of exactly 2.5 ends the window, 2.5 + 2^-20 does not;
 * not before OL_CI_MIN_BATCHES batches (b = 4 is the fifth), nor with fewer
 * than two batches with packets; a window of 3 batches lowers the fewest to
 * 3.  A backlog 100, 110, 120, 200 grew by 100 over three batches that made
 * 400 flits: exactly 1/4 of them is not more than accept_tol 1/4 (not
 * growing), over 399 it is; a batch that did not grow (120, 120) stops it. */
START_TEST(ci_and_growth_by_hand)
{
    ol_params p;
    ol_params_default(&p);
    ck_assert_int_eq(OL_CI_MIN_BATCHES, 5);
    ck_assert_int_eq(OL_GROWTH_BATCHES, 3);
    p.ci = 0.25;
    ck_assert_int_eq(ol_ci_met(&p, 4, 2.5, 10, 5), 1);
    ck_assert_int_eq(ol_ci_met(&p, 4, 2.5 + 1.0 / (1 << 20), 10, 5), 0);
    ck_assert_int_eq(ol_ci_met(&p, 3, 2.5, 10, 4), 0);
    ck_assert_int_eq(ol_ci_met(&p, 4, 0, 10, 1), 0);
    p.window = 3;
    ck_assert_int_eq(ol_ci_met(&p, 2, 2.5, 10, 3), 1);
    ck_assert_int_eq(ol_ci_met(&p, 1, 2.5, 10, 2), 0);
    p.accept_tol = 0.25;
    const int64_t grew[] = { 100, 110, 120, 200 }, flat[] = { 100, 120, 120, 200 };
    ck_assert_int_eq(ol_backlog_growing(&p, grew, 400), 0);
    ck_assert_int_eq(ol_backlog_growing(&p, grew, 399), 1);
    ck_assert_int_eq(ol_backlog_growing(&p, flat, 1), 0);
}
END_TEST

/* Early stopping on the 8x8 mesh (uniform saturates near 0.39): a stable
 * point is the same run with it and without (every number), a saturated one
 * keeps its verdict and ends sooner.  With ci a stable point's window is
 * between the fewest batches and the cap; a CI that cannot be met runs the
 * cap; a saturated point ends its warm-up early (not steady) and is
 * saturated without a drain. */
START_TEST(early_and_ci_runs)
{
    ol_params p = params(TOPO_MESH), q = p;
    q.early_stop = 1;
    synth *s = pattern("uniform");
    ol_point a, b;
    char err[256];
    ck_assert_int_eq(ol_run_point(&p, s, 0.3, 4, NULL, &a, err, sizeof err), 0);
    ck_assert_int_eq(ol_run_point(&q, s, 0.3, 4, NULL, &b, err, sizeof err), 0);
    ck_assert_uint_eq(a.saturated, 0);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    ck_assert_int_eq(ol_run_point(&p, s, 0.5, 4, NULL, &a, err, sizeof err), 0);
    ck_assert_int_eq(ol_run_point(&q, s, 0.5, 4, NULL, &b, err, sizeof err), 0);
    ck_assert_uint_ne(a.saturated, 0);
    ck_assert_uint_ne(b.saturated, 0);
    ck_assert_int_eq(a.warmup_cycles, b.warmup_cycles);
    ck_assert_int_lt(b.drain_cycles, a.drain_cycles);
    ck_assert_int_lt(b.tagged_done, b.tagged);
    q.early_stop = 0;
    q.ci = 0.05;
    ck_assert_int_eq(ol_run_point(&q, s, 0.1, 4, NULL, &b, err, sizeof err), 0);
    int64_t batches = (b.cycles - b.warmup_cycles - b.drain_cycles) / q.batch;
    ck_assert_uint_eq(b.saturated, 0);
    ck_assert_int_ge(batches, OL_CI_MIN_BATCHES);
    ck_assert_int_lt(batches, q.window);
    q.ci = 1e-6;
    ck_assert_int_eq(ol_run_point(&q, s, 0.1, 4, NULL, &b, err, sizeof err), 0);
    ck_assert_int_eq(b.cycles - b.warmup_cycles - b.drain_cycles, (int64_t)q.window * q.batch);
    q.ci = 0.05;
    ck_assert_int_eq(ol_run_point(&q, s, 0.6, 4, NULL, &b, err, sizeof err), 0);
    ck_assert_uint_ne(b.saturated & OL_SAT_ACCEPT, 0);
    ck_assert_int_eq(b.steady, 0);
    ck_assert_int_lt(b.warmup_cycles, (int64_t)q.warmup_max * q.batch);
    ck_assert_int_eq(b.drain_cycles, 0);
    synth_free(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("openloop");
    TCase *tc = tcase_create("openloop");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, analytic_by_hand);
    tcase_add_test(tc, zero_load_timed_by_hand);
    tcase_add_test(tc, zero_load_every_pattern);
    tcase_add_test(tc, saturation_below_bound);
    tcase_add_test(tc, packet_mix);
    tcase_add_test(tc, seed_and_threads);
    tcase_add_test(tc, judge_by_hand);
    tcase_add_test(tc, warmup_by_hand);
    tcase_add_test(tc, watchdog_by_hand);
    tcase_add_test(tc, early_by_hand);
    tcase_add_test(tc, ci_and_growth_by_hand);
    tcase_add_test(tc, early_and_ci_runs);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
