/* Open-loop measurement (see openloop.h): sources, warm-up, window, drain,
 * and the statistics of one point; the analytic zero-load latency and
 * channel-load bound it is checked against. */
#include "sim/openloop.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/olreport.h"
#include "util/invariant.h"
#include "util/parse.h"
#include "util/quote.h"

/* ---- one point ---- */

/* The sources: who sends, how often, and the packets they make. */
typedef struct {
    const ol_params *p;
    const synth *s;
    rng r;
    double prate;        /* packets per node per cycle */
    double cum[OL_MAX_LENGTHS];
    double *acc;         /* periodic: each node's accumulated share of a packet */
    int64_t *next;       /* Bernoulli: each node's next generation cycle */
    int32_t *due;        /* Bernoulli: the senders (k) as a min-heap on (next, k) */
    double log_q;        /* log(1 - prate), for the geometric gaps */
    int32_t *senders;
    int nsend;
    int64_t gen_flits;   /* flits generated (all phases) */
    int64_t *gen_w;      /* per source: flits generated so far */
    /* Issue 37: NULL / 0 unless asked. */
    double *prate_i;     /* a traffic matrix: each node's packets a cycle (its row's share) */
    double *log_q_i;     /* ... and log(1 - prate_i) */
    uint8_t *on;         /* OL_ONOFF: each node's state */
    double alpha, beta;  /* OL_ONOFF: off -> on and on -> off a cycle */
    int64_t *flow_gen;   /* report_nodes, in the window: flits generated per src * nodes + dst */
} olsrc;

static int draw_length(olsrc *g)
{
    if (g->p->nlen == 1) return g->p->len[0];
    double u = rng_unit(&g->r);
    for (int k = 0; k < g->p->nlen - 1; k++)
        if (u < g->cum[k]) return g->p->len[k];
    return g->p->len[g->p->nlen - 1];
}

/* Cycles until a Bernoulli source with probability prate a cycle next
 * succeeds, counting from the next cycle (1, 2, ...): a geometric draw, so
 * the sources cost one random number a packet rather than one a cycle. */
static int64_t geometric_gap(olsrc *g, int i)
{
    double prate = g->prate_i ? g->prate_i[i] : g->prate, log_q = g->prate_i ? g->log_q_i[i] : g->log_q;
    if (prate >= 1.0) return 1;
    double u = 1.0 - rng_unit(&g->r); /* in (0, 1] */
    double k = floor(log(u) / log_q);
    return k < 1e15 ? 1 + (int64_t)k : (int64_t)1e15;
}

/* The Bernoulli calendar: sender k comes before sender j when its next
 * cycle is earlier, or the same and k < j, so the heap's top is the next
 * sender to generate, in the order the senders were listed. */
static int due_before(const olsrc *g, int32_t k, int32_t j)
{
    int64_t a = g->next[g->senders[k]], b = g->next[g->senders[j]];
    return a < b || (a == b && k < j);
}

/* Restore the heap below position at, whose sender's cycle grew. */
static void due_sift_down(olsrc *g, int at)
{
    int32_t *h = g->due, k = h[at];
    for (;;) {
        int c = 2 * at + 1;
        if (c >= g->nsend) break;
        if (c + 1 < g->nsend && due_before(g, h[c + 1], h[c])) c++;
        if (!due_before(g, h[c], k)) break;
        h[at] = h[c];
        at = c;
    }
    h[at] = k;
}

/* One packet from sender k (node i) in cycle t. */
static int generate_one(olsrc *g, olnet *n, int i, int64_t t, int32_t tag)
{
    int len = draw_length(g);
    int dest = synth_draw(g->s, i, &g->r);
    if (olnet_add(n, i, dest, len, t, tag) < 0) return -1;
    g->gen_flits += len;
    g->gen_w[i] += len;
    if (g->flow_gen) g->flow_gen[(size_t)i * (size_t)g->s->nodes + (size_t)dest] += len;
    return 0;
}

/* OL_ONOFF (openloop.h): each sender in turn moves its state, then, if on,
 * generates with probability r_on (held in acc[i]), two draws a cycle. */
static int generate_onoff(olsrc *g, olnet *n, int64_t t, int32_t tag)
{
    for (int k = 0; k < g->nsend; k++) {
        int i = g->senders[k];
        if (ol_onoff_cycle(&g->on[i], g->alpha, g->beta, g->acc[i], &g->r) && generate_one(g, n, i, t, tag))
            return -1;
    }
    return 0;
}

/* Generate cycle t's packets: Bernoulli senders whose cycle has come, from
 * the calendar (a cycle costs nothing where none has), or every periodic
 * sender's accumulated share; either way in the senders' order, so the
 * random numbers are drawn in the same order.  Returns -1 when the network
 * cannot take more (memory, packet ids). */
static int generate(olsrc *g, olnet *n, int64_t t, int32_t tag)
{
    if (g->p->process == OL_BERNOULLI) {
        /* Every cycle is asked in turn, so the top is never behind t. */
        while (g->nsend && g->next[g->senders[g->due[0]]] <= t) {
            int i = g->senders[g->due[0]];
            g->next[i] = t + geometric_gap(g, i);
            due_sift_down(g, 0);
            if (generate_one(g, n, i, t, tag)) return -1;
        }
        return 0;
    }
    if (g->p->process == OL_ONOFF) return generate_onoff(g, n, t, tag);
    for (int k = 0; k < g->nsend; k++) {
        int i = g->senders[k];
        g->acc[i] += g->prate_i ? g->prate_i[i] : g->prate;
        if (g->acc[i] < 1.0) continue;
        g->acc[i] -= 1.0;
        if (generate_one(g, n, i, t, tag)) return -1;
    }
    return 0;
}

/* What the window's tagged packets add up to. */
typedef struct {
    int32_t *lat;        /* latency of each tagged packet that finished */
    int64_t nlat, cap;
    double *bsum;        /* per window batch: latency sum and count */
    int64_t *bcnt;
    double net_sum, hop_sum;
    double done_sum, done_gen;   /* the finished ones' latencies and generation cycles, summed */
    /* Issue 37: per length of the mix, latency sum and count; with
     * report_nodes, in the window, flits ejected per src * nodes + dst. */
    double len_sum[OL_MAX_LENGTHS];
    int64_t len_cnt[OL_MAX_LENGTHS];
    const ol_params *p;
    int nodes;
    int64_t *flow_ej;
} oltally;

static int tally_add(oltally *a, const olnet *n, int32_t id)
{
    const olnet_packet *pk = olnet_packet_get(n, id);
    if (a->nlat == a->cap) {
        int64_t cap = a->cap ? 2 * a->cap : 4096;
        int32_t *l = realloc(a->lat, sizeof *l * (size_t)cap);
        if (!l) return -1;
        a->lat = l;
        a->cap = cap;
    }
    int64_t lat = pk->t_done + 1 - pk->t_gen;
    a->lat[a->nlat++] = (int32_t)(lat < INT32_MAX ? lat : INT32_MAX);
    a->bsum[pk->tag] += (double)lat;
    a->done_sum += (double)lat;
    a->done_gen += (double)pk->t_gen;
    a->bcnt[pk->tag]++;
    a->net_sum += (double)(pk->t_done + 1 - pk->t_inj);
    a->hop_sum += olnet_packet_hops(n, id);
    for (int k = 0; k < a->p->nlen; k++)
        if (a->p->len[k] == pk->len) {
            a->len_sum[k] += (double)lat;
            a->len_cnt[k]++;
            break;
        }
    return 0;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The values of ranks r50, r99 (0-based) and the largest of lat[0..n).
 * Latencies span a few thousand cycles where the window has hundreds of
 * thousands of packets, so a count per value finds them in two passes;
 * a sort (which reorders lat) is kept for spans too wide to count. */
static void latency_ranks(int32_t *lat, int64_t n, int64_t r50, int64_t r99, int32_t out[3])
{
    int32_t lo = lat[0], hi = lat[0];
    for (int64_t k = 1; k < n; k++) {
        if (lat[k] < lo) lo = lat[k];
        if (lat[k] > hi) hi = lat[k];
    }
    int64_t span = (int64_t)hi - lo + 1;
    int64_t *count = span <= 4 * n + 4096 ? calloc((size_t)span, sizeof *count) : NULL;
    if (!count) {
        qsort(lat, (size_t)n, sizeof *lat, cmp_i32);
        out[0] = lat[r50], out[1] = lat[r99], out[2] = lat[n - 1];
        return;
    }
    for (int64_t k = 0; k < n; k++) count[lat[k] - lo]++;
    int64_t below = 0;
    int got = 0;
    for (int64_t v = 0; v < span && got < 2; v++) {
        below += count[v];
        if (got == 0 && below > r50) out[got++] = (int32_t)(lo + v);
        if (got == 1 && below > r99) out[got++] = (int32_t)(lo + v);
    }
    out[2] = hi;
    free(count);
}

/* Student's t at 97.5 % for df degrees of freedom (normal beyond 30). */
static double t975(int df)
{
    static const double t[] = { 0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
                                 2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
    return df >= 1 && df <= 30 ? t[df] : 1.960;
}

/* The CI95 of the batch means of bsum / bcnt over batches [0, nb) that
 * have packets, into *ci (0 for fewer than two) and their mean into *mean;
 * returns how many had packets. */
static int batch_ci(const double *bsum, const int64_t *bcnt, int nb, double *ci, double *mean)
{
    int k = 0;
    double m = 0, m2 = 0;
    for (int b = 0; b < nb; b++) {
        if (!bcnt[b]) continue;
        double x = bsum[b] / (double)bcnt[b];
        k++;
        double d = x - m;
        m += d / k;
        m2 += d * (x - m);
    }
    *ci = k >= 2 ? t975(k - 1) * sqrt(m2 / (k - 1)) / sqrt((double)k) : 0;
    *mean = m;
    return k;
}

static void finish_stats(const ol_params *p, oltally *a, ol_point *o)
{
    o->tagged_done = a->nlat;
    if (a->nlat) {
        double sum = 0;
        for (int64_t k = 0; k < a->nlat; k++) sum += a->lat[k];
        o->lat_avg = sum / (double)a->nlat;
        o->net_avg = a->net_sum / (double)a->nlat;
        o->hops_avg = a->hop_sum / (double)a->nlat;
        int32_t r[3] = { 0, 0, 0 };
        latency_ranks(a->lat, a->nlat, (a->nlat - 1) / 2, (int64_t)ceil(0.99 * (double)a->nlat) - 1, r);
        o->lat_p50 = r[0];
        o->lat_p99 = r[1];
        o->lat_max = r[2];
    }
    /* Batch means over the batches that had packets. */
    double mean;
    batch_ci(a->bsum, a->bcnt, p->window, &o->lat_ci95, &mean);
}

/* Step cycle t and account for the packets that finished in it; *moved
 * gets the flits moved (the watchdog's). */
static int step(olnet *n, int64_t t, oltally *a, int64_t *left, int64_t *ejected_flits, double *bl, int64_t *bn,
                int64_t *ej_w, int64_t *moved)
{
    const int32_t *done;
    int nd;
    *moved = olnet_step(n, t, &done, &nd);
    for (int k = 0; k < nd; k++) {
        const olnet_packet *pk = olnet_packet_get(n, done[k]);
        *ejected_flits += pk->len;
        if (ej_w) ej_w[pk->src] += pk->len;
        if (a->flow_ej) a->flow_ej[(size_t)pk->src * (size_t)a->nodes + (size_t)pk->dest] += pk->len;
        *bl += (double)(pk->t_done + 1 - pk->t_gen);
        (*bn)++;
        if (pk->tag >= 0) {
            if (tally_add(a, n, done[k])) return -1;
            (*left)--;
        }
        olnet_release(n, done[k]);
    }
    return 0;
}

/* Has some source's backlog (its flits generated and not yet ejected) grown
 * by the end of the window beyond what a stable flow holds?  An overloaded
 * flow's backlog grows every cycle from the start, so after warm-up and
 * window it exceeds both FLOW_MIN_BACKLOG packets and accept_tol of what the
 * source offers in a window; a stable flow's backlog is its packets in
 * flight and in its queue, a few packets.  One overloaded channel starves
 * only the flows that cross it, which the network-wide count cannot see. */
#define FLOW_MIN_BACKLOG 8
double ol_flow_limit(const ol_params *p, double source_rate, double window_cycles)
{
    double limit = FLOW_MIN_BACKLOG * ol_mean_length(p), share = p->accept_tol * source_rate * ol_mean_length(p) * window_cycles;
    if (share > limit) limit = share;
    return limit;
}

/* The largest source backlog, in flits, at the window's end. */
static int64_t backlog_max(const olsrc *g, const int64_t *ej_w)
{
    int64_t max = 0;
    for (int k = 0; k < g->nsend; k++) {
        int i = g->senders[k];
        if (g->gen_w[i] - ej_w[i] > max) max = g->gen_w[i] - ej_w[i];
    }
    return max;
}

unsigned ol_judge(const ol_params *p, const ol_evidence *e)
{
    NOCSIM_ASSERT(e->offered >= 0 && e->accepted >= 0 && e->left >= 0 && e->backlog_max >= 0,
                  "judge: measured counts and rates are not negative");
    unsigned sat = 0;
    if ((e->left > 0 && !e->cut) || e->full) sat |= OL_SAT_DRAIN;
    if (e->accepted < (1.0 - p->accept_tol) * e->offered) sat |= OL_SAT_ACCEPT;
    if (e->lat_avg > p->latency_limit || e->lat_floor > p->latency_limit) sat |= OL_SAT_LATENCY;
    if (p->per_flow && (double)e->backlog_max > ol_flow_limit(p, e->source_rate, e->window_cycles)) sat |= OL_SAT_FLOW;
    if (e->deadlock) sat |= OL_SAT_DEADLOCK;
    return sat;
}

double ol_latency_floor(int64_t tagged, double done_sum, int64_t left, double left_gen, int64_t t)
{
    NOCSIM_ASSERT(left >= 0 && left <= tagged, "latency floor: the packets left are some of those tagged");
    return tagged > 0 ? (done_sum + (double)left * (double)(t + 1) - left_gen) / (double)tagged : 0;
}

int ol_ci_met(const ol_params *p, int b, double ci95, double mean, int batches_with_packets)
{
    int fewest = p->window < OL_CI_MIN_BATCHES ? p->window : OL_CI_MIN_BATCHES;
    return b + 1 >= fewest && batches_with_packets >= 2 && ci95 <= p->ci * mean;
}

int ol_backlog_growing(const ol_params *p, const int64_t *back, int64_t gen)
{
    for (int k = 1; k <= OL_GROWTH_BATCHES; k++)
        if (back[k] <= back[k - 1]) return 0;
    return (double)(back[OL_GROWTH_BATCHES] - back[0]) > p->accept_tol * (double)gen;
}

int ol_watchdog(int64_t moved, int64_t in_network, int64_t *quiet)
{
    *quiet = moved == 0 && in_network > 0 ? *quiet + 1 : 0;
    return *quiet >= OL_DEADLOCK_CYCLES;
}

int ol_warmup_steady(const ol_params *p, int b, double prev, double mean)
{
    return b + 1 >= p->warmup_min && prev > 0 && fabs(mean - prev) <= p->warmup_tol * prev;
}

/* The most packets a point may keep alive before it is called saturated:
 * past this the source queues only grow. */
static int64_t alive_cap(int nodes) { return (int64_t)nodes * 4096 < OLNET_MAX_PACKETS / 2 ? (int64_t)nodes * 4096 : OLNET_MAX_PACKETS / 2; }

/* One point's run: the network, its sources, the window's tally and where
 * the phases leave the clock. */
typedef struct {
    const ol_params *p;
    olnet *n;
    olsrc g;
    oltally a;
    int64_t *ej_w;       /* per source: flits ejected up to the window's end */
    int64_t t, left, ejected, cap;
    int full;            /* the sources outgrew memory or the packet cap, or a deadlock */
    int deadlock;        /* the watchdog found one (ol_watchdog) */
    int64_t quiet;       /* cycles in a row without a move, flits in the network */
    ol_evidence ev;      /* what the window measured, for ol_judge */
    int early;           /* early_stop or ci: the drain ends once the verdict is certain */
    double tag_gen;      /* the tagged packets' generation cycles, summed (ol_latency_floor) */
    int64_t back[OL_GROWTH_BATCHES + 1], gen[OL_GROWTH_BATCHES + 1]; /* at the last batch ends, oldest first */
    int nback;           /* batch ends noted (ci) */
    ol_stop_fn stop;     /* looked at every OL_STOP_EVERY cycles, inside a batch too */
    /* Issue 37, report_nodes: per node, flits generated and ejected before
     * the window, then in it; per flow (src * nodes + dst) in the window. */
    int64_t *gen0, *ej0, *flow_gen, *flow_ej;
    uint64_t *links;     /* report_links: flits over each link in the window (olnet_count_links) */
} olrun;

/* A stop signal is answered within this many cycles (a 1024 x 1024 cycle
 * takes tens of milliseconds; a batch may be a million cycles). */
#define OL_STOP_EVERY 8

static void run_free(olrun *r)
{
    free(r->g.acc);
    free(r->g.next);
    free(r->g.due);
    free(r->g.gen_w);
    free(r->ej_w);
    free(r->g.senders);
    free(r->a.bsum);
    free(r->a.bcnt);
    free(r->a.lat);
    free(r->g.prate_i);
    free(r->g.log_q_i);
    free(r->g.on);
    free(r->gen0);
    free(r->ej0);
    free(r->flow_gen);
    free(r->flow_ej);
    free(r->links);
    olnet_free(r->n);
}

/* A traffic matrix's per-source rates: rate x the row's sum.  0, or -1 out
 * of memory with a message. */
static int setup_matrix(olsrc *g, double rate, char *err, size_t errlen)
{
    int nodes = g->s->nodes;
    g->prate_i = calloc((size_t)nodes, sizeof *g->prate_i);
    g->log_q_i = calloc((size_t)nodes, sizeof *g->log_q_i);
    if (!g->prate_i || !g->log_q_i) return snprintf(err, errlen, "out of memory"), -1;
    for (int i = 0; i < nodes; i++) {
        g->prate_i[i] = rate * g->s->src_rate[i] / ol_mean_length(g->p);
        g->log_q_i[i] = g->prate_i[i] < 1.0 ? log(1.0 - g->prate_i[i]) : -1.0;
    }
    return 0;
}

/* What the issue-37 parameters add after the sources are set: the on/off
 * states (drawn from the stationary share burst / (burst + idle), each
 * source's r_on in acc) and the report's counters.  0, or a negative fault
 * kind with a message (a rate an on/off source cannot reach, memory). */
static int setup_extras(olrun *r, double rate, char *err, size_t errlen)
{
    const ol_params *p = r->p;
    olsrc *g = &r->g;
    size_t nodes = (size_t)g->s->nodes;
    if (p->process == OL_ONOFF) {
        if (!(g->on = calloc(nodes, 1))) return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
        g->alpha = 1.0 / p->idle;
        g->beta = 1.0 / p->burst;
        double share = p->burst / (p->burst + p->idle);
        for (int k = 0; k < g->nsend; k++) {
            int i = g->senders[k];
            g->acc[i] = (g->prate_i ? g->prate_i[i] : g->prate) / share;
            if (g->acc[i] > 1.0)
                return snprintf(err, errlen,
                                "rate %g: an on/off source (burst %g, idle %g) would have to send %.4g packets a "
                                "cycle while on; at most 1, so rates up to %.4g here",
                                rate, p->burst, p->idle, g->acc[i], rate / g->acc[i]), -FAULT_INPUT;
            g->on[i] = rng_unit(&g->r) < share;
        }
    }
    if (p->report_nodes) {
        r->gen0 = calloc(nodes, sizeof *r->gen0);
        r->ej0 = calloc(nodes, sizeof *r->ej0);
        r->flow_gen = calloc(nodes * nodes, sizeof *r->flow_gen);
        r->flow_ej = calloc(nodes * nodes, sizeof *r->flow_ej);
        if (!r->gen0 || !r->ej0 || !r->flow_gen || !r->flow_ej)
            return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    }
    if (p->report_links && !(r->links = calloc(nodes * 4, sizeof *r->links)))
        return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    return 0;
}

/* The network, the sources (every sending node, its first Bernoulli cycle
 * and periodic phase) and the tally.  0, or a negative fault kind with a
 * message (the network's refusal, or memory). */
static int run_setup(olrun *r, const ol_params *p, const synth *s, double rate, uint64_t seed, char *err,
                     size_t errlen)
{
    int nodes = s->nodes;
    r->p = p;
    fault_kind kind = FAULT_RESOURCE;
    /* Routes draw from a stream of their own, apart from the sources'. */
    olnet_params np = p->net;
    uint64_t rs = seed ^ 0x526f757465730000ull; /* "Routes" */
    np.route_seed = rng_splitmix64(&rs);
    if (!(r->n = olnet_new(&np, NULL, &kind, err, errlen))) return fault_rc(kind);
    olsrc *g = &r->g;
    *g = (olsrc){ .p = p, .s = s, .prate = rate / ol_mean_length(p) };
    rng_seed(&g->r, seed);
    double c = 0;
    for (int k = 0; k < p->nlen; k++) g->cum[k] = (c += p->prob[k]);
    g->log_q = g->prate < 1.0 ? log(1.0 - g->prate) : -1.0;
    if (s->src_rate && setup_matrix(g, rate, err, errlen)) return -FAULT_RESOURCE;
    g->acc = calloc((size_t)nodes, sizeof *g->acc);
    g->next = calloc((size_t)nodes, sizeof *g->next);
    g->gen_w = calloc((size_t)nodes, sizeof *g->gen_w);
    g->senders = malloc(sizeof *g->senders * (size_t)nodes);
    g->due = malloc(sizeof *g->due * (size_t)nodes);
    r->ej_w = calloc((size_t)nodes, sizeof *r->ej_w);
    r->a.bsum = calloc((size_t)p->window, sizeof *r->a.bsum);
    r->a.bcnt = calloc((size_t)p->window, sizeof *r->a.bcnt);
    if (!g->acc || !g->next || !g->due || !g->gen_w || !r->ej_w || !g->senders || !r->a.bsum || !r->a.bcnt)
        return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    for (int i = 0; i < nodes; i++)
        if (synth_sends(s, i)) {
            g->senders[g->nsend++] = i;
            g->acc[i] = rng_unit(&g->r); /* periodic sources start out of phase */
            g->next[i] = geometric_gap(g, i) - 1; /* the first success, from cycle 0 */
        }
    for (int k = 0; k < g->nsend; k++) g->due[k] = k;
    for (int k = g->nsend / 2 - 1; k >= 0; k--) due_sift_down(g, k);
    r->cap = alive_cap(nodes);
    r->a.p = p;
    r->a.nodes = nodes;
    return setup_extras(r, rate, err, errlen);
}

/* After generate failed: the packet ids ran out (the sources outgrew the
 * network: the point ends as full, 0), or memory did (-1: the run fails;
 * a memory fault is never taken for a saturated point). */
static int generate_failed(olrun *r)
{
    if (olnet_packets_alive(r->n) < OLNET_MAX_PACKETS) return -1;
    r->full = 1;
    return 0;
}

/* One batch of cycles generating packets tagged `tag` (-1: untagged), into
 * *bl / *bn the latencies of the packets that finished.  0, or -1 when
 * memory runs out; r->full ends it early. */
static int run_batch(olrun *r, int32_t tag, int64_t *tagged, double *bl, int64_t *bn)
{
    for (int64_t e = r->t + r->p->batch; r->t < e; r->t++) {
        if (r->t % OL_STOP_EVERY == 0 && stopped_now(r->stop)) return 0;   /* the caller sees it too */
        int64_t before = olnet_packets_alive(r->n);
        if (generate(&r->g, r->n, r->t, tag)) return generate_failed(r);
        if (olnet_packets_alive(r->n) > r->cap) {
            r->full = 1;
            return 0;
        }
        if (tag >= 0) {
            r->left += olnet_packets_alive(r->n) - before;
            *tagged += olnet_packets_alive(r->n) - before;
            r->tag_gen += (double)(olnet_packets_alive(r->n) - before) * (double)r->t;
        }
        int64_t moved;
        if (step(r->n, r->t, &r->a, &r->left, &r->ejected, bl, bn, r->ej_w, &moved)) return -1;
        if (ol_watchdog(moved, olnet_flits_in_network(r->n), &r->quiet)) {
            r->deadlock = r->full = 1; /* full: every phase ends here */
            r->t++;
            return 0;
        }
    }
    return 0;
}

/* Note a batch's end (ci): the backlog and the flits generated so far. */
static void note_batch(olrun *r)
{
    memmove(r->back, r->back + 1, sizeof r->back - sizeof r->back[0]);
    memmove(r->gen, r->gen + 1, sizeof r->gen - sizeof r->gen[0]);
    r->back[OL_GROWTH_BATCHES] = r->g.gen_flits - r->ejected;
    r->gen[OL_GROWTH_BATCHES] = r->g.gen_flits;
    r->nback++;
}

/* [R-OL-EARLY-2] over the batches noted. */
static int growing(const olrun *r)
{
    return r->nback > OL_GROWTH_BATCHES &&
           ol_backlog_growing(r->p, r->back, r->gen[OL_GROWTH_BATCHES] - r->gen[0]);
}

/* The floor of the tagged packets' mean latency now (ol_latency_floor). */
static double floor_now(const olrun *r, int64_t tagged)
{
    return ol_latency_floor(tagged, r->a.done_sum, r->left, r->tag_gen - r->a.done_gen, r->t);
}

/* Is the verdict certain with what is known now ([R-OL-EARLY-1]: the
 * window's evidence and the latency floor)?  When it is, r->ev says so
 * (cut, the floor) and 1 is returned; else r->ev is left as it was. */
static int certain_now(olrun *r, int64_t tagged)
{
    ol_evidence e = r->ev;
    e.cut = 1;
    e.lat_floor = floor_now(r, tagged);
    if (!ol_judge(r->p, &e)) return 0;
    r->ev = e;
    return 1;
}

/* Warm-up: batches until two successive mean latencies agree (out->steady)
 * or warmup_max (with ci, or until the backlog grows [R-OL-EARLY-2]).  0, 1
 * when stopped, -1 out of memory. */
static int run_warmup(olrun *r, ol_stop_fn stop, ol_point *out)
{
    const ol_params *p = r->p;
    double prev = -1;
    for (int b = 0; b < p->warmup_max && !r->full; b++) {
        double bl = 0;
        int64_t bn = 0;
        if (run_batch(r, -1, NULL, &bl, &bn)) return -1;
        if (stopped_now(stop)) return 1;
        double mean = bn ? bl / (double)bn : 0;
        if (p->ci > 0) note_batch(r);
        if (ol_warmup_steady(p, b, prev, mean)) {
            out->steady = 1;
            break;
        }
        prev = mean;
        if (p->ci > 0 && b + 1 >= p->warmup_min && growing(r)) break;
    }
    out->warmup_cycles = r->t;
    return 0;
}

/* The window's evidence so far (it started at t0 with gen0 flits generated
 * and ej0 ejected): offered, accepted, the largest source backlog. */
static void window_evidence(olrun *r, int64_t gen0, int64_t ej0, int64_t t0, ol_point *out)
{
    double cycles = (double)(r->t - t0), nodes = r->g.s->nodes;
    out->offered = cycles > 0 ? (double)(r->g.gen_flits - gen0) / (nodes * cycles) : 0;
    out->accepted = cycles > 0 ? (double)(r->ejected - ej0) / (nodes * cycles) : 0;
    r->ev.offered = out->offered;
    r->ev.accepted = out->accepted;
    r->ev.backlog_max = backlog_max(&r->g, r->ej_w);
    r->ev.source_rate = r->g.prate;
    r->ev.window_cycles = cycles;
}

/* With ci, after window batch b: does the window end here, its CI met
 * [R-OL-CI-1] or its verdict certain with a growing backlog [R-OL-EARLY-2]
 * (then r->ev.cut)? */
static int window_ends(olrun *r, int b, int64_t gen0, int64_t ej0, int64_t t0, ol_point *out)
{
    const ol_params *p = r->p;
    note_batch(r);
    double ci, mean;
    int k = batch_ci(r->a.bsum, r->a.bcnt, b + 1, &ci, &mean);
    if (ol_ci_met(p, b, ci, mean, k)) return 1;
    if (b + 1 < (p->window < OL_CI_MIN_BATCHES ? p->window : OL_CI_MIN_BATCHES) || !growing(r)) return 0;
    window_evidence(r, gen0, ej0, t0, out);
    return certain_now(r, out->tagged);
}

/* The window: tag what is generated, count what is offered and accepted,
 * and judge the flows at its end.  0, 1 when stopped, -1 out of memory. */
static int run_window(olrun *r, ol_stop_fn stop, ol_point *out)
{
    const ol_params *p = r->p;
    int64_t gen0 = r->g.gen_flits, ej0 = r->ejected, t0 = r->t;
    if (p->report_nodes) {
        memcpy(r->gen0, r->g.gen_w, sizeof *r->gen0 * (size_t)r->g.s->nodes);
        memcpy(r->ej0, r->ej_w, sizeof *r->ej0 * (size_t)r->g.s->nodes);
        r->g.flow_gen = r->flow_gen;
        r->a.flow_ej = r->flow_ej;
    }
    olnet_count_links(r->n, r->links); /* NULL unless report_links */
    for (int b = 0; b < p->window && !r->full; b++) {
        double bl = 0;
        int64_t bn = 0;
        if (run_batch(r, b, &out->tagged, &bl, &bn)) return -1;
        if (stopped_now(stop)) return 1;
        if (p->ci > 0 && window_ends(r, b, gen0, ej0, t0, out)) break;
    }
    window_evidence(r, gen0, ej0, t0, out);
    olnet_count_links(r->n, NULL);
    r->g.flow_gen = NULL;
    r->a.flow_ej = NULL;
    if (p->report_nodes)
        for (int i = 0; i < r->g.s->nodes; i++) {
            r->gen0[i] = r->g.gen_w[i] - r->gen0[i];
            r->ej0[i] = r->ej_w[i] - r->ej0[i];
        }
    return 0;
}

/* The drain: traffic goes on until every tagged packet is out, or the cap,
 * or (early) the verdict is certain [R-OL-EARLY-1].  0, 1 when stopped, -1
 * out of memory. */
static int run_drain(olrun *r, ol_stop_fn stop, ol_point *out)
{
    const ol_params *p = r->p;
    int64_t t1 = r->t;
    while (r->left > 0 && !r->full && !r->ev.cut && r->t - t1 < p->drain_cap) {
        if (r->early && certain_now(r, out->tagged)) break;
        double bl = 0;
        int64_t bn = 0;
        if (generate(&r->g, r->n, r->t, -1) && generate_failed(r)) return -1;
        if (r->full || olnet_packets_alive(r->n) > r->cap) {
            r->full = 1;
            break;
        }
        int64_t moved;
        if (step(r->n, r->t, &r->a, &r->left, &r->ejected, &bl, &bn, NULL, &moved)) return -1;
        r->t++;
        if (ol_watchdog(moved, olnet_flits_in_network(r->n), &r->quiet)) {
            r->deadlock = r->full = 1;
            break;
        }
        if ((r->t - t1) % OL_STOP_EVERY == 0 && stopped_now(stop)) return 1;
    }
    out->drain_cycles = r->t - t1;
    return 0;
}

/* The point's report (ol_report), from the tally and the window's counts.
 * 0, or -FAULT_RESOURCE with a message. */
static int run_report(olrun *r, ol_point *out, char *err, size_t errlen)
{
    const ol_params *p = r->p;
    const synth *s = r->g.s;
    double cycles = r->ev.window_cycles;
    ol_report *rep = olrep_new(p, s->nodes);
    int bad = !rep;
    if (!bad && (p->hist_width > 0 || p->hist_log)) bad = olrep_histogram(rep, p, r->a.lat, r->a.nlat);
    if (!bad && p->report_nodes)
        bad = olrep_nodes(rep, r->g.senders, r->g.nsend, r->gen0, r->ej0, cycles) ||
              olrep_flows(rep, r->flow_gen, r->flow_ej, s->nodes, cycles);
    if (!bad && p->report_lengths) olrep_lengths(rep, p, r->a.len_sum, r->a.len_cnt);
    if (!bad && p->report_links) {
        rep->link_flits = r->links; /* the report's now */
        r->links = NULL;
        rep->link_cycles = cycles;
    }
    if (bad) {
        ol_report_free(rep);
        return snprintf(err, errlen, "out of memory for the report at rate %g", out->rate), -FAULT_RESOURCE;
    }
    out->report = rep;
    return 0;
}

int ol_run_point(const ol_params *p, const synth *s, double rate, uint64_t seed, ol_stop_fn stop,
                 ol_point *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->rate = rate;
    int rc = ol_params_check(p, err, errlen);
    if (rc) return rc;
    olrun r = { .stop = stop, .early = p->early_stop || p->ci > 0 };
    if ((rc = run_setup(&r, p, s, rate, seed, err, errlen))) {
        run_free(&r);
        return rc;
    }
    rc = run_warmup(&r, stop, out);
    if (!rc) rc = run_window(&r, stop, out);
    if (!rc) rc = run_drain(&r, stop, out);
    if (!rc) {
        out->cycles = r.t;
        finish_stats(p, &r.a, out);
        r.ev.lat_avg = out->lat_avg;
        r.ev.left = r.left;
        r.ev.full = r.full && !r.deadlock;
        r.ev.deadlock = r.deadlock;
        out->saturated = ol_judge(p, &r.ev);
        if (ol_wants_report(p)) rc = run_report(&r, out, err, errlen);
    } else if (rc < 0) {
        /* The phases fail only when the tally cannot grow. */
        snprintf(err, errlen, "out of memory after %lld cycles at rate %g", (long long)r.t, rate);
        rc = -FAULT_RESOURCE;
    }
    run_free(&r);
    return rc;
}
