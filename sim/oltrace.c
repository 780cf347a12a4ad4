/* A trace replayed open-loop (issue 37, openloop.h's ol_run_trace): each
 * packet generated at its cycle, the network stepped until all have ejected
 * or the drain cap after the last generation.  Empty stretches between
 * packets are jumped over (olnet_step allows it when nothing is alive). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/olreport.h"
#include "sim/openloop.h"

void ol_trace_result_free(ol_trace_result *r)
{
    if (!r) return;
    free(r->t_inj);
    free(r->t_done);
    free(r->latency);
    ol_report_free(r->report);
    memset(r, 0, sizeof *r);
}

/* Every packet inside p's grid and lengths, in cycle order.  0 or
 * -FAULT_INPUT naming the packet (1-based, the trace's order). */
static int check_packets(const ol_params *p, const ol_trace_packet *pk, int64_t n, char *err, size_t errlen)
{
    int nodes = p->net.rp.w * p->net.rp.h;
    if (n > INT32_MAX) return snprintf(err, errlen, "trace: %lld packets; at most %d", (long long)n, INT32_MAX), -FAULT_INPUT;
    for (int64_t k = 0; k < n; k++) {
        const ol_trace_packet *q = &pk[k];
        const char *bad = q->cycle < 0 || (k && q->cycle < pk[k - 1].cycle) ? "its cycle is before the one before it"
                          : q->src < 0 || q->src >= nodes || q->dst < 0 || q->dst >= nodes ? "a node id out of range"
                          : q->flits < 1 || q->flits > OLNET_MAX_FLITS ? "its length is out of range" : NULL;
        if (bad)
            return snprintf(err, errlen, "trace packet %lld (cycle %lld, %d -> %d, %d flits): %s (nodes 0..%d, "
                            "lengths 1..%d, cycles not decreasing)", (long long)k + 1, (long long)q->cycle, q->src,
                            q->dst, q->flits, bad, nodes - 1, OLNET_MAX_FLITS), -FAULT_INPUT;
    }
    return 0;
}

/* The mean and largest latency, and the histogram when p asks.  0 or
 * -FAULT_RESOURCE. */
static int trace_stats(const ol_params *p, ol_trace_result *out, char *err, size_t errlen)
{
    double sum = 0;
    int32_t *lat = malloc(sizeof *lat * (size_t)(out->done + 1));
    if (!lat) return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    int64_t m = 0;
    for (int64_t k = 0; k < out->n; k++) {
        if (out->latency[k] < 0) continue;
        sum += (double)out->latency[k];
        if (out->latency[k] > out->lat_max) out->lat_max = out->latency[k];
        lat[m++] = (int32_t)(out->latency[k] < INT32_MAX ? out->latency[k] : INT32_MAX);
    }
    out->lat_avg = m ? sum / (double)m : 0;
    int rc = 0;
    if (p->hist_width > 0 || p->hist_log) {
        out->report = olrep_new(p, p->net.rp.w * p->net.rp.h);
        if (!out->report || olrep_histogram(out->report, p, lat, m)) {
            snprintf(err, errlen, "out of memory");
            rc = -FAULT_RESOURCE;
        }
    }
    free(lat);
    return rc;
}

int ol_run_trace(const ol_params *p, const ol_trace_packet *pk, int64_t n, ol_stop_fn stop, ol_trace_result *out,
                 char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    int rc = ol_params_check(p, err, errlen);
    if (!rc) rc = check_packets(p, pk, n, err, errlen);
    if (rc) return rc;
    fault_kind kind = FAULT_RESOURCE;
    olnet *net = olnet_new(&p->net, NULL, &kind, err, errlen);
    if (!net) return fault_rc(kind);
    out->n = n;
    out->t_inj = malloc(sizeof *out->t_inj * (size_t)(n + 1));
    out->t_done = malloc(sizeof *out->t_done * (size_t)(n + 1));
    out->latency = malloc(sizeof *out->latency * (size_t)(n + 1));
    if (!out->t_inj || !out->t_done || !out->latency) {
        olnet_free(net);
        ol_trace_result_free(out);
        return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    }
    for (int64_t k = 0; k < n; k++) out->t_inj[k] = out->t_done[k] = out->latency[k] = -1;
    int64_t t = 0, k = 0, last = n ? pk[n - 1].cycle : 0;
    for (;;) {
        if (k == n && olnet_packets_alive(net) == 0) break;
        if (k == n && t - last > p->drain_cap) break;
        if (olnet_packets_alive(net) == 0 && pk[k].cycle > t) t = pk[k].cycle;
        for (; k < n && pk[k].cycle == t; k++)
            if (olnet_add(net, pk[k].src, pk[k].dst, pk[k].flits, t, (int32_t)k) < 0) {
                olnet_free(net);
                ol_trace_result_free(out);
                return snprintf(err, errlen, "trace packet %lld: out of memory or more than %d packets alive",
                                (long long)k + 1, OLNET_MAX_PACKETS), -FAULT_RESOURCE;
            }
        const int32_t *done;
        int nd;
        olnet_step(net, t, &done, &nd);
        for (int j = 0; j < nd; j++) {
            const olnet_packet *q = olnet_packet_get(net, done[j]);
            out->t_inj[q->tag] = q->t_inj;
            out->t_done[q->tag] = q->t_done;
            out->latency[q->tag] = q->t_done + 1 - q->t_gen;
            out->done++;
            olnet_release(net, done[j]);
        }
        t++;
        if (t % 8 == 0 && stopped_now(stop)) {
            olnet_free(net);
            ol_trace_result_free(out);
            return 1;
        }
    }
    olnet_free(net);
    out->cycles = t;
    out->left = n - out->done;
    rc = trace_stats(p, out, err, errlen);
    if (rc) ol_trace_result_free(out);
    return rc;
}
