/* `nocsim load`: open-loop latency against offered load on a mesh or torus,
 * one row per injection rate, and optionally the saturation throughput by
 * bisection.  Parse -> run (sim/openloop.h) -> print. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "router/arbiter.h"
#include "sim/openloop.h"
#include "store/store.h"
#include "traffic/synth.h"
#include "util/parse.h"
#include "util/quote.h"

#define CMD "load"
/* Most rates one curve takes. */
#define MAX_RATES 10000

static void help(void)
{
    printf("usage: nocsim load [options]\n\n"
           "Open-loop traffic: every node generates packets at a rate (flits/node/cycle)\n"
           "into an unbounded source queue.  Each rate is one point: warm-up until the\n"
           "mean latency is steady, a measurement window whose packets are tagged, a\n"
           "drain until every tagged packet has ejected.  One row per rate; the curve\n"
           "stops after the first saturated point unless --all.\n\n"
           "network\n"
           "  --topology mesh|torus  (default mesh)\n"
           "  --size N | WxH         grid of W x H routers, each side 2..%d (default 8)\n"
           "  --vcs V                virtual channels per link (default 3)\n"
           "  --buffer B             flits per input-VC FIFO (default 4)\n"
           "  --vc-rule any|dateline which VC a header may take: any free VC of its port\n"
           "                         (mesh default), or its own, one up at each dateline\n"
           "                         (torus default and only choice on a torus)\n"
           "  --arb Cxx              VC-selection scheme of every port, C00-C09 (default C00)\n"
           "  --tie nowrap|plus|minus  torus route at a distance of exactly half a ring\n\n"
           "traffic\n"
           "  --traffic P            uniform (default), bcmp brev brot shfl torn trns, bitcomp\n"
           "                         bitrev shuffle transpose tornado neighbor randperm file:PATH\n"
           "  --self skip|send       uniform draws itself / fixed points send to themselves\n"
           "                         (send is BookSim2's uniform; default skip)\n"
           "  --hotspot NODES:F      a share F in (0, 1] of packets goes to the listed nodes\n"
           "  --packet MIX           length in flits, or a mix LEN:PROB,... (default 8)\n"
           "  --process bernoulli|periodic  (default bernoulli)\n"
           "  --rates A:B:STEP       rates from A to B (default 0.02:1:0.02), each in (0, 1]\n"
           "  --rate R               one rate\n"
           "  --all                  run every rate, past saturation too\n"
           "  --saturation[=P]       then bisect for the saturation point to P (default\n"
           "                         0.005): the highest stable rate and its accepted\n"
           "                         throughput (the last rate when none saturates)\n\n"
           "measurement\n"
           "  --batch C              cycles per batch (default 1000)\n"
           "  --warmup MIN:MAX       warm-up batches (default 3:20); steady when two batch\n"
           "                         means differ by at most --warmup-tolerance (default 0.05)\n"
           "  --window K             measurement batches (default 10; CI95 by batch means)\n"
           "  --drain-cap C          most drain cycles (default 20000)\n"
           "  --accept-tolerance F   saturated when accepted < (1-F) offered (default 0.02)\n"
           "  --latency-limit L      saturated when mean latency > L (default 500)\n"
           "  --per-flow             also saturated when one source gets less than (1-F)\n"
           "                         of its own flits through (stricter than the field's rule)\n\n"
           "run and output\n"
           "  --seed S               every random choice (default 1)\n"
           "  --threads N            points run at once (default: all cores)\n"
           "  --format F             text | json | csv (default text)\n"
           "  --quiet                no progress lines on stderr\n"
           "  --db PATH              record the run and each point as it finishes\n"
           "                         (default nocsim.db); --no-db records nothing\n\n"
           "example: nocsim load --topology mesh --size 8 --traffic uniform --rates 0.02:0.60:0.02\n",
           OL_MAX_SIDE);
}

typedef struct {
    ol_params p;
    const char *traffic, *hotspot;
    synth_self self;
    int topo_set, rule_set;
    double r0, r1, step;
    int all, quiet, threads, no_db;
    const char *db, *packet;
    double sat_precision;    /* 0: no bisection */
    uint64_t seed;
    out_format fmt;
} load_opts;

static const char *const topo_names[] = { "torus", "mesh" };
static const char *const rule_names[] = { "dateline", "any" };
static const char *const tie_names[] = { "nowrap", "plus", "minus" };
static const char *const self_names[] = { "skip", "send" };
static const char *const process_names[] = { "bernoulli", "periodic" };

static bool parse_size(const char *s, int *w, int *h)
{
    const char *x = strchr(s, 'x');
    char a[32];
    long lw, lh;
    if (!x) {
        if (!arg_int(CMD, "--size", s, 2, OL_MAX_SIDE, &lw)) return false;
        *w = *h = (int)lw;
        return true;
    }
    size_t n = (size_t)(x - s);
    if (n == 0 || n >= sizeof a) {
        char q[QUOTE_BUF];
        cli_fail(CMD, EXIT_USAGE, "--size: '%s' is not N or WxH (each side in [2, %d])", quote_str(q, sizeof q, s),
                 OL_MAX_SIDE);
        return false;
    }
    memcpy(a, s, n);
    a[n] = '\0';
    if (!arg_int(CMD, "--size", a, 2, OL_MAX_SIDE, &lw) || !arg_int(CMD, "--size", x + 1, 2, OL_MAX_SIDE, &lh))
        return false;
    *w = (int)lw;
    *h = (int)lh;
    return true;
}

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

static int parse(int argc, char **argv, load_opts *o)
{
    ol_params_default(&o->p);
    o->traffic = "uniform";
    o->db = STORE_DEFAULT_PATH;
    o->packet = "8";
    o->r0 = 0.02;
    o->r1 = 1.0;
    o->step = 0.02;
    o->seed = 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->threads = cores > 0 ? (int)cores : 1;
    int w = 8, h = 8, k;
    long x;
    double d;
    char err[256];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
#define VALUE() do { if (!(v = arg_value(CMD, argc, argv, &i))) return EXIT_USAGE; } while (0)
#define CHOICE(names) do { VALUE(); if (!arg_choice(CMD, a, v, names, (int)(sizeof names / sizeof names[0]), &k)) return EXIT_USAGE; } while (0)
#define INT(lo, hi) do { VALUE(); if (!arg_int(CMD, a, v, lo, hi, &x)) return EXIT_USAGE; } while (0)
#define REAL(lo, hi) do { VALUE(); if (!arg_double(CMD, a, v, lo, hi, &d)) return EXIT_USAGE; } while (0)
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { help(); return -1; }
        else if (!strcmp(a, "--topology")) { CHOICE(topo_names); o->p.net.rp.topo = (route_topology)k; o->topo_set = 1; }
        else if (!strcmp(a, "--size")) { VALUE(); if (!parse_size(v, &w, &h)) return EXIT_USAGE; }
        else if (!strcmp(a, "--vcs")) { INT(1, SIM_MAX_VCS); o->p.net.vcs = (int)x; }
        else if (!strcmp(a, "--buffer")) { INT(1, 255); o->p.net.buffer = (int)x; }
        else if (!strcmp(a, "--vc-rule")) { CHOICE(rule_names); o->p.net.vc_rule = (route_vc_rule)k; o->rule_set = 1; }
        else if (!strcmp(a, "--arb")) {
            VALUE();
            if ((o->p.net.scheme = vcsel_parse(v)) < 0)
                return cli_fail(CMD, EXIT_USAGE, "--arb: '%s' is not a scheme (allowed: C00-C09)", v);
        }
        else if (!strcmp(a, "--tie")) { CHOICE(tie_names); o->p.net.rp.tie = (route_tie)k; }
        else if (!strcmp(a, "--traffic")) { VALUE(); o->traffic = v; }
        else if (!strcmp(a, "--self")) { CHOICE(self_names); o->self = (synth_self)k; }
        else if (!strcmp(a, "--hotspot")) { VALUE(); o->hotspot = v; }
        else if (!strcmp(a, "--packet")) {
            VALUE();
            if (ol_parse_packet_mix(&o->p, v, err, sizeof err)) return cli_fail(CMD, EXIT_USAGE, "%s", err);
            o->packet = v;
        }
        else if (!strcmp(a, "--process")) { CHOICE(process_names); o->p.process = (ol_process)k; }
        else if (!strcmp(a, "--rates")) { VALUE(); if (!parse_rates(v, o)) return EXIT_USAGE; }
        else if (!strcmp(a, "--rate")) {
            VALUE();
            if (parse_real(v, 0.0, 1.0, &d) != PARSE_OK || d <= 0)
                return cli_fail(CMD, EXIT_USAGE, "--rate: '%s' is not a rate in (0, 1]", v);
            o->r0 = o->r1 = o->step = d;
        }
        else if (!strcmp(a, "--all")) o->all = 1;
        else if (!strcmp(a, "--saturation")) o->sat_precision = 0.005;
        else if (!strncmp(a, "--saturation=", 13)) {
            if (!arg_double(CMD, "--saturation", a + 13, 1e-4, 0.5, &o->sat_precision)) return EXIT_USAGE;
        }
        else if (!strcmp(a, "--batch")) { INT(10, 1000000); o->p.batch = (int)x; }
        else if (!strcmp(a, "--warmup")) {
            long lo, hi;
            VALUE();
            if (!arg_range(CMD, a, v, 1, 10000, &lo, &hi)) return EXIT_USAGE;
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
        else if (!strcmp(a, "--format")) { VALUE(); if (!arg_format(CMD, v, &o->fmt)) return EXIT_USAGE; }
        else if (!strcmp(a, "--quiet")) o->quiet = 1;
        else if (!strcmp(a, "--db")) { VALUE(); o->db = v; }
        else if (!strcmp(a, "--no-db")) o->no_db = 1;
        else { arg_unknown(CMD, a); return EXIT_USAGE; }
#undef VALUE
#undef CHOICE
#undef INT
#undef REAL
    }
    route_params *rp = &o->p.net.rp;
    rp->w = rp->n = w;
    rp->h = h;
    if (!o->rule_set) o->p.net.vc_rule = rp->topo == TOPO_MESH ? VCRULE_ANY : VCRULE_DATELINE;
    if (rp->topo == TOPO_TORUS && o->p.net.vc_rule == VCRULE_ANY)
        return cli_fail(CMD, EXIT_USAGE, "--vc-rule any: only on a mesh (a torus needs its datelines)");
    if (rp->topo == TOPO_TORUS && (w % 2 || h % 2))
        return cli_fail(CMD, EXIT_USAGE, "--size %dx%d: a torus needs even sides", w, h);
    if (rp->topo == TOPO_TORUS && o->p.net.vcs < 3)
        return cli_fail(CMD, EXIT_USAGE, "--vcs %d: a torus needs at least 3 (datelines)", o->p.net.vcs);
    return EXIT_OK;
}

static const char *sat_reasons(unsigned s, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!s) return "no";
    snprintf(buf, len, "%s%s%s%s", s & OL_SAT_DRAIN ? "drain+" : "", s & OL_SAT_ACCEPT ? "accept+" : "",
             s & OL_SAT_LATENCY ? "latency+" : "", s & OL_SAT_FLOW ? "flow+" : "");
    buf[strlen(buf) - 1] = '\0';
    return buf;
}

/* Where finished points go: the progress line and the database. */
typedef struct {
    int quiet;
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

static void progress(const ol_point *pt, int index, void *ctx)
{
    (void)index;
    recorder *r = ctx;
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
    char *params = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&params, &len);
    if (!f) return cli_fail(CMD, EXIT_FAIL, "out of memory");
    double hops, t0 = ol_zero_load(p, s, &hops), bound = ol_channel_bound(p, s, NULL, 0);
    fprintf(f, "{\"topology\": \"%s\", \"width\": %d, \"height\": %d, \"vc_rule\": \"%s\", \"vcs\": %d, "
               "\"buffer\": %d, \"arb\": \"%s\", \"tie\": \"%s\", \"packet\": ",
            topo_names[p->net.rp.topo], p->net.rp.w, p->net.rp.h, rule_names[p->net.vc_rule], p->net.vcs,
            p->net.buffer, vcsel_name(p->net.scheme), tie_names[p->net.rp.tie]);
    json_string(f, o->packet);
    fprintf(f, ", \"process\": \"%s\", \"self\": \"%s\", \"hotspot\": ", process_names[p->process],
            self_names[o->self]);
    if (o->hotspot) json_string(f, o->hotspot);
    else fprintf(f, "null");
    fprintf(f, ", \"per_flow\": %d, \"batch\": %d, \"warmup_min\": %d, \"warmup_max\": %d, "
               "\"warmup_tolerance\": %g, \"window\": %d, \"drain_cap\": %lld, \"accept_tolerance\": %g, "
               "\"latency_limit\": %g, \"zero_load\": %.6f, \"avg_hops\": %.6f, \"bound\": %.6f}",
            p->per_flow, p->batch, p->warmup_min, p->warmup_max, p->warmup_tol, p->window, (long long)p->drain_cap,
            p->accept_tol, p->latency_limit, t0, hops, bound);
    if (fclose(f)) {
        free(params);
        return cli_fail(CMD, EXIT_FAIL, "out of memory");
    }
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
    else if (fmt == FMT_JSON)
        fprintf(f, "  {\"rate\": %.6g, \"offered\": %.6f, \"accepted\": %.6f, \"latency\": %.3f, \"ci95\": %.3f, "
                   "\"network_latency\": %.3f, \"p50\": %lld, \"p99\": %lld, \"max\": %lld, \"hops\": %.4f, "
                   "\"tagged\": %lld, \"tagged_done\": %lld, \"warmup_cycles\": %lld, \"drain_cycles\": %lld, "
                   "\"cycles\": %lld, \"steady\": %s, \"saturated\": \"%s\"}",
                pt->rate, pt->offered, pt->accepted, pt->lat_avg, pt->lat_ci95, pt->net_avg, (long long)pt->lat_p50,
                (long long)pt->lat_p99, (long long)pt->lat_max, pt->hops_avg, (long long)pt->tagged,
                (long long)pt->tagged_done, (long long)pt->warmup_cycles, (long long)pt->drain_cycles,
                (long long)pt->cycles, pt->steady ? "true" : "false", sat);
    else
        fprintf(f, "%6.3f %8.4f %8.4f %9.2f %7.2f %9.2f %6lld %6lld %7lld %6.2f %8lld  %s\n", pt->rate, pt->offered,
                pt->accepted, pt->lat_avg, pt->lat_ci95, pt->net_avg, (long long)pt->lat_p50, (long long)pt->lat_p99,
                (long long)pt->lat_max, pt->hops_avg, (long long)pt->tagged, sat);
}

static void print_all(const load_opts *o, const synth *s, const ol_point *pts, int n, const ol_point *sat)
{
    const route_params *rp = &o->p.net.rp;
    double hops, t0 = ol_zero_load(&o->p, s, &hops);
    char busiest[96];
    double bound = ol_channel_bound(&o->p, s, busiest, sizeof busiest);
    const char *topo = topo_names[rp->topo];
    if (o->fmt == FMT_CSV) {
        printf("topology,size,traffic,zero_load,bound," CSV_HEAD "\n");
        for (int k = 0; k < n; k++) {
            printf("%s,%dx%d,%s,%.4f,%.4f,", topo, rp->w, rp->h, o->traffic, t0, bound);
            print_row(stdout, FMT_CSV, &pts[k]);
        }
        return;
    }
    if (o->fmt == FMT_JSON) {
        printf("{\"nocsim\": \"%s\", \"schema\": \"load/1\", \"topology\": \"%s\", \"size\": \"%dx%d\", \"traffic\": ",
               NOCSIM_VERSION, topo, rp->w, rp->h);
        json_string(stdout, o->traffic);
        int senders = 0;
        for (int i = 0; i < s->nodes; i++) senders += synth_sends(s, i);
        printf(", \"vc_rule\": \"%s\", \"vcs\": %d, \"buffer\": %d, \"arb\": \"%s\", \"seed\": %llu,\n"
               " \"nodes\": %d, \"senders\": %d, \"zero_load\": %.4f, \"avg_hops\": %.4f, \"bound\": %.4f, "
               "\"busiest\": ",
               rule_names[o->p.net.vc_rule], o->p.net.vcs, o->p.net.buffer, vcsel_name(o->p.net.scheme),
               (unsigned long long)o->seed, s->nodes, senders, t0, hops, bound);
        json_string(stdout, busiest);
        if (o->sat_precision > 0)
            printf(", \"saturation\": {\"rate\": %.4f, \"accepted\": %.4f, \"latency\": %.2f}", sat->rate,
                   sat->accepted, sat->lat_avg);
        printf(",\n \"points\": [\n");
        for (int k = 0; k < n; k++) {
            print_row(stdout, FMT_JSON, &pts[k]);
            printf("%s\n", k + 1 < n ? "," : "");
        }
        printf(" ]}\n");
        return;
    }
    printf("%s on a %dx%d %s, %s VC rule, %d VCs x %d flits, %s, packets of %.3g flits (mean)\n", o->traffic, rp->w,
           rp->h, topo, rule_names[o->p.net.vc_rule], o->p.net.vcs, o->p.net.buffer, vcsel_name(o->p.net.scheme),
           ol_mean_length(&o->p));
    printf("zero-load latency %.2f cycles (%.3f hops + length + 1); channel-load bound %.4f (%s)\n", t0, hops, bound,
           busiest);
    printf("  rate  offered accepted   latency    ci95   network    p50    p99     max   hops   tagged  saturated\n");
    for (int k = 0; k < n; k++) print_row(stdout, FMT_TEXT, &pts[k]);
    if (o->sat_precision > 0)
        printf("saturation: rate %.4f, accepted %.4f flits/node/cycle, latency %.2f (bisection to %g)\n", sat->rate,
               sat->accepted, sat->lat_avg, o->sat_precision);
}

int cmd_load(int argc, char **argv)
{
    load_opts o = { 0 };
    int rc = parse(argc, argv, &o);
    if (rc < 0) return EXIT_OK;
    if (rc) return rc;
    char err[512];
    if (ol_params_check(&o.p, err, sizeof err)) return cli_fail(CMD, EXIT_USAGE, "%s", err);
    synth *s = synth_new(o.traffic, o.p.net.rp.w, o.p.net.rp.h, o.self, o.seed, err, sizeof err);
    if (!s) return cli_fail(CMD, strstr(err, "out of memory") ? EXIT_FAIL : EXIT_USAGE, "--traffic: %s", err);
    if (o.hotspot && synth_set_hotspot(s, o.hotspot, err, sizeof err)) {
        synth_free(s);
        return cli_fail(CMD, EXIT_USAGE, "%s", err);
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
    recorder rec = { .quiet = o.quiet };
    if (cli_catch_stop_signals()) rc = cli_fail(CMD, EXIT_FAIL, "cannot install the signal handlers");
    if (!rc && !o.no_db) rc = open_run(&o, s, &rec);
    int done = 0;
    ol_point sat = { 0 };
    if (!rc) {
        int r = ol_curve(&o.p, s, rates, n, o.seed, o.threads, !o.all, cli_stop_signal, progress, &rec, pts, &done,
                         err, sizeof err);
        if (r < 0) rc = cli_fail(CMD, EXIT_FAIL, "%s", err);
        else if (r > 0) rc = cli_signal_status(cli_stop_signal());
    }
    if (!rc && o.sat_precision > 0) {
        /* Between the last stable point and the first saturated one. */
        int first = 0;
        while (first < done && !pts[first].saturated) first++;
        if (first == done) {
            /* Nothing saturates up to the last rate: that point is the answer. */
            if (done) sat = pts[done - 1];
        } else {
            double lo = first ? pts[first - 1].rate : 0, hi = pts[first].rate;
            int r = ol_saturation(&o.p, s, lo, hi, o.sat_precision, o.seed, cli_stop_signal, &sat, err, sizeof err);
            if (r < 0) rc = cli_fail(CMD, EXIT_FAIL, "%s", err);
            else if (r > 0) rc = cli_signal_status(cli_stop_signal());
        }
    }
    if (!rc && rec.failed) rc = EXIT_FAIL;
    if (rec.db && !rc) {
        if (store_run_set_status(rec.db, rec.run, "finished", err, sizeof err) != STORE_OK)
            rc = cli_fail(CMD, EXIT_FAIL, "%s", err);
    }
    if (!rc || done > 0) print_all(&o, s, pts, done, &sat);
    if (rc && rc != EXIT_USAGE && cli_stop_signal())
        cli_fail(CMD, rc, "stopped by a signal after %d point(s)%s", done,
                 rec.db ? "; the finished points are in the database" : "");
    store_close(rec.db);
    free(rates);
    free(pts);
    synth_free(s);
    return rc;
}
