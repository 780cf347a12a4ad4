/* Reports of an open-loop point beyond its curve row (issue 37 §4,
 * sim/olreport.c): the latency histogram, accepted throughput per node and
 * per flow with Jain's fairness index, latency per packet length, each
 * against a case worked out by hand on a 2x2 mesh, where a lone packet of
 * H hops and L flits takes exactly H + L + 1 cycles [R-OL-LAT-1]. */
#include <check.h>

#include "tests/testutil.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sim/olreport.h"
#include "sim/openloop.h"
#include "traffic/synth.h"

/* A 2x2 mesh, periodic sources, 1-flit packets, a window of 10 batches of
 * 100 cycles. */
static ol_params small(void)
{
    ol_params p;
    ol_params_default(&p);
    p.net.rp.w = p.net.rp.h = p.net.rp.n = 2;
    p.process = OL_PERIODIC;
    p.nlen = 1;
    p.len[0] = 1;
    p.batch = 100;
    return p;
}

/* The traffic of a matrix file with these lines on the 2x2 grid. */
static synth *matrix(const char *text)
{
    char path[TESTUTIL_PATH_MAX], spec[TESTUTIL_PATH_MAX + 8], err[256];
    testutil_temp_file(path, "matrix");
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(spec, sizeof spec, "matrix:%s", path);
    synth *s = synth_new(spec, 2, 2, SYNTH_SELF_SKIP, 1, NULL, err, sizeof err);
    unlink(path);
    ck_assert_msg(s != NULL, "%s", err);
    return s;
}

/* The bins by hand: width 10 puts 9 in [0, 10), 10 and 19 in [10, 20), 20
 * in [20, 30), 41 in [40, 50), with the empty [30, 40) between; log2 puts
 * 1 in [1, 2), 2 and 3 in [2, 4), 4 and 7 in [4, 8), 8 in [8, 16). */
START_TEST(histogram_bins)
{
    ol_params p = small();
    p.hist_width = 10;
    ol_report *r = olrep_new(&p, 4);
    const int32_t a[] = { 19, 9, 10, 20, 41 };
    ck_assert_int_eq(olrep_histogram(r, &p, a, 5), 0);
    ck_assert_int_eq(r->nbins, 5);
    const int64_t lo[] = { 0, 10, 20, 30, 40 }, cnt[] = { 1, 2, 1, 0, 1 };
    for (int k = 0; k < 5; k++) {
        ck_assert_int_eq(r->lo[k], lo[k]);
        ck_assert_int_eq(r->hi[k], lo[k] + 10);
        ck_assert_int_eq(r->count[k], cnt[k]);
    }
    ol_report_free(r);
    p.hist_width = 0;
    p.hist_log = 1;
    r = olrep_new(&p, 4);
    const int32_t b[] = { 8, 1, 2, 3, 4, 7 };
    ck_assert_int_eq(olrep_histogram(r, &p, b, 6), 0);
    ck_assert_int_eq(r->nbins, 4);
    const int64_t blo[] = { 1, 2, 4, 8 }, bcnt[] = { 1, 2, 2, 1 };
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(r->lo[k], blo[k]);
        ck_assert_int_eq(r->hi[k], 2 * blo[k]);
        ck_assert_int_eq(r->count[k], bcnt[k]);
    }
    ol_report_free(r);
}
END_TEST

/* Jain's index by hand: (0.25 + 0.125)^2 / (2 (0.25^2 + 0.125^2)) = 0.9;
 * equal shares 1; one of four taking all 1/4. */
START_TEST(jain_by_hand)
{
    const double a[] = { 0.25, 0.125 }, b[] = { 0.3, 0.3, 0.3 }, c[] = { 0, 0, 1, 0 };
    ol_spread s = ol_spread_of(a, 2);
    ck_assert_double_eq_tol(s.jain, 0.9, 1e-12);
    ck_assert_double_eq(s.min, 0.125);
    ck_assert_double_eq(s.max, 0.25);
    ck_assert_double_eq_tol(s.mean, 0.1875, 1e-15);
    ck_assert_double_eq_tol(ol_spread_of(b, 3).jain, 1, 1e-12);
    ck_assert_double_eq_tol(ol_spread_of(c, 4).jain, 0.25, 1e-12);
}
END_TEST

/* One flow 0 -> 3 on the 2x2 mesh at rate 0.25, 1-flit packets, periodic:
 * a packet every 4 cycles, alone in the network (it takes 4 cycles: 2 hops
 * + 1 flit + 1), so every latency is exactly 4: one bin [4, 5) with width
 * 1, [4, 8) in log2 bins, [3, 6) with width 3.  The window's 1,000 cycles
 * hold exactly 250 generations and 250 ejections: the flow and node 0 offer
 * and are accepted 0.25 flits/cycle, the other nodes 0; one sender, one
 * flow: Jain 1. */
START_TEST(single_flow)
{
    ol_params p = small();
    synth *s = matrix("0 3 1\n");
    const int width[] = { 1, 0, 3 }, lo[] = { 4, 4, 3 }, hi[] = { 5, 8, 6 };
    for (int c = 0; c < 3; c++) {
        p.hist_width = width[c];
        p.hist_log = width[c] == 0;
        p.report_nodes = 1;
        ol_point pt;
        char err[256];
        ck_assert_int_eq(ol_run_point(&p, s, 0.25, 5, NULL, &pt, err, sizeof err), 0);
        ol_report *r = pt.report;
        ck_assert_ptr_nonnull(r);
        ck_assert_double_eq(pt.lat_avg, 4);
        ck_assert_int_eq(pt.tagged_done, 250);
        ck_assert_int_eq(r->nbins, 1);
        ck_assert_int_eq(r->lo[0], lo[c]);
        ck_assert_int_eq(r->hi[0], hi[c]);
        ck_assert_int_eq(r->count[0], 250);
        ck_assert_double_eq_tol(r->node_offered[0], 0.25, 1e-12);
        ck_assert_double_eq_tol(r->node_accepted[0], 0.25, 1e-12);
        for (int i = 1; i < 4; i++) ck_assert_double_eq(r->node_accepted[i], 0);
        ck_assert_int_eq(r->node_spread.n, 1);
        ck_assert_double_eq_tol(r->node_spread.jain, 1, 1e-12);
        ck_assert_int_eq(r->nflows, 1);
        ck_assert_int_eq(r->flows[0].src, 0);
        ck_assert_int_eq(r->flows[0].dst, 3);
        ck_assert_double_eq_tol(r->flows[0].accepted, 0.25, 1e-12);
        ol_report_free(r);
    }
    synth_free(s);
}
END_TEST

/* Two flows on disjoint routes: 0 -> 3 (east from router 0, north at 1)
 * and 1 -> 2 at half its rate (west from 1, north at 0).  At rate 0.25
 * they carry 0.25 and 0.125 flits/cycle, exactly (periodic, period 4 and
 * 8, constant latency 4): Jain (0.375)^2 / (2 x 0.078125) = 0.9 over both
 * the nodes and the flows; min 0.125, max 0.25. */
START_TEST(two_flows_fairness)
{
    ol_params p = small();
    p.report_nodes = 1;
    synth *s = matrix("# two flows\n0 3 1\n1 2 0.5\n");
    ol_point pt;
    char err[256];
    ck_assert_int_eq(ol_run_point(&p, s, 0.25, 5, NULL, &pt, err, sizeof err), 0);
    ol_report *r = pt.report;
    ck_assert_int_eq(r->nbins, 0);
    ck_assert_double_eq(pt.lat_avg, 4);
    ck_assert_int_eq(r->nflows, 2);
    ck_assert_double_eq_tol(r->flows[0].accepted, 0.25, 1e-12);
    ck_assert_int_eq(r->flows[1].src, 1);
    ck_assert_int_eq(r->flows[1].dst, 2);
    ck_assert_double_eq_tol(r->flows[1].offered, 0.125, 1e-12);
    ck_assert_double_eq_tol(r->flows[1].accepted, 0.125, 1e-12);
    ck_assert_double_eq_tol(r->flow_spread.jain, 0.9, 1e-12);
    ck_assert_double_eq_tol(r->node_spread.jain, 0.9, 1e-12);
    ck_assert_double_eq_tol(r->node_spread.min, 0.125, 1e-12);
    ck_assert_double_eq_tol(r->node_spread.max, 0.25, 1e-12);
    ol_report_free(r);
    synth_free(s);
}
END_TEST

/* Latency per packet length: the flow 0 -> 3 with a mix of 1- and 4-flit
 * packets (mean 2.5) at rate 0.25 generates a packet every 10 cycles,
 * never two in the network at once, so 1-flit packets take 2 + 1 + 1 = 4
 * cycles and 4-flit ones 2 + 4 + 1 = 7, every one. */
START_TEST(latency_by_length)
{
    ol_params p = small();
    char err[256];
    ck_assert_int_eq(ol_parse_packet_mix(&p, "1:0.5,4:0.5", err, sizeof err), 0);
    p.report_lengths = 1;
    synth *s = matrix("0 3 1\n");
    ol_point pt;
    ck_assert_int_eq(ol_run_point(&p, s, 0.25, 5, NULL, &pt, err, sizeof err), 0);
    ol_report *r = pt.report;
    ck_assert_int_eq(r->nlen, 2);
    ck_assert_int_eq(r->len[0], 1);
    ck_assert_int_eq(r->len[1], 4);
    ck_assert_double_eq(r->len_latency[0], 4);
    ck_assert_double_eq(r->len_latency[1], 7);
    ck_assert_int_eq(r->len_count[0] + r->len_count[1], pt.tagged_done);
    ck_assert_int_eq(pt.tagged_done, 100);
    /* About half of each: a binomial count of 100 stays within 5 sigma = 25. */
    ck_assert_int_ge(r->len_count[0], 25);
    ck_assert_int_ge(r->len_count[1], 25);
    ol_report_free(r);
    synth_free(s);
}
END_TEST

/* Parameters out of range are refused naming the flag; reports off are
 * NULL. */
START_TEST(report_params)
{
    ol_params p = small();
    char err[256];
    ck_assert_int_eq(ol_wants_report(&p), 0);
    p.hist_width = -1;
    ck_assert_int_eq(ol_params_check(&p, err, sizeof err), -FAULT_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "histogram"));
    p.hist_width = 4;
    p.hist_log = 1;
    ck_assert_int_eq(ol_params_check(&p, err, sizeof err), -FAULT_INPUT);
    p.hist_log = 0;
    ck_assert_int_eq(ol_params_check(&p, err, sizeof err), 0);
    p.report_nodes = 1;
    p.net.rp.w = p.net.rp.h = 32;
    ck_assert_int_eq(ol_params_check(&p, err, sizeof err), 0);
    p.net.rp.w = 34;
    ck_assert_int_eq(ol_params_check(&p, err, sizeof err), -FAULT_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "report_nodes"));
    p = small();
    synth *s = matrix("0 3 1\n");
    ol_point pt;
    ck_assert_int_eq(ol_run_point(&p, s, 0.25, 5, NULL, &pt, err, sizeof err), 0);
    ck_assert_ptr_null(pt.report);
    synth_free(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("olreport");
    TCase *tc = tcase_create("olreport");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, histogram_bins);
    tcase_add_test(tc, jain_by_hand);
    tcase_add_test(tc, single_flow);
    tcase_add_test(tc, two_flows_fairness);
    tcase_add_test(tc, latency_by_length);
    tcase_add_test(tc, report_params);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
