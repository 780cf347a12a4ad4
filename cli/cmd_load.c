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
#include "sim/openloop.h"
#include "store/store.h"
#include "traffic/synth.h"
#include "util/json.h"
#include "util/parse.h"
#include "util/quote.h"

#define CMD "load"
/* Most rates one curve takes. */
#define MAX_RATES 10000

typedef struct {
    ol_params p;
    const char *traffic, *hotspot;
    synth_self self;
    int rule_set;
    double r0, r1, step;
    int all, quiet, threads, no_db, saturation;
    const char *db, *packet;
    double sat_precision;    /* the bisection's, with saturation */
    uint64_t seed;
    out_format fmt;
    const char *trace;       /* --trace: replay this file instead of a curve */
} load_opts;

static const char *const process_names[] = { "bernoulli", "periodic", "onoff" };

/* A:B:STEP with 0 < A <= B <= 1, STEP > 0. */
static bool parse_rates(const char *s, load_opts *o)
{
    char buf[128], q[QUOTE_BUF];
    double v[3];
    if (strlen(s) >= sizeof buf) goto bad;
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
    if (v[1] < v[0]) {
        cli_fail(CMD, EXIT_USAGE, "--rates '%s': descending (from %g down to %g)", quote_str(q, sizeof q, s), v[0], v[1]);
        return false;
    }
    if ((v[1] - v[0]) / v[2] > MAX_RATES) {
        cli_fail(CMD, EXIT_USAGE, "--rates '%s': more than %d rates", quote_str(q, sizeof q, s), MAX_RATES);
        return false;
    }
    o->r0 = v[0];
    o->r1 = v[1];
    o->step = v[2];
    return true;
bad:
    cli_fail(CMD, EXIT_USAGE, "--rates '%s': expected A:B:STEP, each a number in (0, 1], A <= B",
             quote_str(q, sizeof q, s));
    return false;
}

static const cli_opt load_table[] = {
    CLI_HEADING("network:"),
    { "--topology", 0, "mesh|torus", "(default mesh)" },
    { "--size", 0, "N|WxH", "grid of W x H routers, each side 2.." CLI_STR(OL_MAX_SIDE) " (default 8)" },
    { "--vcs", 0, "V", "virtual channels per link (default 3)" },
    { "--buffer", 0, "B", "flits per input-VC FIFO (default 4)" },
    { "--vc-rule", 0, "any|dateline", "which VC a header may take: any free VC of its port\n"
                                      "(mesh default), or its own, one up at each dateline\n"
                                      "(torus default and only choice on a torus)" },
    { "--arb", 0, "Cxx", "VC-selection scheme of every port, C00-C09 (default C00)" },
    { "--tie", 0, "nowrap|plus|minus", "torus route at a distance of exactly half a ring" },
    { "--routing", 0, "NAME", "dor (default), yx, o1turn, valiant, romm, west-first,\n"
                              "north-last, negative-first, odd-even, min-adaptive (all\n"
                              "but dor on a mesh only; BookSim2's names xy_yx, min_adapt too)" },
    { "--selection", 0, "RULE", "an adaptive function's port: credits (most free slots\n"
                                "downstream, default), random, first (E, W, N, S)" },
    CLI_HEADING("traffic:"),
    { "--traffic", 0, "P", "uniform (default), bcmp brev brot shfl torn trns, bitcomp\n"
                           "bitrev shuffle transpose tornado neighbor randperm file:PATH,\n"
                           "or matrix:PATH, a traffic matrix ('src dst rate' lines or\n"
                           "a row of rates per node; rates as given, times --rate)" },
    { "--self", 0, "skip|send", "uniform draws itself / fixed points send to themselves\n"
                                "(send is BookSim2's uniform; default skip)" },
    { "--hotspot", 0, "NODES:F", "a share F in (0, 1] of packets goes to the listed nodes" },
    { "--packet", 0, "MIX", "length in flits, or a mix LEN:PROB,... (default 8)" },
    { "--process", 0, "bernoulli|periodic|onoff:B:I", "(default bernoulli); onoff: bursts of mean B cycles,\n"
                                                      "idle periods of mean I, the same mean rate" },
    { "--trace", 0, "FILE", "replay 'cycle src dst flits' lines instead of a curve:\n"
                            "each packet's latency (no rates, not recorded)" },
    { "--rates", 0, "A:B:STEP", "rates from A to B (default 0.02:1:0.02), each in (0, 1]" },
    { "--rate", 0, "R", "one rate" },
    { "--all", 0, NULL, "run every rate, past saturation too" },
    { "--saturation", 0, NULL, "then bisect for the saturation point (--precision): the\n"
                               "highest stable rate and its accepted throughput (the last\n"
                               "rate when none saturates)" },
    { "--precision", 0, "P", "the bisection's precision (default 0.005)" },
    CLI_HEADING("measurement:"),
    { "--batch", 0, "C", "cycles per batch (default 1000)" },
    { "--warmup", 0, "MIN:MAX", "warm-up batches (default 3:20); steady when two batch\n"
                                "means differ by at most --warmup-tolerance" },
    { "--warmup-tolerance", 0, "F", "(default 0.05)" },
    { "--window", 0, "K", "measurement batches (default 10; CI95 by batch means)" },
    { "--drain-cap", 0, "C", "most drain cycles (default 20000)" },
    { "--accept-tolerance", 0, "F", "saturated when accepted < (1-F) offered (default 0.02)" },
    { "--latency-limit", 0, "L", "saturated when mean latency > L (default 500)" },
    { "--per-flow", 0, NULL, "also saturated when one source's backlog outgrows 8 packets\n"
                             "and F of its window's traffic (stricter than the field's rule)" },
    { "--histogram", 0, "W|log2", "per point, a latency histogram: bins of W cycles, or\n"
                                  "[2^k, 2^(k+1))" },
    { "--throughput", 0, NULL, "per point, accepted flits/cycle per source node and per\n"
                               "flow: min, max, mean, Jain's index (at most 1024 nodes)" },
    { "--by-length", 0, NULL, "per point, the mean latency of each packet length" },
    CLI_HEADING("run and output:"),
    { "--seed", 's', "S", "every random choice (default 1)" },
    { "--threads", 'j', "N", "points run at once (default: all cores)" },
    { "--format", 0, "F", "text | json | csv (default text)" },
    { "--quiet", 'q', NULL, "no progress lines on stderr" },
    { "--db", 0, "PATH", "record the run and each point as it finishes (default\n"
                         "nocsim.db)" },
    { "--no-db", 0, NULL, "record nothing" },
    CLI_END
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

/* Where parsing keeps the grid until the topology is known. */
typedef struct {
    load_opts *o;
    int w, h;
} load_parse;

/* One of load_table's flags (a cli_set_fn). */
static int set_option(void *ctx, const char *cmd, const char *a, const char *v)
{
    load_parse *lp = ctx;
    load_opts *o = lp->o;
    long x;
    double d;
    int k;
    char err[256];
#define CHOICE(names) do { if (!arg_choice(cmd, a, v, names, (int)(sizeof names / sizeof names[0]), &k)) return -1; } while (0)
#define INT(lo, hi) do { if (!arg_int(cmd, a, v, lo, hi, &x)) return -1; } while (0)
#define REAL(lo, hi) do { if (!arg_double(cmd, a, v, lo, hi, &d)) return -1; } while (0)
    if (!strcmp(a, "--topology")) { CHOICE(model_topology_names); o->p.net.rp.topo = (route_topology)k; }
    else if (!strcmp(a, "--size")) return arg_size(cmd, a, v, 2, OL_MAX_SIDE, &lp->w, &lp->h) ? 0 : -1;
    else if (!strcmp(a, "--vcs")) { INT(1, SIM_MAX_VCS); o->p.net.vcs = (int)x; }
    else if (!strcmp(a, "--buffer")) { INT(1, 255); o->p.net.buffer = (int)x; }
    else if (!strcmp(a, "--vc-rule")) { CHOICE(model_vc_rule_names); o->p.net.vc_rule = (route_vc_rule)k; o->rule_set = 1; }
    else if (!strcmp(a, "--arb")) {
        if ((o->p.net.scheme = vcsel_parse(v)) < 0) return cli_fail(cmd, EXIT_USAGE, "--arb: '%s' is not a scheme (allowed: C00-C09)", v), -1;
    }
    else if (!strcmp(a, "--tie")) { CHOICE(model_tie_names); o->p.net.rp.tie = (route_tie)k; }
    else if (!strcmp(a, "--routing")) {
        if ((k = routing_parse(v)) < 0)
        {
            char names[128];
            return cli_fail(cmd, EXIT_USAGE, "--routing: '%s' is not a routing function (allowed: %s)", v,
                            routing_names(names, sizeof names)), -1;
        }
        o->p.net.routing = (routing_kind)k;
    }
    else if (!strcmp(a, "--selection")) {
        if ((k = routing_selection_parse(v)) < 0)
            return cli_fail(cmd, EXIT_USAGE, "--selection: '%s' is not a selection rule (allowed: credits, random, "
                                             "first)", v), -1;
        o->p.net.selection = (routing_selection)k;
    }
    else if (!strcmp(a, "--traffic")) o->traffic = v;
    else if (!strcmp(a, "--self")) { CHOICE(model_self_names); o->self = (synth_self)k; }
    else if (!strcmp(a, "--hotspot")) o->hotspot = v;
    else if (!strcmp(a, "--packet")) {
        if (ol_parse_packet_mix(&o->p, v, err, sizeof err)) return cli_fail(cmd, EXIT_USAGE, "%s", err), -1;
        o->packet = v;
    }
    else if (!strcmp(a, "--process")) return load_parse_process(cmd, v, &o->p);
    else if (!strcmp(a, "--trace")) o->trace = v;
    else if (!strcmp(a, "--histogram")) return load_parse_histogram(cmd, v, &o->p);
    else if (!strcmp(a, "--throughput")) o->p.report_nodes = 1;
    else if (!strcmp(a, "--by-length")) o->p.report_lengths = 1;
    else if (!strcmp(a, "--rates")) return parse_rates(v, o) ? 0 : -1;
    else if (!strcmp(a, "--rate")) {
        if (parse_real(v, 0.0, 1.0, &d) != PARSE_OK || d <= 0)
            return cli_fail(cmd, EXIT_USAGE, "--rate: '%s' is not a rate in (0, 1]", v), -1;
        o->r0 = o->r1 = o->step = d;
    }
    else if (!strcmp(a, "--all")) o->all = 1;
    else if (!strcmp(a, "--saturation")) o->saturation = 1;
    else if (!strcmp(a, "--precision")) { REAL(1e-4, 0.5); o->sat_precision = d; }
    else if (!strcmp(a, "--batch")) { INT(10, 1000000); o->p.batch = (int)x; }
    else if (!strcmp(a, "--warmup")) {
        long lo, hi;
        if (!arg_range(cmd, a, v, 1, 10000, &lo, &hi)) return -1;
        o->p.warmup_min = (int)lo;
        o->p.warmup_max = (int)hi;
    }
    else if (!strcmp(a, "--warmup-tolerance")) { REAL(0, 1); o->p.warmup_tol = d; }
    else if (!strcmp(a, "--window")) { INT(2, 10000); o->p.window = (int)x; }
    else if (!strcmp(a, "--drain-cap")) { INT(0, 100000000); o->p.drain_cap = x; }
    else if (!strcmp(a, "--accept-tolerance")) { REAL(0, 0.99); o->p.accept_tol = d; }
    else if (!strcmp(a, "--latency-limit")) { REAL(1, 1e9); o->p.latency_limit = d; }
    else if (!strcmp(a, "--per-flow")) o->p.per_flow = 1;
    else if (!strcmp(a, "--seed")) { INT(0, 2147483647L); o->seed = (uint64_t)x; }
    else if (!strcmp(a, "--threads")) { INT(1, 1024); o->threads = (int)x; }
    else if (!strcmp(a, "--format")) return arg_format(cmd, v, &o->fmt) ? 0 : -1;
    else if (!strcmp(a, "--quiet")) o->quiet = 1;
    else if (!strcmp(a, "--db")) o->db = v;
    else if (!strcmp(a, "--no-db")) o->no_db = 1;
#undef CHOICE
#undef INT
#undef REAL
    return 0;
}

/* Fills o from argv: EXIT_OK, CLI_HELP, or EXIT_USAGE after a message. */
static int parse(int argc, char **argv, load_opts *o, const cli_spec *spec, load_parse *lp)
{
    ol_params_default(&o->p);
    o->traffic = "uniform";
    o->db = STORE_DEFAULT_PATH;
    o->packet = "8";
    o->r0 = 0.02;
    o->r1 = 1.0;
    o->step = 0.02;
    o->seed = 1;
    o->sat_precision = 0.005;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->threads = cores > 0 ? (int)cores : 1;
    lp->o = o;
    lp->w = lp->h = 8;
    int rc = cli_parse(spec, argc, argv);
    if (rc != EXIT_OK) return rc;
    route_params *rp = &o->p.net.rp;
    rp->w = rp->n = lp->w;
    rp->h = lp->h;
    if (!o->rule_set) o->p.net.vc_rule = rp->topo == TOPO_MESH ? VCRULE_ANY : VCRULE_DATELINE;
    if (rp->topo == TOPO_TORUS && o->p.net.vc_rule == VCRULE_ANY)
        return cli_fail(CMD, EXIT_USAGE, "--vc-rule any: only on a mesh (a torus needs its datelines)");
    if (rp->topo == TOPO_TORUS && (lp->w % 2 || lp->h % 2))
        return cli_fail(CMD, EXIT_USAGE, "--size %dx%d: a torus needs even sides", lp->w, lp->h);
    if (rp->topo == TOPO_TORUS && o->p.net.routing == ROUTING_DOR && o->p.net.vcs < 3)
        return cli_fail(CMD, EXIT_USAGE, "--vcs %d: a torus needs at least 3 (datelines; --routing dor2 runs on 2)",
                        o->p.net.vcs);
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

/* The run's row: every parameter in params (JSON), so a curve can be
 * redrawn and compared later. */
static int open_run(const load_opts *o, const synth *s, recorder *r)
{
    int rc = EXIT_OK;
    if (!(r->db = cli_store_open(CMD, o->db, STORE_CREATE, &rc))) return rc;
    const ol_params *p = &o->p;
    double hops, t0 = ol_zero_load(p, s, &hops), bound = ol_channel_bound(p, s, NULL, 0);
    json_t *j = json_pack("{s:s, s:i, s:i, s:s, s:i, s:i, s:s, s:s, s:o, s:s, s:s, s:o, s:b, s:i, s:i, s:i, s:f, "
                          "s:i, s:I, s:f, s:f, s:f, s:f, s:f}",
                          "topology", model_topology_names[p->net.rp.topo], "width", p->net.rp.w, "height", p->net.rp.h,
                          "vc_rule", model_vc_rule_names[p->net.vc_rule], "vcs", p->net.vcs, "buffer", p->net.buffer,
                          "arb", vcsel_name(p->net.scheme), "tie", model_tie_names[p->net.rp.tie], "packet",
                          ujson_str(o->packet), "process", process_names[p->process], "self", model_self_names[o->self],
                          "hotspot", o->hotspot ? ujson_str(o->hotspot) : json_null(), "per_flow", p->per_flow,
                          "batch", p->batch, "warmup_min", p->warmup_min, "warmup_max", p->warmup_max,
                          "warmup_tolerance", p->warmup_tol, "window", p->window, "drain_cap", (json_int_t)p->drain_cap,
                          "accept_tolerance", p->accept_tol, "latency_limit", p->latency_limit, "zero_load", t0,
                          "avg_hops", hops, "bound", bound);
    if (j && p->process == OL_ONOFF && (json_object_set_new(j, "burst", json_real(p->burst)) ||
                                        json_object_set_new(j, "idle", json_real(p->idle))))
        j = (json_decref(j), NULL);
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

/* The curve on stdout in o->fmt.  EXIT_OK, or EXIT_FAIL after a message
 * (out of memory for the JSON). */
static int print_all(const load_opts *o, const synth *s, const ol_point *pts, int n, const ol_point *sat,
                     int64_t run)
{
    const route_params *rp = &o->p.net.rp;
    double hops, t0 = ol_zero_load(&o->p, s, &hops);
    char busiest[96];
    double bound = ol_channel_bound(&o->p, s, busiest, sizeof busiest);
    const char *topo = model_topology_names[rp->topo];
    int senders = 0;
    for (int i = 0; i < s->nodes; i++) senders += synth_sends(s, i);
    /* With --saturation, none found when every rate tried saturates. */
    int none = o->saturation && sat->rate <= 0;
    if (o->fmt == FMT_CSV) {
        printf("topology,size,traffic,zero_load,bound,%s" CSV_HEAD "\n",
               o->saturation ? "saturation_rate,saturation_accepted,saturation_latency," : "");
        for (int k = 0; k < n; k++) {
            printf("%s,%dx%d,", topo, rp->w, rp->h);
            cli_csv_field(stdout, o->traffic);
            printf(",%.4f,%.4f,", t0, bound);
            if (none) printf(",,,");
            else if (o->saturation) printf("%.6f,%.6f,%.3f,", sat->rate, sat->accepted, sat->lat_avg);
            print_row(stdout, FMT_CSV, &pts[k]);
        }
        load_report_csv(stdout, pts, n);
        return EXIT_OK;
    }
    if (o->fmt == FMT_JSON) {
        json_t *rows = json_array();
        int bad = !rows;
        for (int k = 0; !bad && k < n; k++) {
            json_t *row = row_json(&pts[k]);
            if (row && pts[k].report && load_report_json(row, pts[k].report)) row = (json_decref(row), NULL);
            bad |= json_array_append_new(rows, row);
        }
        json_t *doc = json_pack("{s:s, s:s, s:o, s:s, s:i, s:i, s:s, s:I, s:i, s:i, s:f, s:f, s:f, s:s, s:o}",
                                "topology", topo, "size", "", "traffic", ujson_str(o->traffic),
                                "vc_rule", model_vc_rule_names[o->p.net.vc_rule], "vcs", o->p.net.vcs,
                                "buffer", o->p.net.buffer, "arb", vcsel_name(o->p.net.scheme),
                                "seed", (json_int_t)o->seed, "nodes", s->nodes, "senders", senders, "zero_load", t0,
                                "avg_hops", hops, "bound", bound, "busiest", busiest, "points", rows);
        char size[32];
        snprintf(size, sizeof size, "%dx%d", rp->w, rp->h);
        if (doc && json_object_set_new(doc, "size", json_string(size))) bad = 1;
        if (doc && run > 0) bad |= json_object_set_new(doc, "run", json_integer(run));
        if (doc) bad |= json_object_set_new(doc, "unit", json_string("flits/cycle per sending node"));
        if (doc && o->saturation)
            bad |= json_object_set_new(doc, "saturation",
                                       none ? json_pack("{s:n, s:n, s:n, s:f}", "rate", "accepted", "latency",
                                                        "below", o->sat_precision)
                                            : json_pack("{s:f, s:f, s:f}", "rate", sat->rate, "accepted",
                                                        sat->accepted, "latency", sat->lat_avg));
        if (bad) {
            json_decref(doc);
            return cli_fail(CMD, EXIT_FAIL, "out of memory");
        }
        return cli_json_out(CMD, NULL, doc);
    }
    printf("%s on a %dx%d %s, %s VC rule, %d VCs x %d flits, %s, packets of %.3g flits (mean)\n", o->traffic, rp->w,
           rp->h, topo, model_vc_rule_names[o->p.net.vc_rule], o->p.net.vcs, o->p.net.buffer, vcsel_name(o->p.net.scheme),
           ol_mean_length(&o->p));
    printf("zero-load latency %.2f cycles (%.3f hops + length + 1); channel-load bound %.4f (%s)\n", t0, hops, bound,
           busiest);
    printf("rate, offered, accepted and bound in flits/cycle per sending node (%d of %d nodes send); "
           "latencies in cycles\n", senders, s->nodes);
    printf("  rate  offered accepted   latency    ci95   network    p50    p99     max   hops   tagged  saturated\n");
    for (int k = 0; k < n; k++) print_row(stdout, FMT_TEXT, &pts[k]);
    load_report_text(stdout, pts, n);
    if (none)
        printf("saturation: none found: every rate tried saturates, down to %g (the bisection's precision)\n",
               o->sat_precision);
    else if (o->saturation)
        printf("saturation: rate %.4f, accepted %.4f flits/cycle per sending node, latency %.2f (bisection to %g)\n", sat->rate,
               sat->accepted, sat->lat_avg, o->sat_precision);
    if (run > 0) printf("run %lld in %s (nocsim db show %lld)\n", (long long)run, o->db, (long long)run);
    return EXIT_OK;
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
    p.hist_width = p.hist_log = p.report_nodes = p.report_lengths = 0;
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

/* --trace: the replay alone; the curve's flags are refused, not ignored. */
static int trace_only(const load_opts *o)
{
    if (strcmp(o->traffic, "uniform") || o->hotspot || o->saturation || o->all || o->r0 != 0.02 || o->r1 != 1.0 ||
        o->step != 0.02 || o->p.process != OL_BERNOULLI || o->p.report_nodes || o->p.report_lengths ||
        strcmp(o->packet, "8"))
        return cli_fail(CMD, EXIT_USAGE, "--trace replays the file's packets: no --traffic, --hotspot, --rates, "
                        "--rate, --all, --saturation, --process, --packet, --throughput or --by-length with it");
    return load_trace(CMD, &o->p, o->trace, o->self == SYNTH_SELF_SEND, o->fmt);
}

int cmd_load(int argc, char **argv)
{
    load_opts o = { 0 };
    load_parse lp = { 0 };
    const cli_group groups[] = { { load_table, set_option, &lp } };
    const cli_spec spec = { CMD, groups, 1, NULL, NULL };
    int rc = parse(argc, argv, &o, &spec, &lp);
    if (rc == CLI_HELP) help(&spec);
    if (rc != EXIT_OK) return rc == CLI_HELP ? EXIT_OK : rc;
    char err[512];
    if (ol_params_check(&o.p, err, sizeof err)) return cli_fail(CMD, EXIT_USAGE, "%s", err);
    if (o.trace) return trace_only(&o);
    int senders = 0;
    synth *s = make_traffic(&o, &senders, &rc);
    if (!s) return rc;
    double top = ol_max_rate(&o.p, s);
    if (o.r1 > top * (1 + 1e-12)) {
        synth_free(s);
        return cli_fail(CMD, EXIT_USAGE, "--rates up to %g: these sources generate at most %.4g flits/cycle (one "
                        "packet a cycle%s); give --rates or --rate within it", o.r1, top,
                        o.p.process == OL_ONOFF ? " while on, on burst/(burst+idle) of the time" : "");
    }
    int n = (int)((o.r1 - o.r0) / o.step + 1e-9) + 1;
    double *rates = malloc(sizeof *rates * (size_t)n);
    ol_point *pts = calloc((size_t)n, sizeof *pts);
    if (!rates || !pts) {
        free(rates);
        free(pts);
        synth_free(s);
        return cli_fail(CMD, EXIT_FAIL, "out of memory");
    }
    for (int k = 0; k < n; k++) rates[k] = o.r0 + k * o.step;
    recorder rec = { .quiet = o.quiet, .per_sender = (double)s->nodes / senders };
    if (cli_catch_stop_signals()) rc = cli_fail(CMD, EXIT_FAIL, "cannot install the signal handlers");
    if (!rc && !o.no_db) rc = open_run(&o, s, &rec);
    int done = 0;
    ol_point sat = { 0 };
    if (!rc) {
        int r = ol_curve(&o.p, s, rates, n, o.seed, o.threads, !o.all, cli_stop_signal, progress, &rec, pts, &done,
                         err, sizeof err);
        if (r < 0) rc = cli_fail(CMD, cli_fault_status(fault_of(r)), "%s", err);
        else if (r > 0) rc = cli_signal_status(cli_stop_signal());
        for (int k = 0; k < done; k++) to_per_sender(&pts[k], rec.per_sender);
        /* What is stored is what is printed: points that finished on another
         * thread past the first saturated one (or past a gap, when stopped)
         * are not part of the curve. */
        if (r >= 0 && rec.db && !rec.failed &&
            store_load_trim(rec.db, rec.run, done ? pts[done - 1].rate : 0, NULL, err, sizeof err) != STORE_OK) {
            rec.failed = 1;
            cli_fail(CMD, EXIT_FAIL, "%s", err);
        }
    }
    if (!rc && o.saturation) rc = find_saturation(&o, s, pts, done, rec.per_sender, &sat);
    if (!rc && o.saturation && rec.db && !rec.failed) rc = store_saturation(&o, &rec, &sat);
    if (!rc && rec.failed) rc = EXIT_FAIL;
    if (rec.db && !rc) {
        if (store_run_set_status(rec.db, rec.run, "finished", err, sizeof err) != STORE_OK)
            rc = cli_fail(CMD, EXIT_FAIL, "%s", err);
    }
    if (!rc || done > 0) {
        int prc = print_all(&o, s, pts, done, &sat, rec.db ? rec.run : 0);
        if (!rc) rc = prc;
    }
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
