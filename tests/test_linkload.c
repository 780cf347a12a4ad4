/* Link load of an open-loop point (issue 37 section 4, `load --links`):
 * the engine's per-link flit counts (olnet_count_links) and the report and
 * picture built on them, against cases worked out by hand: a single flow
 * on a 3x3 mesh, whose four links carry exactly its rate and every other
 * link nothing; uniform traffic on a 2x2 mesh, where every link carries
 * 2/3 of a node's rate; the reference path counting as the fast one. */
#include <check.h>

#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "router/route.h"
#include "sim/openloop.h"
#include "traffic/synth.h"
#include "viz/linkmap.h"
#include "viz/viz.h"

static ol_params grid(int side)
{
    ol_params p;
    ol_params_default(&p);
    p.net.rp.w = p.net.rp.h = p.net.rp.n = side;
    p.report_links = 1;
    return p;
}

/* A one-line traffic matrix "src dst 1" on a side x side grid. */
static synth *one_flow(int side, int src, int dst)
{
    char path[TESTUTIL_PATH_MAX], spec[TESTUTIL_PATH_MAX + 8], err[256];
    testutil_temp_file(path, "flow");
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "%d %d 1\n", src, dst);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(spec, sizeof spec, "matrix:%s", path);
    synth *s = synth_new(spec, side, side, SYNTH_SELF_SKIP, 1, NULL, err, sizeof err);
    unlink(path);
    ck_assert_msg(s != NULL, "%s", err);
    return s;
}

/* A single flow (0,0) -> (2,2) on the 3x3 mesh, periodic at 0.5 flits a
 * cycle in 8-flit packets: one packet every 16 cycles (1/16 is exact in
 * binary), alone in the network, so each link of its x-then-y route carries
 * 8 flits in every 16 cycles.  The window is 10 x 1000 = 625 x 16 cycles:
 * exactly 5,000 flits, load 0.5, on (0,0) E, (1,0) E, (2,0) N, (2,1) N, and
 * none on the 20 other links; the busiest is the first of the four in node
 * order, (0,0) E.  The reference path counts the same. */
START_TEST(single_flow_by_hand)
{
    ol_params p = grid(3);
    p.process = OL_PERIODIC;
    synth *s = one_flow(3, 0, 8);
    char err[256];
    for (int ref = 0; ref < 2; ref++) {
        p.net.reference = ref;
        ol_point pt;
        ck_assert_int_eq(ol_run_point(&p, s, 0.5, 3, NULL, &pt, err, sizeof err), 0);
        const ol_report *r = pt.report;
        ck_assert_ptr_nonnull(r);
        ck_assert_ptr_nonnull(r->link_flits);
        ck_assert_double_eq(r->link_cycles, 10000);
        const int route[4][2] = { { 0, PORT_E }, { 1, PORT_E }, { 2, PORT_N }, { 5, PORT_N } };
        for (int k = 0; k < 9 * 4; k++) {
            uint64_t want = 0;
            for (int j = 0; j < 4; j++)
                if (k == route[j][0] * 4 + route[j][1]) want = 5000;
            ck_assert_msg(r->link_flits[k] == want, "%s path, router %d port %d: %llu flits, want %llu",
                          ref ? "reference" : "fast", k / 4, k % 4, (unsigned long long)r->link_flits[k],
                          (unsigned long long)want);
        }
        int node, d;
        ck_assert_double_eq(ol_link_busiest(r, &node, &d), 0.5);
        ck_assert_int_eq(node, 0);
        ck_assert_int_eq(d, PORT_E);
        ol_report_free(pt.report);
    }
    synth_free(s);
}
END_TEST

/* Uniform traffic on the 2x2 mesh, x then y: each of the 8 links carries
 * two of the 12 flows, each a third of its source's rate; e.g. (0,0) E
 * carries 0 -> 1 and 0 -> 3, (0,0) N carries 0 -> 2 and 1 -> 2 (turning at
 * (0,0)).  At 0.3 that is 0.2 flits a cycle on every link; Bernoulli
 * sources over 100 batches of 1,000 cycles (about 7,500 packets a link)
 * keep each within 5 %.  A mesh's 2x2 has no other links (ol_link_exists). */
START_TEST(uniform_2x2_by_hand)
{
    ol_params p = grid(2);
    p.window = 100;
    char err[256];
    synth *s = synth_new("uniform", 2, 2, SYNTH_SELF_SKIP, 1, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(s);
    ol_point pt;
    ck_assert_int_eq(ol_run_point(&p, s, 0.3, 5, NULL, &pt, err, sizeof err), 0);
    const ol_report *r = pt.report;
    int links = 0;
    for (int k = 0; k < 16; k++) {
        if (!ol_link_exists(r, k / 4, k % 4)) {
            ck_assert_uint_eq(r->link_flits[k], 0);
            continue;
        }
        links++;
        double load = (double)r->link_flits[k] / r->link_cycles;
        ck_assert_msg(load > 0.19 && load < 0.21, "router %d port %d: %.4f, want 0.2", k / 4, k % 4, load);
    }
    ck_assert_int_eq(links, 8);
    ol_report_free(pt.report);
    synth_free(s);
}
END_TEST

/* The picture of the single flow: the busiest bar, (0,0) E, in the colour
 * of the top of the scale and framed in black; an idle bar, (0,0) N, idle
 * grey.  The bars' places by hand from linkmap.c's geometry: router (0,0)
 * is the bottom-left box; its E bar starts BOX pixels right of the box's
 * left edge, one row down from its top; its N bar starts one column right
 * of the box's left edge and runs up from GAP rows above its top. */
START_TEST(picture_by_hand)
{
    ol_params p = grid(3);
    p.process = OL_PERIODIC;
    synth *s = one_flow(3, 0, 8);
    char err[256];
    ol_point pt;
    ck_assert_int_eq(ol_run_point(&p, s, 0.5, 3, NULL, &pt, err, sizeof err), 0);
    uint8_t *rgb;
    int w, h;
    ck_assert_int_eq(viz_links_render(pt.report, "one flow", &rgb, &w, &h, err, sizeof err), VIZ_OK);
    /* Find router (0,0): the lowest dark-grey box of the leftmost column. */
    int bx = -1, by = -1;
    for (int y = h - 1; y >= 0 && bx < 0; y--)
        for (int x = 0; x < w; x++) {
            const uint8_t *c = rgb + ((size_t)y * (size_t)w + (size_t)x) * 3;
            if (c[0] == 90 && c[1] == 90 && c[2] == 90) {
                bx = x;
                by = y - 7; /* the box's top: 8 rows */
                break;
            }
        }
    ck_assert_int_ge(bx, 0);
    uint8_t top[3], none[3];
    viz_links_colour(1.0, top);
    viz_links_colour(0, none);
    const uint8_t *e = rgb + ((size_t)(by + 2) * (size_t)w + (size_t)(bx + 8 + 5)) * 3;
    ck_assert_int_eq(memcmp(e, top, 3), 0);
    const uint8_t *fr = rgb + ((size_t)by * (size_t)w + (size_t)(bx + 8 + 5)) * 3; /* the frame, a row above */
    ck_assert(fr[0] == 0 && fr[1] == 0 && fr[2] == 0);
    const uint8_t *n = rgb + ((size_t)(by - 5) * (size_t)w + (size_t)(bx + 2)) * 3;
    ck_assert_int_eq(memcmp(n, none, 3), 0);
    free(rgb);
    /* Refused: no counts, or a grid too large to draw. */
    ol_report empty = { .w = 3, .h = 3 };
    ck_assert_int_eq(viz_links_render(&empty, NULL, &rgb, &w, &h, err, sizeof err), VIZ_BADINPUT);
    ck_assert_ptr_nonnull(strstr(err, "--links"));
    ol_report_free(pt.report);
    synth_free(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("linkload");
    TCase *tc = tcase_create("linkload");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, single_flow_by_hand);
    tcase_add_test(tc, uniform_2x2_by_hand);
    tcase_add_test(tc, picture_by_hand);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
