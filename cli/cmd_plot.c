/* `nocsim plot`: curves drawn by gnuplot from a stacking sweep or from the
 * database -- duration against interval per scheme (paper Fig. 3), best and
 * average per generation (Fig. 4), best against average over repeated runs
 * (Fig. 5), open-loop latency curves.  The figures are built in viz/; this
 * file reads the inputs. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "cli/args.h"
#include "cli/opt_group.h"
#include "cli/cli.h"
#include "cli/outdest.h"
#include "store/plot_queries.h"
#include "store/store.h"
#include "viz/figure.h"
#include "viz/loadfig.h"
#include "viz/sweep.h"
#include "viz/viz.h"
#include "viz/viz_options.h"
#include "util/json.h"
#include "util/options.h"
#include "util/parse.h"
#include "util/quote.h"

static void help(const cli_spec *spec)
{
    printf("usage: nocsim plot stack CSV -o FILE.png [options]\n"
           "       nocsim plot generations RUN [RUN...] -o FILE.png [--db PATH] [options]\n"
           "       nocsim plot runs -o FILE.png [--traffic T] [--slices S] [--kind K] [--db PATH] [options]\n"
           "       nocsim plot load RUN [RUN...] -o FILE.png [--db PATH] [options]\n\n"
           "Draw a figure with gnuplot (Debian package gnuplot-nox):\n"
           "  stack        duration against the inter-slice interval, one curve per scheme\n"
           "               (paper Fig. 3), from `nocsim stack --format csv` output (CSV\n"
           "               a file, or - for standard input)\n"
           "  generations  best (solid) and population average (dashed) score per\n"
           "               generation of one or several GA runs (paper Fig. 4), each\n"
           "               run's simple-stacking baseline dotted (and its floor, when\n"
           "               the run's params keep one)\n"
           "  runs         one dot per setting: runs whose parameters differ only in the\n"
           "               seed are repetitions; x = the mean of their best durations,\n"
           "               y = the best of them, with the line y = x (paper Fig. 5)\n"
           "  load         average packet latency (bars: 95 %% confidence) against the\n"
           "               measured offered load per sending node of one or several\n"
           "               open-loop curves (nocsim load runs), up to each curve's first\n"
           "               saturated point; each curve's channel-load bound dotted in its\n"
           "               colour, its saturation point (load --saturation) circled; the\n"
           "               key names what differs between the curves (pattern, VCs,\n"
           "               buffers, arbiter, packet mix, ...), the title what they share\n\n");
    cli_help(stdout, spec);
    printf("\nexample: nocsim stack --traffic brot --format csv | nocsim plot stack - -o fig3.png\n");
}

typedef struct {
    const char *out, *script_dir, *title, *db;
    int w, h;
    double ymax;      /* NaN: the figure's own */
    int logx, logy;
} plot_opts;

/* --size WxH, each side in [r->lo, r->hi], by the project's one integer
 * parser (no sign, space or other spelling). */
static int parse_size(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    plot_opts *o = base;
    const char *x = v ? strchr(v, 'x') : NULL;
    char q[QUOTE_BUF], side[32];
    int64_t lo = (int64_t)r->lo, hi = (int64_t)r->hi, w, h;
    size_t n = x ? (size_t)(x - v) : 0;
    if (!x || n >= sizeof side)
        return snprintf(err, errlen, "'%s' is not WxH with W and H in [%lld, %lld] (e.g. %dx%d)",
                        quote_str(q, sizeof q, v ? v : ""), (long long)lo, (long long)hi, VIZ_DEFAULT_WIDTH,
                        VIZ_DEFAULT_HEIGHT), -FAULT_INPUT;
    memcpy(side, v, n);
    side[n] = '\0';
    parse_status st = parse_int(side, lo, hi, &w);
    if (st != PARSE_OK) return parse_explain_int(err, errlen, st, side, lo, hi), -FAULT_INPUT;
    if ((st = parse_int(x + 1, lo, hi, &h)) != PARSE_OK)
        return parse_explain_int(err, errlen, st, x + 1, lo, hi), -FAULT_INPUT;
    o->w = (int)w;
    o->h = (int)h;
    return 0;
}

static void show_size(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const plot_opts *o = base;
    snprintf(buf, len, "%dx%d", o->w, o->h);
}

/* --script-only DIR: a folder's name, not empty. */
static int parse_dir(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    if (!v || !*v) return snprintf(err, errlen, "the folder name is empty"), -FAULT_INPUT;
    ((plot_opts *)base)->script_dir = v;
    return 0;
}

#define PFIELD(f) #f, offsetof(plot_opts, f)
/* Every figure's options, over plot_opts. */
static const opt_row plot_rows[] = {
    { "output", 'o', "FILE.png", "the picture (written whole or not at all)", OPT_TEXT, PFIELD(out), 0, 0, 0, 0, NULL, 0,
      NULL, NULL, 1 },
    { "size", 0, "WxH", "pixels", OPT_CUSTOM, PFIELD(w), VIZ_SIDE_MIN, VIZ_SIDE_MAX, 0, 0, NULL, 0, parse_size,
      show_size, 0 },
    { "title", 0, "TEXT", "replace the figure's title", OPT_TEXT, PFIELD(title), 0, 0, 0, 0, NULL, 0, NULL, NULL, 1 },
    { "script-only", 0, "DIR", "do not run gnuplot: leave the data (figure.dat) and\n"
                               "the script (plot.gp, drawing to -o or DIR/plot.png)\n"
                               "in DIR, an existing folder, for editing", OPT_CUSTOM, PFIELD(script_dir), 0, 0, 0, 0,
      NULL, 0, parse_dir, NULL, 1 },
    { "db", 0, "PATH", "database", OPT_TEXT, PFIELD(db), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "ymax", 0, "Y", "top of the y axis, above some point\n"
                      "(default gnuplot's; plot load: " VIZ_LOAD_YFACTOR_TEXT " x the\n"
                      "highest latency of a stable point, up to a\n"
                      "multiple of 10)", OPT_REAL, PFIELD(ymax), VIZ_YMAX_MIN, VIZ_YMAX_MAX, 0, 0, NULL, 0,
      NULL, NULL, 1 },
    { "logx", 0, NULL, "logarithmic x axis (generations: x = generation + 1)", OPT_SWITCH, PFIELD(logx), 0, 0, 0, 0,
      NULL, 0, NULL, NULL, 0 },
    { "logy", 0, NULL, "logarithmic y axis", OPT_SWITCH, PFIELD(logy), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    OPT_END
};

#define FFIELD(f) #f, offsetof(store_run_filter, f)
/* plot runs: which runs, over its store_run_filter. */
static const opt_row plot_runs_rows[] = {
    { NULL, 0, NULL, "plot runs:", OPT_HEADING, NULL, 0, 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "traffic", 0, "T", "only runs of traffic pattern T", OPT_TEXT, FFIELD(traffic), 0, 0, 0, 0, NULL, 0, NULL, NULL,
      1 },
    { "slices", 0, "S", "only runs with S slices", OPT_INT, FFIELD(slices), 1, VIZ_FILTER_SLICES_MAX, 0, 0, NULL, 0,
      NULL, NULL, 1 },
    { "kind", 0, "K", "only runs of kind K", OPT_TEXT, FFIELD(kind), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    OPT_END
};

/* The positional arguments, in order (a cli_spec operand function). */
typedef struct {
    char **pos;
    int npos;
} plot_operands;

static int add_operand(void *ctx, const char *cmd, const char *arg)
{
    plot_operands *p = ctx;
    (void)cmd;
    p->pos[p->npos++] = (char *)arg;
    return 0;
}

/* Draw or write the script; the exit status. */
static int finish(const char *kind, viz_figure *f, const plot_opts *o)
{
    char err[1024];
    int rc;
    if (o->script_dir) rc = viz_fig_write_script(f, o->script_dir, o->out, o->w, o->h, err, sizeof err);
    else {
        outdest d;
        if ((rc = outdest_start(&d, o->out, err, sizeof err)) == VIZ_OK) {
            rc = viz_fig_render(f, outdest_path(&d), o->w, o->h, err, sizeof err);
            if (outdest_finish(&d, rc == VIZ_OK, err, sizeof err) != OUTFILE_OK) rc = VIZ_FAIL;
        }
    }
    if (rc != VIZ_OK) {
        fprintf(stderr, "nocsim plot %s: %s\n", kind, err);
        return cli_fault_status((fault_kind)rc);   /* VIZ_* are the kinds */
    }
    if (o->script_dir)
        fprintf(stderr, "nocsim plot %s: wrote %s/figure.dat and %s/plot.gp; draw with: gnuplot %s/plot.gp\n", kind,
                o->script_dir, o->script_dir, o->script_dir);
    return EXIT_OK;
}

/* The files --script-only DIR writes, as viz/figure.c names them. */
#define PLOT_DATA_FILE "figure.dat"
#define PLOT_SCRIPT_FILE "plot.gp"

/* Every file the figure writes is checked before anything is read: -o, and
 * with --script-only DIR also DIR/figure.dat and DIR/plot.gp; none may be
 * the input (the CSV or the database), and the picture the script draws may
 * not be the script or its data. */
static int check_outputs(const plot_opts *o, const char *input)
{
    char data[PATH_MAX], script[PATH_MAX];
    const char *inputs[] = { input, data, script };
    int rc = EXIT_OK;
    if (o->script_dir) {
        if (snprintf(data, sizeof data, "%s/" PLOT_DATA_FILE, o->script_dir) >= (int)sizeof data ||
            snprintf(script, sizeof script, "%s/" PLOT_SCRIPT_FILE, o->script_dir) >= (int)sizeof script)
            return cli_fail("plot", EXIT_USAGE, "--script-only %s: the name is too long", o->script_dir);
        if ((rc = cli_check_output("plot", "--script-only", data, inputs, 1)) != EXIT_OK ||
            (rc = cli_check_output("plot", "--script-only", script, inputs, 1)) != EXIT_OK)
            return rc;
    }
    return o->out ? cli_check_output("plot", "-o", o->out, inputs, o->script_dir ? 3 : 1) : EXIT_OK;
}

static int plot_stack(const char *csv, viz_figure **f)
{
    FILE *in = strcmp(csv, "-") ? fopen(csv, "r") : stdin;
    if (!in) {
        fprintf(stderr, "nocsim plot stack: %s: cannot open the file\n", csv);
        return EXIT_USAGE;
    }
    char err[512];
    int rc = viz_sweep_read(in, strcmp(csv, "-") ? csv : "(stdin)", f, err, sizeof err);
    if (in != stdin) fclose(in);
    if (rc != VIZ_OK) {
        fprintf(stderr, "nocsim plot stack: %s\n", err);
        return cli_fault_status((fault_kind)rc);   /* VIZ_* are the kinds */
    }
    return EXIT_OK;
}

/* A member of the params object: a string (NULL), an integer (-1), a number
 * (NaN) when missing or of another type. */
static const char *param_str(const json_t *j, const char *k) { return json_string_value(json_object_get(j, k)); }
static int64_t param_int(const json_t *j, const char *k)
{
    const json_t *v = json_object_get(j, k);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}
static double param_num(const json_t *j, const char *k)
{
    const json_t *v = json_object_get(j, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

typedef struct {
    viz_figure *f;
    int best, avg, oom;
    double shift;   /* 1 on a log x axis: generation 0 at 1 */
} gen_ctx;

static int gen_row(const store_gen *g, void *arg)
{
    gen_ctx *c = arg;
    double x = (double)g->generation + c->shift;
    if (viz_fig_point(c->f, c->best, x, (double)g->best) < 0 || viz_fig_point(c->f, c->avg, x, g->average) < 0)
        return c->oom = 1;
    return 0;
}

/* Run `arg` (a positional RUN) of the database into *r for figure `kind`.
 * Returns EXIT_OK, or the status after a message (a bad id or a missing run
 * is bad input). */
static int get_run(store *db, const char *kind, const char *arg, long *id, store_run *r)
{
    char err[512];
    if (!arg_int("plot", "RUN", arg, 1, INT64_MAX / 2, id)) return EXIT_USAGE;
    int rc = store_run_get(db, *id, r, err, sizeof err);
    if (rc == STORE_OK) return EXIT_OK;
    if (rc == STORE_NOTFOUND) fprintf(stderr, "nocsim plot %s: run %ld does not exist in %s\n", kind, *id, store_path(db));
    else fprintf(stderr, "nocsim plot %s: %s\n", kind, err);
    return rc == STORE_NOTFOUND ? EXIT_USAGE : EXIT_FAIL;
}

/* A GA run's reference lines, dotted in its colour: the simple-stacking
 * baseline (runs.base_stacking) and the floor (params "floor"), each when the
 * run keeps it.  -1 when out of memory. */
static int gen_refs(viz_figure *f, const store_run *r, long id, int colour_of)
{
    char t[160];
    json_t *j = r->params ? json_loads(r->params, 0, NULL) : NULL;
    int64_t floor_cycles = param_int(j, "floor");
    json_decref(j);
    if (r->base_stacking > 0) {
        snprintf(t, sizeof t, "simple stacking, run %ld: %lld cycles", id, (long long)r->base_stacking);
        if (viz_fig_hline(f, (double)r->base_stacking, t, colour_of) < 0) return -1;
    }
    if (floor_cycles > 0) {
        snprintf(t, sizeof t, "floor, run %ld: %lld cycles", id, (long long)floor_cycles);
        if (viz_fig_hline(f, (double)floor_cycles, t, colour_of) < 0) return -1;
    }
    return 0;
}

static int plot_generations(store *db, char **runs, int nruns, int logx, viz_figure **out)
{
    char title[256] = "GA convergence: run", err[512];
    for (int k = 0; k < nruns && strlen(title) < 200; k++)
        snprintf(title + strlen(title), sizeof title - strlen(title), "%s %s", k ? "," : (nruns > 1 ? "s" : ""), runs[k]);
    viz_figure *f = viz_fig_new(title, logx ? "generation + 1 (log scale)" : "generation", "duration [cycles]");
    if (!f) return EXIT_FAIL;
    for (int k = 0; k < nruns; k++) {
        long id;
        store_run r;
        int rc = get_run(db, "generations", runs[k], &id, &r);
        if (rc != EXIT_OK) {
            viz_fig_free(f);
            return rc;
        }
        char name[160];
        snprintf(name, sizeof name, "run %ld (%s, %d slices)", id, r.traffic ? r.traffic : "?", (int)r.slices);
        char bt[200], at[200];
        snprintf(bt, sizeof bt, "best, %s", name);
        snprintf(at, sizeof at, "average, %s", name);
        gen_ctx c = { f, viz_fig_series(f, bt, VIZ_LINE, -1), -1, 0, logx ? 1.0 : 0.0 };
        if (c.best >= 0) c.avg = viz_fig_series(f, at, VIZ_DASHED, c.best);
        if (c.avg >= 0 && gen_refs(f, &r, id, c.best) < 0) c.oom = 1;
        store_run_clear(&r);
        if (c.avg < 0 || c.oom || store_gen_list(db, id, gen_row, &c, err, sizeof err) != STORE_OK || c.oom) {
            fprintf(stderr, "nocsim plot generations: %s\n", c.avg < 0 || c.oom ? "out of memory" : err);
            viz_fig_free(f);
            return EXIT_FAIL;
        }
        if (viz_fig_npoints(f, c.best) == 0) {
            fprintf(stderr, "nocsim plot generations: run %ld has no generations recorded (not a GA run, or killed "
                            "before its first generation)\n", id);
            viz_fig_free(f);
            return EXIT_USAGE;
        }
    }
    *out = f;
    return EXIT_OK;
}

typedef struct {
    viz_figure *f;
    char key[160];
    int series, oom;
} group_ctx;

static int group_row(const store_run_group *g, void *arg)
{
    group_ctx *c = arg;
    char key[160];
    snprintf(key, sizeof key, "%s %dx%d, %d slices", g->traffic, (int)g->size, (int)g->size, (int)g->slices);
    if (c->series < 0 || strcmp(key, c->key) != 0) {
        snprintf(c->key, sizeof c->key, "%s", key);
        if ((c->series = viz_fig_series(c->f, key, VIZ_POINTS, -1)) < 0) return c->oom = 1;
    }
    if (viz_fig_point(c->f, c->series, g->mean_best, (double)g->min_best) < 0) return c->oom = 1;
    return 0;
}

static int plot_runs(store *db, const store_run_filter *flt, viz_figure **out)
{
    char err[512];
    viz_figure *f = viz_fig_new("best against mean best duration of repeated runs (same settings, other seeds)",
                                "mean of the runs' best durations [cycles]", "best duration [cycles]");
    if (!f) return EXIT_FAIL;
    viz_fig_diagonal(f);
    group_ctx c = { .f = f, .series = -1 };
    if (store_run_groups(db, flt, group_row, &c, err, sizeof err) != STORE_OK || c.oom) {
        fprintf(stderr, "nocsim plot runs: %s\n", c.oom ? "out of memory" : err);
        viz_fig_free(f);
        return EXIT_FAIL;
    }
    if (viz_fig_nseries(f) == 0) {
        fprintf(stderr, "nocsim plot runs: no %s runs with a best duration%s%s in %s\n", flt->kind ? flt->kind : "",
                flt->traffic ? " for traffic " : "", flt->traffic ? flt->traffic : "", store_path(db));
        viz_fig_free(f);
        return EXIT_USAGE;
    }
    *out = f;
    return EXIT_OK;
}

/* One recorded curve: the run's row and params, kept while the figure is
 * built (the curve's strings point into them), and its points. */
typedef struct {
    store_run r;
    json_t *params;
    viz_load_point *pts;
    int n, cap, oom;
} load_run;

static int load_row(const store_load_point *p, void *arg)
{
    load_run *c = arg;
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 32;
        viz_load_point *np = realloc(c->pts, (size_t)cap * sizeof *np);
        if (!np) return c->oom = 1;
        c->pts = np;
        c->cap = cap;
    }
    c->pts[c->n++] = (viz_load_point){ p->offered, p->latency, p->ci95, (int)p->saturated };
    return 0;
}

/* A router delay a run keeps (absent: the model's 0). */
static int32_t delay_of(const json_t *j, const char *key)
{
    const int64_t d = param_int(j, key);
    return (int32_t)(d > 0 ? d : 0);
}

/* The curve viz draws, from what the run keeps (store/SCHEMA.md, load_points). */
static viz_load_curve load_curve(const load_run *lr, int64_t id)
{
    const json_t *j = lr->params, *sat = json_object_get(j, "saturation");
    const json_t *pf = json_object_get(j, "per_flow");
    int64_t w = param_int(j, "width"), h = param_int(j, "height");
    return (viz_load_curve){
        .run = id, .traffic = lr->r.traffic, .hotspot = param_str(j, "hotspot"), .topology = param_str(j, "topology"),
        .vc_rule = param_str(j, "vc_rule"), .arb = param_str(j, "arb"), .tie = param_str(j, "tie"),
        .packet = param_str(j, "packet"), .process = param_str(j, "process"), .self = param_str(j, "self"),
        .routing = param_str(j, "routing"), .selection = param_str(j, "selection"),
        .delays = { delay_of(j, "router_delay"), delay_of(j, "switch_delay"), delay_of(j, "link_delay"),
                    delay_of(j, "credit_delay") },
        .vc_alloc = param_str(j, "vc_alloc"),
        .width = (int32_t)(w >= 0 ? w : lr->r.size), .height = (int32_t)(h >= 0 ? h : w >= 0 ? w : lr->r.size),
        .vcs = (int32_t)param_int(j, "vcs"), .buffer = (int32_t)param_int(j, "buffer"),
        .per_flow = json_is_boolean(pf) ? json_is_true(pf) : -1, .batch = param_int(j, "batch"),
        .window = param_int(j, "window"), .seed = lr->r.seed, .bound = param_num(j, "bound"),
        .sat_accepted = param_num(sat, "accepted"), .sat_latency = param_num(sat, "latency"),
        .pts = lr->pts, .npts = lr->n };
}

/* Run `arg` as a load curve into *lr, *c.  EXIT_OK or the status after a message. */
static int read_curve(store *db, const char *arg, load_run *lr, viz_load_curve *c)
{
    char err[512];
    long id;
    int rc = get_run(db, "load", arg, &id, &lr->r);
    if (rc != EXIT_OK) return rc;
    if (!lr->r.kind || strcmp(lr->r.kind, "load") != 0) {
        store_run_clear(&lr->r);
        fprintf(stderr, "nocsim plot load: run %ld is not an open-loop curve (nocsim load)\n", id);
        return EXIT_USAGE;
    }
    lr->params = lr->r.params ? json_loads(lr->r.params, 0, NULL) : NULL;
    if (store_load_list(db, id, load_row, lr, err, sizeof err) != STORE_OK || lr->oom) {
        fprintf(stderr, "nocsim plot load: %s\n", lr->oom ? "out of memory" : err);
        return EXIT_FAIL;
    }
    *c = load_curve(lr, id);
    return EXIT_OK;
}

static int plot_load(store *db, char **runs, int nruns, viz_figure **out)
{
    load_run *lr = calloc((size_t)nruns, sizeof *lr);
    viz_load_curve *c = calloc((size_t)nruns, sizeof *c);
    int rc = lr && c ? EXIT_OK : cli_fail("plot load", EXIT_FAIL, "out of memory");
    int got = 0;
    for (; rc == EXIT_OK && got < nruns; got++) rc = read_curve(db, runs[got], &lr[got], &c[got]);
    if (rc == EXIT_OK) {
        char err[512];
        int vr = viz_load_figure(c, nruns, out, err, sizeof err);
        if (vr != VIZ_OK) rc = cli_fail("plot load", cli_fault_status((fault_kind)vr), "%s", err);
    }
    for (int k = 0; lr && k < got; k++) {
        store_run_clear(&lr[k].r);
        json_decref(lr[k].params);
        free(lr[k].pts);
    }
    free(lr);
    free(c);
    return rc;
}

int cmd_plot(int argc, char **argv)
{
    static const char *const kinds[] = { "stack", "generations", "runs", "load" };
    plot_opts o = { .db = STORE_DEFAULT_PATH, .w = VIZ_DEFAULT_WIDTH, .h = VIZ_DEFAULT_HEIGHT, .ymax = NAN };
    store_run_filter flt = { .kind = "ga" };
    plot_operands ops = { calloc((size_t)argc, sizeof(char *)), 0 };
    opt_group g[2] = { { 0 }, { 0 } };
    if (!ops.pos || opt_group_init(&g[0], plot_rows, &o, sizeof o) ||
        opt_group_init(&g[1], plot_runs_rows, &flt, sizeof flt)) {
        free(ops.pos);
        int rc = cli_fail("plot", EXIT_FAIL, "out of memory");
        return opt_groups_done(g, 2, &rc), rc;
    }
    const cli_group groups[] = { opt_group_cli(&g[0]), opt_group_cli(&g[1]) };
    cli_spec spec = { "plot", groups, 2, add_operand, &ops };
    int prc = EXIT_OK;
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        free(ops.pos);
        if (argc < 2)
            prc = cli_fail("plot", EXIT_USAGE, "which figure? stack, generations, runs or load (see nocsim plot --help)");
        else help(&spec);
        return opt_groups_done(g, 2, &prc), prc;
    }
    int kind;
    if (!arg_choice("plot", "FIGURE", argv[1], kinds, 4, &kind)) prc = EXIT_USAGE;
    if (prc == EXIT_OK && kind != 2) spec.ngroups = 1; /* --traffic, --slices, --kind: plot runs only */
    if (prc == EXIT_OK) prc = cli_parse(&spec, argc - 1, argv + 1);
    if (prc == CLI_HELP) help(&spec);
    if (opt_groups_done(g, 2, &prc)) { free(ops.pos); return prc; }
    char **pos = ops.pos;
    int npos = ops.npos;
    int want_lo = kind == 2 ? 0 : 1, want_hi = kind == 0 ? 1 : kind == 2 ? 0 : argc;
    if (npos < want_lo || npos > want_hi) {
        fprintf(stderr, "nocsim plot %s: %s\n", kinds[kind],
                kind == 0 ? "give one CSV file (or - for standard input)" :
                kind == 1 || kind == 3 ? "give one or more run ids" : "takes no positional arguments");
        free(pos);
        return EXIT_USAGE;
    }
    if (!o.out && !o.script_dir) {
        fprintf(stderr, "nocsim plot %s: give -o FILE.png (or --script-only DIR)\n", kinds[kind]);
        free(pos);
        return EXIT_USAGE;
    }
    viz_figure *f = NULL;
    int rc = EXIT_OK;
    if ((rc = check_outputs(&o, kind == 0 ? pos[0] : o.db)) != EXIT_OK) {
        free(pos);
        return rc;
    }
    char label[32];
    snprintf(label, sizeof label, "plot %s", kinds[kind]);
    if (kind == 0) rc = plot_stack(pos[0], &f);
    else {
        store *db = cli_store_open(label, o.db, STORE_READONLY, &rc);
        if (!db) {
            free(pos);
            return rc;
        }
        rc = kind == 1 ? plot_generations(db, pos, npos, o.logx, &f) : kind == 3 ? plot_load(db, pos, npos, &f) : plot_runs(db, &flt, &f);
        store_close(db);
    }
    free(pos);
    if (rc == EXIT_OK && o.title && viz_fig_set_title(f, o.title) < 0) rc = EXIT_FAIL;
    if (rc == EXIT_OK) {
        char err[256];
        viz_fig_log(f, o.logx, o.logy);
        if (!isnan(o.ymax) && viz_fig_set_ymax(f, o.ymax, err, sizeof err) != VIZ_OK)
            rc = cli_fail(label, EXIT_USAGE, "--ymax %s", err);
    }
    if (rc == EXIT_OK) rc = finish(kinds[kind], f, &o);
    viz_fig_free(f);
    return rc;
}
