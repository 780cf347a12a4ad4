/* `nocsim load`: open-loop latency against offered load on a mesh or torus,
 * one row per injection rate, and optionally the saturation throughput by
 * bisection.  Parse -> run (sim/openloop.h) -> print. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/load_report.h"
#include "cli/model_opts.h"
#include "router/arbiter.h"
#include "cli/opt_group.h"
#include "sim/ol_config.h"
#include "sim/ol_options.h"
#include "sim/openloop.h"
#include "store/store.h"
#include "traffic/synth.h"
#include "util/json.h"
#include "util/parse.h"
#include "util/quote.h"
#include "viz/linkmap.h"
#include "viz/viz.h"

#define CMD "load"
/* Most patterns one call takes (--traffic a,b,...). */
#define MAX_PATTERNS 64

typedef struct {
    ol_params p;
    const char *traffic, *hotspot;
    synth_self self;
    double rate;             /* --rate: r0 = r1 = rate, step 1 */
    double r0, r1, step;     /* --rates */
    int all, quiet, threads, no_db, saturation;
    const char *db, *config;
    char packet[256];        /* the packet mix as --packet takes it, for the record */
    double sat_precision;    /* the bisection's, with saturation */
    int64_t seed;
    out_format fmt;
    int csv_tail;            /* a later pattern's curve: CSV without its header */
    const char *trace;       /* --trace: replay this file instead of a curve */
    const char *links_png;   /* --links-png: the last point's link load as a picture */
} load_opts;

/* The option rows choose an enum's value as an int. */
_Static_assert(sizeof(out_format) == sizeof(int) && sizeof(synth_self) == sizeof(int), "enums are ints");

/* A:B:STEP with 0 < A <= B <= 1, STEP > 0, at most OL_MAX_RATES rates. */
static int parse_rates(const opt_row *r, void *base, const char *s, char *err, size_t errlen)
{
    (void)r;
    load_opts *o = base;
    char buf[128], q[QUOTE_BUF];
    double v[3];
    if (!s || strlen(s) >= sizeof buf) goto bad;
    strcpy(buf, s);
    char *f[3] = { buf, NULL, NULL };
    for (int k = 1; k < 3; k++) {
        char *c = strchr(f[k - 1], ':');
        if (!c) goto bad;
        *c = '\0';
        f[k] = c + 1;
    }
    for (int k = 0; k < 3; k++)
        if (parse_real(f[k], 0.0, 1.0, &v[k]) != PARSE_OK || v[k] <= 0) goto bad;
    if (v[1] < v[0])
        return snprintf(err, errlen, "'%s': descending (from %g down to %g)", quote_str(q, sizeof q, s), v[0], v[1]),
               -FAULT_INPUT;
    if ((v[1] - v[0]) / v[2] > OL_MAX_RATES)
        return snprintf(err, errlen, "'%s': more than %d rates", quote_str(q, sizeof q, s), OL_MAX_RATES), -FAULT_INPUT;
    o->r0 = v[0];
    o->r1 = v[1];
    o->step = v[2];
    return 0;
bad:
    snprintf(err, errlen, "'%s': expected A:B:STEP, each a number in (0, 1], A <= B", quote_str(q, sizeof q, s));
    return -FAULT_INPUT;
}

static void show_rates(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const load_opts *o = base;
    snprintf(buf, len, "%g:%g:%g", o->r0, o->r1, o->step);
}

static const char *const format_names[] = { "text", "json", "csv" };
#define NAMES(a) (a), (int)(sizeof(a) / sizeof(a)[0])
#define FIELD(f) #f, offsetof(load_opts, f)
#define HEADING(text) { NULL, 0, NULL, text, OPT_HEADING, NULL, 0, 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 }
#define SWITCH(name, s, help, f) { name, s, NULL, help, OPT_SWITCH, FIELD(f), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 }

/* load's own rows (the network, the packets and the measurement are the
 * library's: sim/ol_options.h). */
static const opt_row load_traffic_rows[] = {
    HEADING("traffic:"),
    { "traffic", 0, "P", "uniform, bcmp brev brot shfl torn trns, bitcomp bitrev\n"
                         "shuffle transpose tornado neighbor randperm file:PATH,\n"
                         "or matrix:PATH, a traffic matrix ('src dst rate' lines or\n"
                         "a row of rates per node; rates as given, times --rate);\n"
                         "several separated by commas, one curve each",
      OPT_TEXT, FIELD(traffic), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "trace", 0, "FILE", "replay 'cycle src dst flits' lines instead of a curve:\n"
                          "each packet's latency (no rates, not recorded)",
      OPT_TEXT, FIELD(trace), 0, 0, 0, 0, NULL, 0, NULL, NULL, 1 },
    { "self", 0, NULL, "uniform draws itself / fixed points send to themselves\n"
                       "(send is BookSim2's uniform)",
      OPT_CHOICE, FIELD(self), 0, 0, 0, 0, NAMES(model_self_names), NULL, NULL, 0 },
    { "hotspot", 0, "NODES:F", "a share F in (0, 1] of packets goes to the listed nodes", OPT_TEXT, FIELD(hotspot), 0,
      0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "rates", 0, "A:B:STEP", "rates from A to B, each in (0, 1]", OPT_CUSTOM, FIELD(r0), 0, 0, 0, 0, NULL, 0,
      parse_rates, show_rates, 0 },
    { "rate", 0, "R", "one rate (not with --rates)", OPT_REAL, FIELD(rate), 0, 1, 1, 0, NULL, 0, NULL, NULL, 1 },
    SWITCH("all", 0, "run every rate, past saturation too", all),
    SWITCH("saturation", 0, "then bisect for the saturation point (--precision): the\n"
                            "highest stable rate and its accepted throughput (the last\n"
                            "rate when none saturates)", saturation),
    { "precision", 0, "P", "the bisection's precision", OPT_REAL, FIELD(sat_precision), OL_SAT_PRECISION_MIN,
      OL_SAT_PRECISION_MAX, 0, 0, NULL, 0, NULL, NULL, 0 },
    OPT_END
};

static const opt_row load_run_rows[] = {
    HEADING("run and output:"),
    { "config", 0, "FILE", "an experiment file: `key = value` settings with these\n"
                           "options' names or BookSim2's (docs/config.md); flags\n"
                           "given here override it",
      OPT_TEXT, FIELD(config), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "seed", 's', "S", "every random choice", OPT_I64, FIELD(seed), 0, OL_SEED_MAX, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "threads", 'j', "N", "points run at once (default: all cores)", OPT_INT, FIELD(threads), 1, OL_MAX_THREADS, 0,
      0, NULL, 0, NULL, NULL, 1 },
    { "format", 0, NULL, "", OPT_CHOICE, FIELD(fmt), 0, 0, 0, 0, NAMES(format_names), NULL, NULL, 0 },
    SWITCH("quiet", 'q', "no progress lines on stderr", quiet),
    { "db", 0, "PATH", "record the run and each point as it finishes", OPT_TEXT, FIELD(db), 0, 0, 0, 0, NULL, 0, NULL,
      NULL, 0 },
    SWITCH("no-db", 0, "record nothing", no_db),
    { "links-png", 0, "FILE.png", "the last point's link load as a picture of the grid\n"
                                  "(implies --links; one pattern, grids up to 64 a side)",
      OPT_TEXT, FIELD(links_png), 0, 0, 0, 0, NULL, 0, NULL, NULL, 1 },
    OPT_END
};

static void help(const cli_spec *spec)
{
    printf("usage: nocsim load [options]\n\n"
           "Open-loop traffic: every sending node generates packets at a rate (flits per\n"
           "cycle per sending node: rate, offered, accepted and the bound all count per\n"
           "node that sends, as the field's plots do)\n"
           "into an unbounded source queue.  Each rate is one point: warm-up until the\n"
           "mean latency is steady, a measurement window whose packets are tagged, a\n"
           "drain until every tagged packet has ejected.  One row per rate; the curve\n"
           "stops after the first saturated point unless --all.\n\n");
    cli_help(stdout, spec);
    printf("\nexample: nocsim load --topology mesh --size 8 --traffic uniform --rates 0.02:0.60:0.02\n");
}

/* The option groups of load: the library's rows over o->p, load's over o. */
enum { G_NET, G_TRAFFIC, G_PACKET, G_MEASURE, G_RUN, NGROUPS };
typedef struct {
    opt_group g[NGROUPS];
    int made;
    ol_config cfg;           /* --config's settings: text options point into it */
} load_groups;

static void load_defaults(load_opts *o)
{
    memset(o, 0, sizeof *o);
    ol_params_default(&o->p);
    o->traffic = OL_DEFAULT_TRAFFIC;
    o->db = STORE_DEFAULT_PATH;
    o->r0 = OL_DEFAULT_RATE_FROM;
    o->r1 = OL_DEFAULT_RATE_TO;
    o->step = OL_DEFAULT_RATE_STEP;
    o->seed = OL_DEFAULT_SEED;
    o->sat_precision = OL_DEFAULT_SAT_PRECISION;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->threads = cores > 0 ? (int)(cores < OL_MAX_THREADS ? cores : OL_MAX_THREADS) : 1;
}

static int make_groups(load_opts *o, load_groups *lg)
{
    const opt_row *rows[NGROUPS] = { ol_net_options, load_traffic_rows, ol_packet_options, ol_measure_options,
                                     load_run_rows };
    void *base[NGROUPS] = { &o->p, o, &o->p, &o->p, o };
    size_t size[NGROUPS] = { sizeof o->p, sizeof *o, sizeof o->p, sizeof o->p, sizeof *o };
    for (lg->made = 0; lg->made < NGROUPS; lg->made++)
        if (opt_group_init(&lg->g[lg->made], rows[lg->made], base[lg->made], size[lg->made]))
            return cli_fail(CMD, EXIT_FAIL, "out of memory");
    return EXIT_OK;
}

static void free_groups(load_groups *lg)
{
    for (int k = 0; k < lg->made; k++) opt_group_free(&lg->g[k]);
    lg->made = 0;
    ol_config_free(&lg->cfg);
}

/* --rate and --rates are one setting: the command line's over the file's,
 * and both at one level refused.  EXIT_OK or EXIT_USAGE after a message. */
static int resolve_rates(load_opts *o, const load_groups *lg)
{
    int one = opt_groups_given(lg->g, NGROUPS, "rate"), many = opt_groups_given(lg->g, NGROUPS, "rates");
    int level = (one | many) & OPT_FROM_ARGV ? OPT_FROM_ARGV : OPT_FROM_FILE;
    if (one & many & level)
        return cli_fail(CMD, EXIT_USAGE, "--rate and --rates both given%s: --rate R is --rates R:R:1; give one",
                        level == OPT_FROM_FILE ? " (in the --config file)" : "");
    if (one & level) {
        o->r0 = o->r1 = o->rate;
        o->step = 1;
    }
    return EXIT_OK;
}

/* --db and --no-db contradict each other: both at one level (the command
 * line, or the file) refused, the command line's over the file's.
 * EXIT_OK or EXIT_USAGE after a message. */
static int resolve_db(load_opts *o, const load_groups *lg)
{
    int db = opt_groups_given(lg->g, NGROUPS, "db"), no = opt_groups_given(lg->g, NGROUPS, "no-db");
    int level = (db | no) & OPT_FROM_ARGV ? OPT_FROM_ARGV : OPT_FROM_FILE;
    if (db & no & level)
        return cli_fail(CMD, EXIT_USAGE, "--db and --no-db contradict each other%s: give one",
                        level == OPT_FROM_FILE ? " (in the --config file)" : "");
    if (db & level) o->no_db = 0;
    return EXIT_OK;
}

/* --config FILE: each setting through its row, unless the command line
 * gave it.  EXIT_OK, or the exit status after a message. */
static int read_config(load_opts *o, load_groups *lg)
{
    char err[1024], q[QUOTE_BUF];
    quote_str(q, sizeof q, o->config);
    ol_config *c = &lg->cfg;
    int r = ol_config_read(o->config, q, c, err, sizeof err), rc = EXIT_OK;
    if (r) rc = cli_fail(CMD, cli_fault_status(fault_of(r)), "--config %s", err);
    for (int i = 0; !rc && i < c->n; i++) {
        const ol_setting *st = &c->set[i];
        char where[QUOTE_BUF + 160];
        snprintf(where, sizeof where, "--config %s, line %ld: %s", q, st->line, st->key);
        int a = strcmp(st->name, "config") ? opt_groups_apply(lg->g, NGROUPS, CMD, where, st->name, st->value) : 1;
        if (a < 0) rc = EXIT_USAGE;
        else if (a > 0)
            rc = cli_fail(CMD, EXIT_USAGE, "%s: unknown key (neither an option of load nor a BookSim2 key that "
                          "nocsim maps: docs/config.md lists both)", where);
    }
    if (!rc && *c->approx && !o->quiet)
        fprintf(stderr, "nocsim load: --config %s: taken as the nearest nocsim has (docs/config.md): %s\n", q, c->approx);
    return rc;
}

/* Fills o from argv (and --config): EXIT_OK, CLI_HELP, or EXIT_USAGE after
 * a message.  lg holds the groups; the caller frees them. */
static int parse(int argc, char **argv, load_opts *o, load_groups *lg)
{
    load_defaults(o);
    int rc = make_groups(o, lg);
    if (rc != EXIT_OK) return rc;
    cli_group cg[NGROUPS];
    for (int k = 0; k < NGROUPS; k++) cg[k] = opt_group_cli(&lg->g[k]);
    const cli_spec spec = { CMD, cg, NGROUPS, NULL, NULL };
    rc = cli_parse(&spec, argc, argv);
    if (rc == CLI_HELP) help(&spec);
    if (rc != EXIT_OK) return rc;
    if (o->config && (rc = read_config(o, lg)) != EXIT_OK) return rc;
    if ((rc = resolve_rates(o, lg)) != EXIT_OK) return rc;
    if ((rc = resolve_db(o, lg)) != EXIT_OK) return rc;
    if (!opt_groups_given(lg->g, NGROUPS, "vc-rule")) ol_default_vc_rule(&o->p);
    if (o->links_png) o->p.report_links = 1;
    if (o->links_png && (o->p.net.rp.w > VIZ_LINKS_MAX_SIDE || o->p.net.rp.h > VIZ_LINKS_MAX_SIDE))
        return cli_fail(CMD, EXIT_USAGE, "--links-png draws grids up to %d a side, not %dx%d (--links gives any "
                        "grid's links as data)", VIZ_LINKS_MAX_SIDE, o->p.net.rp.w, o->p.net.rp.h);
    opt_show(opt_find(ol_packet_options, "packet"), &o->p, o->packet, sizeof o->packet);
    char err[512], msg[600];
    if (ol_net_check(&o->p, err, sizeof err) || ol_params_check(&o->p, err, sizeof err))
        return cli_fail(CMD, EXIT_USAGE, "%s", ol_flag_message(err, msg, sizeof msg));
    return EXIT_OK;
}

static const char *sat_reasons(unsigned s, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!s) return "no";
    snprintf(buf, len, "%s%s%s%s%s", s & OL_SAT_DRAIN ? "drain+" : "", s & OL_SAT_ACCEPT ? "accept+" : "",
             s & OL_SAT_LATENCY ? "latency+" : "", s & OL_SAT_FLOW ? "flow+" : "", s & OL_SAT_DEADLOCK ? "deadlock+" : "");
    buf[strlen(buf) - 1] = '\0';
    return buf;
}

/* Where finished points go: the progress line and the database. */
typedef struct {
    int quiet;
    double per_sender;   /* nodes / sending nodes: the engine's per-node throughputs to per sending node */
    store *db;
    int64_t run;
    int failed;          /* a point could not be recorded (the message is printed once) */
} recorder;

static store_load_point to_store(const ol_point *pt)
{
    return (store_load_point){ .rate = pt->rate, .offered = pt->offered, .accepted = pt->accepted,
                               .latency = pt->lat_avg, .ci95 = pt->lat_ci95, .network_latency = pt->net_avg,
                               .hops = pt->hops_avg, .p50 = pt->lat_p50, .p99 = pt->lat_p99, .max = pt->lat_max,
                               .tagged = pt->tagged, .tagged_done = pt->tagged_done,
                               .warmup_cycles = pt->warmup_cycles, .drain_cycles = pt->drain_cycles,
                               .cycles = pt->cycles, .steady = pt->steady, .saturated = (int)pt->saturated };
}

static void record(recorder *r, const ol_point *pt)
{
    if (r->db && !r->failed) {
        char err[512];
        store_load_point sp = to_store(pt);
        int rc = store_load_add(r->db, r->run, &sp, err, sizeof err);
        if (rc == STORE_ERROR) {
            r->failed = 1;
            cli_fail(CMD, EXIT_FAIL, "%s", err);
        }
    }
}

/* One base throughout, the field's: offered and accepted per sending node,
 * as the rate and the bound are (the engine counts them per network node). */
static void to_per_sender(ol_point *pt, double f)
{
    pt->offered *= f;
    pt->accepted *= f;
}

static void progress(const ol_point *engine_pt, int index, void *ctx)
{
    (void)index;
    recorder *r = ctx;
    ol_point per = *engine_pt, *pt = &per;
    to_per_sender(pt, r->per_sender);
    if (!r->quiet)
        fprintf(stderr, "nocsim load: rate %.4g: latency %.1f, accepted %.4f%s\n", pt->rate, pt->lat_avg,
                pt->accepted, pt->saturated ? " (saturated)" : "");
    record(r, pt);
}

/* A curve's analytic figures and its senders, worked out once (an adaptive
 * function's bound on a large mesh takes a good part of a second) for the
 * record and the printout. */
typedef struct {
    double t0, hops, bound;  /* zero-load latency, mean hops, channel-load bound */
    char busiest[96];        /* the bound's channel */
    int senders;             /* nodes that send */
} curve_facts;

/* 0, or -1 out of memory. */
static int facts_of(const load_opts *o, const synth *s, curve_facts *f)
{
    f->t0 = ol_zero_load(&o->p, s, &f->hops);
    f->bound = ol_channel_bound(&o->p, s, f->busiest, sizeof f->busiest);
    f->senders = 0;
    for (int i = 0; i < s->nodes; i++) f->senders += synth_sends(s, i);
    return f->t0 < 0 || f->bound < 0 ? -1 : 0;
}

/* The routing function and, for an adaptive one, its selection rule into
 * j, and the router timing when there is one; nothing under dor and the
 * model's timing, so that such a run's record and output read as they
 * always have (absent means dor, 0 0 0).  0, or -1 out of memory. */
static int set_routing(json_t *j, const olnet_params *net)
{
    if (net->vc_rotate && json_object_set_new(j, "vc_alloc", json_string("rotate"))) return -1;
    if (olnet_timed(net) && (json_object_set_new(j, "router_delay", json_integer(net->router_delay)) ||
                             json_object_set_new(j, "switch_delay", json_integer(net->switch_delay)) ||
                             json_object_set_new(j, "link_delay", json_integer(net->link_delay)) ||
                       json_object_set_new(j, "credit_delay", json_integer(net->credit_delay))))
        return -1;
    if (net->routing == ROUTING_DOR) return 0;
    if (json_object_set_new(j, "routing", json_string(routing_info_of(net->routing)->name))) return -1;
    if (!routing_info_of(net->routing)->adaptive) return 0;
    return json_object_set_new(j, "selection", json_string(routing_selection_name(net->selection))) ? -1 : 0;
}

/* How the points stop (issue 37 section 6): early_stop and ci when asked,
 * absent otherwise, so that a default run's record reads as it always has.
 * 0, or -1 out of memory. */
static int set_stopping(json_t *j, const ol_params *p)
{
    if ((p->early_stop || p->ci > 0) && json_object_set_new(j, "early_stop", json_true())) return -1;
    return p->ci > 0 && json_object_set_new(j, "ci", json_real(p->ci)) ? -1 : 0;
}

/* The run's row: every parameter in params (JSON), so a curve can be
 * redrawn and compared later. */
static int open_run(const load_opts *o, const curve_facts *f, recorder *r)
{
    int rc = EXIT_OK;
    if (!(r->db = cli_store_open(CMD, o->db, STORE_CREATE, &rc))) return rc;
    const ol_params *p = &o->p;
    const double hops = f->hops, t0 = f->t0, bound = f->bound;
    json_t *j = json_pack("{s:s, s:i, s:i, s:s, s:i, s:i, s:s, s:s, s:o, s:s, s:s, s:o, s:b, s:i, s:i, s:i, s:f, "
                          "s:i, s:I, s:f, s:f, s:f, s:f, s:f}",
                          "topology", model_topology_names[p->net.rp.topo], "width", p->net.rp.w, "height", p->net.rp.h,
                          "vc_rule", model_vc_rule_names[p->net.vc_rule], "vcs", p->net.vcs, "buffer", p->net.buffer,
                          "arb", vcsel_name(p->net.scheme), "tie", model_tie_names[p->net.rp.tie], "packet",
                          ujson_str(o->packet), "process", ol_process_names[p->process], "self", model_self_names[o->self],
                          "hotspot", o->hotspot ? ujson_str(o->hotspot) : json_null(), "per_flow", p->per_flow,
                          "batch", p->batch, "warmup_min", p->warmup_min, "warmup_max", p->warmup_max,
                          "warmup_tolerance", p->warmup_tol, "window", p->window, "drain_cap", (json_int_t)p->drain_cap,
                          "accept_tolerance", p->accept_tol, "latency_limit", p->latency_limit, "zero_load", t0,
                          "avg_hops", hops, "bound", bound);
    if (j && p->process == OL_ONOFF && (json_object_set_new(j, "burst", json_real(p->burst)) ||
                                        json_object_set_new(j, "idle", json_real(p->idle))))
        j = (json_decref(j), NULL);
    if (j && set_routing(j, &p->net)) j = (json_decref(j), NULL);
    if (j && set_stopping(j, p)) j = (json_decref(j), NULL);
    char *params = j ? ujson_text(j) : NULL;
    json_decref(j);
    if (!params) return cli_fail(CMD, EXIT_FAIL, "out of memory");
    store_run run = store_run_init("load");
    run.version = NOCSIM_VERSION;
    run.seed = o->seed;
    run.traffic = o->traffic;
    run.size = p->net.rp.w;
    run.flits = (int32_t)(ol_mean_length(p) + 0.5);
    run.algorithm = "open-loop";
    run.params = params;
    char err[512];
    if (store_run_create(r->db, &run, err, sizeof err) != STORE_OK)
        rc = cli_fail(CMD, cli_store_status(store_last_fault(r->db)), "%s", err);
    r->run = run.id;
    free(params);
    return rc;
}

#define CSV_HEAD "rate,offered,accepted,latency,ci95,network_latency,p50,p99,max,hops,tagged,tagged_done," \
                 "warmup_cycles,drain_cycles,cycles,steady,saturated"

/* One point as a JSON object (NULL: out of memory). */
static json_t *row_json(const ol_point *pt)
{
    char why[64];
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:I, s:b, s:s}",
                     "rate", pt->rate, "offered", pt->offered, "accepted", pt->accepted, "latency", pt->lat_avg,
                     "ci95", pt->lat_ci95, "network_latency", pt->net_avg, "p50", (json_int_t)pt->lat_p50,
                     "p99", (json_int_t)pt->lat_p99, "max", (json_int_t)pt->lat_max, "hops", pt->hops_avg,
                     "tagged", (json_int_t)pt->tagged, "tagged_done", (json_int_t)pt->tagged_done,
                     "warmup_cycles", (json_int_t)pt->warmup_cycles, "drain_cycles", (json_int_t)pt->drain_cycles,
                     "cycles", (json_int_t)pt->cycles, "steady", pt->steady,
                     "saturated", sat_reasons(pt->saturated, why, sizeof why));
}

static void print_row(FILE *f, out_format fmt, const ol_point *pt)
{
    char why[64];
    const char *sat = sat_reasons(pt->saturated, why, sizeof why);
    if (fmt == FMT_CSV)
        fprintf(f, "%.6g,%.6f,%.6f,%.3f,%.3f,%.3f,%lld,%lld,%lld,%.4f,%lld,%lld,%lld,%lld,%lld,%d,%s\n", pt->rate,
                pt->offered, pt->accepted, pt->lat_avg, pt->lat_ci95, pt->net_avg, (long long)pt->lat_p50,
                (long long)pt->lat_p99, (long long)pt->lat_max, pt->hops_avg, (long long)pt->tagged,
                (long long)pt->tagged_done, (long long)pt->warmup_cycles, (long long)pt->drain_cycles,
                (long long)pt->cycles, pt->steady, sat);
    else
        fprintf(f, "%6.3f %8.4f %8.4f %9.2f %7.2f %9.2f %6lld %6lld %7lld %6.2f %8lld  %s\n", pt->rate, pt->offered,
                pt->accepted, pt->lat_avg, pt->lat_ci95, pt->net_avg, (long long)pt->lat_p50, (long long)pt->lat_p99,
                (long long)pt->lat_max, pt->hops_avg, (long long)pt->tagged, sat);
}

/* The curve as CSV: one line a point, the curve's columns repeated. */
static void print_csv(const load_opts *o, const curve_facts *f, const ol_point *pts, int n, const ol_point *sat,
                      int none)
{
    const route_params *rp = &o->p.net.rp;
    if (!o->csv_tail)
        printf("topology,size,traffic,zero_load,bound,%s" CSV_HEAD "\n",
               o->saturation ? "saturation_rate,saturation_accepted,saturation_latency," : "");
    for (int k = 0; k < n; k++) {
        printf("%s,%dx%d,", model_topology_names[rp->topo], rp->w, rp->h);
        cli_csv_field(stdout, o->traffic);
        printf(",%.4f,%.4f,", f->t0, f->bound);
        if (none) printf(",,,");
        else if (o->saturation) printf("%.6f,%.6f,%.3f,", sat->rate, sat->accepted, sat->lat_avg);
        print_row(stdout, FMT_CSV, &pts[k]);
    }
    load_report_csv(stdout, pts, n);
}

/* The curve as one JSON document (docs/json.md, nocsim-load/1).  EXIT_OK, or
 * EXIT_FAIL after a message. */
static int print_json(const load_opts *o, const synth *s, const curve_facts *f, const ol_point *pts, int n,
                      const ol_point *sat, int none, int64_t run)
{
    const route_params *rp = &o->p.net.rp;
    json_t *rows = json_array();
    int bad = !rows;
    for (int k = 0; !bad && k < n; k++) {
        json_t *row = row_json(&pts[k]);
        if (row && pts[k].report && load_report_json(row, pts[k].report)) row = (json_decref(row), NULL);
        bad |= json_array_append_new(rows, row);
    }
    char size[32];
    snprintf(size, sizeof size, "%dx%d", rp->w, rp->h);
    json_t *doc = json_pack("{s:s, s:s, s:o, s:s, s:i, s:i, s:s, s:I, s:i, s:i, s:f, s:f, s:f, s:s, s:o}",
                            "topology", model_topology_names[rp->topo], "size", size, "traffic", ujson_str(o->traffic),
                            "vc_rule", model_vc_rule_names[o->p.net.vc_rule], "vcs", o->p.net.vcs,
                            "buffer", o->p.net.buffer, "arb", vcsel_name(o->p.net.scheme),
                            "seed", (json_int_t)o->seed, "nodes", s->nodes, "senders", f->senders, "zero_load", f->t0,
                            "avg_hops", f->hops, "bound", f->bound, "busiest", f->busiest, "points", rows);
    if (doc && run > 0) bad |= json_object_set_new(doc, "run", json_integer(run));
    if (doc) bad |= set_routing(doc, &o->p.net);
    if (doc) bad |= json_object_set_new(doc, "unit", json_string("flits/cycle per sending node"));
    if (doc && o->saturation)
        bad |= json_object_set_new(doc, "saturation",
                                   none ? json_pack("{s:n, s:n, s:n, s:f}", "rate", "accepted", "latency", "below",
                                                    o->sat_precision)
                                        : json_pack("{s:f, s:f, s:f}", "rate", sat->rate, "accepted", sat->accepted,
                                                    "latency", sat->lat_avg));
    if (bad || !doc) {
        json_decref(doc);
        return cli_fail(CMD, EXIT_FAIL, "out of memory");
    }
    return cli_json_out(CMD, NULL, doc);
}

/* The curve as text: a header of what was run and its analytic figures, a
 * row a point, the reports, the saturation point and the run. */
static void print_text(const load_opts *o, const synth *s, const curve_facts *f, const ol_point *pts, int n,
                       const ol_point *sat, int none, int64_t run)
{
    const route_params *rp = &o->p.net.rp;
    const routing_info *ri = routing_info_of(o->p.net.routing);
    char routing[64] = "";
    if (o->p.net.routing != ROUTING_DOR)
        snprintf(routing, sizeof routing, ", routing %s%s%s", ri->name, ri->adaptive ? " by " : "",
                 ri->adaptive ? routing_selection_name(o->p.net.selection) : "");
    const olnet_params *net = &o->p.net;
    char timing[128] = "";
    if (olnet_timed(net))
        snprintf(timing, sizeof timing, ", delays: router %d, switch %d, link %d, credit %d", net->router_delay,
                 net->switch_delay, net->link_delay, net->credit_delay);
    if (net->vc_rotate) snprintf(timing + strlen(timing), sizeof timing - strlen(timing), ", VCs allocated in turn");
    printf("%s on a %dx%d %s, %s VC rule, %d VCs x %d flits, %s%s%s, packets of %.3g flits (mean)\n", o->traffic, rp->w,
           rp->h, model_topology_names[rp->topo], model_vc_rule_names[net->vc_rule], net->vcs, net->buffer,
           vcsel_name(net->scheme), routing, timing, ol_mean_length(&o->p));
    if (olnet_timed(net))
        printf("zero-load latency %.2f cycles (%.3f hops x %d + a lone packet's rest); channel-load bound %.4f (%s)\n",
               f->t0, f->hops, 1 + net->router_delay + net->switch_delay + net->link_delay, f->bound, f->busiest);
    else
        printf("zero-load latency %.2f cycles (%.3f hops + length + 1); channel-load bound %.4f (%s)\n", f->t0, f->hops,
               f->bound, f->busiest);
    printf("rate, offered, accepted and bound in flits/cycle per sending node (%d of %d nodes send); "
           "latencies in cycles\n", f->senders, s->nodes);
    printf("  rate  offered accepted   latency    ci95   network    p50    p99     max   hops   tagged  saturated\n");
    for (int k = 0; k < n; k++) print_row(stdout, FMT_TEXT, &pts[k]);
    load_report_text(stdout, pts, n);
    if (none)
        printf("saturation: none found: every rate tried saturates, down to %g (the bisection's precision)\n",
               o->sat_precision);
    else if (o->saturation)
        printf("saturation: rate %.4f, accepted %.4f flits/cycle per sending node, latency %.2f (bisection to %g)\n",
               sat->rate, sat->accepted, sat->lat_avg, o->sat_precision);
    if (run > 0) printf("run %lld in %s (nocsim db show %lld)\n", (long long)run, o->db, (long long)run);
}

/* The curve on stdout in o->fmt.  EXIT_OK, or EXIT_FAIL after a message
 * (out of memory for the JSON). */
static int print_all(const load_opts *o, const synth *s, const curve_facts *f, const ol_point *pts, int n,
                     const ol_point *sat, int64_t run)
{
    /* With --saturation, none found when every rate tried saturates. */
    const int none = o->saturation && sat->rate <= 0;
    if (o->fmt == FMT_JSON) return print_json(o, s, f, pts, n, sat, none, run);
    if (o->fmt == FMT_CSV) print_csv(o, f, pts, n, sat, none);
    else print_text(o, s, f, pts, n, sat, none, run);
    return EXIT_OK;
}

/* --links-png: the point's link load as a picture, titled with what ran.
 * The exit status. */
static int draw_links(const load_opts *o, const ol_point *pt)
{
    const route_params *rp = &o->p.net.rp;
    char title[512], err[1024];
    snprintf(title, sizeof title, "%s, %dx%d %s, rate %.4g", o->traffic, rp->w, rp->h, model_topology_names[rp->topo],
             pt->rate);
    int r = viz_links_write_png(pt->report, title, o->links_png, err, sizeof err);
    return r == VIZ_OK ? EXIT_OK : cli_fail(CMD, cli_fault_status((fault_kind)r), "--links-png: %s", err);
}

/* The traffic of o (--traffic, --hotspot), and how many of its nodes send
 * (*senders, at least one): NULL with *rc the exit status when it cannot be
 * made or nobody sends. */
static synth *make_traffic(const load_opts *o, int *senders, int *rc)
{
    char err[512];
    fault_kind kind;
    synth *s = synth_new(o->traffic, o->p.net.rp.w, o->p.net.rp.h, o->self, o->seed, &kind, err, sizeof err);
    if (!s) return *rc = cli_fail(CMD, cli_fault_status(kind), "--traffic: %s", err), NULL;
    if (o->hotspot && synth_set_hotspot(s, o->hotspot, err, sizeof err)) {
        synth_free(s);
        return *rc = cli_fail(CMD, EXIT_USAGE, "%s", err), NULL;
    }
    *senders = 0;
    for (int i = 0; i < s->nodes; i++) *senders += synth_sends(s, i);
    if (!*senders) {
        synth_free(s);
        char q[QUOTE_BUF];
        *rc = cli_fail(CMD, EXIT_USAGE, "--traffic %s: no node sends a packet (every node is addressed to itself "
                       "or not listed; --self send sends self-addressed packets)", quote_str(q, sizeof q, o->traffic));
        return NULL;
    }
    return s;
}

/* --saturation: the point between the last stable rate of the curve's done
 * points and the first saturated one (the last point when none saturates)
 * into *sat, per sending node.  Returns 0 or the exit status. */
static int find_saturation(const load_opts *o, const synth *s, const ol_point *pts, int done, double per_sender,
                           ol_point *sat)
{
    int first = 0;
    while (first < done && !pts[first].saturated) first++;
    if (first == done) {
        /* Nothing saturates up to the last rate: that point is the answer. */
        if (done) *sat = pts[done - 1];
        return 0;
    }
    char err[512];
    double lo = first ? pts[first - 1].rate : 0, hi = pts[first].rate;
    ol_params p = o->p;   /* the bisection's points print no report */
    p.hist_width = p.hist_log = p.report_nodes = p.report_lengths = p.report_links = 0;
    int r = ol_saturation(&p, s, lo, hi, o->sat_precision, o->seed, cli_stop_signal, sat, err, sizeof err);
    to_per_sender(sat, per_sender);
    if (r < 0) return cli_fail(CMD, cli_fault_status(fault_of(r)), "%s", err);
    if (r > 0) return cli_signal_status(cli_stop_signal());
    return 0;
}

/* The saturation point kept with the run, in its params.  0 or the exit status. */
static int store_saturation(const load_opts *o, const recorder *rec, const ol_point *sat)
{
    char patch[256], err[512];
    if (sat->rate > 0)
        snprintf(patch, sizeof patch, "{\"saturation\": {\"rate\": %.17g, \"accepted\": %.17g, \"latency\": %.17g}}",
                 sat->rate, sat->accepted, sat->lat_avg);
    else
        snprintf(patch, sizeof patch, "{\"saturation\": {\"below\": %.17g}}", o->sat_precision);
    if (store_run_patch_params(rec->db, rec->run, patch, err, sizeof err) != STORE_OK)
        return cli_fail(CMD, EXIT_FAIL, "%s", err);
    return 0;
}

/* The curve's points at rates[0..n-1] into pts[0..*done-1], per sending
 * node, each recorded as it finishes.  Returns the exit status. */
static int measure(const load_opts *o, const synth *s, const double *rates, int n, recorder *rec, ol_point *pts,
                   int *done)
{
    char err[512];
    int rc = EXIT_OK;
    int r = ol_curve(&o->p, s, rates, n, (uint64_t)o->seed, o->threads, !o->all, cli_stop_signal, progress, rec, pts,
                     done, err, sizeof err);
    char msg[600];
    if (r < 0) rc = cli_fail(CMD, cli_fault_status(fault_of(r)), "%s", ol_flag_message(err, msg, sizeof msg));
    else if (r > 0) rc = cli_signal_status(cli_stop_signal());
    for (int k = 0; k < *done; k++) to_per_sender(&pts[k], rec->per_sender);
    /* What is stored is what is printed: points that finished on another
     * thread past the first saturated one (or past a gap, when stopped)
     * are not part of the curve. */
    if (r >= 0 && rec->db && !rec->failed &&
        store_load_trim(rec->db, rec->run, *done ? pts[*done - 1].rate : 0, NULL, err, sizeof err) != STORE_OK) {
        rec->failed = 1;
        cli_fail(CMD, EXIT_FAIL, "%s", err);
    }
    return rc;
}

/* One curve: pattern o->traffic, run, stored (unless --no-db) and printed.
 * Returns the exit status. */
static int run_curve(const load_opts *o)
{
    int senders = 0, rc = EXIT_OK;
    synth *s = make_traffic(o, &senders, &rc);
    if (!s) return rc;
    double top = ol_max_rate(&o->p, s);
    if (o->r1 > top * (1 + 1e-12)) {
        synth_free(s);
        return cli_fail(CMD, EXIT_USAGE, "--rates up to %g: these sources generate at most %.4g flits/cycle (one "
                        "packet a cycle%s); give --rates or --rate within it", o->r1, top,
                        o->p.process == OL_ONOFF ? " while on, on burst/(burst+idle) of the time" : "");
    }
    int n = (int)((o->r1 - o->r0) / o->step + 1e-9) + 1;
    curve_facts facts;
    double *rates = malloc(sizeof *rates * (size_t)n);
    ol_point *pts = calloc((size_t)n, sizeof *pts);
    if (!rates || !pts || facts_of(o, s, &facts)) {
        free(rates);
        free(pts);
        synth_free(s);
        return cli_fail(CMD, EXIT_FAIL, "out of memory");
    }
    for (int k = 0; k < n; k++) rates[k] = o->r0 + k * o->step;
    recorder rec = { .quiet = o->quiet, .per_sender = (double)s->nodes / senders };
    if (!o->no_db) rc = open_run(o, &facts, &rec);
    int done = 0;
    ol_point sat = { 0 };
    if (!rc) rc = measure(o, s, rates, n, &rec, pts, &done);
    if (!rc && o->saturation) rc = find_saturation(o, s, pts, done, rec.per_sender, &sat);
    if (!rc && o->saturation && rec.db && !rec.failed) rc = store_saturation(o, &rec, &sat);
    if (!rc && rec.failed) rc = EXIT_FAIL;
    char err[512];
    if (rec.db && !rc) {
        if (store_run_set_status(rec.db, rec.run, "finished", err, sizeof err) != STORE_OK)
            rc = cli_fail(CMD, EXIT_FAIL, "%s", err);
    }
    if (!rc || done > 0) {
        int prc = print_all(o, s, &facts, pts, done, &sat, rec.db ? rec.run : 0);
        if (!rc) rc = prc;
    }
    if (!rc && o->links_png && done > 0) rc = draw_links(o, &pts[done - 1]);
    if (rc && rc != EXIT_USAGE && cli_stop_signal())
        cli_fail(CMD, rc, "stopped by a signal after %d point(s)%s", done,
                 rec.db ? "; the finished points are in the database" : "");
    store_close(rec.db);
    free(rates);
    for (int k = 0; k < n; k++) ol_report_free(pts[k].report);
    free(pts);
    synth_free(s);
    return rc;
}

/* The patterns of --traffic "a,b,...": split at commas, except that a
 * file:PATH takes the rest of the list (a path may hold commas).  At most
 * max into pat[] (pointers into buf); their number, or -1 after a message. */
static int split_patterns(const char *spec, char *buf, size_t len, const char **pat, int max)
{
    char q[QUOTE_BUF];
    if (strlen(spec) >= len) return cli_fail(CMD, EXIT_USAGE, "--traffic: too long"), -1;
    strcpy(buf, spec);
    int n = 0;
    for (char *p = buf; p;) {
        char *comma = strncmp(p, "file:", 5) ? strchr(p, ',') : NULL;
        if (comma) *comma = '\0';
        if (!*p || n == max)
            return cli_fail(CMD, EXIT_USAGE, "--traffic '%s': %s", quote_str(q, sizeof q, spec),
                            n == max ? "too many patterns" : "an empty pattern (give names separated by single commas)"),
                   -1;
        for (int k = 0; k < n; k++)
            if (!strcmp(pat[k], p))
                return cli_fail(CMD, EXIT_USAGE, "--traffic: '%s' is named twice", quote_str(q, sizeof q, p)), -1;
        pat[n++] = p;
        p = comma ? comma + 1 : NULL;
    }
    return n;
}

/* Every pattern of o->traffic, one curve each.  The exit status. */
static int run_all(const load_opts *o)
{
    int rc = EXIT_OK;
    char buf[4096];
    const char *pat[MAX_PATTERNS];
    int np = split_patterns(o->traffic, buf, sizeof buf, pat, MAX_PATTERNS);
    if (np < 0) return EXIT_USAGE;
    if (np > 1 && o->links_png)
        return cli_fail(CMD, EXIT_USAGE, "--links-png draws one curve's point: give one pattern with it, not %d", np);
    if (o->links_png) {   /* a bad picture path, or one that is an input, before the curve runs */
        const char *const inputs[] = { o->no_db ? NULL : o->db, o->config, cli_traffic_file(o->traffic) };
        int bad = cli_check_output(CMD, "--links-png", o->links_png, inputs, 3);
        if (bad != EXIT_OK) return bad;
    }
    if (cli_catch_stop_signals()) return cli_fail(CMD, EXIT_FAIL, "cannot install the signal handlers");
    /* Every pattern's traffic is checked before the first curve runs. */
    for (int k = 0; k < np && !rc; k++) {
        load_opts one = *o;
        one.traffic = pat[k];
        int senders;
        synth *s = make_traffic(&one, &senders, &rc);
        synth_free(s);
    }
    for (int k = 0; k < np && !rc; k++) {
        load_opts one = *o;
        one.traffic = pat[k];
        one.csv_tail = k > 0;
        if (k && o->fmt == FMT_TEXT) printf("\n");
        rc = run_curve(&one);
    }
    return rc;
}

/* NOCSIM_PARSE_SHOW=1 (cli/args.h): every option's value after parsing,
 * "name=value" a line, for the tests. */
static int show_options(const load_groups *lg)
{
    char v[512];
    for (int k = 0; k < NGROUPS; k++)
        for (const opt_row *r = lg->g[k].rows; !opt_is_end(r); r++)
            if (r->type != OPT_HEADING) {
                opt_show(r, lg->g[k].base, v, sizeof v);
                printf("%s=%s\n", r->name, v);
            }
    return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}

/* --trace: the replay alone; the curve's flags are refused, not ignored. */
static int trace_only(const load_opts *o, const load_groups *lg)
{
    static const char *const curve[] = { "traffic", "hotspot", "rates", "rate", "all", "saturation", "precision",
                                         "process", "packet", "throughput", "by-length", "per-flow", "links",
                                         "links-png", "ci", "early-stop" };
    for (size_t k = 0; k < sizeof curve / sizeof *curve; k++)
        if (opt_groups_given(lg->g, NGROUPS, curve[k]))
            return cli_fail(CMD, EXIT_USAGE, "--trace replays the file's packets: --%s is a curve's, not given with it",
                            curve[k]);
    return load_trace(CMD, &o->p, o->trace, o->self == SYNTH_SELF_SEND, o->fmt);
}

int cmd_load(int argc, char **argv)
{
    load_opts o;
    load_groups lg = { 0 };
    int rc = parse(argc, argv, &o, &lg);
    const char *show = getenv("NOCSIM_PARSE_SHOW");
    if (rc == EXIT_OK && show && !strcmp(show, "1")) rc = show_options(&lg);
    else if (rc == EXIT_OK && o.trace) rc = trace_only(&o, &lg);
    else if (rc == EXIT_OK) rc = run_all(&o);
    free_groups(&lg);
    return rc == CLI_HELP ? EXIT_OK : rc;
}
