/* `nocsim cc`: evolutionary scheduling of collective communications on any
 * topology (run, bounds, verify).  This file parses flags and prints; the
 * problem, the search, its defaults and the statistics are in cc/. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cc/algo.h"
#include "cc/exact.h"
#include "cc/instance.h"
#include "cc/schedfile.h"
#include "cc/search.h"
#include "ccsim/report.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/opt_group.h"
#include "cli/outdest.h"
#include "store/store.h"
#include "util/outfile.h"
#include "util/parse.h"
#include "util/quote.h"

typedef struct {
    cc_desc desc;        /* the problem as the flags state it */
    int max_paths;
    cc_search_params sp;
    int runs;
    int exact;
    double exact_seconds;
    double seconds;      /* --seconds: the search's wall-clock limit, 0 = none */
    out_format fmt;
    const char *out;
    const char *db;
    const char *file;    /* verify, cycles */
    int cycles;          /* replay the best schedule flit by flit */
    int flits;
    int64_t ts;          /* the step model's t_s in cycles; -1: the default */
    int quiet;           /* no progress line */
} cc_opts;

/* The defaults: the library's (cc_desc_empty, cc_search_defaults, cc/ and
 * ccsim/ constants); the rows below show them in --help. */
static void cc_opts_default(cc_opts *o)
{
    memset(o, 0, sizeof *o);
    o->desc = cc_desc_empty();
    o->max_paths = CC_PATHS_DEFAULT_MAX;
    o->sp = cc_search_defaults();
    o->runs = 1;
    o->exact_seconds = CC_EXACT_DEFAULT_SECONDS;
    o->fmt = FMT_TEXT;
    o->flits = CCSIM_DEFAULT_FLITS;
    o->ts = -1;
}

/* ---- custom rows (util/options.h) over cc_opts ---- */

#define AT(T, base, r) ((T *)(void *)((char *)(base) + (r)->offset))
#define AT_CONST(T, base, r) ((const T *)(const void *)((const char *)(base) + (r)->offset))

/* An integer in [r->lo, r->hi], or -FAULT_INPUT with the phrase in err. */
static int row_int(const opt_row *r, const char *v, int64_t *out, char *err, size_t errlen)
{
    parse_status st = parse_int(v, (int64_t)r->lo, (int64_t)r->hi, out);
    if (st != PARSE_OK) return parse_explain_int(err, errlen, st, v, (int64_t)r->lo, (int64_t)r->hi), -FAULT_INPUT;
    return 0;
}

/* A problem's int field (switching apart): CC_UNSET until given; shown as
 * what cc_instance_new makes of it. */
static int parse_desc_int(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    int64_t x;
    if (row_int(r, v, &x, err, errlen)) return -FAULT_INPUT;
    *AT(int, base, r) = (int)x;
    return 0;
}

static void show_desc_int(const opt_row *r, const void *base, char *buf, size_t len)
{
    cc_opts o = *(const cc_opts *)base;
    o.desc = cc_desc_filled(&o.desc);
    snprintf(buf, len, "%d", *AT_CONST(int, &o, r));
}

/* --ports K|all (all: 0, the all-port model). */
static int parse_ports(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    if (v && !strcmp(v, "all")) {
        *AT(int, base, r) = 0;
        return 0;
    }
    return parse_desc_int(r, base, v, err, errlen);
}

static void show_ports(const opt_row *r, const void *base, char *buf, size_t len)
{
    show_desc_int(r, base, buf, len);
    if (!strcmp(buf, "0")) snprintf(buf, len, "all");
}

/* --switching wh|sf into the problem's int field. */
static int parse_switching(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    for (int k = 0; v && k < 2; k++)
        if (!strcmp(v, cc_switching_names[k])) return *AT(int, base, r) = k, 0;
    char q[QUOTE_BUF];
    return snprintf(err, errlen, "'%s' is not one of: %s %s", quote_str(q, sizeof q, v), cc_switching_names[0],
                    cc_switching_names[1]), -FAULT_INPUT;
}

static void show_switching(const opt_row *r, const void *base, char *buf, size_t len)
{
    cc_opts o = *(const cc_opts *)base;
    o.desc = cc_desc_filled(&o.desc);
    snprintf(buf, len, "%s", cc_switching_names[*AT_CONST(int, &o, r)]);
}

/* --fail-link A-B, --fail-node N: each use adds one (CC_MAX_FAULTS each). */
static int parse_fault(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    cc_desc *d = &((cc_opts *)base)->desc;
    int link = r->offset == offsetof(cc_opts, desc.fail_a);
    int *n = link ? &d->nfail_link : &d->nfail_node;
    if (*n >= CC_MAX_FAULTS) return snprintf(err, errlen, "at most %d faults", CC_MAX_FAULTS), -FAULT_INPUT;
    (link ? d->fail_a : d->fail_node)[(*n)++] = v;
    d->faults_given = true;
    return 0;
}

/* The faults given, "A-B,C-D" (empty: none). */
static void show_fault(const opt_row *r, const void *base, char *buf, size_t len)
{
    const cc_desc *d = &((const cc_opts *)base)->desc;
    int link = r->offset == offsetof(cc_opts, desc.fail_a);
    buf[0] = '\0';
    for (int i = 0; i < (link ? d->nfail_link : d->nfail_node); i++) {
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, "%s%s", i ? "," : "", (link ? d->fail_a : d->fail_node)[i]);
    }
}

/* --algo: one of cc_algos by name. */
static int parse_algo(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    char q[QUOTE_BUF];
    for (int k = 0; v && cc_algos[k]; k++)
        if (!strcmp(v, cc_algos[k]->name)) return *AT(const cc_algo *, base, r) = cc_algos[k], 0;
    snprintf(err, errlen, "'%s' is not one of:", quote_str(q, sizeof q, v));
    for (int k = 0; cc_algos[k]; k++) {
        size_t n = strlen(err);
        snprintf(err + n, errlen - n, " %s", cc_algos[k]->name);
    }
    return -FAULT_INPUT;
}

static void show_algo(const opt_row *r, const void *base, char *buf, size_t len)
{
    const cc_algo *const *a = (const cc_algo *const *)(const void *)((const char *)base + r->offset);
    snprintf(buf, len, "%s", (*a)->name);
}

/* A bool field of the search, 0 or 1. */
static int parse_bool(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    int64_t x;
    if (row_int(r, v, &x, err, errlen)) return -FAULT_INPUT;
    *AT(bool, base, r) = x != 0;
    return 0;
}

static void show_bool(const opt_row *r, const void *base, char *buf, size_t len)
{
    snprintf(buf, len, "%d", *AT_CONST(bool, base, r) ? 1 : 0);
}

/* The search's budget (a long). */
static int parse_long(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    int64_t x;
    if (row_int(r, v, &x, err, errlen)) return -FAULT_INPUT;
    *AT(long, base, r) = (long)x;
    return 0;
}

static void show_long(const opt_row *r, const void *base, char *buf, size_t len)
{
    snprintf(buf, len, "%ld", *AT_CONST(long, base, r));
}

/* The search's seed (a uint64_t). */
static int parse_seed(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    int64_t x;
    if (row_int(r, v, &x, err, errlen)) return -FAULT_INPUT;
    *AT(uint64_t, base, r) = (uint64_t)x;
    return 0;
}

static void show_seed(const opt_row *r, const void *base, char *buf, size_t len)
{
    snprintf(buf, len, "%llu", (unsigned long long)*AT_CONST(uint64_t, base, r));
}

/* ---- the rows ---- */

#define F(f) #f, offsetof(cc_opts, f)
#define HEAD(text) { NULL, 0, NULL, text, OPT_HEADING, NULL, 0, 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 }
#define TEXT(name, s, arg, help, f) { name, s, arg, help, OPT_TEXT, F(f), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 }
#define SWITCH(name, s, help, f) { name, s, NULL, help, OPT_SWITCH, F(f), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 }
/* A number in [lo, hi]; nodef 1: --help shows no default (the help says what none means). */
#define NUM(name, s, arg, help, type, f, lo, hi, nodef) \
    { name, s, arg, help, type, F(f), lo, hi, 0, 0, NULL, 0, NULL, NULL, nodef }
/* A custom row; lo < hi: its number's range. */
#define CUSTOM(name, s, arg, help, f, lo, hi, parse, show) \
    { name, s, arg, help, OPT_CUSTOM, F(f), lo, hi, 0, 0, NULL, 0, parse, show, 0 }

/* The problem's rows: cc/'s messages about it name their fields (fail_msg). */
static const opt_row cc_problem_rows[] = {
    HEAD("problem:"),
    TEXT("topology", 0, "T", "ring:P | mesh:RxC | torus:RxC | hypercube:D | octagon |\n"
                             "kautz:D,K (kautz:3,2 = Kautz12) | file:PATH (edge list, see cc/README.md);\n"
                             "at most " CLI_STR(CC_MAX_NODES) " nodes", desc.topology),
    { "cc", 0, NULL, "the CC (gather/reduce: scatter/broadcast reversed)", OPT_CHOICE, F(desc.kind), 0, 0, 0, 0,
      cc_kind_names, 6, NULL, NULL, 0 },
    TEXT("root", 0, "N", "source node of oab/oas, by name (mesh nodes are \"RC\", e.g. 00, 12);\n"
                         "none: the first node", desc.root),
    TEXT("senders", 0, "A,B,..", "senders of mnb/mns; none: all nodes", desc.senders),
    TEXT("receivers", 0, "A,B,..", "receivers of mnb/mns; none: all nodes", desc.receivers),
    CUSTOM("ports", 0, "K|all", "K-port model: at most K sends and K receives per node and step",
           desc.ports, 1, CC_PORTS_MAX, parse_ports, show_ports),
    CUSTOM("switching", 0, "wh|sf", "wormhole (whole path in one step) or store-and-forward (one hop per step)",
           desc.sw, 0, 0, parse_switching, show_switching),
    CUSTOM("nonminimal", 0, "K", "also allow paths up to K hops longer than the shortest", desc.extra, 0,
           CC_PATHS_MAX_EXTRA, parse_desc_int, show_desc_int),
    /* its field as cc/'s messages name the pair fail_a, fail_b */
    { "fail-link", 0, "A-B", "remove a link (a digraph: only the channel A->B); repeatable", OPT_CUSTOM, "fail_link",
      offsetof(cc_opts, desc.fail_a), 0, 0, 0, 0, NULL, 0, parse_fault, show_fault, 0 },
    CUSTOM("fail-node", 0, "N", "remove a node and its links; repeatable", desc.fail_node, 0, 0, parse_fault,
           show_fault),
    NUM("max-paths", 0, "N", "keep at most N routes per node pair", OPT_INT, max_paths, 1, CC_PATHS_MAX, 0),
    OPT_END
};

/* The search's, the cycle replay's and the output's rows. */
static const opt_row cc_run_rows[] = {
    HEAD("search:"),
    NUM("steps", 0, "S", "target step count; none: from the lower bound up, one at a time", OPT_INT, sp.steps, 1,
        CC_STEPS_MAX, 1),
    NUM("max-steps", 0, "S", "auto mode gives up above S; none: 4 x bound + 8", OPT_INT, sp.max_steps, 1,
        CC_STEPS_MAX, 1),
    CUSTOM("algo", 0, "A", "the search: sa (simulated annealing), umda (paper 002), ga,\n"
                           "hgsa (paper 000)", sp.algo, 0, 0, parse_algo, show_algo),
    NUM("threads", 'j', "N", "hgsa: chains run in N threads", OPT_INT, sp.threads, 1, CC_THREADS_MAX, 0),
    CUSTOM("neighbour-first", 0, "0|1", "WH broadcasts: at each target first search one-hop\n"
                                        "deliveries only (SF-style), then all routes", sp.neighbour_first, 0, 1,
           parse_bool, show_bool),
    CUSTOM("ring", 0, "0|1", "AAB, or MNB with senders = receivers (k nodes): at a target of\n"
                             "k-1 steps or more, take the pipelined ring along a cycle of\n"
                             "channel-disjoint routes (constructed, not searched; optimal when\n"
                             "the bound is k-1, as with one port)", sp.ring, 0, 1, parse_bool, show_bool),
    CUSTOM("budget", 0, "N", "evaluations per target step count (and phase)", sp.budget, 1, CC_BUDGET_MAX, parse_long,
           show_long),
    NUM("pop", 0, "N", "population size (hgsa: chains)", OPT_INT, sp.pop, CC_POP_MIN, CC_POP_MAX, 0),
    NUM("runs", 0, "N", "independent runs (seeds SEED, SEED+1, ..) with success statistics", OPT_INT, runs, 1,
        CC_RUNS_MAX, 0),
    { "seconds", 0, "T", "end the search (every run, target and phase) after T seconds of\n"
                         "wall clock and report the best schedule found by then; none: no limit",
      OPT_REAL, F(seconds), CC_SECONDS_MIN, CC_SECONDS_MAX, 0, 0, NULL, 0, NULL, NULL, 1 },
    CUSTOM("seed", 's', "N", "random seed", sp.seed, 0, CC_SEED_MAX, parse_seed, show_seed),
    SWITCH("exact", 0, "after the search, decide with a SAT solver (CaDiCaL) whether one\n"
                       "step fewer is possible over the same routes: proves the schedule\n"
                       "optimal or finds a shorter one", exact),
    NUM("exact-seconds", 0, "T", "give the solver at most T seconds per step count", OPT_REAL, exact_seconds,
        CC_EXACT_SECONDS_MIN, CC_EXACT_SECONDS_MAX, 0),
    HEAD("cycles (--cycles after a search, or nocsim cc cycles FILE; wormhole only):"),
    SWITCH("cycles", 0, "replay the schedule on a flit-level model (one flit per channel\n"
                        "per cycle, source-routed along its paths, a blocked header waits):\n"
                        "steps one after another, and overlapped (a transfer starts when\n"
                        "its sender has the message and its whole path and ports are free);\n"
                        "printed next to paper 000's model t = S x t_s + m x t_1 (see\n"
                        "ccsim/replay.h and cc/README.md)", cycles),
    NUM("flits", 0, "M", "packet length m in flits", OPT_INT, flits, 1, CCSIM_MAX_FLITS, 0),
    NUM("ts", 0, "T", "the step model's start-up t_s in cycles; none: the longest path\n"
                      "in hops", OPT_I64, ts, 0, CCSIM_MAX_TS, 1),
    HEAD("output:"),
    { "format", 0, NULL, "output format", OPT_CHOICE, F(fmt), 0, 0, 0, 0, cli_format_names, 3, NULL, NULL, 0 },
    TEXT("out", 'o', "FILE", "write the best schedule as JSON: the whole problem and the steps", out),
    TEXT("db", 0, "PATH", "save the run and its best schedule in a nocsim database", db),
    SWITCH("quiet", 'q', "no progress line on stderr (a run past a second shows one, at most\n"
                         "once a second: run, target steps, evaluations, rate)", quiet),
    OPT_END
};

static void usage(FILE *f, const cli_spec *spec)
{
    fprintf(f,
"usage: nocsim cc --topology T --cc CC [options]          schedule a CC\n"
"       nocsim cc bounds --topology T --cc CC [options]   print the lower bounds\n"
"       nocsim cc verify SCHEDULE.json [options]          check a schedule file\n"
"       nocsim cc cycles SCHEDULE.json [options]          replay a wormhole schedule flit by flit\n"
"\n"
"Find a schedule of a collective communication (CC) in the fewest synchronised\n"
"steps, no two transfers of a step sharing a channel (simulated annealing; UMDA of\n"
"paper 002; HGSA of paper 000), and with --exact prove it optimal with a SAT solver.\n"
"\n");
    cli_help(f, spec);
    fprintf(f,
"\n"
"verify reads the problem from the schedule file (topology, faults, cc, root,\n"
"ports, switching, routing); flags may only agree with it, or supply what a\n"
"hand-made file leaves out.  It checks every delivery, that broadcast senders\n"
"were informed earlier, that paths use working channels, visit no node twice\n"
"and are no longer than the routing model allows, no channel twice in a step,\n"
"the port limit; --steps S also requires at most S steps.\n"
"\n"
"Exit status: 0 success (a schedule found / valid), 1 none found / invalid or a\n"
"run-time failure (out of memory, a failed write), 2 bad input.\n");
}

/* The exit status of a cc error code. */
static int exit_of(int rc)
{
    return rc == CC_OK ? EXIT_OK : cli_fault_status(fault_of(rc));
}

/* err of a failure rc; bad input about the problem with its fields named as
 * their flags (util/options.h: cc/ names fields). */
static int fail_msg(int rc, const char *err)
{
    char msg[CC_ERRLEN + 128];
    const opt_row *const tables[] = { cc_problem_rows };
    fprintf(stderr, "nocsim cc: %s\n", rc == CC_EINPUT ? opt_flag_message(tables, 1, err, msg, sizeof msg) : err);
    return exit_of(rc);
}

/* Standard output must have reached its file: a full disk is a failure. */
static int flush_stdout(int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "nocsim cc: writing the output failed: %s\n", strerror(errno ? errno : EIO));
        return EXIT_FAIL;
    }
    return rc;
}

static void describe(FILE *f, const cc_instance *in)
{
    const cc_topo *t = in->t;
    const cc_problem *pb = in->pb;
    fprintf(f, "topology %s: %d nodes, %d channels%s", t->spec, t->n, t->nch, t->directed ? " (digraph)" : "");
    for (int i = 0; i < t->nfail_links; i++) fprintf(f, ", failed link %s-%s", t->fail_a[i], t->fail_b[i]);
    for (int i = 0; i < t->nfail_nodes; i++) fprintf(f, ", failed node %s", t->fail_node[i]);
    fprintf(f, "\ncc %s", cc_kind_names[pb->kind]);
    if (pb->root >= 0) fprintf(f, " from %s", t->names[pb->root]);
    fprintf(f, ", %s, %s-port, ", cc_switching_names[pb->sw], pb->ports ? "K" : "all");
    if (pb->extra) fprintf(f, "routes up to %d hops longer than the shortest\n", pb->extra);
    else fprintf(f, "minimal routing\n");
    if (pb->ports) fprintf(f, "K = %d\n", pb->ports);
}

static json_t *bounds_json(const cc_bounds *b)
{
    json_t *a = json_array();
    int bad = !a;
    for (int i = 0; !bad && i < b->n; i++)
        bad |= json_array_append_new(a, json_pack("{s:s, s:i, s:b, s:o}", "name", b->b[i].name, "value", b->b[i].value,
                                                  "binds", b->b[i].value == b->best, "why", ujson_str(b->b[i].why)));
    if (bad) { json_decref(a); return NULL; }
    return a;
}

/* The problem's head fields: topology, cc (and with all, switching and ports). */
static json_t *problem_json(const cc_instance *in, bool all)
{
    json_t *o = json_pack("{s:o, s:s}", "topology", ujson_str(in->t->spec), "cc", cc_kind_names[in->pb->kind]);
    if (o && all && (json_object_set_new(o, "switching", json_string(cc_switching_names[in->pb->sw])) ||
                     json_object_set_new(o, "ports", in->pb->ports ? json_integer(in->pb->ports) : json_string("all")))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The printers return EXIT_OK, or EXIT_FAIL when the JSON document could
 * not be built (cli_json_out said so). */
static int print_bounds(const cc_opts *o, const cc_instance *in)
{
    const cc_bounds *b = &in->bounds;
    if (o->fmt == FMT_JSON) {
        json_t *j = problem_json(in, false);
        if (j && (json_object_set_new(j, "bound", json_integer(b->best)) ||
                  json_object_set_new(j, "bounds", bounds_json(b)))) { json_decref(j); j = NULL; }
        return cli_json_out("cc", "cc bounds", j);
    } else if (o->fmt == FMT_CSV) {
        printf("bound,value,binds,why\n");
        for (int i = 0; i < b->n; i++) {
            printf("%s,%d,%d,", b->b[i].name, b->b[i].value, b->b[i].value == b->best);
            cli_csv_field(stdout, b->b[i].why);
            putchar('\n');
        }
    } else {
        describe(stdout, in);
        for (int i = 0; i < b->n; i++)
            printf("  %-12s %4d%s  %s\n", b->b[i].name, b->b[i].value, b->b[i].value == b->best ? " *" : "  ", b->b[i].why);
        printf("lower bound: %d steps (binding: %s)\n", b->best, b->b[b->binding].name);
    }
    return EXIT_OK;
}

static int do_bounds(const cc_opts *o)
{
    char err[CC_ERRLEN];
    cc_instance *in;
    int rc = cc_instance_new(&o->desc, o->max_paths, &in, err, sizeof err);
    if (rc != CC_OK) return fail_msg(rc, err);
    int status = print_bounds(o, in);
    cc_instance_free(in);
    return flush_stdout(status);
}

static int print_verify(const cc_opts *o, const cc_instance *in, const cc_verify_result *vr, bool too_long)
{
    if (o->fmt == FMT_JSON) {
        json_t *j = json_pack("{s:b, s:i, s:i}", "valid", vr->ok && !too_long, "steps", vr->steps, "bound", in->bounds.best);
        int bad = !j;
        for (int k = 0; !bad && k < CC_VERR_KINDS; k++) bad |= json_object_set_new(j, cc_verr_names[k], json_integer(vr->count[k]));
        if (!bad) bad |= json_object_set_new(j, "first_error", ujson_str(vr->first));
        if (bad) { json_decref(j); j = NULL; }
        return cli_json_out("cc", "cc verify", j);
    }
    if (o->fmt == FMT_CSV) {
        printf("valid,steps,bound");
        for (int k = 0; k < CC_VERR_KINDS; k++) printf(",%s", cc_verr_names[k]);
        printf(",first_error\n%d,%d,%d", vr->ok && !too_long, vr->steps, in->bounds.best);
        for (int k = 0; k < CC_VERR_KINDS; k++) printf(",%d", vr->count[k]);
        putchar(',');
        cli_csv_field(stdout, vr->first);
        putchar('\n');
        return EXIT_OK;
    }
    if (vr->ok) printf("valid: %d steps (lower bound %d)\n", vr->steps, in->bounds.best);
    else {
        printf("INVALID: %s\n", vr->first);
        for (int k = 0; k < CC_VERR_KINDS; k++) if (vr->count[k]) printf("  %d %s\n", vr->count[k], cc_verr_names[k]);
    }
    if (too_long) printf("INVALID: %d steps, more than --steps %d\n", vr->steps, o->sp.steps);
    return EXIT_OK;
}

/* Read o->file, build its problem (flags merged) and verify its schedule.
 * CC_OK with *in, *sch and *vr filled (the caller frees *in and *sch, also
 * after a failure), or a cc error code with err. */
static int load_schedule(const cc_opts *o, cc_instance **in, cc_schedule **sch, cc_verify_result *vr, char *err, size_t errlen)
{
    cc_schedfile *f;
    *in = NULL;
    *sch = NULL;
    int rc = cc_schedfile_read(o->file, &f, err, errlen);
    if (rc != CC_OK) return rc;
    cc_desc d = *cc_schedfile_desc(f);
    rc = cc_desc_merge(&d, &o->desc, err, errlen);
    if (rc == CC_OK) rc = cc_instance_new(&d, o->max_paths, in, err, errlen);
    if (rc == CC_OK) rc = cc_schedfile_schedule(f, (*in)->t, sch, err, errlen);
    if (rc == CC_OK && cc_verify((*in)->pb, *sch, vr) != CC_OK) rc = cc_fail(CC_ENOMEM, err, errlen, "out of memory verifying");
    /* The header's step count is a claim about the schedule: checked too. */
    int claimed = rc == CC_OK ? cc_schedfile_steps(f) : -1;
    if (claimed >= 0 && claimed != vr->steps) {
        if (vr->ok) snprintf(vr->first, sizeof vr->first, "the header says %d steps, the schedule uses %d", claimed, vr->steps);
        vr->ok = false;
    }
    cc_schedfile_free(f);
    return rc;
}

static int do_verify(const cc_opts *o)
{
    char err[CC_ERRLEN];
    cc_instance *in;
    cc_schedule *sch;
    cc_verify_result vr;
    int rc = load_schedule(o, &in, &sch, &vr, err, sizeof err);
    int status = rc != CC_OK ? fail_msg(rc, err) : EXIT_OK;
    if (rc == CC_OK) {
        bool too_long = o->sp.steps > 0 && vr.steps > o->sp.steps;
        int shown = print_verify(o, in, &vr, too_long);
        status = flush_stdout(shown != EXIT_OK || !vr.ok || too_long ? EXIT_FAIL : EXIT_OK);
    }
    cc_schedule_free(sch);
    cc_instance_free(in);
    return status;
}

static json_t *cycles_json(const ccsim_report *r)
{
    return json_pack("{s:i, s:i, s:i, s:I, s:I, s:I, s:I, s:I, s:I}", "flits", r->flits, "steps", r->steps, "max_hops",
                     r->max_hops, "cycles_steps", (json_int_t)r->mode[CCSIM_STEPS].cycles, "cycles_overlap",
                     (json_int_t)r->mode[CCSIM_OVERLAP].cycles, "stalls_steps", (json_int_t)r->mode[CCSIM_STEPS].stalls,
                     "model", (json_int_t)r->model, "ts", (json_int_t)r->ts, "t1", (json_int_t)r->t1);
}

static void print_cycles_text(const cc_opts *o, const ccsim_report *r)
{
    printf("cycles, packets of m = %d flits, one flit per channel per cycle:\n", r->flits);
    printf("  steps one after another  %lld cycles", (long long)r->mode[CCSIM_STEPS].cycles);
    if (r->mode[CCSIM_STEPS].stalls) printf(" (%lld header stalls: channels shared in a step)", (long long)r->mode[CCSIM_STEPS].stalls);
    printf("\n  overlapped               %lld cycles\n", (long long)r->mode[CCSIM_OVERLAP].cycles);
    printf("  step model (paper 000)   t = S x t_s + m x t_1 = %d x %lld + %d x %lld = %lld cycles (t_s = %lld%s; t_1 = 1 cycle per flit)\n",
           r->steps, (long long)r->ts, r->flits, (long long)r->t1, (long long)r->model, (long long)r->ts,
           o->ts >= 0 ? ", given" : ": the longest path in hops");
}

static int do_cycles(const cc_opts *o)
{
    char err[CC_ERRLEN];
    cc_instance *in;
    cc_schedule *sch;
    cc_verify_result vr;
    ccsim_report rep;
    int rc = load_schedule(o, &in, &sch, &vr, err, sizeof err), status = EXIT_OK;
    if (rc != CC_OK) status = fail_msg(rc, err);
    /* The same verdict as cc verify: a schedule that parses but is not valid
     * is 1 (a file that cannot be read or disagrees with the flags is 2). */
    else if (!vr.ok) status = cli_fail("cc", EXIT_FAIL, "%s: not a valid schedule: %s", o->file, vr.first);
    else if ((rc = ccsim_report_new(in->pb, sch, o->flits, o->ts, &rep, err, sizeof err)) != CC_OK) status = fail_msg(rc, err);
    if (status == EXIT_OK) {
        if (o->fmt == FMT_JSON) status = cli_json_out("cc", "cc cycles", cycles_json(&rep));
        else if (o->fmt == FMT_CSV)
            printf("flits,steps,max_hops,cycles_steps,cycles_overlap,stalls_steps,model,ts,t1\n%d,%d,%d,%lld,%lld,%lld,%lld,%lld,%lld\n",
                   rep.flits, rep.steps, rep.max_hops, (long long)rep.mode[CCSIM_STEPS].cycles, (long long)rep.mode[CCSIM_OVERLAP].cycles,
                   (long long)rep.mode[CCSIM_STEPS].stalls, (long long)rep.model, (long long)rep.ts, (long long)rep.t1);
        else {
            describe(stdout, in);
            printf("schedule %s: %d steps (lower bound %d)\n", o->file, vr.steps, in->bounds.best);
            print_cycles_text(o, &rep);
        }
        status = flush_stdout(status);
    }
    cc_schedule_free(sch);
    cc_instance_free(in);
    return status;
}

static bool write_schedule(const char *path, const cc_schedule *sch, const cc_problem *pb)
{
    outfile f;
    outdest d;
    char err[PATH_MAX + 256];
    if (outdest_start(&d, path, err, sizeof err) != OUTFILE_OK) { fprintf(stderr, "nocsim cc: --out %s\n", err); return false; }
    if (outfile_open(&f, outdest_path(&d), err, sizeof err) != OUTFILE_OK) {
        (void)outdest_finish(&d, 0, err, sizeof err);
        fprintf(stderr, "nocsim cc: --out %s\n", err);
        return false;
    }
    if (cc_schedule_write_json(f.f, sch, pb) != 0) {
        outfile_abort(&f);
        (void)outdest_finish(&d, 0, err, sizeof err);
        fprintf(stderr, "nocsim cc: --out %s: cannot write the schedule (out of memory or a failed write)\n", path);
        return false;
    }
    int ok = outfile_commit(&f, err, sizeof err) == OUTFILE_OK;
    if (outdest_finish(&d, ok, err, sizeof err) != OUTFILE_OK || !ok) { fprintf(stderr, "nocsim cc: --out %s\n", err); return false; }
    return true;
}

/* The run's parameters as JSON text (for the database); caller frees.
 * NULL on allocation failure. */
static char *params_json(const cc_opts *o, const cc_instance *in, int nbound)
{
    const cc_topo *t = in->t;
    const cc_problem *pb = in->pb;
    json_t *links = json_array(), *nodes = json_array();
    int bad = !links || !nodes;
    for (int i = 0; !bad && i < t->nfail_links; i++)
        bad |= json_array_append_new(links, json_pack("[o, o]", ujson_str(t->fail_a[i]), ujson_str(t->fail_b[i])));
    for (int i = 0; !bad && i < t->nfail_nodes; i++) bad |= json_array_append_new(nodes, ujson_str(t->fail_node[i]));
    json_t *j = bad ? NULL : json_pack("{s:o, s:s, s:o, s:s, s:i, s:i, s:o, s:o, s:I, s:i, s:i}", "topology", ujson_str(t->spec),
                                       "cc", cc_kind_names[pb->kind], "root", ujson_str(pb->root >= 0 ? t->names[pb->root] : ""),
                                       "switching", cc_switching_names[pb->sw], "ports", pb->ports, "nonminimal", pb->extra,
                                       "failed_links", links, "failed_nodes", nodes, "budget", (json_int_t)o->sp.budget,
                                       "runs", o->runs, "reached_bound", nbound);
    if (bad) { json_decref(links); json_decref(nodes); }
    char *text = ujson_text(j);
    json_decref(j);
    return text;
}

/* Save the run (kind "cc") and its best schedule as JSON text. */
static bool save_db(const cc_opts *o, const cc_instance *in, const cc_series *se)
{
    char err[512];
    store *db = store_open(o->db, STORE_CREATE, err, sizeof err);
    if (!db) { fprintf(stderr, "nocsim cc: --db: %s\n", err); return false; }
    char *params = params_json(o, in, se->reached);
    store_run run = store_run_init("cc");
    run.seed = o->sp.seed;
    run.algorithm = o->sp.algo->name;
    run.params = params;
    run.version = NOCSIM_VERSION;
    bool ok = params != NULL;
    if (!ok) snprintf(err, sizeof err, "out of memory");
    if (ok) ok = store_run_create(db, &run, err, sizeof err) == STORE_OK;
    if (ok && se->best.found) {
        json_t *sj = cc_schedule_json(se->best.sched, in->pb);
        char *text = ujson_text(sj);
        json_decref(sj);
        ok = text != NULL;
        store_cc c = { .run = run.id, .steps = se->best.steps, .bound = in->bounds.best, .schedule = text };
        int64_t id;
        if (ok) ok = store_cc_add(db, &c, &id, err, sizeof err) == STORE_OK;
        else snprintf(err, sizeof err, "out of memory");
        free(text);
        if (ok) ok = store_run_set_best(db, run.id, se->best.steps, STORE_NONE, 0, err, sizeof err) == STORE_OK;
    }
    if (ok) ok = store_run_set_status(db, run.id, se->best.found ? "finished" : "failed", err, sizeof err) == STORE_OK;
    if (!ok) fprintf(stderr, "nocsim cc: --db: %s\n", err);
    free(params);
    store_close(db);
    return ok;
}

/* A run series being reported; with --format json, the document built up
 * (doc, its "runs" array) and printed at the end. */
typedef struct { const cc_opts *o; const cc_instance *in; json_t *doc, *runs; int bad; } run_ctx;

static void print_run(void *ctx, int run, uint64_t seed, const cc_search_result *res)
{
    run_ctx *c = ctx;
    const cc_opts *o = c->o;
    const cc_topo *t = c->in->t;
    const cc_problem *pb = c->in->pb;
    if (o->fmt == FMT_TEXT)
        printf("run %d (seed %llu): %s %d steps%s, %ld evaluations (%ld to the best), %.3f s\n", run + 1,
               (unsigned long long)seed, res->found ? "found" : "NOT found in", res->steps,
               res->ring ? " (pipelined ring)" : res->neighbour_only ? " (one-hop deliveries)" : "", res->evals,
               res->evals_to_best, res->seconds);
    else if (o->fmt == FMT_CSV) {
        cli_csv_field(stdout, t->spec);
        printf(",%s,", cc_kind_names[pb->kind]);
        cli_csv_field(stdout, pb->root >= 0 ? t->names[pb->root] : "");
        printf(",%s,", cc_switching_names[pb->sw]);
        if (pb->ports) printf("%d,", pb->ports); else printf("all,");
        for (int i = 0; i < t->nfail_links; i++) printf("%slink %s-%s", i ? ";" : "", t->fail_a[i], t->fail_b[i]);
        for (int i = 0; i < t->nfail_nodes; i++) printf("%snode %s", i || t->nfail_links ? ";" : "", t->fail_node[i]);
        printf(",%s,%d,%d,%llu,%d,%d,%ld,%ld,%.4f\n", o->sp.algo->name, c->in->bounds.best, run + 1, (unsigned long long)seed, res->found,
               res->found ? res->steps : -1, res->evals, res->evals_to_best, res->seconds);
    } else
        c->bad |= json_array_append_new(c->runs, json_pack("{s:I, s:b, s:i, s:b, s:b, s:I, s:I, s:f}", "seed", (json_int_t)seed,
                                                           "found", res->found, "steps", res->found ? res->steps : -1,
                                                           "neighbour_only", res->neighbour_only, "ring", res->ring,
                                                           "evals", (json_int_t)res->evals, "evals_to_best",
                                                           (json_int_t)res->evals_to_best, "seconds", res->seconds));
}

static void print_run_header(const cc_opts *o, const cc_instance *in, run_ctx *c)
{
    int bound = in->bounds.best;
    if (o->fmt == FMT_TEXT) {
        describe(stdout, in);
        printf("lower bound %d (%s); algorithm %s, budget %ld evaluations per step count\n", bound,
               in->bounds.b[in->bounds.binding].name, o->sp.algo->name, o->sp.budget);
    } else if (o->fmt == FMT_CSV) {
        printf("topology,cc,root,switching,ports,faults,algo,bound,run,seed,found,steps,evals,evals_to_best,seconds\n");
    } else {
        c->doc = problem_json(in, true);
        c->runs = json_array();
        c->bad |= !c->doc || !c->runs || json_object_set_new(c->doc, "algo", json_string(o->sp.algo->name)) ||
                  json_object_set_new(c->doc, "bound", json_integer(bound)) ||
                  json_object_set_new(c->doc, "bounds", bounds_json(&in->bounds)) ||
                  json_object_set(c->doc, "runs", c->runs);
    }
}

static int print_summary(const cc_opts *o, const cc_instance *in, const cc_series *se, const cc_exact_result *ex,
                         const ccsim_report *cyc, run_ctx *c)
{
    int bound = in->bounds.best;
    double rate = (double)se->reached / se->runs;
    if (o->fmt == FMT_TEXT) {
        if (se->runs > 1)
            printf("summary: %d/%d runs found a schedule, %d/%d reached the bound %d (%.0f%%); mean steps %.2f, mean evaluations to best %.0f, mean time %.3f s\n",
                   se->found, se->runs, se->reached, se->runs, bound, 100.0 * rate, se->found ? se->sum_steps / se->found : 0.0,
                   se->sum_evals_to_best / se->runs, se->sum_seconds / se->runs);
        if (ex) printf("exact: %s\n", ex->why);
        if (se->best.found) {
            char from[48];
            if (se->best_run >= 0) snprintf(from, sizeof from, "run %d", se->best_run + 1);
            else snprintf(from, sizeof from, "from the SAT solver");
            printf("best: %d steps (bound %d, %s), verified%s\n", se->best.steps, bound, from,
                   !ex || ex->status != CC_EXACT_OPTIMAL ? "" : ex->sat_proof ? ", optimal over these routes (SAT)" : ", optimal (lower bound)");
            cc_schedule_write_text(stdout, se->best.sched, in->pb);
            if (cyc) print_cycles_text(o, cyc);
        }
    } else if (o->fmt == FMT_JSON) {
        json_t *d = c->doc;
        int bad = c->bad || json_object_set_new(d, "found", json_integer(se->found)) ||
                  json_object_set_new(d, "timed_out", json_boolean(se->timed_out)) ||
                  json_object_set_new(d, "success_rate", json_real(rate)) ||
                  json_object_set_new(d, "mean_seconds", json_real(se->sum_seconds / se->runs)) ||
                  json_object_set_new(d, "mean_evals_to_best", json_real(se->sum_evals_to_best / se->runs));
        if (!bad && ex)
            bad |= json_object_set_new(d, "exact", json_pack("{s:s, s:f, s:o}", "status", cc_exact_status_names[ex->status],
                                                             "seconds", ex->seconds, "why", ujson_str(ex->why)));
        if (!bad && se->best.found)
            bad |= json_object_set_new(d, "best_steps", json_integer(se->best.steps)) ||
                   json_object_set_new(d, "verified", json_true()) ||
                   json_object_set_new(d, "schedule", cc_schedule_json(se->best.sched, in->pb));
        if (!bad && cyc) bad |= json_object_set_new(d, "cycles", cycles_json(cyc));
        c->doc = NULL;
        if (bad) { json_decref(d); d = NULL; }
        return cli_json_out("cc", NULL, d);
    }
    return EXIT_OK;
}

/* The progress line: after the first second, at most once a second, on
 * stderr ("\r" and rewritten on a terminal, one line each otherwise). */
typedef struct { double t0, last; long last_evals, budget; int tty, shown, lost; } progress_state;

static double mono_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void progress_line(void *ctx, uint64_t seed, int S, long at_target, long evals)
{
    progress_state *p = ctx;
    double t = mono_seconds();
    if (p->lost || t - p->t0 < 1.0 || t - p->last < 1.0) return;
    double rate = p->shown && t > p->last ? (double)(evals - p->last_evals) / (t - p->last) : evals / (t - p->t0);
    if (evals < p->last_evals) rate = evals / (t - p->t0);   /* a new run */
    if (fprintf(stderr, "%srun seed %llu  target %d steps  evals %ld/%ld  %.0f evals/s  %.0fs%s", p->tty ? "\r" : "",
                (unsigned long long)seed, S, at_target, p->budget, rate, t - p->t0, p->tty ? "   " : "\n") < 0 ||
        fflush(stderr) != 0)
        p->lost = 1;   /* stderr gone: no more lines, the run goes on */
    p->last = t;
    p->last_evals = evals;
    p->shown = 1;
}

static int do_run(const cc_opts *o)
{
    char err[CC_ERRLEN];
    cc_instance *in;
    /* Building the routes, the search and the solver write nothing: a stop
     * signal ends them at once (130/143) with one line. */
    if (cli_catch_stop_signals() != 0) return cli_fail("cc", EXIT_FAIL, "cannot catch SIGINT/SIGTERM: %s", strerror(errno));
    int sig = cli_stop_at_once("cc", " (no schedule was written)");
    if (sig) return cli_fail("cc", cli_signal_status(sig), "stopped by %s (no schedule was written)", sig == SIGINT ? "SIGINT" : "SIGTERM");
    int rc = cc_instance_new(&o->desc, o->max_paths, &in, err, sizeof err);
    if (rc != CC_OK) return fail_msg(rc, err);
    if (o->cycles && in->pb->sw != CC_WH) {
        cc_instance_free(in);
        return fail_msg(CC_EINPUT, "--cycles: the cycle replay takes wormhole schedules, not --switching sf");
    }
    if (o->sp.steps > 0 && o->sp.steps < in->bounds.best) {
        const cc_bound *b = &in->bounds.b[in->bounds.binding];
        int rc2 = cli_fail("cc", EXIT_USAGE, "--steps %d: below the lower bound %d (%s: %s); no schedule can be shorter",
                           o->sp.steps, in->bounds.best, b->name, b->why);
        cc_instance_free(in);
        return rc2;
    }
    cc_search_params sp = o->sp;
    sp.start_steps = in->bounds.best;
    if (o->seconds > 0) sp.deadline = cc_search_now() + o->seconds;
    progress_state prog = { .t0 = mono_seconds(), .tty = isatty(STDERR_FILENO), .budget = sp.budget };
    if (!o->quiet) { sp.progress = progress_line; sp.progress_ctx = &prog; }
    run_ctx ctx = { o, in, NULL, NULL, 0 };
    print_run_header(o, in, &ctx);
    cc_series se;
    rc = cc_search_series(in->pb, in->paths, &sp, o->runs, in->bounds.best, print_run, &ctx, &se, err, sizeof err);
    if (prog.shown && prog.tty && !prog.lost) fputc('\n', stderr);
    json_decref(ctx.runs); /* doc holds its own reference */
    if (rc != CC_OK) {
        json_decref(ctx.doc);
        fflush(stdout);
        cc_instance_free(in);
        return fail_msg(rc, err);
    }
    if (se.timed_out && o->fmt == FMT_TEXT)
        printf("time limit: --seconds %g reached after %d run%s; %s\n", o->seconds, se.runs, se.runs == 1 ? "" : "s",
               se.best.found ? "the best schedule found by then follows" : "no schedule found by then");
    else if (se.timed_out && !o->quiet)
        fprintf(stderr, "nocsim cc: --seconds %g reached after %d run(s); %s\n", o->seconds, se.runs,
                se.best.found ? "reporting the best schedule found by then" : "no schedule found by then");
    cc_exact_result ex, *exp = NULL;
    if (o->exact) {
        cc_exact_params ep = { .seconds = o->exact_seconds, .bound = in->bounds.best, .max_steps = sp.max_steps };
        int before = se.best.found ? se.best.steps : -1;
        rc = cc_exact_improve(in->pb, in->paths, &ep, &se.best, &ex, err, sizeof err);
        if (rc != CC_OK) { json_decref(ctx.doc); cc_search_result_clear(&se.best); cc_instance_free(in); return fail_msg(rc, err); }
        if (se.best.found && (before < 0 || se.best.steps < before)) se.best_run = -1;   /* the solver's schedule */
        exp = &ex;
    }
    ccsim_report cyc;
    if (o->cycles && se.best.found) {
        rc = ccsim_report_new(in->pb, se.best.sched, o->flits, o->ts, &cyc, err, sizeof err);
        if (rc != CC_OK) { json_decref(ctx.doc); cc_search_result_clear(&se.best); cc_instance_free(in); return fail_msg(rc, err); }
    }
    cli_stop_at_once(NULL, NULL);   /* the outputs are written whole: a signal now waits */
    bool ok = print_summary(o, in, &se, exp, o->cycles && se.best.found ? &cyc : NULL, &ctx) == EXIT_OK;
    if (o->out && se.best.found) ok = write_schedule(o->out, se.best.sched, in->pb);
    if (o->out && !se.best.found) fprintf(stderr, "nocsim cc: no schedule found, %s not written\n", o->out);
    if (o->db && !save_db(o, in, &se)) ok = false;
    int status = !ok ? EXIT_FAIL : se.best.found ? EXIT_OK : EXIT_FAIL;
    cc_search_result_clear(&se.best);
    cc_instance_free(in);
    return flush_stdout(status);
}

/* Parses argv[i..] into o (filled with its defaults): 0 to go on, or 1
 * with *status the exit status (after --help, a message, or the values
 * shown under NOCSIM_PARSE_SHOW=1). */
static int parse_args(cc_opts *o, int argc, char **argv, int i, int *status)
{
    opt_group g[2];
    if (opt_group_init(&g[0], cc_problem_rows, o, sizeof *o)) return cli_fail("cc", EXIT_FAIL, "out of memory");
    if (opt_group_init(&g[1], cc_run_rows, o, sizeof *o)) {
        opt_group_free(&g[0]);
        return cli_fail("cc", EXIT_FAIL, "out of memory");
    }
    const cli_group groups[] = { opt_group_cli(&g[0]), opt_group_cli(&g[1]) };
    const cli_spec spec = { "cc", groups, 2, NULL, NULL };
    int rc = cli_parse(&spec, argc - (i - 1), argv + (i - 1));
    if (rc == CLI_HELP) {
        usage(stdout, &spec);
        rc = flush_stdout(CLI_HELP);
    }
    *status = rc;
    return opt_groups_done(g, 2, status);
}

int cmd_cc(int argc, char **argv)
{
    cc_opts o;
    cc_opts_default(&o);
    int mode = 0;   /* 0 run, 1 bounds, 2 verify, 3 cycles */
    int i = 1;
    if (argc > 1 && strcmp(argv[1], "bounds") == 0) { mode = 1; i = 2; }
    else if (argc > 1 && (strcmp(argv[1], "verify") == 0 || strcmp(argv[1], "cycles") == 0)) {
        mode = argv[1][0] == 'v' ? 2 : 3;
        i = 2;
        bool help = argc >= 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0);
        if (!help && (argc < 3 || argv[2][0] == '-')) {
            fprintf(stderr, "nocsim cc %s: needs a schedule file: nocsim cc %s SCHEDULE.json [options]\n", argv[1], argv[1]);
            return EXIT_USAGE;
        }
        if (!help) o.file = argv[i++];
    }
    int status;
    if (parse_args(&o, argc, argv, i, &status)) return status;
    if (mode == 1) return do_bounds(&o);
    if (mode == 2) return do_verify(&o);
    if (mode == 3) return do_cycles(&o);
    if (o.cycles && o.fmt == FMT_CSV) {
        fprintf(stderr, "nocsim cc: --cycles: not with --format csv (one row per run); use --out FILE, then nocsim cc cycles FILE --format csv\n");
        return EXIT_USAGE;
    }
    /* Only hgsa runs chains in threads: --threads elsewhere would be ignored. */
    if (o.sp.threads > 1 && o.sp.algo != &cc_algo_hgsa)
        return cli_fail("cc", EXIT_USAGE, "--threads: only --algo hgsa runs in threads (this run: --algo %s)",
                        o.sp.algo->name);
    if (o.out) {   /* a bad output path, or one that is an input, before any work */
        const char *inputs[] = { o.db, cli_traffic_file(o.desc.topology) };
        int rc = cli_check_output("cc", "--out", o.out, inputs, 2);
        if (rc != EXIT_OK) return rc;
    }
    if (o.db) {   /* a bad --db is refused before the search, as by every command */
        int rc = EXIT_OK;
        store *db = cli_store_open("cc", o.db, STORE_CREATE, &rc);
        if (!db) return rc;
        store_close(db);
    }
    return do_run(&o);
}
