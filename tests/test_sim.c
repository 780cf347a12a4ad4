/* Tests of the reference simulator and the traffic patterns against values
 * worked out by hand (timelines in the comments) or by formula. */
#include <check.h>

#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "router/route.h"
#include "sim/sim.h"
#include "traffic/traffic.h"

/* ---- helpers ---- */

/* Traffic where only the listed (src, dst) pairs send. */
static int32_t *pairs(int n, const int (*pr)[2], int npairs)
{
    int32_t *d = malloc(sizeof *d * (size_t)(n * n));
    ck_assert_ptr_nonnull(d);
    for (int i = 0; i < n * n; i++) d[i] = i;
    for (int k = 0; k < npairs; k++) d[pr[k][0]] = pr[k][1];
    return d;
}

/* One run; the reference engine and sim_run (the fast engine where it
 * applies) must agree, so a hand-worked value checks both. */
static sim_metrics run(const sim_params *p, const int32_t *dest, const sim_config *c)
{
    char err[256];
    sim *s = sim_new(p, dest, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    sim_metrics m, ref;
    sim_run(s, c, &m);
    sim_run_reference(s, c, &ref);
    ck_assert_int_eq(m.status, ref.status);
    ck_assert_int_eq(m.duration, ref.duration);
    ck_assert_int_eq(m.te, ref.te);
    ck_assert_int_eq(m.flits_ejected, ref.flits_ejected);
    sim_free(s);
    return m;
}

static int xy(int n, int x, int y) { return y * n + x; }

/* ---- isolated packets ---- */

/* model.md: the header enters the P FIFO in cycle 0, leaves it in cycle 1,
 * crosses one link a cycle and ejects in cycle H+1; the tail L-1 cycles
 * later; duration = last ejection + 1 = H + L + 1. */
START_TEST(isolated_packet_duration)
{
    const int sizes[] = { 8, 16 };
    const int lens[] = { 2, 3, 8, 16 };
    for (int si = 0; si < 2; si++) {
        int n = sizes[si];
        route_params rp = { .n = n, .tie = TIE_NOWRAP, .dateline = DATELINE_ON_LINK };
        /* East, west, north, south, diagonal, across the wrap and across the
         * middle dateline, the tie distance n/2 both ways. */
        const int trips[][4] = {
            { 0, 0, 1, 0 }, { 0, 0, 3, 0 }, { 3, 0, 0, 0 }, { 0, 0, 0, 2 }, { 0, 2, 0, 0 },
            { 1, 1, 3, 4 }, { n - 1, 0, 1, 0 }, { 1, 0, n - 2, 0 }, { 0, n - 1, 0, 2 },
            { n / 2 - 1, n / 2 - 1, n / 2 + 1, n / 2 + 2 }, { 0, 0, n / 2, 0 }, { n / 2, 0, 0, 0 },
            { 2, 3, 2 + n / 2, 3 + n / 2 },
        };
        for (size_t k = 0; k < sizeof trips / sizeof trips[0]; k++)
            for (int li = 0; li < 4; li++) {
                int src = xy(n, trips[k][0], trips[k][1]), dst = xy(n, trips[k][2], trips[k][3]);
                int pr[1][2] = { { src, dst } };
                int32_t *d = pairs(n, pr, 1);
                sim_params p = testutil_params(n, lens[li], 1);
                sim_config *c = sim_config_new(n * n, 3, 0, (uint32_t)lens[li]);
                sim_metrics m = run(&p, d, c);
                int dx = abs(trips[k][2] - trips[k][0]), dy = abs(trips[k][3] - trips[k][1]);
                if (dx > n / 2) dx = n - dx;
                if (dy > n / 2) dy = n - dy;
                int h = dx + dy;
                ck_assert_int_eq(h, route_hops(&rp, src, dst));
                ck_assert_int_eq(m.status, SIM_OK);
                ck_assert_msg(m.duration == h + lens[li] + 1, "n=%d trip %zu L=%d: duration %lld, want %d",
                              n, k, lens[li], (long long)m.duration, h + lens[li] + 1);
                ck_assert_int_eq(m.flits_ejected, lens[li]);
                ck_assert_int_eq(m.te, h ? lens[li] : 0); /* each link carries L flits back to back */
                ck_assert_int_eq(m.late, 1);
                ck_assert_int_eq(m.tail_profile, 1 << 16); /* one tail, in the last cycle */
                ck_assert_int_eq(m.late_sum, h + lens[li]); /* that tail's cycle */
                sim_config_free(c);
                free(d);
            }
    }
}
END_TEST

/* A packet released later by its injection timing shifts by exactly that. */
START_TEST(injection_timing_shifts)
{
    int n = 8, src = xy(n, 1, 1), dst = xy(n, 4, 3);
    int pr[1][2] = { { src, dst } };
    int32_t *d = pairs(n, pr, 1);
    sim_params p = testutil_params(n, 8, 1);
    sim_config *c = sim_config_new(n * n, 3, 0, 8);
    c->inject[src] = 7;
    sim_metrics m = run(&p, d, c);
    ck_assert_int_eq(m.duration, 7 + 5 + 8 + 1);
    /* Two slices at interval V: the second is an isolated packet released at V
     * when V >= the first one's duration. */
    p.slices = 2;
    c->inject[src] = 0;
    c->interval = 40;
    m = run(&p, d, c);
    ck_assert_int_eq(m.duration, 40 + 5 + 8 + 1);
    ck_assert_int_eq(m.te, 40 + 8); /* each link: flits at t..t+7 and t+40..t+47 */
    sim_config_free(c);
    free(d);
}
END_TEST

/* Tail cycles of every packet (sim_tail_cycles) from both engines, which
 * must agree; written to out (nodes x slices entries).  Returns the metrics. */
static sim_metrics tails_both(const sim_params *p, const int32_t *dest, const sim_config *c, int64_t *out)
{
    char err[256];
    size_t npk = (size_t)(p->n * p->n) * (size_t)p->slices;
    int64_t *ref = malloc(sizeof *ref * npk);
    sim *s = sim_new(p, dest, NULL, err, sizeof err);
    ck_assert_msg(s && ref, "%s", err);
    sim_metrics m;
    ck_assert_int_eq(sim_run(s, c, &m), SIM_OK);
    sim_tail_cycles(s, out);
    ck_assert_int_eq(sim_run_reference(s, c, &m), SIM_OK);
    sim_tail_cycles(s, ref);
    for (size_t k = 0; k < npk; k++) ck_assert_int_eq(out[k], ref[k]);
    sim_free(s);
    free(ref);
    return m;
}

/* Each packet's tail cycle, indexed src * S + slice, -1 where nothing is
 * sent.  A single packet of H hops released at r ejects its tail at r + H + L
 * (model.md): (1,1) -> (4,3) is 5 hops, so with L = 8 the slices released at
 * 0 and V = 40 eject at 13 and 53.  Under contention (the queue-selection
 * case below) the winner A ejects at 0 + 2 + 8 = 10 and B at 19; with P
 * first at router 1, B (released at 1) ejects at 11 and A at 18.  late_sum
 * adds the tail cycles of the last 2L = 16 cycles: 53 alone in the first
 * case (13 is 40 cycles earlier), 10 + 19 = 29 and 18 + 11 = 29 in the
 * others; late (tails in the last L = 8 cycles) is 1, 1 and 2 (11 and 18
 * both lie in 11..18). */
START_TEST(tail_cycles_by_hand)
{
    int n = 8, src = xy(n, 1, 1);
    int pr1[1][2] = { { src, xy(n, 4, 3) } };
    int32_t *d = pairs(n, pr1, 1);
    sim_params p = testutil_params(n, 8, 2);
    sim_config *c = sim_config_new(n * n, 3, 0, 40);
    int64_t t[2 * 64];
    sim_metrics m = tails_both(&p, d, c, t);
    ck_assert_int_eq(m.late_sum, 53);
    ck_assert_int_eq(m.late, 1);
    for (int k = 0; k < 2 * n * n; k++) {
        int64_t want = k == 2 * src ? 13 : k == 2 * src + 1 ? 53 : -1;
        ck_assert_msg(t[k] == want, "packet %d: tail at %lld, want %lld", k, (long long)t[k], (long long)want);
    }
    free(d);
    sim_config_free(c);

    int a = xy(n, 0, 0), b = xy(n, 1, 0);
    int pr2[2][2] = { { a, xy(n, 2, 0) }, { b, xy(n, 3, 0) } };
    d = pairs(n, pr2, 2);
    p = testutil_params(n, 8, 1);
    c = sim_config_new(n * n, 3, 0, 8);
    c->inject[b] = 1;
    m = tails_both(&p, d, c, t);
    ck_assert_int_eq(t[a], 10);
    ck_assert_int_eq(t[b], 19);
    ck_assert_int_eq(m.late_sum, 29);
    ck_assert_int_eq(m.late, 1);
    const uint8_t pfirst[5] = { PORT_P, PORT_N, PORT_E, PORT_S, PORT_W };
    memcpy(sim_config_q(c, b, PORT_E, 0), pfirst, 5);
    m = tails_both(&p, d, c, t);
    ck_assert_int_eq(m.late_sum, 29);
    ck_assert_int_eq(m.late, 2);
    ck_assert_int_eq(t[a], 18);
    ck_assert_int_eq(t[b], 11);
    for (int k = 0; k < n * n; k++)
        if (k != a && k != b) ck_assert_int_eq(t[k], -1);
    free(d);
    sim_config_free(c);
}
END_TEST

/* ---- crafted contention ---- */

/* Queue selection: A (0,0)->(2,0) and B (1,0)->(3,0) both want router 1's
 * output E, VC 0.  With I[B] = 1 both headers request in cycle 2.
 * Default order (N,E,S,W,P): W (A) wins; A's tail crosses 1->2 in cycle 9;
 * B's header gets the VC at 10, its tail crosses 2->3 in 18, ejects in 19:
 * duration 20.  With P first, B wins, A's header goes at 10, its tail
 * crosses 1->2 at 17 and ejects at 18: duration 19. */
START_TEST(queue_selection_order_decides)
{
    int n = 8, a = xy(n, 0, 0), b = xy(n, 1, 0);
    int pr[2][2] = { { a, xy(n, 2, 0) }, { b, xy(n, 3, 0) } };
    int32_t *d = pairs(n, pr, 2);
    sim_params p = testutil_params(n, 8, 1);
    sim_config *c = sim_config_new(n * n, 3, 0, 8);
    c->inject[b] = 1;
    sim_metrics m = run(&p, d, c);
    ck_assert_int_eq(m.duration, 20);
    ck_assert_int_eq(m.ir + m.or_, 0); /* same slice: not counted */
    uint8_t *q = sim_config_q(c, b, PORT_E, 0);
    const uint8_t pfirst[5] = { PORT_P, PORT_N, PORT_E, PORT_S, PORT_W };
    memcpy(q, pfirst, 5);
    m = run(&p, d, c);
    ck_assert_int_eq(m.duration, 19);
    sim_config_free(c);
    free(d);
}
END_TEST

/* Output VC held until the tail passes: B (1,0)->(2,0) takes router 1's E
 * VC 0 in cycle 1; A (0,0)->(2,0) arrives at 2 and waits until 9; its tail
 * crosses 1->2 at 16 and ejects at 17: duration 18. */
START_TEST(output_vc_held_until_tail)
{
    int n = 8;
    int pr[2][2] = { { xy(n, 0, 0), xy(n, 2, 0) }, { xy(n, 1, 0), xy(n, 2, 0) } };
    int32_t *d = pairs(n, pr, 2);
    sim_params p = testutil_params(n, 8, 1);
    sim_config *c = sim_config_new(n * n, 3, 0, 8);
    sim_metrics m = run(&p, d, c);
    ck_assert_int_eq(m.duration, 18);
    /* Link 0->1 stalls while A waits: flits 0-3 cross at 1-4 and fill
     * router 1's 4-flit FIFO; once the header leaves at 9 the slot is free
     * at 10, so flits 4-7 cross at 10-13. */
    char err[128];
    sim *s = sim_new(&p, d, NULL, err, sizeof err);
    sim_run(s, c, &m);
    int64_t first, last, flits;
    sim_link_stats(s, xy(n, 0, 0) * 4 + PORT_E, &first, &last, &flits);
    ck_assert_int_eq(first, 1);
    ck_assert_int_eq(last, 13);
    ck_assert_int_eq(flits, 8);
    sim_free(s);
    sim_config_free(c);
    free(d);
}
END_TEST

/* VC selection: on 8x8, A (3,0)->(5,0) crosses the x=3->4 dateline and uses
 * VC 1 on link 4->5; B (4,0)->(6,0) uses VC 0 on it.  From cycle 2 both are
 * ready at router 4's E port.  VC 0 first (C04, and C00 which sticks to the
 * last grant, VC 0 in cycle 1): B's tail crosses 4->5 at 8; A's flits go at
 * 9..16 and its tail ejects at 17: duration 18.  VC 1 first (C05): A goes at
 * 2..9, B's remaining flits at 10..16, its tail crosses 5->6 at 17 and
 * ejects at 18: duration 19. */
START_TEST(vc_selection_scheme_decides)
{
    int n = 8;
    int pr[2][2] = { { xy(n, 3, 0), xy(n, 5, 0) }, { xy(n, 4, 0), xy(n, 6, 0) } };
    int32_t *d = pairs(n, pr, 2);
    sim_params p = testutil_params(n, 8, 1);
    const int want[10] = { 18, -1, 18, -1, 18, 19, 18, 18, 19, 19 };
    for (int k = 0; k < 10; k++) {
        if (want[k] < 0) continue; /* the alternating schemes: see the fast-path equivalence tests */
        sim_config *c = sim_config_new(n * n, 3, k, 8);
        sim_metrics m = run(&p, d, c);
        ck_assert_msg(m.duration == want[k], "scheme C%02d: %lld, want %d", k, (long long)m.duration, want[k]);
        /* Tails eject at 10 and 17 (VC 0 first: both in the last 8 cycles)
         * or at 10 and 18 (VC 1 first: only the last one is). */
        ck_assert_int_eq(m.late, want[k] == 18 ? 2 : 1);
        ck_assert_int_eq(m.tail_profile, 1 << 16);
        ck_assert_int_eq(m.ib + m.ob, 0);
        sim_config_free(c);
    }
    free(d);
}
END_TEST

/* ---- traffic patterns ---- */

START_TEST(patterns_4x4_by_hand)
{
    /* 4x4: W = y1 y0 x1 x0. */
    char err[128];
    struct { const char *name; int src, dst; } cases[] = {
        { "bcmp", 0, 15 }, { "bcmp", 5, 10 }, { "bcmp", 6, 9 },
        { "brev", 1, 8 }, { "brev", 2, 4 }, { "brev", 6, 6 }, { "brev", 11, 13 },   /* 1011 -> 1101 */
        { "brot", 1, 8 }, { "brot", 2, 1 }, { "brot", 6, 3 }, { "brot", 15, 15 },
        { "shfl", 1, 2 }, { "shfl", 8, 1 }, { "shfl", 12, 9 }, { "shfl", 15, 15 },
        { "torn", 0, 2 }, { "torn", 3, 5 }, { "torn", 15, 1 }, { "torn", 14, 0 },
        { "trns", 1, 4 }, { "trns", 7, 13 }, { "trns", 5, 5 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        traffic *t = traffic_new(cases[k].name, 4, 1, err, sizeof err);
        ck_assert_msg(t != NULL, "%s", err);
        ck_assert_msg(t->dest[cases[k].src] == cases[k].dst, "%s: %d -> %d, want %d", cases[k].name,
                      cases[k].src, (int)t->dest[cases[k].src], cases[k].dst);
        traffic_free(t);
    }
}
END_TEST

START_TEST(patterns_16x16_by_hand)
{
    char err[128];
    struct { const char *name; int src, dst; } cases[] = {
        /* W = 0x13 = 0001 0011 */
        { "bcmp", 0x13, 0xec }, { "brev", 0x13, 0xc8 }, { "brot", 0x13, 0x89 },
        { "shfl", 0x13, 0x26 }, { "shfl", 0x80, 0x01 }, { "torn", 0x13, 0x1b },
        { "torn", 0x1c, 0x24 }, { "torn", 255, 7 }, { "trns", 0x13, 0x31 }, { "trns", 0xa2, 0x2a },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        traffic *t = traffic_new(cases[k].name, 16, 1, err, sizeof err);
        ck_assert_msg(t != NULL, "%s", err);
        ck_assert_msg(t->dest[cases[k].src] == cases[k].dst, "%s: %d -> %d, want %d", cases[k].name,
                      cases[k].src, (int)t->dest[cases[k].src], cases[k].dst);
        traffic_free(t);
    }
}
END_TEST

START_TEST(patterns_are_permutations)
{
    char err[128];
    const char *names[] = { "bcmp", "brev", "brot", "shfl", "torn", "trns", "randperm" };
    for (int n = 4; n <= 32; n *= 2)
        for (int k = 0; k < 7; k++) {
            traffic *t = traffic_new(names[k], n, 7, err, sizeof err);
            ck_assert_msg(t != NULL, "%s", err);
            char *seen = calloc((size_t)(n * n), 1);
            for (int i = 0; i < n * n; i++) {
                ck_assert_int_ge(t->dest[i], 0);
                ck_assert_int_lt(t->dest[i], n * n);
                ck_assert_msg(!seen[t->dest[i]], "%s on %dx%d is not a permutation", names[k], n, n);
                seen[t->dest[i]] = 1;
            }
            free(seen);
            traffic_free(t);
        }
}
END_TEST

START_TEST(pattern_errors)
{
    char err[256];
    ck_assert_ptr_null(traffic_new("brev", 6, 1, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "power-of-two"));
    ck_assert_ptr_null(traffic_new("nope", 8, 1, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "unknown traffic"));
    traffic *t = traffic_new("torn", 6, 1, err, sizeof err); /* torn needs no power of two */
    ck_assert_ptr_nonnull(t);
    traffic_free(t);

    char path[TESTUTIL_PATH_MAX];
    testutil_temp_file(path, "traffic");
    FILE *f = fopen(path, "w");
    fprintf(f, "# two packets\n0 5\n3 1   # trailing comment\n\n7 99\n");
    fclose(f);
    char spec[TESTUTIL_PATH_MAX + 8];
    snprintf(spec, sizeof spec, "file:%s", path);
    ck_assert_ptr_null(traffic_new(spec, 4, 1, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "line 5"));
    f = fopen(path, "w");
    fprintf(f, "0 5\n3 1\n");
    fclose(f);
    t = traffic_new(spec, 4, 1, err, sizeof err);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->dest[0], 5);
    ck_assert_int_eq(t->dest[3], 1);
    ck_assert_int_eq(t->dest[2], 2);
    traffic_free(t);
    unlink(path);
}
END_TEST

/* ---- whole-network properties ---- */

static void check_run(int n, const char *pattern, int scheme, uint32_t interval, int slices, uint64_t seed)
{
    char err[256];
    traffic *t = traffic_new(pattern, n, seed, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    sim_params p = testutil_params(n, 8, slices);
    sim *s = sim_new(&p, t->dest, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    sim_config *c = sim_config_new(t->nodes, 3, scheme, interval);
    sim_metrics m;
    ck_assert_msg(sim_run(s, c, &m) == SIM_OK, "%s n=%d C%02d V=%u: status %d", pattern, n, scheme, interval, m.status);
    int senders = 0;
    for (int i = 0; i < t->nodes; i++) senders += t->dest[i] != i;
    ck_assert_int_eq(m.idle_nodes, t->nodes - senders);
    ck_assert_int_eq(m.flits_injected, (int64_t)senders * slices * 8);
    ck_assert_int_eq(m.flits_ejected, m.flits_injected);
    /* Every flit over the busiest link needs its own cycle, and the last
     * one still has to eject. */
    if (senders) ck_assert_int_ge(m.duration, m.max_link_flits + 1);
    sim_config_free(c);
    sim_free(s);
    traffic_free(t);
}

START_TEST(conservation_patterns_schemes_intervals)
{
    const char *names[] = { "bcmp", "brev", "brot", "shfl", "torn", "trns" };
    const uint32_t intervals[] = { 8, 23, 64 };
    for (int k = 0; k < 6; k++)
        for (int sc = 0; sc < 10; sc++)
            for (int v = 0; v < 3; v++) check_run(8, names[k], sc, intervals[v], 3, 1);
}
END_TEST

START_TEST(conservation_16x16)
{
    const char *names[] = { "bcmp", "brev", "brot", "shfl", "torn", "trns" };
    for (int k = 0; k < 6; k++)
        for (int sc = 0; sc < 10; sc += 3) check_run(16, names[k], sc, 16, 2, 1);
}
END_TEST

START_TEST(conservation_random_permutations)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        check_run(4, "randperm", (int)seed % 10, 8, 4, seed);
        check_run(8, "randperm", (int)(seed * 3) % 10, 12, 3, seed);
        check_run(16, "randperm", (int)(seed * 7) % 10, 20, 2, seed);
    }
}
END_TEST

/* ---- the model's [choice] options: each must change what it names ---- */

/* The tie: on an 8-ring a distance of exactly 4 goes the way without the
 * wrap link by default, always + with TIE_PLUS, always - with TIE_MINUS.
 * (0,0)->(4,0) goes E over link 0->1 (nowrap, plus) or W over the wrap link
 * 0->7 (minus); (4,0)->(0,0) goes W over 4->3 (nowrap, minus) or E over 4->5
 * (plus).  Either way 4 hops: duration 4 + 8 + 1, the first link used in
 * cycle 1 and carrying the 8 flits. */
START_TEST(tie_choice_picks_the_way_round)
{
    int n = 8;
    const route_tie ties[3] = { TIE_NOWRAP, TIE_PLUS, TIE_MINUS };
    /* For each tie: the first port of (0,0)->(4,0), then of (4,0)->(0,0). */
    const int want[3][2] = { { PORT_E, PORT_W }, { PORT_E, PORT_E }, { PORT_W, PORT_W } };
    for (int k = 0; k < 3; k++)
        for (int dir = 0; dir < 2; dir++) {
            int src = dir ? xy(n, 4, 0) : xy(n, 0, 0), dst = dir ? xy(n, 0, 0) : xy(n, 4, 0);
            int pr[1][2] = { { src, dst } };
            int32_t *d = pairs(n, pr, 1);
            sim_params p = testutil_params(n, 8, 1);
            p.tie = ties[k];
            sim_config *c = sim_config_new(n * n, 3, 0, 8);
            char err[128];
            sim *s = sim_new(&p, d, NULL, err, sizeof err);
            for (int engine = 0; engine < 2; engine++) {
                sim_metrics m;
                ck_assert_int_eq(engine ? sim_run_reference(s, c, &m) : sim_run(s, c, &m), SIM_OK);
                ck_assert_int_eq(m.duration, 4 + 8 + 1);
                int64_t first, last, flits;
                int other = want[k][dir] == PORT_E ? PORT_W : PORT_E;
                sim_link_stats(s, src * 4 + want[k][dir], &first, &last, &flits);
                ck_assert_msg(first == 1 && flits == 8, "engine %d tie %d dir %d: port %c first %lld flits %lld",
                              engine, k, dir, route_port_name(want[k][dir]), (long long)first, (long long)flits);
                sim_link_stats(s, src * 4 + other, &first, &last, &flits);
                ck_assert_int_eq(first, -1);
                ck_assert_int_eq(flits, 0);
            }
            sim_free(s);
            sim_config_free(c);
            free(d);
        }
}
END_TEST

/* The duration of config c on traffic dest under p (both engines), then
 * under p changed by `set`: the hand-worked pair of values of a choice. */
static void check_choice(sim_params p, const int32_t *dest, const sim_config *c, void (*set)(sim_params *),
                         int64_t want_default, int64_t want_choice)
{
    sim_metrics m = run(&p, dest, c);
    ck_assert_int_eq(m.status, SIM_OK);
    ck_assert_int_eq(m.duration, want_default);
    set(&p);
    m = run(&p, dest, c);
    ck_assert_int_eq(m.status, SIM_OK);
    ck_assert_int_eq(m.duration, want_choice);
}

static void set_same_cycle(sim_params *p) { p->slot_reuse = SLOT_SAME_CYCLE; }
static void set_rotate(sim_params *p) { p->q_update = QUPDATE_ROTATE; }
static void set_after_link(sim_params *p) { p->dateline = DATELINE_AFTER; }

/* Slot reuse with one-flit FIFOs.  Same cycle: a slot emptied in cycle t is
 * refilled in t, every stage passes a flit a cycle, and an isolated packet
 * takes H + L + 1 as with deep FIFOs.  Next cycle: the slot emptied in t
 * takes the next flit in t + 1, which leaves in t + 2, so each stage passes a
 * flit every second cycle: the header still ejects at H + 1 and the tail
 * 2 (L - 1) later, duration H + 2L.  Here H = 3, L = 4: 8 and 11. */
START_TEST(slot_reuse_choice_sets_the_pipeline_rate)
{
    int n = 8, src = xy(n, 1, 1), dst = xy(n, 3, 2);
    int pr[1][2] = { { src, dst } };
    int32_t *d = pairs(n, pr, 1);
    sim_params p = testutil_params(n, 4, 1);
    p.buffer = 1;
    sim_config *c = sim_config_new(n * n, 3, 0, 4);
    check_choice(p, d, c, set_same_cycle, 3 + 2 * 4, 3 + 4 + 1);
    sim_config_free(c);
    free(d);
}
END_TEST

/* The queue-order update.  On 8x8, three packets want router R = (2,2)'s
 * output N, VC 0: S from (2,1) and W from (1,2), both to (2,3), and E from
 * (3,2) to (2,5), released a cycle later (I = 1).  Cycle 2: S and W request,
 * the order (N,E,S,W,P) grants S, which becomes (N,E,W,P,S) under tail and
 * (W,P,N,E,S) under rotate.  S's tail crosses R->(2,3) at 9; at 10 E and W
 * request: tail grants E, rotate grants W.  The second packet's eight flits
 * cross R->(2,3) at 10..17 (its full FIFO drains while the upstream refills),
 * the third's at 18..25.  Tail: E's tail then crosses two more links (18, 19)
 * and ejects at 20, W's ejects at 26: duration 27.  Rotate: W's ejects at 18,
 * E's tail crosses at 25, 26, 27 and ejects at 28: duration 29. */
START_TEST(q_update_choice_decides_the_second_grant)
{
    int n = 8, e = xy(n, 3, 2);
    int pr[3][2] = { { xy(n, 2, 1), xy(n, 2, 3) }, { xy(n, 1, 2), xy(n, 2, 3) }, { e, xy(n, 2, 5) } };
    int32_t *d = pairs(n, pr, 3);
    sim_params p = testutil_params(n, 8, 1);
    sim_config *c = sim_config_new(n * n, 3, 0, 8);
    c->inject[e] = 1;
    check_choice(p, d, c, set_rotate, 27, 29);
    sim_config_free(c);
    free(d);
}
END_TEST


/* Where the VC goes up.  On 8x8, P1 (3,3)->(4,4) crosses the x = 3->4
 * dateline and then the y = 3->4 one; P2 (4,2)->(4,5) crosses only the
 * latter.  On the link (4,3)->(4,4) they use VCs 2 and 1 on-link, but 1 and
 * 0 after-link (the VC goes up one hop later).  Router (4,3)'s N port runs
 * C05 (order 1, 2, 0): it sends P2 first on-link and P1 first after-link.
 * Both headers are there in cycle 2; the first packet crosses at 2..9, the
 * second at 10..17.  On-link: P2 goes on to (4,5) and ejects by 11, P1
 * ejects at (4,4) at 18: duration 19.  After-link: P1 ejects by 10, P2's
 * tail crosses (4,4)->(4,5) at 18 and ejects at 19: duration 20. */
START_TEST(dateline_choice_decides_who_goes_first)
{
    int n = 8;
    int pr[2][2] = { { xy(n, 3, 3), xy(n, 4, 4) }, { xy(n, 4, 2), xy(n, 4, 5) } };
    int32_t *d = pairs(n, pr, 2);
    sim_params p = testutil_params(n, 8, 1);
    sim_config *c = sim_config_new(n * n, 3, 0, 8);
    c->scheme[xy(n, 4, 3) * NPORTS + PORT_N] = 5;
    check_choice(p, d, c, set_after_link, 19, 20);
    sim_config_free(c);
    free(d);
}
END_TEST

/* The per-port input limit has no small hand-worked case (it bites only when
 * two VCs of one input port hold flits for different outputs in the same
 * cycle, which needs a backlog), so it must at least change the run somewhere
 * over the six patterns, and keep every flit. */
START_TEST(input_limit_choice_changes_runs)
{
    char err[256];
    const char *names[] = { "bcmp", "brev", "brot", "shfl", "torn", "trns" };
    int differs = 0;
    for (int k = 0; k < 6; k++) {
        traffic *t = traffic_new(names[k], 8, 1, err, sizeof err);
        ck_assert_msg(t != NULL, "%s", err);
        sim_params p = testutil_params(8, 8, 3);
        sim_config *c = sim_config_new(64, 3, 1, 12);
        sim_metrics plain = run(&p, t->dest, c);
        p.input_limit = INPUT_PER_PORT;
        sim_metrics m = run(&p, t->dest, c);
        ck_assert_int_eq(m.status, SIM_OK);
        ck_assert_int_eq(m.flits_ejected, m.flits_injected);
        ck_assert_int_eq(m.flits_injected, (int64_t)(64 - m.idle_nodes) * 3 * 8);
        differs |= m.duration != plain.duration || m.te != plain.te || m.ir != plain.ir || m.or_ != plain.or_ ||
                   m.ib != plain.ib || m.ob != plain.ob || m.lb != plain.lb;
        sim_config_free(c);
        traffic_free(t);
    }
    ck_assert_msg(differs, "--input-limit port changed no metric of any pattern");
}
END_TEST


/* A self-addressed packet, when sent, goes P -> P: H = 0, so L + 1. */
START_TEST(self_send_latency)
{
    int n = 4;
    int32_t *d = pairs(n, NULL, 0);
    sim_params p = testutil_params(n, 8, 1);
    p.self = SELF_SEND;
    for (int i = 1; i < n * n; i++) d[i] = (i + 1) % (n * n); /* everyone busy but node 0 */
    for (int i = 0; i < n * n; i++) d[i] = i;
    sim_config *c = sim_config_new(n * n, 3, 0, 8);
    char err[128];
    sim *s = sim_new(&p, d, NULL, err, sizeof err);
    sim_metrics m;
    sim_run(s, c, &m);
    ck_assert_int_eq(m.duration, 9);
    ck_assert_int_eq(m.idle_nodes, 0);
    sim_free(s);
    sim_config_free(c);
    free(d);
}
END_TEST

/* The idle skip must not pass over a source that is part-way through a
 * packet.  With 1-flit FIFOs a self-addressed packet leaves the network empty
 * between its flits.  Every node sends to itself (P to P, L = 4): node 0 from
 * cycle 0 injects flit k at 2k and ejects it at 2k+1, done at 8; only then
 * may time skip to cycle 50, where the other nodes, in parallel, eject at
 * 51..57.  Duration 58; cycles stepped 8 + 8.  (Skipping at cycle 2 would
 * step 2 + 8.) */
START_TEST(idle_skip_waits_for_a_packet_in_progress)
{
    int n = 4;
    int32_t *d = pairs(n, NULL, 0);
    sim_params p = testutil_params(n, 4, 1);
    p.buffer = 1;
    p.self = SELF_SEND;
    sim_config *c = sim_config_new(n * n, 3, 0, 4);
    for (int i = 1; i < n * n; i++) c->inject[i] = 50;
    sim_metrics m = run(&p, d, c);
    ck_assert_int_eq(m.status, SIM_OK);
    ck_assert_int_eq(m.duration, 58);
    ck_assert_int_eq(m.cycles, 16);
    sim_config_free(c);
    free(d);
}
END_TEST

/* Interlocking (paper T10): a <-> b, one hop each, two 8-flit slices at
 * V = 8.  Free: slice 1 follows slice 0 back to back, its tail ejects at 17
 * (duration 18).  Interlocked: slice 0's packet from the partner ejects at 9,
 * so slice 1 starts at 10 and its tail ejects at 19 (duration 20). */
START_TEST(interlock_waits_for_the_previous_slice)
{
    int n = 8, a = xy(n, 1, 1), b = xy(n, 2, 1);
    int pr[2][2] = { { a, b }, { b, a } };
    int32_t *d = pairs(n, pr, 2);
    sim_params p = testutil_params(n, 8, 2);
    sim_config *c = sim_config_new(n * n, 3, 0, 8);
    sim_metrics m = run(&p, d, c);
    ck_assert_int_eq(m.duration, 18);
    p.interlock = 1;
    m = run(&p, d, c);
    ck_assert_int_eq(m.duration, 20);
    ck_assert_int_eq(m.flits_ejected, 32);
    sim_config_free(c);
    free(d);
}
END_TEST

/* Slice re-initialisation (paper T08) changes only arbitration state: all
 * flits still arrive, and on some pattern the schedule changes. */
START_TEST(slice_reinit_runs_clean_and_matters)
{
    char err[256];
    const char *names[] = { "bcmp", "brev", "brot", "shfl", "torn", "trns" };
    int differs = 0;
    for (int k = 0; k < 6; k++) {
        traffic *t = traffic_new(names[k], 8, 1, err, sizeof err);
        sim_params p = testutil_params(8, 8, 3);
        sim_config *c = sim_config_new(64, 3, 1, 12);
        sim_metrics plain = run(&p, t->dest, c);
        p.slice_reinit = 1;
        sim_metrics re = run(&p, t->dest, c);
        ck_assert_int_eq(re.status, SIM_OK);
        ck_assert_int_eq(re.flits_ejected, plain.flits_ejected);
        differs |= re.duration != plain.duration || re.ir != plain.ir || re.ib != plain.ib || re.ob != plain.ob;
        sim_config_free(c);
        traffic_free(t);
    }
    ck_assert(differs);
}
END_TEST

START_TEST(deterministic)
{
    char err[256];
    traffic *t1 = traffic_new("randperm", 16, 42, err, sizeof err);
    traffic *t2 = traffic_new("randperm", 16, 42, err, sizeof err);
    ck_assert_mem_eq(t1->dest, t2->dest, sizeof(int32_t) * 256);
    sim_params p = testutil_params(16, 8, 2);
    sim *s = sim_new(&p, t1->dest, NULL, err, sizeof err);
    sim_config *c = sim_config_new(256, 3, 5, 20);
    for (int i = 0; i < 256; i++) { c->inject[i] = (uint16_t)(i * 7 % 13); c->scheme[i * 5 + i % 5] = (uint8_t)(i % 10); }
    sim_metrics a, b;
    sim_run(s, c, &a);
    sim_run(s, c, &b); /* reuse of the same sim must not leak state */
    ck_assert_mem_eq(&a, &b, sizeof a);
    sim *s2 = sim_new(&p, t2->dest, NULL, err, sizeof err);
    sim_run(s2, c, &b);
    ck_assert_mem_eq(&a, &b, sizeof a);
    sim_free(s); sim_free(s2);
    sim_config_free(c);
    traffic_free(t1); traffic_free(t2);
}
END_TEST

/* ---- configuration files ---- */

static const char *write_tmp(char *path, const char *text)
{
    testutil_temp_file(path, "config");
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

START_TEST(config_file_round_trip)
{
    char path[TESTUTIL_PATH_MAX], err[256];
    sim_config *c = sim_config_new(16, 3, 0, 8);
    write_tmp(path, "# test\nsize 4\ninterval 21\ninject * 3\ninject 5 9\nscheme * * C05\nscheme 2 P C09\n"
                    "qorder * E * W N E S P\nqorder 1 N 2 P S W E N\n");
    ck_assert_int_eq(sim_config_load(c, 4, path, err, sizeof err), 0);
    ck_assert_int_eq(c->interval, 21);
    ck_assert_int_eq(c->inject[0], 3);
    ck_assert_int_eq(c->inject[5], 9);
    ck_assert_int_eq(c->scheme[2 * 5 + PORT_P], 9);
    ck_assert_int_eq(c->scheme[3 * 5 + PORT_N], 5);
    ck_assert_int_eq(sim_config_q(c, 7, PORT_E, 1)[0], PORT_W);
    ck_assert_int_eq(sim_config_q(c, 1, PORT_N, 2)[0], PORT_P);
    ck_assert_int_eq(sim_config_q(c, 1, PORT_N, 1)[0], PORT_N);
    ck_assert_int_eq(sim_config_check(c, err, sizeof err), 0);
    /* Save and load back into a fresh config: identical genes. */
    FILE *f = fopen(path, "w");
    ck_assert_int_eq(sim_config_save(c, 4, f), 0);
    fclose(f);
    sim_config *d = sim_config_new(16, 3, 0, 8);
    ck_assert_int_eq(sim_config_load(d, 4, path, err, sizeof err), 0);
    ck_assert_int_eq(d->interval, c->interval);
    ck_assert_mem_eq(d->inject, c->inject, 16 * sizeof *c->inject);
    ck_assert_mem_eq(d->scheme, c->scheme, 16 * 5);
    ck_assert_mem_eq(d->qorder, c->qorder, 16 * 5 * 3 * 5);
    unlink(path);
    sim_config_free(c);
    sim_config_free(d);
}
END_TEST

START_TEST(config_file_errors_name_the_line)
{
    struct { const char *text; const char *want; } cases[] = {
        { "interval 10\nscheme 0 E C10\n", "line 2" },
        { "scheme 0 X C01\n", "port must be" },
        { "inject 16 3\n", "node must be" },
        { "qorder 0 E 0 N N E S W\n", "permutation" },
        { "qorder 0 E 3 N E S W P\n", "vc must be" },
        { "size 8\n", "8x8" },
        { "bogus 1\n", "unknown directive" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[TESTUTIL_PATH_MAX], err[256];
        sim_config *c = sim_config_new(16, 3, 0, 8);
        write_tmp(path, cases[k].text);
        ck_assert_int_ne(sim_config_load(c, 4, path, err, sizeof err), 0);
        ck_assert_msg(strstr(err, cases[k].want) != NULL, "case %zu: '%s' lacks '%s'", k, err, cases[k].want);
        unlink(path);
        sim_config_free(c);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, isolated_packet_duration);
    tcase_add_test(tc, tail_cycles_by_hand);
    tcase_add_test(tc, injection_timing_shifts);
    tcase_add_test(tc, queue_selection_order_decides);
    tcase_add_test(tc, output_vc_held_until_tail);
    tcase_add_test(tc, vc_selection_scheme_decides);
    tcase_add_test(tc, patterns_4x4_by_hand);
    tcase_add_test(tc, patterns_16x16_by_hand);
    tcase_add_test(tc, patterns_are_permutations);
    tcase_add_test(tc, pattern_errors);
    tcase_add_test(tc, conservation_patterns_schemes_intervals);
    tcase_add_test(tc, conservation_16x16);
    tcase_add_test(tc, conservation_random_permutations);
    tcase_add_test(tc, tie_choice_picks_the_way_round);
    tcase_add_test(tc, slot_reuse_choice_sets_the_pipeline_rate);
    tcase_add_test(tc, dateline_choice_decides_who_goes_first);
    tcase_add_test(tc, input_limit_choice_changes_runs);
    tcase_add_test(tc, q_update_choice_decides_the_second_grant);
    tcase_add_test(tc, self_send_latency);
    tcase_add_test(tc, idle_skip_waits_for_a_packet_in_progress);
    tcase_add_test(tc, interlock_waits_for_the_previous_slice);
    tcase_add_test(tc, slice_reinit_runs_clean_and_matters);
    tcase_add_test(tc, deterministic);
    tcase_add_test(tc, config_file_round_trip);
    tcase_add_test(tc, config_file_errors_name_the_line);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
