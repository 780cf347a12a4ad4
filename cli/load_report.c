/* `nocsim load`'s issue-37 options and reports (see load_report.h). */
#include "cli/load_report.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt_group.h"
#include "cli/status.h"
#include "sim/ol_options.h"
#include "util/json.h"
#include "util/parse.h"
#include "util/quote.h"

/* ---- text ---- */

/* The histogram of r after a line starting with `what`. */
static void histogram_text(FILE *f, const char *what, const ol_report *r)
{
    int64_t most = 0, total = 0;
    for (int k = 0; k < r->nbins; k++) {
        if (r->count[k] > most) most = r->count[k];
        total += r->count[k];
    }
    fprintf(f, "%s: latency histogram of %lld packets (cycles [lo, hi): count)\n", what, (long long)total);
    for (int k = 0; k < r->nbins; k++) {
        int bar = most ? (int)((40 * r->count[k] + most - 1) / most) : 0;
        fprintf(f, "  [%6lld, %6lld) %9lld  %.*s\n", (long long)r->lo[k], (long long)r->hi[k], (long long)r->count[k],
                bar, "########################################");
    }
}

static void spread_text(FILE *f, const char *what, const ol_spread *s, const char *unit)
{
    fprintf(f, "  accepted per %-12s min %.4f, max %.4f, mean %.4f, Jain's index %.4f (%d %s)\n", what, s->min, s->max,
            s->mean, s->jain, s->n, unit);
}

static const char port_letter[4] = { 'N', 'E', 'S', 'W' };

/* The links' load in a line: the busiest and the mean over the links. */
static void links_text(FILE *f, const char *what, const ol_report *r)
{
    int node, d, links = 0;
    double sum = 0, most = ol_link_busiest(r, &node, &d);
    for (int k = 0; k < r->w * r->h * 4; k++)
        if (ol_link_exists(r, k / 4, k % 4)) {
            links++;
            sum += (double)r->link_flits[k];
        }
    fprintf(f, "%s: link load in the window, flits/cycle: busiest (%d,%d) %c %.4f, mean %.4f over %d links\n", what,
            node % r->w, node / r->w, port_letter[d], most, links ? sum / r->link_cycles / links : 0, links);
}

void load_report_text(FILE *f, const ol_point *pts, int n)
{
    for (int k = 0; k < n; k++) {
        const ol_report *r = pts[k].report;
        if (!r) continue;
        char what[32];
        snprintf(what, sizeof what, "rate %.4g", pts[k].rate);
        if (r->histogram) histogram_text(f, what, r);
        if (r->node_offered) {
            fprintf(f, "%s: accepted throughput in the window, flits/cycle\n", what);
            spread_text(f, "source node:", &r->node_spread, "sending nodes");
            spread_text(f, "flow:", &r->flow_spread, "flows");
        }
        if (r->link_flits) links_text(f, what, r);
        if (r->nlen) {
            fprintf(f, "%s: latency by packet length:", what);
            for (int j = 0; j < r->nlen; j++)
                fprintf(f, "%s %d flits %.2f (%lld packets)", j ? "," : "", r->len[j], r->len_latency[j],
                        (long long)r->len_count[j]);
            fprintf(f, "\n");
        }
    }
}

/* ---- CSV ---- */

void load_report_csv(FILE *f, const ol_point *pts, int n)
{
    const ol_report *any = NULL;
    for (int k = 0; k < n && !any; k++) any = pts[k].report;
    if (!any) return;
    if (any->histogram) {
        fprintf(f, "\nrate,latency_lo,latency_hi,count\n");
        for (int k = 0; k < n; k++)
            for (int j = 0; pts[k].report && j < pts[k].report->nbins; j++)
                fprintf(f, "%.6g,%lld,%lld,%lld\n", pts[k].rate, (long long)pts[k].report->lo[j],
                        (long long)pts[k].report->hi[j], (long long)pts[k].report->count[j]);
    }
    if (any->node_offered) {
        fprintf(f, "\nrate,of,count,min,max,mean,jain\n");
        for (int k = 0; k < n; k++) {
            const ol_report *r = pts[k].report;
            if (!r) continue;
            const ol_spread *s[2] = { &r->node_spread, &r->flow_spread };
            for (int j = 0; j < 2; j++)
                fprintf(f, "%.6g,%s,%d,%.6f,%.6f,%.6f,%.6f\n", pts[k].rate, j ? "flows" : "nodes", s[j]->n,
                        s[j]->min, s[j]->max, s[j]->mean, s[j]->jain);
        }
        fprintf(f, "\nrate,node,offered,accepted\n");
        for (int k = 0; k < n; k++)
            for (int i = 0; pts[k].report && i < pts[k].report->nodes; i++)
                fprintf(f, "%.6g,%d,%.6f,%.6f\n", pts[k].rate, i, pts[k].report->node_offered[i],
                        pts[k].report->node_accepted[i]);
        fprintf(f, "\nrate,src,dst,offered,accepted\n");
        for (int k = 0; k < n; k++)
            for (int j = 0; pts[k].report && j < pts[k].report->nflows; j++) {
                const ol_flow *fl = &pts[k].report->flows[j];
                fprintf(f, "%.6g,%d,%d,%.6f,%.6f\n", pts[k].rate, fl->src, fl->dst, fl->offered, fl->accepted);
            }
    }
    if (any->link_flits) {
        fprintf(f, "\nrate,x,y,port,flits,load\n");
        for (int k = 0; k < n; k++) {
            const ol_report *r = pts[k].report;
            for (int j = 0; r && r->link_flits && j < r->w * r->h * 4; j++)
                if (ol_link_exists(r, j / 4, j % 4))
                    fprintf(f, "%.6g,%d,%d,%c,%llu,%.6f\n", pts[k].rate, j / 4 % r->w, j / 4 / r->w, port_letter[j % 4],
                            (unsigned long long)r->link_flits[j], (double)r->link_flits[j] / r->link_cycles);
        }
    }
    if (any->nlen) {
        fprintf(f, "\nrate,length,packets,latency\n");
        for (int k = 0; k < n; k++)
            for (int j = 0; pts[k].report && j < pts[k].report->nlen; j++)
                fprintf(f, "%.6g,%d,%lld,%.3f\n", pts[k].rate, pts[k].report->len[j],
                        (long long)pts[k].report->len_count[j], pts[k].report->len_latency[j]);
    }
}

/* ---- JSON ---- */

static json_t *histogram_json(const ol_report *r)
{
    json_t *a = json_array();
    for (int k = 0; a && k < r->nbins; k++)
        if (json_array_append_new(a, json_pack("{s:I, s:I, s:I}", "lo", (json_int_t)r->lo[k], "hi",
                                               (json_int_t)r->hi[k], "count", (json_int_t)r->count[k]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static json_t *spread_json(const ol_spread *s)
{
    return json_pack("{s:i, s:f, s:f, s:f, s:f}", "n", s->n, "min", s->min, "max", s->max, "mean", s->mean, "jain",
                     s->jain);
}

static json_t *throughput_json(const ol_report *r)
{
    json_t *off = json_array(), *acc = json_array(), *flows = json_array();
    int bad = !off || !acc || !flows;
    for (int i = 0; !bad && i < r->nodes; i++)
        bad = json_array_append_new(off, json_real(r->node_offered[i])) ||
              json_array_append_new(acc, json_real(r->node_accepted[i]));
    for (int k = 0; !bad && k < r->nflows; k++) {
        const ol_flow *f = &r->flows[k];
        bad = json_array_append_new(flows, json_pack("{s:i, s:i, s:f, s:f}", "src", f->src, "dst", f->dst, "offered",
                                                     f->offered, "accepted", f->accepted));
    }
    if (bad) {
        json_decref(off);
        json_decref(acc);
        json_decref(flows);
        return NULL;
    }
    return json_pack("{s:o, s:o, s:o, s:o, s:o}", "nodes", spread_json(&r->node_spread), "flows",
                     spread_json(&r->flow_spread), "node_offered", off, "node_accepted", acc, "flow_list", flows);
}

static json_t *lengths_json(const ol_report *r)
{
    json_t *a = json_array();
    for (int k = 0; a && k < r->nlen; k++)
        if (json_array_append_new(a, json_pack("{s:i, s:I, s:f}", "length", r->len[k], "packets",
                                               (json_int_t)r->len_count[k], "latency", r->len_latency[k]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

/* {busiest: {x, y, port, load}, cycles, links: [{x, y, port, flits, load}]}. */
static json_t *links_json(const ol_report *r)
{
    int node, d;
    double most = ol_link_busiest(r, &node, &d);
    char port[2] = { port_letter[d], 0 };
    json_t *a = json_array();
    for (int k = 0; a && k < r->w * r->h * 4; k++) {
        if (!ol_link_exists(r, k / 4, k % 4)) continue;
        char p[2] = { port_letter[k % 4], 0 };
        if (json_array_append_new(a, json_pack("{s:i, s:i, s:s, s:I, s:f}", "x", k / 4 % r->w, "y", k / 4 / r->w,
                                               "port", p, "flits", (json_int_t)r->link_flits[k], "load",
                                               (double)r->link_flits[k] / r->link_cycles))) {
            json_decref(a);
            return NULL;
        }
    }
    if (!a) return NULL;
    return json_pack("{s:{s:i, s:i, s:s, s:f}, s:f, s:o}", "busiest", "x", node % r->w, "y", node / r->w, "port", port,
                     "load", most, "cycles", r->link_cycles, "links", a);
}

int load_report_json(json_t *row, const ol_report *r)
{
    int bad = 0;
    if (r->histogram) bad |= json_object_set_new(row, "histogram", histogram_json(r));
    if (r->node_offered) bad |= json_object_set_new(row, "throughput", throughput_json(r));
    if (r->nlen) bad |= json_object_set_new(row, "by_length", lengths_json(r));
    if (r->link_flits) bad |= json_object_set_new(row, "links", links_json(r));
    return bad ? -1 : 0;
}

/* ---- trace replay ---- */

static void trace_text(const ol_params *p, const char *path, const trace *t, const ol_trace_result *res)
{
    char q[QUOTE_BUF];
    printf("trace %s on a %dx%d %s, %d VCs x %d flits: %lld packets, %lld ejected, %lld left after the drain cap; "
           "%lld cycles\n", quote_str(q, sizeof q, path), p->net.rp.w, p->net.rp.h,
           p->net.rp.topo == TOPO_TORUS ? "torus" : "mesh", p->net.vcs, p->net.buffer, (long long)res->n,
           (long long)res->done, (long long)res->left, (long long)res->cycles);
    printf("latency (generation to tail ejection, cycles): mean %.2f, max %lld\n", res->lat_avg,
           (long long)res->lat_max);
    printf("  packet      cycle   src   dst flits   injected       done  latency\n");
    for (int64_t k = 0; k < res->n; k++) {
        const trace_packet *pk = &t->pk[k];
        printf("%8lld %10lld %5d %5d %5d %10lld %10lld %8lld\n", (long long)k + 1, (long long)pk->cycle, pk->src,
               pk->dst, pk->flits, (long long)res->t_inj[k], (long long)res->t_done[k], (long long)res->latency[k]);
    }
    if (res->report) histogram_text(stdout, "the trace", res->report);
}

static void trace_csv(const trace *t, const ol_trace_result *res)
{
    printf("packet,cycle,src,dst,flits,injected,done,latency\n");
    for (int64_t k = 0; k < res->n; k++) {
        const trace_packet *pk = &t->pk[k];
        printf("%lld,%lld,%d,%d,%d,%lld,%lld,%lld\n", (long long)k + 1, (long long)pk->cycle, pk->src, pk->dst,
               pk->flits, (long long)res->t_inj[k], (long long)res->t_done[k], (long long)res->latency[k]);
    }
    if (res->report) {
        ol_point pt = { .rate = 0, .report = res->report };
        load_report_csv(stdout, &pt, 1);
    }
}

static int trace_json(const char *cmd, const ol_params *p, const char *path, const trace *t,
                      const ol_trace_result *res)
{
    json_t *rows = json_array();
    int bad = !rows;
    for (int64_t k = 0; !bad && k < res->n; k++) {
        const trace_packet *pk = &t->pk[k];
        bad = json_array_append_new(rows, json_pack("{s:I, s:i, s:i, s:i, s:I, s:I, s:I}", "cycle",
                                                    (json_int_t)pk->cycle, "src", pk->src, "dst", pk->dst, "flits",
                                                    pk->flits, "injected", (json_int_t)res->t_inj[k], "done",
                                                    (json_int_t)res->t_done[k], "latency",
                                                    (json_int_t)res->latency[k]));
    }
    char size[32];
    snprintf(size, sizeof size, "%dx%d", p->net.rp.w, p->net.rp.h);
    json_t *doc = bad ? NULL
                      : json_pack("{s:o, s:s, s:s, s:i, s:i, s:I, s:I, s:I, s:I, s:f, s:I, s:o}", "trace",
                                  ujson_str(path), "topology", p->net.rp.topo == TOPO_TORUS ? "torus" : "mesh", "size",
                                  size, "vcs", p->net.vcs, "buffer", p->net.buffer, "packets", (json_int_t)res->n,
                                  "done", (json_int_t)res->done, "left", (json_int_t)res->left, "cycles",
                                  (json_int_t)res->cycles, "latency", res->lat_avg, "max", (json_int_t)res->lat_max,
                                  "per_packet", rows);
    if (!doc) json_decref(rows);
    if (doc && res->report && load_report_json(doc, res->report)) {
        json_decref(doc);
        doc = NULL;
    }
    return cli_json_out(cmd, "load trace", doc);
}

const char *ol_flag_message(const char *msg, char *buf, size_t len)
{
    const opt_row *const tables[] = { ol_net_options, ol_packet_options, ol_measure_options };
    return opt_flag_message(tables, 3, msg, buf, len);
}

int load_trace(const char *cmd, const ol_params *p, const char *path, int allow_self, out_format fmt)
{
    char err[512], msg[600];
    fault_kind kind = FAULT_INPUT;
    int rc = ol_params_check(p, err, sizeof err);
    if (rc) return cli_fail(cmd, EXIT_USAGE, "%s", ol_flag_message(err, msg, sizeof msg));
    trace *t = trace_load(path, p->net.rp.w * p->net.rp.h, allow_self, &kind, err, sizeof err);
    if (!t) return cli_fail(cmd, cli_fault_status(kind), "--trace: %s", err);
    if (cli_catch_stop_signals()) {
        trace_free(t);
        return cli_fail(cmd, EXIT_FAIL, "cannot install the signal handlers");
    }
    ol_trace_result res;
    rc = ol_run_trace(p, t->pk, t->n, cli_stop_signal, &res, err, sizeof err);
    if (rc < 0) rc = cli_fail(cmd, cli_fault_status(fault_of(rc)), "--trace: %s", err);
    else if (rc > 0) rc = cli_fail(cmd, cli_signal_status(cli_stop_signal()), "stopped by a signal");
    else if (fmt == FMT_JSON) rc = trace_json(cmd, p, path, t, &res);
    else if (fmt == FMT_CSV) trace_csv(t, &res);
    else trace_text(p, path, t, &res);
    ol_trace_result_free(&res);
    trace_free(t);
    return rc;
}
