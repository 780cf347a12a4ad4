/* Tests of the link-activity recorder and map.  Expected values come from a
 * hand-worked timeline (an isolated packet), from a formula (flit-hops =
 * flits x slices x torus distance, summed over senders) and from the run's
 * own lb; the PNGs are decoded with libpng's reader, not our writer. */
#include <check.h>

#include "tests/testutil.h"
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "router/route.h"
#include "sim/activity.h"
#include "sim/sim.h"
#include "traffic/traffic.h"
#include "viz/activity_map.h"
#include "viz/viz.h"

/* ---- helpers ---- */

typedef struct {
    int w, h;
    uint8_t *rgb;
} image;

/* Decode a PNG with libpng's simplified reader into 8-bit RGB. */
static image decode(const char *path)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    ck_assert_msg(png_image_begin_read_from_file(&pi, path), "%s: %s", path, pi.message);
    pi.format = PNG_FORMAT_RGB;
    image im = { (int)pi.width, (int)pi.height, malloc(PNG_IMAGE_SIZE(pi)) };
    ck_assert_ptr_nonnull(im.rgb);
    ck_assert_msg(png_image_finish_read(&pi, NULL, im.rgb, 0, NULL), "%s: %s", path, pi.message);
    return im;
}

static const uint8_t *px(const image *im, int x, int y) { return im->rgb + ((size_t)y * (size_t)im->w + (size_t)x) * 3; }

static int is(const uint8_t *p, int r, int g, int b) { return p[0] == r && p[1] == g && p[2] == b; }

/* Pixels of the map area (rows 0..h-1) that are grey, white, or anything else. */
static void count(const image *im, int rows, long *coloured, long *grey, long *white)
{
    *coloured = *grey = *white = 0;
    uint8_t g[3];
    viz_act_colour(ACT_BLOCKED, g);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < im->w; x++) {
            const uint8_t *p = px(im, x, y);
            if (is(p, 255, 255, 255)) ++*white;
            else if (is(p, g[0], g[1], g[2])) ++*grey;
            else ++*coloured;
        }
}

static int ring_dist(int a, int b, int n)
{
    int d = abs(a - b);
    return d < n - d ? d : n - d;
}

/* Flits over network links by formula: every sender's packets travel the
 * torus distance (dimension order is minimal), l_c flits per packet. */
static long flit_hops(const traffic *t, int flits, int slices)
{
    long h = 0;
    for (int i = 0; i < t->nodes; i++) {
        int d = t->dest[i];
        if (d == i) continue;
        h += (long)(ring_dist(i % t->n, d % t->n, t->n) + ring_dist(i / t->n, d / t->n, t->n)) * flits * slices;
    }
    return h;
}

static char *tmpname(const char *tag)
{
    static char buf[4][256];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, 256, "/tmp/nocsim_test_activity_%d_%s.png", (int)getpid(), tag);
    return p;
}

/* ---- an isolated packet, by hand ---- */

/* 4x4, only node 0 sends to node 2 (x 0 -> 2, a distance of N/2: with
 * tie = nowrap it goes east without the wrap link).  model.md: the header
 * leaves the P FIFO in cycle 1 over link (0,E) = 1, crosses (1,E) = 5 in
 * cycle 2 and ejects in cycle 3; the 8 flits follow one a cycle, so link 1
 * carries slice 0 in cycles 1..8 and link 5 in cycles 2..9; T_d = 11. */
START_TEST(isolated_packet_cells)
{
    sim_params p;
    sim_params_default(&p);
    p.n = 4;
    int32_t dest[16];
    for (int i = 0; i < 16; i++) dest[i] = i;
    dest[0] = 2;
    char err[256];
    sim *s = sim_new(&p, dest, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    sim_config *c = sim_config_new(16, p.vcs, 0, 8);
    sim_activity *a = sim_activity_new(64);
    sim_metrics m;
    ck_assert_int_eq(sim_run_traced(s, c, a, &m), SIM_OK);
    ck_assert_int_eq(m.duration, 11);
    ck_assert_int_eq(sim_activity_cycles(a), 10);
    for (int t = 0; t < 12; t++)
        for (int l = 0; l < 64; l++) {
            int want = ((l == 1 && t >= 1 && t <= 8) || (l == 5 && t >= 2 && t <= 9)) ? ACT_SLICE0 : ACT_IDLE;
            ck_assert_msg(sim_activity_at(a, t, l) == want, "cycle %d link %d: %d, want %d", t, l,
                          sim_activity_at(a, t, l), want);
        }
    sim_activity_free(a);
    sim_config_free(c);
    sim_free(s);
}
END_TEST

/* ---- the recorder against the run's metrics, on congested traffic ---- */

/* Every slice cell is one flit-hop (formula), every blocked cell one unit of
 * lb, and the traced reference run has the fast engine's metrics. */
START_TEST(recorder_matches_metrics)
{
    const char *pats[] = { "brev", "bcmp", "shfl", "torn" };
    for (int k = 0; k < 4; k++)
        for (int slices = 1; slices <= 3; slices++) {
            sim_params p;
            sim_params_default(&p);
            p.n = 8;
            p.slices = slices;
            char err[256];
            traffic *t = traffic_new(pats[k], p.n, 1, err, sizeof err);
            ck_assert_msg(t != NULL, "%s", err);
            sim *s = sim_new(&p, t->dest, NULL, err, sizeof err);
            ck_assert_msg(s != NULL, "%s", err);
            sim_config *c = sim_config_new(t->nodes, p.vcs, 3, 9);
            sim_activity *a = sim_activity_new(t->nodes * 4);
            sim_metrics mf, mt;
            ck_assert_int_eq(sim_run(s, c, &mf), SIM_OK);
            ck_assert_int_eq(sim_run_traced(s, c, a, &mt), SIM_OK);
            ck_assert_int_eq(mt.duration, mf.duration);
            ck_assert_int_eq(mt.lb, mf.lb);
            ck_assert_int_eq(mt.te, mf.te);
            long flits = 0, blocked = 0;
            for (int64_t cy = 0; cy < sim_activity_cycles(a); cy++)
                for (int l = 0; l < t->nodes * 4; l++) {
                    int v = sim_activity_at(a, cy, l);
                    if (v == ACT_BLOCKED) blocked++;
                    else if (v != ACT_IDLE) {
                        flits++;
                        ck_assert_int_lt(v - ACT_SLICE0, slices);
                    }
                }
            ck_assert_int_eq(flits, flit_hops(t, p.flits, slices));
            ck_assert_int_eq(blocked, mf.lb);
            ck_assert_int_lt(sim_activity_cycles(a), mf.duration);
            /* A second run on the same recorder starts from nothing. */
            ck_assert_int_eq(sim_run_traced(s, c, a, &mt), SIM_OK);
            ck_assert_int_eq(mt.lb, mf.lb);
            sim_activity_free(a);
            sim_config_free(c);
            sim_free(s);
            traffic_free(t);
        }
}
END_TEST

/* ---- the PNG ---- */

static sim_activity *traced(const char *pat, int n, int slices, uint32_t v, sim_metrics *m, traffic **tp)
{
    sim_params p;
    sim_params_default(&p);
    p.n = n;
    p.slices = slices;
    char err[256];
    traffic *t = traffic_new(pat, n, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    sim *s = sim_new(&p, t->dest, NULL, err, sizeof err);
    sim_config *c = sim_config_new(t->nodes, p.vcs, 0, v);
    sim_activity *a = sim_activity_new(t->nodes * 4);
    ck_assert_int_eq(sim_run_traced(s, c, a, m), SIM_OK);
    sim_config_free(c);
    sim_free(s);
    *tp = t;
    return a;
}

/* Scale 1, no legend: links x T_d pixels, coloured = flit-hops, grey = lb. */
START_TEST(png_counts)
{
    sim_metrics m;
    traffic *t;
    sim_activity *a = traced("brev", 8, 2, 12, &m, &t);
    ck_assert_int_gt(m.lb, 0);
    viz_act_opts o;
    viz_act_opts_default(&o);
    o.legend = 0;
    char err[256], *path = tmpname("counts");
    ck_assert_msg(viz_act_write_png(a, m.duration, 2, &o, path, err, sizeof err) == VIZ_OK, "%s", err);
    image im = decode(path);
    ck_assert_int_eq(im.w, 8 * 8 * 4);
    ck_assert_int_eq(im.h, m.duration);
    long col, grey, white;
    count(&im, im.h, &col, &grey, &white);
    ck_assert_int_eq(col, flit_hops(t, 8, 2));
    ck_assert_int_eq(grey, m.lb);
    /* Slice 0 and slice 1 have different colours and both appear. */
    uint8_t c0[3], c1[3];
    viz_act_colour(ACT_SLICE0, c0);
    viz_act_colour(ACT_SLICE0 + 1, c1);
    ck_assert(memcmp(c0, c1, 3) != 0);
    long n0 = 0, n1 = 0;
    for (int y = 0; y < im.h; y++)
        for (int x = 0; x < im.w; x++) {
            n0 += is(px(&im, x, y), c0[0], c0[1], c0[2]);
            n1 += is(px(&im, x, y), c1[0], c1[1], c1[2]);
        }
    ck_assert_int_eq(n0, col / 2);
    ck_assert_int_eq(n1, col / 2);
    free(im.rgb);
    unlink(path);
    sim_activity_free(a);
    traffic_free(t);
}
END_TEST

/* Scale 3 over links 10..29, framed: the map is the bare scale-1 map with
 * each link-cycle a 3x3 block and the columns grouped by direction, then
 * router row (then x); around it the title, the cycle axis with a tick every
 * 10 cycles, and the legend. */
START_TEST(png_scale_range_frame)
{
    sim_metrics m;
    traffic *t;
    sim_activity *a = traced("shfl", 8, 3, 10, &m, &t);
    viz_act_opts o;
    viz_act_opts_default(&o);
    o.legend = 0;
    char err[256], *p1 = tmpname("s1"), *p3 = tmpname("s3");
    ck_assert(viz_act_write_png(a, m.duration, 3, &o, p1, err, sizeof err) == VIZ_OK);
    o.scale = 3;
    o.first = 10;
    o.last = 29;
    o.legend = 1;
    o.title = "SHFL 8X8";
    viz_act_layout g;
    ck_assert_msg(viz_act_geometry(a, m.duration, 3, &o, &g, err, sizeof err) == VIZ_OK, "%s", err);
    ck_assert_msg(viz_act_write_png(a, m.duration, 3, &o, p3, err, sizeof err) == VIZ_OK, "%s", err);
    image a1 = decode(p1), a3 = decode(p3);
    ck_assert_int_eq(a3.w, g.w);
    ck_assert_int_eq(a3.h, g.h);
    ck_assert_int_eq(g.cols, 20);
    /* Links 10..29 (router = link / 4, direction = link % 4 in N E S W
     * order), by direction then router: N 12 16 20 24 28, E 13 .. 29,
     * S 10 14 .. 26, W 11 15 .. 27. */
    static const int order[20] = { 12, 16, 20, 24, 28, 13, 17, 21, 25, 29, 10, 14, 18, 22, 26, 11, 15, 19, 23, 27 };
    for (int c = 0; c < 20; c++) ck_assert_int_eq(viz_act_column_link(a, &o, c), order[c]);
    for (int y = 0; y < m.duration * 3; y++)
        for (int x = 0; x < 60; x++)
            ck_assert(memcmp(px(&a3, g.map_x + x, g.map_y + y), px(&a1, order[x / 3], y / 3), 3) == 0);
    /* The frame: a title in the band above (ink), the axis line left of the
     * map on every row, and a tick at 0, 10, 20, ... (3 pixels a cycle: the
     * first of 1, 2, 5, 10 cycles that spaces labels 16 pixels apart). */
    ck_assert_int_eq(g.tick_cycles, 10);
    long title_ink = 0;
    for (int y = 0; y < g.map_y - 12; y++)
        for (int x = 0; x < a3.w; x++) title_ink += is(px(&a3, x, y), 0, 0, 0);
    ck_assert_int_gt(title_ink, 100);
    for (int y = 0; y < m.duration * 3; y++) ck_assert(is(px(&a3, g.map_x - 1, g.map_y + y), 0, 0, 0));
    for (int64_t tc = 0; tc < m.duration; tc++) {
        int tick = is(px(&a3, g.map_x - 3, g.map_y + (int)tc * 3), 0, 0, 0);
        ck_assert_msg(tick == (tc % 10 == 0), "cycle %lld: tick %d", (long long)tc, tick);
    }
    /* The legend (below the map and its axis) shows the three slice colours and the grey. */
    for (int e = 0; e < 4; e++) {
        uint8_t c[3];
        viz_act_colour(e < 3 ? ACT_SLICE0 + e : ACT_BLOCKED, c);
        int found = 0;
        for (int y = g.map_y + m.duration * 3 + 1; y < a3.h && !found; y++)
            for (int x = 0; x < a3.w && !found; x++) found = is(px(&a3, x, y), c[0], c[1], c[2]);
        ck_assert_msg(found, "legend entry %d missing", e);
    }
    free(a1.rgb);
    free(a3.rgb);
    unlink(p1);
    unlink(p3);
    sim_activity_free(a);
    traffic_free(t);
}
END_TEST

/* Colours repeat after eight slices; nine slices give distinct 0..7. */
START_TEST(palette_repeats)
{
    uint8_t c[9][3];
    for (int s = 0; s < 9; s++) viz_act_colour(ACT_SLICE0 + s, c[s]);
    for (int i = 0; i < 8; i++)
        for (int j = i + 1; j < 8; j++) ck_assert(memcmp(c[i], c[j], 3) != 0);
    ck_assert(memcmp(c[8], c[0], 3) == 0);
}
END_TEST

/* Bad input: a range outside the links, an unwritable directory; no file left. */
START_TEST(bad_input_leaves_nothing)
{
    sim_metrics m;
    traffic *t;
    sim_activity *a = traced("brev", 4, 1, 8, &m, &t);
    viz_act_opts o;
    viz_act_opts_default(&o);
    o.last = 64;
    char err[256], *path = tmpname("bad");
    ck_assert_int_eq(viz_act_write_png(a, m.duration, 1, &o, path, err, sizeof err), VIZ_BADINPUT);
    ck_assert(strstr(err, "0:63") != NULL);
    ck_assert_int_ne(access(path, F_OK), 0);
    viz_act_opts_default(&o);
    ck_assert_int_eq(viz_act_write_png(a, m.duration, 1, &o, "/nonexistent-dir/x.png", err, sizeof err), VIZ_BADINPUT);
    ck_assert(strstr(err, "/nonexistent-dir/x.png") != NULL);
    sim_activity_free(a);
    traffic_free(t);
}
END_TEST

/* ---- through the command line ---- */

static long json_field(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(json, pat);
    ck_assert_msg(p != NULL, "no %s in %s", key, json);
    return strtol(p + strlen(pat), NULL, 10);
}

/* `nocsim sim --activity` at scale 1: links x T_d, coloured = flit-hops (by
 * formula), grey = the lb the command prints. */
START_TEST(cli_sim_activity)
{
    const char *bin = getenv("NOCSIM");
    if (!bin) { fprintf(stderr, "cli_sim_activity: NOCSIM not set, skipped\n"); return; }
    char *path = tmpname("cli"), cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd, "%s sim --traffic brot --size 8 --slices 2 --interval 11 --arb C05 --format json "
                              "--activity %s --activity-no-legend", bin, path);
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    ck_assert_int_eq(pclose(f), 0);
    long td = json_field(out, "duration"), lb = json_field(out, "lb");
    image im = decode(path);
    ck_assert_int_eq(im.w, 256);
    ck_assert_int_eq(im.h, td);
    char err[256];
    traffic *t = traffic_new("brot", 8, 1, err, sizeof err);
    long col, grey, white;
    count(&im, im.h, &col, &grey, &white);
    ck_assert_int_eq(col, flit_hops(t, 8, 2));
    ck_assert_int_eq(grey, lb);
    ck_assert_int_gt(lb, 0);
    free(im.rgb);
    unlink(path);
    traffic_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("activity");
    TCase *tc = tcase_create("activity");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, isolated_packet_cells);
    tcase_add_test(tc, recorder_matches_metrics);
    tcase_add_test(tc, png_counts);
    tcase_add_test(tc, png_scale_range_frame);
    tcase_add_test(tc, palette_repeats);
    tcase_add_test(tc, bad_input_leaves_nothing);
    tcase_add_test(tc, cli_sim_activity);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
