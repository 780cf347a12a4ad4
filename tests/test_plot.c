/* Tests of the figures of `nocsim plot`: the sweep reader and the figure's
 * checks on hand-made inputs, the run groups of Fig. 5 on a database with
 * known best durations (mean and minimum by hand), and every kind drawn by
 * gnuplot through the command line, decoded with libpng (skipped with a
 * message when gnuplot or NOCSIM is absent). */
#include <check.h>

#include "tests/testutil.h"
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/plot_queries.h"
#include "store/store.h"
#include "viz/figure.h"
#include "viz/loadfig.h"
#include "viz/sweep.h"
#include "viz/viz.h"

static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/nocsim_test_plot_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static int read_sweep(const char *text, viz_figure **f, char *err, size_t errlen)
{
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    ck_assert_ptr_nonnull(in);
    int rc = viz_sweep_read(in, "t.csv", f, err, errlen);
    fclose(in);
    return rc;
}

/* Two schemes; a failed interval (-1) is left out of its curve. */
START_TEST(sweep_reader)
{
    viz_figure *f;
    char err[256];
    ck_assert_int_eq(read_sweep(VIZ_SWEEP_HEADER "\nbrev,4,2,C00,8,36\nbrev,4,2,C00,9,-1\nbrev,4,2,C00,10,38\n"
                                "brev,4,2,C05,8,40\nbrev,4,2,C05,9,41\nbrev,4,2,C05,10,39\n", &f, err, sizeof err), VIZ_OK);
    ck_assert_int_eq(viz_fig_nseries(f), 2);
    ck_assert_int_eq(viz_fig_npoints(f, 0), 2);
    ck_assert_int_eq(viz_fig_npoints(f, 1), 3);
    ck_assert_int_eq(viz_fig_check(f, err, sizeof err), VIZ_OK);
    /* The data file holds exactly these points, one block per scheme. */
    ck_assert_int_eq(viz_fig_write_script(f, dir, NULL, 640, 400, err, sizeof err), VIZ_OK);
    char path[128], buf[512];
    snprintf(path, sizeof path, "%s/figure.dat", dir);
    FILE *d = fopen(path, "r");
    ck_assert_ptr_nonnull(d);
    size_t n = fread(buf, 1, sizeof buf - 1, d);
    buf[n] = 0;
    fclose(d);
    ck_assert_str_eq(buf, "# C00\n8 36\n10 38\n\n\n# C05\n8 40\n9 41\n10 39\n");
    viz_fig_free(f);
    /* Bad inputs name the line. */
    ck_assert_int_eq(read_sweep("a,b\n", &f, err, sizeof err), VIZ_BADINPUT);
    ck_assert(strstr(err, "t.csv:1") != NULL);
    ck_assert_int_eq(read_sweep(VIZ_SWEEP_HEADER "\nbrev,4,2,C00,8,36\nbrev,4,x,C00,9,3\n", &f, err, sizeof err), VIZ_BADINPUT);
    ck_assert(strstr(err, "t.csv:3") != NULL);
    ck_assert_int_eq(read_sweep(VIZ_SWEEP_HEADER "\nbrev,4,2,C00,8,36\nshfl,4,2,C00,9,3\n", &f, err, sizeof err), VIZ_BADINPUT);
    ck_assert(strstr(err, "one sweep per picture") != NULL);
    ck_assert_int_eq(read_sweep(VIZ_SWEEP_HEADER "\n", &f, err, sizeof err), VIZ_BADINPUT);
}
END_TEST

/* A line needs two points; points need two in all. */
START_TEST(figure_checks)
{
    char err[256];
    viz_figure *f = viz_fig_new("t", "x", "y");
    ck_assert_int_eq(viz_fig_check(f, err, sizeof err), VIZ_BADINPUT);
    int a = viz_fig_series(f, "dots", VIZ_POINTS, -1);
    ck_assert_int_eq(viz_fig_point(f, a, 1, 1), 0);
    ck_assert_int_eq(viz_fig_check(f, err, sizeof err), VIZ_BADINPUT);
    ck_assert(strstr(err, "only 1 point") != NULL);
    int b = viz_fig_series(f, "other dots", VIZ_POINTS, -1);
    ck_assert_int_eq(viz_fig_point(f, b, 2, 2), 0);
    ck_assert_int_eq(viz_fig_check(f, err, sizeof err), VIZ_OK);
    int c = viz_fig_series(f, "curve", VIZ_LINE, -1);
    ck_assert_int_eq(viz_fig_point(f, c, 2, 2), 0);
    ck_assert_int_eq(viz_fig_check(f, err, sizeof err), VIZ_BADINPUT);
    ck_assert(strstr(err, "'curve' has 1 point") != NULL);
    /* Nothing is written for a figure that fails its check. */
    ck_assert_int_eq(viz_fig_render(f, "/tmp/nocsim_never.png", 640, 400, err, sizeof err), VIZ_BADINPUT);
    ck_assert_int_ne(access("/tmp/nocsim_never.png", F_OK), 0);
    viz_fig_free(f);
}
END_TEST

static int64_t add_run(store *s, const char *traffic, int seed, int pop, int64_t best)
{
    char params[256], err[256];
    snprintf(params, sizeof params, "{\"traffic\": \"%s\", \"seed\": %d, \"pop\": %d, \"ga_seed\": %d}", traffic, seed, pop, seed);
    store_run r = store_run_init("ga");
    r.traffic = traffic;
    r.size = 4;
    r.slices = 2;
    r.flits = 8;
    r.params = params;
    ck_assert_msg(store_run_create(s, &r, err, sizeof err) == STORE_OK, "%s", err);
    ck_assert_int_eq(store_run_set_best(s, r.id, best, best, 1, err, sizeof err), STORE_OK);
    return r.id;
}

typedef struct {
    int n;
    store_run_group g[8];
    char traffic[8][16];
} groups;

static int collect(const store_run_group *g, void *ctx)
{
    groups *c = ctx;
    snprintf(c->traffic[c->n], 16, "%s", g->traffic);
    c->g[c->n++] = *g;
    return 0;
}

/* Runs that differ only in their seeds form one group: brev pop 8 = runs
 * 1, 2, 4 (bests 40, 37, 43: mean 40, min 37), brev pop 4 = run 3 (39),
 * shfl pop 8 = run 5 (50); run 6 has no best and is left out. */
START_TEST(run_groups)
{
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/g.db", dir);
    store *s = store_open(path, STORE_CREATE, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    add_run(s, "brev", 1, 8, 40);
    add_run(s, "brev", 2, 8, 37);
    add_run(s, "brev", 3, 4, 39);
    add_run(s, "brev", 4, 8, 43);
    add_run(s, "shfl", 1, 8, 50);
    store_run r = store_run_init("ga");
    r.traffic = "shfl";
    ck_assert_int_eq(store_run_create(s, &r, err, sizeof err), STORE_OK);
    groups c = { 0 };
    ck_assert_int_eq(store_run_groups(s, NULL, collect, &c, err, sizeof err), STORE_OK);
    ck_assert_int_eq(c.n, 3);
    ck_assert_str_eq(c.traffic[0], "brev");
    ck_assert_int_eq(c.g[0].runs, 3);
    ck_assert_int_eq(c.g[0].first_run, 1);
    ck_assert(c.g[0].mean_best == 40.0);
    ck_assert_int_eq(c.g[0].min_best, 37);
    ck_assert_int_eq(c.g[1].runs, 1);
    ck_assert_int_eq(c.g[1].first_run, 3);
    ck_assert_int_eq(c.g[1].min_best, 39);
    ck_assert_str_eq(c.traffic[2], "shfl");
    ck_assert_int_eq(c.g[2].min_best, 50);
    store_run_filter f = { .traffic = "shfl" };
    c.n = 0;
    ck_assert_int_eq(store_run_groups(s, &f, collect, &c, err, sizeof err), STORE_OK);
    ck_assert_int_eq(c.n, 1);
    store_close(s);
}
END_TEST


/* ---- the open-loop figure (viz/loadfig.c) ---- */

/* Two 8x8 mesh curves as `nocsim load` keeps them; the second differs in VCs
 * and buffer depth only. */
static const viz_load_point pts_a[] = { { 0.10, 20.0, 0.5, 0 }, { 0.20, 45.0, 2.0, 0 }, { 0.30, 400.0, 90.0, 3 },
                                        { 0.40, 30.0, 1.0, 0 } };
static const viz_load_point pts_b[] = { { 0.10, 21.0, 0.4, 0 }, { 0.21, 38.0, 1.5, 0 }, { 0.31, 300.0, 80.0, 1 } };

static viz_load_curve curve(int64_t run, int vcs, int buffer, const viz_load_point *p, int n)
{
    return (viz_load_curve){ .run = run, .traffic = "uniform", .topology = "mesh", .vc_rule = "any", .arb = "C00",
                             .tie = "nowrap", .packet = "8", .process = "bernoulli", .self = "skip", .width = 8,
                             .height = 8, .vcs = vcs, .buffer = buffer, .per_flow = 0, .batch = 1000, .window = 10,
                             .seed = 1, .bound = 0.5, .sat_accepted = NAN, .sat_latency = NAN, .pts = p, .npts = n };
}

/* The key names what differs, the title what is shared (the measurement
 * settings, ties, self-traffic and seed only when they differ). */
START_TEST(load_names)
{
    viz_load_curve c[3] = { curve(1, 3, 4, pts_a, 4), curve(2, 1, 8, pts_b, 3), curve(3, 2, 4, pts_b, 3) };
    char title[600], k0[200], k1[200], k2[200], *keys[] = { k0, k1, k2 };
    viz_load_names(c, 3, "T", title, sizeof title, keys, sizeof k0);
    ck_assert_str_eq(title, "T: uniform, 8x8 mesh, any-VC rule, arbiter C00, 8-flit packets, Bernoulli injection");
    ck_assert_str_eq(k0, "3 VCs, 4-flit buffers");
    ck_assert_str_eq(k1, "1 VC, 8-flit buffers");
    ck_assert_str_eq(k2, "2 VCs, 4-flit buffers");
    /* Another pattern, a packet mix and a seed (past 2^63): each named in the key. */
    c[1].traffic = "transpose";
    c[1].packet = "1:0.5,8:0.5";
    c[1].vcs = 3;
    c[1].buffer = 4;
    c[1].seed = 9223372036854775809u;   /* 2^63 + 1: stored as a negative 64-bit integer */
    viz_load_names(c, 2, "T", title, sizeof title, keys, sizeof k0);
    ck_assert_str_eq(title, "T: 8x8 mesh, any-VC rule, 3 VCs, 4-flit buffers, arbiter C00, Bernoulli injection");
    ck_assert_str_eq(k0, "uniform, 8-flit packets, seed 1");
    ck_assert_str_eq(k1, "transpose, packets 1:0.5,8:0.5, seed 9223372036854775809");
    /* Curves alike in everything are named by their runs; one curve too. */
    c[1] = curve(2, 3, 4, pts_b, 3);
    viz_load_names(c, 2, "T", title, sizeof title, keys, sizeof k0);
    ck_assert_str_eq(k0, "run 1");
    ck_assert_str_eq(k1, "run 2");
    /* The routing, when runs keep it, is named like the rest; the adaptive
     * selection rule only when it differs. */
    c[0].routing = c[1].routing = "west-first";
    c[0].selection = "credits";
    c[1].selection = "random";
    viz_load_names(c, 2, "T", title, sizeof title, keys, sizeof k0);
    ck_assert_str_eq(title, "T: uniform, 8x8 mesh, west-first routing, any-VC rule, 3 VCs, 4-flit buffers, arbiter C00, "
                            "8-flit packets, Bernoulli injection");
    ck_assert_str_eq(k0, "selection credits");
    ck_assert_str_eq(k1, "selection random");
    /* Router timing (its four delays) and VC rotation, named when they differ. */
    c[0].delays[0] = c[0].delays[1] = c[0].delays[2] = c[0].delays[3] = 1;
    c[0].vc_alloc = "rotate";
    viz_load_names(c, 2, "T", title, sizeof title, keys, sizeof k0);
    ck_assert_str_eq(k0, "selection credits, delays 1/1/1/1, VCs rotate");
    ck_assert_str_eq(k1, "selection random");
    c[0].delays[0] = c[0].delays[1] = c[0].delays[2] = c[0].delays[3] = 0;
    c[0].vc_alloc = NULL;
    c[1].routing = "dor";
    c[1].selection = "credits";
    viz_load_names(c, 2, "T", title, sizeof title, keys, sizeof k0);
    ck_assert_str_eq(k0, "west-first routing");
    ck_assert_str_eq(k1, "dor routing");
    c[0].routing = c[1].routing = c[0].selection = c[1].selection = NULL;
    /* What a run did not record reads "?", and differs from a value. */
    c[1].vcs = -1;
    c[1].arb = NULL;
    viz_load_names(c, 2, "T", title, sizeof title, keys, sizeof k0);
    ck_assert_str_eq(k1, "? VCs, arbiter ?");
}
END_TEST

/* y tops at 2 x the highest latency of a drawn stable point, rounded up to
 * a multiple of 10: curve a's stable points before its first saturated one
 * are 20 and 45 (the stable 30 after it is not drawn), b's 21 and 38, so
 * 2 x 45 = 90 exactly; one more cycle, 46 -> 92 -> 100. */
START_TEST(load_ymax)
{
    viz_load_curve c[2] = { curve(1, 3, 4, pts_a, 4), curve(2, 1, 8, pts_b, 3) };
    ck_assert(viz_load_ymax(c, 2) == 90.0);
    ck_assert(viz_load_ymax(&c[1], 1) == 80.0);   /* 2 x 38 = 76 */
    viz_load_point p[] = { { 0.1, 46.0, 1, 0 }, { 0.2, 900.0, 1, 1 } };
    c[1].pts = p;
    c[1].npts = 2;
    ck_assert(viz_load_ymax(c, 2) == 100.0);
    p[0].latency = 45.0;                           /* the boundary: 90 stays 90 */
    ck_assert(viz_load_ymax(&c[1], 1) == 90.0);
    p[0].saturated = 2;                            /* no stable point: gnuplot's choice */
    ck_assert(isnan(viz_load_ymax(&c[1], 1)));
}
END_TEST

static void read_text(const char *name, char *buf, size_t len)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = 0;
    fclose(f);
}

/* The script draws the curves with error bars up to the first saturated
 * point, each bound as a dotted line in its curve's colour, the saturation
 * point circled, and the key entries explaining both. */
START_TEST(load_script)
{
    viz_load_curve c[2] = { curve(1, 3, 4, pts_a, 4), curve(2, 1, 8, pts_b, 3) };
    c[0].sat_accepted = 0.25;
    c[0].sat_latency = 60.0;
    c[1].bound = 0.45;
    viz_figure *f;
    char err[256], gp[8192], dat[2048];
    ck_assert_int_eq(viz_load_figure(c, 2, &f, err, sizeof err), VIZ_OK);
    ck_assert_int_eq(viz_fig_write_script(f, dir, NULL, 640, 400, err, sizeof err), VIZ_OK);
    viz_fig_free(f);
    read_text("plot.gp", gp, sizeof gp);
    read_text("figure.dat", dat, sizeof dat);
    ck_assert_msg(strstr(gp, "set xlabel 'offered load, measured [flits/cycle per sending node]'"), "%s", gp);
    ck_assert(strstr(gp, "set yrange [0:90]"));
    ck_assert(strstr(gp, "set xrange [0:0.5250000000]") || strstr(gp, "set xrange [0:0.525]"));   /* 1.05 x bound 0.5 */
    ck_assert(strstr(gp, "set arrow from 0.5, graph 0 to 0.5, graph 1 nohead dt 3 lw 1.5 lc rgb '#e41a1c'"));
    ck_assert(strstr(gp, "set arrow from 0.45, graph 0 to 0.45, graph 1 nohead dt 3 lw 1.5 lc rgb '#377eb8'"));
    ck_assert(strstr(gp, "datafile index 0 using 1:2:3 with yerrorlines"));
    ck_assert(strstr(gp, "title '3 VCs, 4-flit buffers'"));
    ck_assert(strstr(gp, "datafile index 1 with points pt 6 ps 2.5 lw 2 lc rgb '#e41a1c' notitle"));
    ck_assert(strstr(gp, "title '1 VC, 8-flit buffers'"));
    ck_assert(strstr(gp, "NaN with lines lw 1.5 dt 3 lc rgb 'black' title 'channel-load bound"));
    ck_assert(strstr(gp, "NaN with points pt 6 ps 2.5 lw 2 lc rgb 'black' title 'saturation point"));
    /* Curve a: its three points to the first saturated one, with their CIs;
     * the mark; curve b whole. */
    ck_assert_str_eq(dat, "# 3 VCs, 4-flit buffers\n0.1 20 0.5\n0.2 45 2\n0.3 400 90\n\n\n# \n0.25 60\n\n\n"
                          "# 1 VC, 8-flit buffers\n0.1 21 0.4\n0.21 38 1.5\n0.31 300 80\n");
    /* A curve without points is refused, naming its run. */
    c[1].npts = 0;
    ck_assert_int_eq(viz_load_figure(c, 2, &f, err, sizeof err), VIZ_BADINPUT);
    ck_assert_str_eq(err, "run 2 has no points recorded");
}
END_TEST

/* Horizontal reference lines carry their key entry; log axes drop a range
 * end that is not positive and end at the data; a y top must lie above some
 * point. */
START_TEST(reference_lines)
{
    char err[256], gp[4096];
    viz_figure *f = viz_fig_new("t", "x", "y");
    int a = viz_fig_series(f, "best", VIZ_LINE, -1);
    ck_assert_int_eq(viz_fig_point(f, a, 1, 50), 0);
    ck_assert_int_eq(viz_fig_point(f, a, 2, 40), 0);
    ck_assert_int_eq(viz_fig_hline(f, 36, "simple stacking, run 1: 36 cycles", a), 0);
    viz_fig_yrange(f, 0, 80);
    viz_fig_log(f, 1, 1);
    ck_assert_int_eq(viz_fig_write_script(f, dir, NULL, 640, 400, err, sizeof err), VIZ_OK);
    read_text("plot.gp", gp, sizeof gp);
    ck_assert_msg(strstr(gp, "set logscale x\nset logscale y\nset autoscale xfixmin\nset autoscale xfixmax\n"
                            "set autoscale yfixmin\nset yrange [*:80]\n"), "%s", gp);
    ck_assert(strstr(gp, "36 with lines lw 1.5 dt 3 lc rgb '#e41a1c' title 'simple stacking, run 1: 36 cycles'"));
    /* A top must lie above some point: the lowest is 40 (the line at 36 is
     * no point); on a log axis a point at 0 or below does not count. */
    ck_assert_int_eq(viz_fig_set_ymax(f, 40, err, sizeof err), VIZ_BADINPUT);
    ck_assert_str_eq(err, "40 is at or below every point (the lowest is 40, of those a log axis shows): nothing would be drawn");
    ck_assert(viz_fig_ymax(f) == 80);
    ck_assert_int_eq(viz_fig_set_ymax(f, 40.5, err, sizeof err), VIZ_OK);
    ck_assert(viz_fig_ymax(f) == 40.5);
    ck_assert_int_eq(viz_fig_point(f, a, 3, 0), 0);
    ck_assert_int_eq(viz_fig_set_ymax(f, 39, err, sizeof err), VIZ_BADINPUT);
    viz_fig_log(f, 0, 0);
    ck_assert_int_eq(viz_fig_set_ymax(f, 39, err, sizeof err), VIZ_OK);
    viz_fig_free(f);
}
END_TEST

/* ---- through the command line, decoded with libpng ---- */

static int have_tools(const char *test)
{
    if (!getenv("NOCSIM")) { fprintf(stderr, "%s: NOCSIM not set, skipped\n", test); return 0; }
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "%s: gnuplot not installed (Debian package gnuplot-nox), skipped\n", test);
        return 0;
    }
    return 1;
}

static void sh(const char *fmt, const char *a)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, fmt, getenv("NOCSIM"), dir, a);
    ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

/* A PNG libpng decodes completely, of w x h pixels, not all one colour. */
static void check_png(const char *name, int w, int h)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    ck_assert_msg(png_image_begin_read_from_file(&pi, path), "%s: %s", path, pi.message);
    ck_assert_int_eq(pi.width, w);
    ck_assert_int_eq(pi.height, h);
    pi.format = PNG_FORMAT_RGB;
    unsigned char *buf = malloc(PNG_IMAGE_SIZE(pi));
    ck_assert_ptr_nonnull(buf);
    ck_assert_msg(png_image_finish_read(&pi, NULL, buf, 0, NULL), "%s: %s", path, pi.message);
    size_t differ = 0;
    for (size_t i = 3; i < (size_t)w * (size_t)h * 3; i += 3) differ += memcmp(buf + i, buf, 3) != 0;
    ck_assert_int_gt(differ, 1000);
    free(buf);
}

START_TEST(cli_each_kind)
{
    if (!have_tools("cli_each_kind")) return;
    sh("%s stack --traffic brev --size 4 --arb C00,C05 --interval 8:24 --format csv > %s/s.csv%s", "");
    sh("%s plot stack %s/s.csv -o %s/stack.png --size 640x400", dir);
    check_png("stack.png", 640, 400);
    for (int seed = 1; seed <= 4; seed++) {
        char args[64];
        snprintf(args, sizeof args, "--seed %d%s", seed, seed > 2 ? " --pop 4" : "");
        sh("%s ga --traffic brev --size 4 --slices 2 --generations 10 --db %s/r.db %s >/dev/null", args);
    }
    sh("%s plot generations 1 2 --db %s/r.db -o %s/gen.png --size 500x300", dir);
    check_png("gen.png", 500, 300);
    sh("%s plot runs --db %s/r.db -o %s/runs.png --size 420x420 --title 'two settings'", dir);
    check_png("runs.png", 420, 420);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("plot");
    TCase *tc = tcase_create("plot");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, sweep_reader);
    tcase_add_test(tc, figure_checks);
    tcase_add_test(tc, run_groups);
    tcase_add_test(tc, load_names);
    tcase_add_test(tc, load_ymax);
    tcase_add_test(tc, load_script);
    tcase_add_test(tc, reference_lines);
    tcase_add_test(tc, cli_each_kind);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
