/* `nocsim stack`: simple stacking (paper Sect. 4.1).  Every port uses one
 * VC-selection scheme, every node injects at once (I = 0), and the inter-slice
 * interval is swept; for each scheme the shortest duration and the interval
 * that gives it are reported.  The sweep itself is sim/stacking.c, which the
 * GA's baseline runs too. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/model_opts.h"
#include "cli/opt_group.h"
#include "router/arbiter.h"
#include "sim/interval.h"
#include "sim/pool.h"
#include "sim/sim.h"
#include "sim/stacking.h"

/* The schemes to sweep. */
typedef struct {
    int schemes[VCSEL_NSCHEMES];
    int nschemes;
} scheme_set;

typedef struct {
    model_opts mo;
    scheme_set w;
    long lo, hi;          /* the interval range */
    int threads;
    out_format fmt;
} stack_opts;

/* Per scheme k: the duration at every V (width of them, -1 = did not
 * finish), the best duration and its V; `overall` is the best scheme. */
typedef struct {
    size_t width;
    int64_t *duration;
    int64_t best_d[VCSEL_NSCHEMES];
    uint32_t best_v[VCSEL_NSCHEMES];
    int overall;
} stack_result;

static void help(const cli_spec *spec)
{
    printf("usage: nocsim stack [options]\n\n"
           "Simple stacking: all ports on one VC-selection scheme, all nodes inject at\n"
           "once; sweep the inter-slice interval and report, per scheme, the shortest\n"
           "duration and its interval (paper Sect. 4.1, Fig. 3 and Table 2).\n\n");
    cli_help(stdout, spec);
    printf("\nexample: nocsim stack --traffic brev --slices 2 --arb all --interval 8:200\n");
}

/* --arb all|Cxx[,Cyy...]: the schemes to sweep. */
static int parse_schemes(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    scheme_set *w = &((stack_opts *)base)->w;
    const char *names[VCSEL_NSCHEMES];
    for (int k = 0; k < VCSEL_NSCHEMES; k++) names[k] = vcsel_name(k);
    if (v && !strcmp(v, "all")) {
        for (int k = 0; k < VCSEL_NSCHEMES; k++) w->schemes[k] = k;
        w->nschemes = VCSEL_NSCHEMES;
        return 0;
    }
    return opt_parse_names(v, names, VCSEL_NSCHEMES, w->schemes, &w->nschemes, err, errlen);
}

/* "all" for every scheme in order, else the list. */
static void show_schemes(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const scheme_set *w = &((const stack_opts *)base)->w;
    int all = w->nschemes == VCSEL_NSCHEMES;
    for (int k = 0; all && k < w->nschemes; k++) all = w->schemes[k] == k;
    buf[0] = '\0';
    if (all) snprintf(buf, len, "all");
    for (int k = 0; !all && k < w->nschemes; k++) {
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, "%s%s", k ? "," : "", vcsel_name(w->schemes[k]));
    }
}

/* --interval MIN:MAX; MIN 0 is the default, raised to the packet length. */
static int parse_interval(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    stack_opts *o = base;
    int64_t a, b;
    int rc = opt_parse_range(v, (int64_t)r->lo, (int64_t)r->hi, &a, &b, err, errlen);
    if (rc) return rc;
    o->lo = (long)a;
    o->hi = (long)b;
    return 0;
}

static void show_interval(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const stack_opts *o = base;
    snprintf(buf, len, "%ld:%ld", o->lo ? o->lo : SIM_STACK_VMIN_DEFAULT, o->hi);
}

#define OFIELD(f) #f, offsetof(stack_opts, f)
/* stack's own options over stack_opts; defaults: stack_defaults. */
static const opt_row stack_rows[] = {
    { "arb", 0, "all|Cxx[,Cyy...]", "schemes to sweep", OPT_CUSTOM, OFIELD(w), 0, 0, 0, 0, NULL, 0, parse_schemes,
      show_schemes, 0 },
    { "interval", 0, "MIN:MAX", "interval range; MIN >= the packet length (the default\n"
                                "MIN is raised to it)", OPT_CUSTOM, OFIELD(lo), 1, SIM_SWEEP_MAX, 0, 0, NULL, 0,
      parse_interval, show_interval, 0 },
    { "threads", 'j', "K", "worker threads (default: all cores)", OPT_INT, OFIELD(threads), 1, SIM_POOL_MAX_THREADS, 0,
      0, NULL, 0, NULL, NULL, 1 },
    { "format", 0, NULL, "text: best per scheme; csv: one row per scheme and\n"
                         "interval; json: both", OPT_CHOICE, OFIELD(fmt), 0, 0, 0, 0, cli_format_names, 3, NULL, NULL,
      0 },
    OPT_END
};

static void stack_defaults(stack_opts *o)
{
    memset(o, 0, sizeof *o);
    model_opts_default(&o->mo);
    o->mo.params.slices = 2;
    for (int k = 0; k < VCSEL_NSCHEMES; k++) o->w.schemes[k] = k;
    o->w.nschemes = VCSEL_NSCHEMES;
    o->lo = 0;
    o->hi = SIM_STACK_VMAX_DEFAULT;
    o->threads = sim_pool_default_threads();
    o->fmt = FMT_TEXT;
}

/* Fills o from argv (g: stack's rows, the caller frees it).  Returns
 * EXIT_OK, CLI_HELP (after the help), EXIT_USAGE after a message, or
 * EXIT_FAIL when memory runs out. */
static int parse(int argc, char **argv, stack_opts *o, opt_group *g)
{
    const char *cmd = "stack";
    stack_defaults(o);
    model_table mt;
    if (opt_group_init(g, stack_rows, o, sizeof *o)) return cli_fail(cmd, EXIT_FAIL, "out of memory");
    if (model_table_init(&mt, &o->mo)) return cli_fail(cmd, EXIT_FAIL, "out of memory");
    const cli_group groups[] = { opt_group_cli(g), MODEL_OPTS_GROUP(&mt, &o->mo) };
    const cli_spec spec = { cmd, groups, 2, NULL, NULL };
    int rc = cli_parse(&spec, argc, argv);
    if (rc == CLI_HELP) help(&spec);
    model_table_free(&mt);
    if (rc != EXIT_OK) return rc;
    int L = o->mo.params.flits;
    if (o->lo == 0) {               /* the default range, starting no lower than the packet length */
        o->lo = L > SIM_STACK_VMIN_DEFAULT ? L : SIM_STACK_VMIN_DEFAULT;
        if (o->hi < o->lo) o->hi = o->lo;
    } else if (o->lo < L) {
        return cli_fail(cmd, EXIT_USAGE, "--interval: %ld is below the packet length %d (allowed: >= %d)", o->lo, L, L);
    }
    char err[256];
    char msg[600];
    if (sim_params_check(&o->mo.params, err, sizeof err))
        return cli_fail(cmd, EXIT_USAGE, "%s", model_flag_message(err, NULL, 0, msg, sizeof msg));
    return EXIT_OK;
}

/* Sweeps every scheme of o into res (res->duration owned by the caller). */
static int run(const stack_opts *o, stack_result *res)
{
    int status;
    traffic *t = model_opts_traffic("stack", &o->mo, &status);
    if (!t) return status;
    char err[256];
    res->width = (size_t)(o->hi - o->lo + 1);
    res->duration = calloc((size_t)o->w.nschemes * res->width, sizeof *res->duration);
    fault_kind kind;
    sim_pool *pool = sim_pool_new(&o->mo.params, t->dest, o->threads, &kind, err, sizeof err);
    int64_t sims = 0;
    int rc = EXIT_OK;
    if (!pool) rc = cli_fail("stack", cli_fault_status(kind), "could not set up the simulator (%s)", err);
    else if (!res->duration || sim_stacking_sweep(pool, t->nodes, o->mo.params.vcs, o->w.schemes, o->w.nschemes,
                                                  (uint32_t)o->lo, (uint32_t)o->hi, res->best_v, res->best_d,
                                                  res->duration, &sims))
        rc = cli_fail("stack", EXIT_FAIL, "out of memory");
    res->overall = sim_stacking_best(res->best_d, o->w.nschemes);
    sim_pool_free(pool);
    traffic_free(t);
    return rc;
}

static void print_csv(const stack_opts *o, const stack_result *res)
{
    char size[32];
    model_size_str(&o->mo.params, size, sizeof size);
    printf("traffic,size,slices,scheme,interval,duration\n");
    for (int k = 0; k < o->w.nschemes; k++)
        for (size_t j = 0; j < res->width; j++) {
            cli_csv_field(stdout, o->mo.traffic);   /* a file: name may hold a comma or a quote */
            printf(",%s,%d,%s,%ld,%lld\n", size, o->mo.params.slices, vcsel_name(o->w.schemes[k]), o->lo + (long)j,
                   (long long)res->duration[(size_t)k * res->width + j]);
        }
}

static int print_json(const stack_opts *o, const stack_result *res)
{
    json_t *j = model_opts_json(&o->mo), *best = json_array(), *sweep = json_object();
    int bad = !j || !best || !sweep;
    for (int k = 0; !bad && k < o->w.nschemes; k++) {
        json_t *row = json_array();
        bad |= json_array_append_new(best, json_pack("{s:s, s:i, s:I}", "scheme", vcsel_name(o->w.schemes[k]),
                                                     "interval", res->best_d[k] >= 0 ? (int)res->best_v[k] : 0,
                                                     "duration", (json_int_t)res->best_d[k]));
        for (size_t i = 0; row && !bad && i < res->width; i++)
            bad |= json_array_append_new(row, json_integer(res->duration[(size_t)k * res->width + i]));
        bad |= json_object_set_new(sweep, vcsel_name(o->w.schemes[k]), row);
    }
    bad |= json_object_set_new(j, "interval_min", json_integer(o->lo)) ||
           json_object_set_new(j, "interval_max", json_integer(o->hi)) || json_object_set_new(j, "best", best) ||
           json_object_set_new(j, "sweep", sweep);
    if (bad) { json_decref(j); j = NULL; }
    return cli_json_out("stack", NULL, j);
}

static void print_text(const stack_opts *o, const stack_result *res)
{
    const sim_params *p = &o->mo.params;
    printf("simple stacking: %s on a %dx%d %s, %d slices of %d flits, interval %ld..%ld\n",
           o->mo.traffic, p->n, sim_height(p), model_topology_names[p->topo], p->slices, p->flits, o->lo, o->hi);
    printf("scheme  best-interval  duration\n");
    for (int k = 0; k < o->w.nschemes; k++)
        printf("%-6s  %13ld  %8lld%s\n", vcsel_name(o->w.schemes[k]), res->best_d[k] >= 0 ? (long)res->best_v[k] : 0L,
               (long long)res->best_d[k], k == res->overall ? "  <- best" : "");
}

int cmd_stack(int argc, char **argv)
{
    stack_opts o;
    opt_group g = { 0 };
    int rc = parse(argc, argv, &o, &g);
    if (opt_groups_done(&g, 1, &rc)) return rc;
    stack_result res;
    memset(&res, 0, sizeof res);
    if ((rc = run(&o, &res)) == EXIT_OK) {
        if (o.fmt == FMT_CSV) print_csv(&o, &res);
        else if (o.fmt == FMT_JSON) rc = print_json(&o, &res);
        else print_text(&o, &res);
    }
    free(res.duration);
    return rc;
}
