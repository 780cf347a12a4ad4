/* `nocsim stack`: simple stacking (paper Sect. 4.1).  Every port uses one
 * VC-selection scheme, every node injects at once (I = 0), and the inter-slice
 * interval is swept; for each scheme the shortest duration and the interval
 * that gives it are reported.  The sweep itself is sim/stacking.c, which the
 * GA's baseline runs too. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/model_opts.h"
#include "sim/interval.h"
#include "sim/pool.h"
#include "router/arbiter.h"
#include "sim/interval.h"
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

static const cli_opt stack_table[] = {
    { "--arb", 0, "all|Cxx[,Cyy...]", "schemes to sweep (default all)" },
    { "--interval", 0, "MIN:MAX", "interval range (default " CLI_STR(SIM_STACK_VMIN_DEFAULT) ":"
                                  CLI_STR(SIM_STACK_VMAX_DEFAULT) "; MIN >= packet length)" },
    { "--slices", 0, "S", "slices per message (default 2)" },
    { "--threads", 'j', "K", "worker threads (default: all cores)" },
    { "--format", 0, "F", "text: best per scheme; csv: one row per scheme and\n"
                          "interval; json: both (default text)" },
    CLI_END
};

static void help(const cli_spec *spec)
{
    printf("usage: nocsim stack [options]\n\n"
           "Simple stacking: all ports on one VC-selection scheme, all nodes inject at\n"
           "once; sweep the inter-slice interval and report, per scheme, the shortest\n"
           "duration and its interval (paper Sect. 4.1, Fig. 3 and Table 2).\n\n");
    cli_help(stdout, spec);
    printf("\nexample: nocsim stack --traffic brev --slices 2 --arb all --interval 8:200\n");
}

static int parse_schemes(const char *v, scheme_set *w)
{
    const char *names[VCSEL_NSCHEMES];
    for (int k = 0; k < VCSEL_NSCHEMES; k++) names[k] = vcsel_name(k);
    if (!strcmp(v, "all")) {
        for (int k = 0; k < VCSEL_NSCHEMES; k++) w->schemes[k] = k;
        w->nschemes = VCSEL_NSCHEMES;
        return 0;
    }
    return arg_name_list("stack", "--arb", v, names, VCSEL_NSCHEMES, w->schemes, &w->nschemes) ? 0 : -1;
}

/* One of stack_table's flags into o (a cli_set_fn). */
static int set_option(void *ctx, const char *cmd, const char *a, const char *v)
{
    stack_opts *o = ctx;
    long x;
    if (!strcmp(a, "--arb")) {
        if (parse_schemes(v, &o->w)) return -1;
    } else if (!strcmp(a, "--interval")) {
        if (!arg_range(cmd, a, v, 1, SIM_SWEEP_MAX, &o->lo, &o->hi)) return -1;
    } else if (!strcmp(a, "--slices")) {
        return model_opts_set(&o->mo, cmd, a, v);
    } else if (!strcmp(a, "--threads")) {
        if (!arg_int(cmd, a, v, 1, SIM_POOL_MAX_THREADS, &x)) return -1;
        o->threads = (int)x;
    } else if (!strcmp(a, "--format")) {
        if (!arg_format(cmd, v, &o->fmt)) return -1;
    }
    return 0;
}

/* Fills o from argv.  Returns EXIT_OK, CLI_HELP, or EXIT_USAGE after a message. */
static int parse(int argc, char **argv, stack_opts *o, const cli_spec *spec)
{
    const char *cmd = "stack";
    model_opts_default(&o->mo);
    o->mo.params.slices = 2;
    parse_schemes("all", &o->w);
    o->lo = 0;
    o->hi = SIM_STACK_VMAX_DEFAULT;
    o->threads = sim_pool_default_threads();
    o->fmt = FMT_TEXT;
    int rc = cli_parse(spec, argc, argv);
    if (rc != EXIT_OK) return rc;
    int L = o->mo.params.flits;
    if (o->lo == 0) {               /* the default range, starting no lower than the packet length */
        o->lo = L > SIM_STACK_VMIN_DEFAULT ? L : SIM_STACK_VMIN_DEFAULT;
        if (o->hi < o->lo) o->hi = o->lo;
    } else if (o->lo < L) {
        return cli_fail(cmd, EXIT_USAGE, "--interval: %ld is below the packet length %d (allowed: >= %d)", o->lo, L, L);
    }
    char err[256];
    if (sim_params_check(&o->mo.params, err, sizeof err)) return cli_fail(cmd, EXIT_USAGE, "%s", err);
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
    memset(&o, 0, sizeof o);
    const cli_group groups[] = { { stack_table, set_option, &o }, MODEL_OPTS_GROUP(&o.mo) };
    const cli_spec spec = { "stack", groups, 2, NULL, NULL };
    int rc = parse(argc, argv, &o, &spec);
    if (rc == CLI_HELP) help(&spec);
    if (rc != EXIT_OK) return rc == CLI_HELP ? EXIT_OK : rc;
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
