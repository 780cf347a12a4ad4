/* Tests of the figures of `nocsim plot`: the sweep reader and the figure's
 * checks on hand-made inputs, the run groups of Fig. 5 on a database with
 * known best durations (mean and minimum by hand), and every kind drawn by
 * gnuplot through the command line, decoded with libpng (skipped with a
 * message when gnuplot or NOCSIM is absent). */
#include <check.h>

#include "tests/testutil.h"
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/plot_queries.h"
#include "store/store.h"
#include "viz/figure.h"
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
    tcase_add_test(tc, cli_each_kind);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
