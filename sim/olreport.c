/* Reports of an open-loop point beyond its curve row (issue 37): the
 * latency histogram, accepted throughput per source node and per flow with
 * its spread and Jain's fairness index, latency per packet length.  See
 * openloop.h (ol_report) for the definitions and olreport.h for who builds
 * what. */
#include "sim/olreport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/invariant.h"

int ol_params_check_extras(const ol_params *p, char *err, size_t errlen)
{
    if (p->process == OL_ONOFF &&
        !(p->burst >= OL_BURST_MIN && p->burst <= OL_BURST_MAX && p->idle >= OL_BURST_MIN && p->idle <= OL_BURST_MAX))
        return snprintf(err, errlen, "process onoff:%g:%g: the mean burst and idle lengths must be in [%g, %g] cycles",
                        p->burst, p->idle, OL_BURST_MIN, OL_BURST_MAX), -FAULT_INPUT;
    if (p->hist_width < 0 || p->hist_width > OL_HIST_WIDTH_MAX)
        return snprintf(err, errlen, "histogram %d: a bin width in [1, %d] cycles, or log2", p->hist_width,
                        OL_HIST_WIDTH_MAX), -FAULT_INPUT;
    if (p->hist_width > 0 && p->hist_log)
        return snprintf(err, errlen, "histogram: either a bin width or log2, not both"), -FAULT_INPUT;
    if (!(p->ci >= 0 && p->ci <= OL_CI_MAX))
        return snprintf(err, errlen, "ci %g: allowed [0, %g] (0: a fixed window)", p->ci, OL_CI_MAX), -FAULT_INPUT;
    if (p->early_stop != 0 && p->early_stop != 1)
        return snprintf(err, errlen, "early_stop %d: 0 or 1", p->early_stop), -FAULT_INPUT;
    int nodes = p->net.rp.w * p->net.rp.h;
    if (p->report_nodes && nodes > OL_FLOW_MAX_NODES)
        return snprintf(err, errlen, "report_nodes: per-flow counts need at most %d nodes (a 32x32 grid), not %d",
                        OL_FLOW_MAX_NODES, nodes), -FAULT_INPUT;
    return 0;
}

int ol_wants_report(const ol_params *p)
{
    return p->hist_width > 0 || p->hist_log || p->report_nodes || p->report_lengths || p->report_links;
}

double ol_max_rate(const ol_params *p, const synth *s)
{
    double share = p->process == OL_ONOFF ? p->burst / (p->burst + p->idle) : 1.0, most = 0;
    for (int i = 0; i < s->nodes; i++)
        if (synth_sends(s, i) && (s->src_rate ? s->src_rate[i] : 1.0) > most) most = s->src_rate ? s->src_rate[i] : 1.0;
    double r = most > 0 ? share * ol_mean_length(p) / most : 1.0;
    return r < 1.0 ? r : 1.0;
}

ol_spread ol_spread_of(const double *x, int n)
{
    ol_spread s = { .n = n, .jain = 1 };
    if (n <= 0) return s;
    double sum = 0, sq = 0;
    s.min = s.max = x[0];
    for (int k = 0; k < n; k++) {
        if (x[k] < s.min) s.min = x[k];
        if (x[k] > s.max) s.max = x[k];
        sum += x[k];
        sq += x[k] * x[k];
    }
    s.mean = sum / n;
    if (sq > 0) s.jain = sum * sum / (n * sq);
    return s;
}

ol_report *olrep_new(const ol_params *p, int nodes)
{
    ol_report *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->nodes = nodes;
    r->w = p->net.rp.w;
    r->h = p->net.rp.h;
    r->torus = p->net.rp.topo == TOPO_TORUS;
    return r;
}

void ol_report_free(ol_report *r)
{
    if (!r) return;
    free(r->lo);
    free(r->hi);
    free(r->count);
    free(r->node_offered);
    free(r->node_accepted);
    free(r->flows);
    free(r->link_flits);
    free(r);
}

int ol_link_exists(const ol_report *r, int node, int d)
{
    int x = node % r->w, y = node / r->w;
    if (r->torus) return 1;
    return d == PORT_N ? y + 1 < r->h : d == PORT_E ? x + 1 < r->w : d == PORT_S ? y > 0 : x > 0;
}

double ol_link_busiest(const ol_report *r, int *node, int *d)
{
    uint64_t most = 0;
    *node = *d = 0;
    for (int k = 0; r->link_flits && k < r->w * r->h * 4; k++)
        if (r->link_flits[k] > most) {
            most = r->link_flits[k];
            *node = k / 4;
            *d = k % 4;
        }
    return r->link_cycles > 0 ? (double)most / r->link_cycles : 0;
}

/* The bin of latency v: v / width, or floor(log2 v) (v >= 1). */
static int64_t bin_of(const ol_params *p, int32_t v)
{
    if (p->hist_width > 0) return v / p->hist_width;
    NOCSIM_ASSERT(v >= 1, "histogram: a packet's latency is at least one cycle");
    int64_t k = 0;
    while (((int64_t)2 << k) <= v) k++;
    return k;
}

int olrep_histogram(ol_report *r, const ol_params *p, const int32_t *lat, int64_t n)
{
    r->histogram = 1;
    if (n == 0) return 0;
    int64_t b0 = bin_of(p, lat[0]), b1 = b0;
    for (int64_t k = 1; k < n; k++) {
        int64_t b = bin_of(p, lat[k]);
        if (b < b0) b0 = b;
        if (b > b1) b1 = b;
    }
    size_t nb = (size_t)(b1 - b0 + 1);
    r->lo = malloc(nb * sizeof *r->lo);
    r->hi = malloc(nb * sizeof *r->hi);
    r->count = calloc(nb, sizeof *r->count);
    if (!r->lo || !r->hi || !r->count) return -1;
    r->nbins = (int)nb;
    for (size_t k = 0; k < nb; k++) {
        int64_t b = b0 + (int64_t)k;
        r->lo[k] = p->hist_width > 0 ? b * p->hist_width : (int64_t)1 << b;
        r->hi[k] = p->hist_width > 0 ? (b + 1) * p->hist_width : (int64_t)2 << b;
    }
    for (int64_t k = 0; k < n; k++) r->count[bin_of(p, lat[k]) - b0]++;
    return 0;
}

int olrep_nodes(ol_report *r, const int32_t *senders, int nsend, const int64_t *gen, const int64_t *ej,
                double cycles)
{
    size_t nodes = (size_t)r->nodes;
    r->node_offered = calloc(nodes, sizeof *r->node_offered);
    r->node_accepted = calloc(nodes, sizeof *r->node_accepted);
    double *acc = calloc((size_t)nsend + 1, sizeof *acc);
    if (!r->node_offered || !r->node_accepted || !acc) return free(acc), -1;
    for (size_t i = 0; i < nodes && cycles > 0; i++) {
        r->node_offered[i] = (double)gen[i] / cycles;
        r->node_accepted[i] = (double)ej[i] / cycles;
    }
    for (int k = 0; k < nsend; k++) acc[k] = r->node_accepted[senders[k]];
    r->node_spread = ol_spread_of(acc, nsend);
    free(acc);
    return 0;
}

int olrep_flows(ol_report *r, const int64_t *fgen, const int64_t *fej, int nodes, double cycles)
{
    size_t pairs = (size_t)nodes * (size_t)nodes, n = 0;
    for (size_t k = 0; k < pairs; k++) n += fgen[k] || fej[k];
    r->flows = calloc(n + 1, sizeof *r->flows);
    double *acc = calloc(n + 1, sizeof *acc);
    if (!r->flows || !acc) return free(acc), -1;
    for (size_t k = 0; k < pairs; k++) {
        if (!fgen[k] && !fej[k]) continue;
        ol_flow *f = &r->flows[r->nflows];
        f->src = (int32_t)(k / (size_t)nodes);
        f->dst = (int32_t)(k % (size_t)nodes);
        f->offered = cycles > 0 ? (double)fgen[k] / cycles : 0;
        f->accepted = cycles > 0 ? (double)fej[k] / cycles : 0;
        acc[r->nflows++] = f->accepted;
    }
    r->flow_spread = ol_spread_of(acc, r->nflows);
    free(acc);
    return 0;
}

void olrep_lengths(ol_report *r, const ol_params *p, const double *sum, const int64_t *cnt)
{
    r->nlen = p->nlen;
    for (int k = 0; k < p->nlen; k++) {
        r->len[k] = p->len[k];
        r->len_count[k] = cnt[k];
        r->len_latency[k] = cnt[k] ? sum[k] / (double)cnt[k] : 0;
    }
}
