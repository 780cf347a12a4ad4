/* Open-loop traffic kinds of issue 37 §3, each against values worked out by
 * hand or by formula: on/off sources (mean rate and burst length of a long
 * seeded run within 4 standard deviations of the Markov chain's formulas),
 * traffic matrices (both file formats, their refusals, the zero-load
 * latency, channel bound and accepted rates of a small case), trace files
 * (their refusals, and each packet's latency at zero load: hops + flits + 1). */
#include <check.h>

#include "tests/testutil.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/olreport.h"
#include "sim/openloop.h"
#include "traffic/synth.h"
#include "traffic/trace.h"

/* ---- on/off ---- */

/* A source with mean burst B = 20 and idle I = 60 cycles (alpha = 1/60,
 * beta = 1/20) sending with r_on = 0.5 while on, for N = 2,000,000 cycles.
 * The chain is on a share pi = B / (B + I) = 1/4 of the cycles, so the
 * mean rate is r_on pi = 0.125 packets/cycle; on periods are geometric
 * with mean B (variance (1 - beta) / beta^2) and there are about
 * N / (B + I) of them, each sending r_on B = 10 packets on average.  The
 * count's variance over N cycles is N [p (1 - p) + 2 r_on^2 pi (1 - pi)
 * lambda / (1 - lambda)] with lambda = 1 - alpha - beta (the on state's
 * autocorrelation per cycle); each estimate must lie within 4 of its
 * standard deviations. */
START_TEST(onoff_formula)
{
    const double B = 20, I = 60, r_on = 0.5, alpha = 1 / I, beta = 1 / B;
    const int64_t N = 2000000;
    rng r;
    rng_seed(&r, 12345);
    uint8_t on = 0;
    int64_t sent = 0, on_cycles = 0, bursts = 0, burst_cycles = 0, burst_packets = 0;
    int run = 0;
    for (int64_t t = 0; t < N; t++) {
        int was = on;
        int got = ol_onoff_cycle(&on, alpha, beta, r_on, &r);
        sent += got;
        on_cycles += on;
        if (on) burst_packets += got;
        if (on) run++;
        if (was && !on) {   /* an on period ended: count it whole */
            bursts++;
            burst_cycles += run;
            run = 0;
        }
    }
    double pi = B / (B + I), p = r_on * pi, lambda = 1 - alpha - beta;
    double var = p * (1 - p) + 2 * r_on * r_on * pi * (1 - pi) * lambda / (1 - lambda);
    double rate = (double)sent / (double)N, sd = sqrt(var / (double)N);
    ck_assert_msg(fabs(rate - 0.125) <= 4 * sd, "rate %.5f, expected 0.125 +- %.5f", rate, 4 * sd);
    double share_sd = sqrt(pi * (1 - pi) * (1 + lambda) / (1 - lambda) / (double)N);
    ck_assert_msg(fabs((double)on_cycles / (double)N - pi) <= 4 * share_sd, "on share %.4f",
                  (double)on_cycles / (double)N);
    double nb = (double)bursts, mean_burst = (double)burst_cycles / nb;
    ck_assert_msg(fabs(nb - (double)N / (B + I)) <= 0.05 * (double)N / (B + I), "%lld bursts", (long long)bursts);
    double burst_sd = sqrt((1 - beta) / (beta * beta) / nb);
    ck_assert_msg(fabs(mean_burst - B) <= 4 * burst_sd, "mean burst %.3f cycles, expected 20 +- %.3f", mean_burst,
                  4 * burst_sd);
    /* Packets per burst: r_on B = 10; its variance per burst is r_on(1 - r_on) B
     * + r_on^2 Var(length). */
    double pk_sd = sqrt((r_on * (1 - r_on) * B + r_on * r_on * (1 - beta) / (beta * beta)) / nb);
    double per_burst = (double)burst_packets / (double)(bursts + (run > 0));
    ck_assert_msg(fabs(per_burst - r_on * B) <= 4 * pk_sd + 10.0 / nb, "%.3f packets a burst", per_burst);
}
END_TEST

/* The same law inside a run: a 4x4 mesh, uniform, 1-flit packets, on/off
 * with B = 10, I = 30 at rate 0.1: every source is on a quarter of the
 * time sending 0.4 a cycle.  Offered over the window of 16 sources x 20,000
 * cycles is 0.1 within 4 standard deviations (the formula above, per node
 * and cycle, over 320,000 node-cycles).  Bursts queue more than Bernoulli
 * does, so the latency is above the Bernoulli point's. */
START_TEST(onoff_in_a_run)
{
    ol_params p;
    ol_params_default(&p);
    p.net.rp.w = p.net.rp.h = p.net.rp.n = 4;
    p.nlen = 1;
    p.len[0] = 1;
    p.window = 20;
    p.process = OL_ONOFF;
    p.burst = 10;
    p.idle = 30;
    char err[256];
    synth *s = synth_new("uniform", 4, 4, SYNTH_SELF_SKIP, 1, NULL, err, sizeof err);
    ol_point on, bern;
    ck_assert_int_eq(ol_run_point(&p, s, 0.1, 3, NULL, &on, err, sizeof err), 0);
    double alpha = 1 / p.idle, beta = 1 / p.burst, pi = 0.25, r_on = 0.4, lambda = 1 - alpha - beta, q = 0.1;
    double var = q * (1 - q) + 2 * r_on * r_on * pi * (1 - pi) * lambda / (1 - lambda);
    double sd = sqrt(var / (16.0 * 20000));
    ck_assert_msg(fabs(on.offered - 0.1) <= 4 * sd, "offered %.5f +- %.5f", on.offered, 4 * sd);
    p.process = OL_BERNOULLI;
    ck_assert_int_eq(ol_run_point(&p, s, 0.1, 3, NULL, &bern, err, sizeof err), 0);
    ck_assert_msg(on.lat_avg > bern.lat_avg, "on/off %.2f, Bernoulli %.2f", on.lat_avg, bern.lat_avg);
    /* A rate an on/off source cannot reach: on a tenth of the time it would
     * need 2 packets a cycle at rate 0.2 (1-flit packets); 0.1 is its limit. */
    p.process = OL_ONOFF;
    p.burst = 1;
    p.idle = 9;
    ck_assert_int_eq(ol_run_point(&p, s, 0.2, 3, NULL, &on, err, sizeof err), -FAULT_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "rates up to 0.1"));
    ck_assert_int_eq(ol_run_point(&p, s, 0.1, 3, NULL, &on, err, sizeof err), 0);
    p.idle = 0.5;
    ck_assert_int_eq(ol_params_check(&p, err, sizeof err), -FAULT_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "onoff"));
    synth_free(s);
}
END_TEST

/* ---- matrices ---- */

/* The traffic of a matrix file with this text on a w x h grid, or NULL with
 * the message in err. */
static synth *matrix(const char *text, int w, int h, synth_self self, char *err, size_t errlen)
{
    char path[TESTUTIL_PATH_MAX], spec[TESTUTIL_PATH_MAX + 8];
    testutil_temp_file(path, "matrix");
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(spec, sizeof spec, "matrix:%s", path);
    fault_kind kind = FAULT_NONE;
    synth *s = synth_new(spec, w, h, self, 1, &kind, err, errlen);
    unlink(path);
    if (!s) ck_assert_int_eq(kind, FAULT_INPUT);
    return s;
}

/* Both formats give the same rows: source 0 sends 0.5 to node 1 and 0.25
 * to node 3 (its rate 0.75 of the point's, shares 2/3 and 1/3), source 2
 * 0.5 to node 1; nodes 1 and 3 send nothing.  A draw u picks the first
 * entry whose cumulative share exceeds u. */
START_TEST(matrix_formats)
{
    char err[256];
    synth *a = matrix("0 1 0.5\n0 3 0.25\n2 1 0.5\n", 2, 2, SYNTH_SELF_SKIP, err, sizeof err);
    synth *b = matrix("# rows\n0 0.5 0 0.25\n0 0 0 0\n0 0.5 0 0\n0 0 0 0\n", 2, 2, SYNTH_SELF_SKIP, err, sizeof err);
    ck_assert_msg(a && b, "%s", err);
    for (int i = 0; i < 4; i++) {
        ck_assert_double_eq(a->src_rate[i], b->src_rate[i]);
        ck_assert_int_eq(a->row_start[i + 1], b->row_start[i + 1]);
    }
    ck_assert_double_eq(a->src_rate[0], 0.75);
    ck_assert_int_eq(synth_sends(a, 0), 1);
    ck_assert_int_eq(synth_sends(a, 1), 0);
    ck_assert_int_eq(synth_sends(a, 2), 1);
    /* Row 0: 1 with share 2/3, 3 with 1/3. */
    ck_assert_int_eq(synth_matrix_draw(a, 0, 0.0), 1);
    ck_assert_int_eq(synth_matrix_draw(a, 0, 0.666), 1);
    ck_assert_int_eq(synth_matrix_draw(a, 0, 0.667), 3);
    ck_assert_int_eq(synth_matrix_draw(a, 0, 0.999999), 3);
    ck_assert_int_eq(synth_matrix_draw(a, 2, 0.5), 1);
    synth_free(a);
    synth_free(b);
}
END_TEST

/* Each refusal names the file's line and the range. */
START_TEST(matrix_refusals)
{
    static const struct { const char *text, *want; } bad[] = {
        { "0 1 0.5\n0 1 0.25\n", "line 2: the pair 0 1 was given before (line 1)" },
        { "0 1 0.75\n0 2 0.5\n", "line 2: source 0's rates sum to 1.25 here; at most 1" },
        { "0 0 0.5\n", "line 1: node 0 sends to itself (allowed with --self send)" },
        { "0 4 0.5\n", "line 1: destination node id" },
        { "0 1 1.5\n", "line 1: rate" },
        { "0 1 0.5\n1 0.5 0 0\n", "line 2: expected 'src dst rate'" },
        { "0 0.5 0 0\n0 0 0 0\n", "2 rows, not the 4 of a 2x2 grid" },
        { "0 0.5 0\n0 0 0 0\n", "line 1: destination node id '0.5' is not an integer" },
        { "0 0.5 0 0 0\n", "line 1: expected a row of 4 rates" },
    };
    char err[256];
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        synth *s = matrix(bad[k].text, 2, 2, SYNTH_SELF_SKIP, err, sizeof err);
        ck_assert_msg(s == NULL, "case %zu accepted", k);
        ck_assert_msg(strstr(err, bad[k].want) && strstr(err, "traffic matrix"), "case %zu: %s", k, err);
    }
    /* Exactly 1 is allowed, and a self pair with --self send. */
    synth *s = matrix("0 1 0.75\n0 2 0.25\n3 3 1\n", 2, 2, SYNTH_SELF_SEND, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    synth_free(s);
    fault_kind kind = FAULT_NONE;
    ck_assert_ptr_null(synth_new("matrix:/nonexistent/m.txt", 2, 2, SYNTH_SELF_SKIP, 1, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/m.txt"));
}
END_TEST

/* The analytic figures by hand on the 2x2 mesh: 0 -> 1 at 1 (1 hop) and
 * 2 -> 1 at 0.5 (east then south, 2 hops): mean hops over packets
 * (1 x 1 + 0.5 x 2) / 1.5 = 4/3; node 1's ejection channel carries 1.5
 * times the rate: bound 2/3.  The enumeration agrees. */
START_TEST(matrix_analytic)
{
    ol_params p;
    ol_params_default(&p);
    p.net.rp.w = p.net.rp.h = p.net.rp.n = 2;
    char err[256], what[64];
    synth *s = matrix("0 1 1\n2 1 0.5\n", 2, 2, SYNTH_SELF_SKIP, err, sizeof err);
    double hops;
    ck_assert_double_eq_tol(ol_zero_load(&p, s, &hops), 4.0 / 3 + 8 + 1, 1e-12);
    ck_assert_double_eq_tol(hops, 4.0 / 3, 1e-12);
    ck_assert_double_eq_tol(ol_channel_bound(&p, s, what, sizeof what), 2.0 / 3, 1e-12);
    ck_assert_str_eq(what, "ejection at node 1");
    ck_assert_double_eq_tol(ol_channel_bound_enum(&p, s, NULL, 0), 2.0 / 3, 1e-12);
    synth_free(s);
}
END_TEST

/* Accepted rates of a small matrix on the 2x2 mesh at rate 0.4, 1-flit
 * packets, periodic sources, a window of 10,000 cycles: source 0 (row 0.5
 * to node 3, 0.25 to node 1) sends 0.4 x 0.75 = 0.3 flits/cycle, source 2
 * (0.5 to node 1) 0.2; each exactly, up to one packet (periodic).  The
 * split of source 0 is a binomial draw: flow 0 -> 3 carries 0.2 within 4
 * sigma = 4 sqrt(3,000 x 2/3 x 1/3) / 10,000 (3,000 packets). */
START_TEST(matrix_accepted)
{
    ol_params p;
    ol_params_default(&p);
    p.net.rp.w = p.net.rp.h = p.net.rp.n = 2;
    p.nlen = 1;
    p.len[0] = 1;
    p.process = OL_PERIODIC;
    p.report_nodes = 1;
    char err[256];
    synth *s = matrix("0 3 0.5\n0 1 0.25\n2 1 0.5\n", 2, 2, SYNTH_SELF_SKIP, err, sizeof err);
    ol_point pt;
    ck_assert_int_eq(ol_run_point(&p, s, 0.4, 8, NULL, &pt, err, sizeof err), 0);
    const ol_report *r = pt.report;
    double W = 10000;
    ck_assert_double_eq_tol(r->node_offered[0], 0.3, 1.0 / W + 1e-12);
    ck_assert_double_eq_tol(r->node_accepted[0], 0.3, 2.0 / W + 1e-12);
    ck_assert_double_eq_tol(r->node_accepted[2], 0.2, 2.0 / W + 1e-12);
    ck_assert_double_eq(r->node_accepted[1], 0);
    ck_assert_double_eq(r->node_accepted[3], 0);
    ck_assert_int_eq(r->nflows, 3);
    double sd = sqrt(3000 * 2.0 / 9) / W;
    ck_assert_int_eq(r->flows[0].dst, 1);
    ck_assert_int_eq(r->flows[1].dst, 3);
    ck_assert_double_eq_tol(r->flows[1].accepted, 0.2, 4 * sd);
    ck_assert_double_eq_tol(r->flows[0].accepted, 0.1, 4 * sd);
    ck_assert_double_eq_tol(r->flows[2].accepted, 0.2, 2.0 / W + 1e-12);
    /* Offered per network node: (0.3 + 0.2) / 4. */
    ck_assert_double_eq_tol(pt.offered, 0.125, 2.0 / W);
    ol_report_free(pt.report);
    synth_free(s);
}
END_TEST

/* ---- traces ---- */

static trace *trace_text(const char *text, int nodes, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    ck_assert_ptr_nonnull(f);
    fault_kind kind = FAULT_NONE;
    trace *t = trace_read(f, "t.trace", nodes, 0, &kind, err, errlen);
    fclose(f);
    if (!t) ck_assert_int_eq(kind, FAULT_INPUT);
    return t;
}

/* Packets far apart on a 4x4 mesh each cross an empty network: latency
 * hops + flits + 1 with hops = |dx| + |dy|: 0 (0,0) -> 15 (3,3), 6 hops, 5
 * flits: 12; 3 (3,0) -> 12 (0,3), 6 hops, 1 flit: 8; 6 (2,1) -> 9 (1,2), 2
 * hops, 8 flits: 11; 5 (1,1) -> 4 (0,1), 1 hop, 255 flits: 257.  A packet
 * enters the network the cycle it is generated (t_inj = cycle) and its
 * tail ejects latency - 1 cycles later. */
START_TEST(trace_zero_load)
{
    char err[256];
    trace *t = trace_text("# cycle src dst flits\n0 0 15 5\n\n100 3 12 1\n200 6 9 8\n1000000 5 4 255\n", 16, err,
                          sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    ck_assert_int_eq(t->n, 4);
    ol_params p;
    ol_params_default(&p);
    p.net.rp.w = p.net.rp.h = p.net.rp.n = 4;
    p.hist_width = 100;
    ol_trace_result res;
    ck_assert_int_eq(ol_run_trace(&p, t->pk, t->n, NULL, &res, err, sizeof err), 0);
    const int64_t want[] = { 12, 8, 11, 257 };
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(res.latency[k], want[k]);
        ck_assert_int_eq(res.t_inj[k], t->pk[k].cycle);
        ck_assert_int_eq(res.t_done[k], t->pk[k].cycle + want[k] - 1);
    }
    ck_assert_int_eq(res.done, 4);
    ck_assert_int_eq(res.left, 0);
    ck_assert_int_eq(res.lat_max, 257);
    ck_assert_double_eq_tol(res.lat_avg, (12 + 8 + 11 + 257) / 4.0, 1e-12);
    ck_assert_int_eq(res.cycles, 1000000 + 257);
    ck_assert_int_eq(res.report->nbins, 3);
    ck_assert_int_eq(res.report->count[0], 3);
    ck_assert_int_eq(res.report->count[2], 1);
    ol_trace_result_free(&res);
    /* A packet outside the grid is refused by the run too. */
    trace_packet bad = { 0, 0, 16, 1 };
    ck_assert_int_eq(ol_run_trace(&p, &bad, 1, NULL, &res, err, sizeof err), -FAULT_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "trace packet 1"));
    trace_free(t);
}
END_TEST

/* Every ordered pair of a 5x3 mesh, one packet each, 64 cycles apart (so
 * each crosses an empty network), lengths 1..8 in turn: each takes
 * |dx| + |dy| + flits + 1 cycles, the hop-count formula ol_zero_load uses
 * on a mesh, computed here from the coordinates. */
START_TEST(trace_every_pair)
{
    const int w = 5, h = 3, nodes = w * h;
    trace_packet pk[15 * 14];
    int n = 0;
    for (int s = 0; s < nodes; s++)
        for (int d = 0; d < nodes; d++)
            if (s != d) {
                pk[n] = (trace_packet){ (int64_t)n * 64, s, d, 1 + n % 8 };
                n++;
            }
    ol_params p;
    ol_params_default(&p);
    p.net.rp.w = p.net.rp.n = w;
    p.net.rp.h = h;
    ol_trace_result res;
    char err[256];
    ck_assert_int_eq(ol_run_trace(&p, pk, n, NULL, &res, err, sizeof err), 0);
    ck_assert_int_eq(res.done, n);
    for (int k = 0; k < n; k++) {
        int hops = abs(pk[k].src % w - pk[k].dst % w) + abs(pk[k].src / w - pk[k].dst / w);
        ck_assert_msg(res.latency[k] == hops + pk[k].flits + 1, "%d -> %d, %d flits: %lld cycles", pk[k].src, pk[k].dst,
                      pk[k].flits, (long long)res.latency[k]);
    }
    ol_trace_result_free(&res);
}
END_TEST

START_TEST(trace_refusals)
{
    static const struct { const char *text, *want; } bad[] = {
        { "0 0 1 4\n5 1 2\n", "line 2: expected 'cycle src dst flits'" },
        { "10 0 1 4\n5 1 2 1\n", "line 2: cycle 5 is before the previous line's 10" },
        { "0 0 16 4\n", "line 1: destination node id" },
        { "0 0 1 0\n", "line 1: length" },
        { "0 0 1 256\n", "line 1: length" },
        { "-1 0 1 4\n", "line 1: cycle" },
        { "0 2 2 4\n", "line 1: node 2 sends to itself" },
        { "# nothing\n", "no packet" },
    };
    char err[256];
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        trace *t = trace_text(bad[k].text, 16, err, sizeof err);
        ck_assert_msg(t == NULL, "case %zu accepted", k);
        ck_assert_msg(strstr(err, bad[k].want) && strstr(err, "t.trace"), "case %zu: %s", k, err);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("oltraffic");
    TCase *tc = tcase_create("oltraffic");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, onoff_formula);
    tcase_add_test(tc, onoff_in_a_run);
    tcase_add_test(tc, matrix_formats);
    tcase_add_test(tc, matrix_refusals);
    tcase_add_test(tc, matrix_analytic);
    tcase_add_test(tc, matrix_accepted);
    tcase_add_test(tc, trace_zero_load);
    tcase_add_test(tc, trace_every_pair);
    tcase_add_test(tc, trace_refusals);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
