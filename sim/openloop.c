/* Open-loop measurement (see openloop.h): sources, warm-up, window, drain,
 * and the statistics of one point; the analytic zero-load latency and
 * channel-load bound it is checked against. */
#include "sim/openloop.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/invariant.h"
#include "util/parse.h"
#include "util/quote.h"

void ol_params_default(ol_params *p)
{
    memset(p, 0, sizeof *p);
    p->net = (olnet_params){ .rp = { .n = OL_DEFAULT_SIDE, .w = OL_DEFAULT_SIDE, .h = OL_DEFAULT_SIDE,
                                     .topo = TOPO_MESH, .tie = TIE_NOWRAP, .dateline = DATELINE_ON_LINK },
                             .vc_rule = VCRULE_ANY, .vcs = SIM_DEFAULT_VCS, .buffer = SIM_DEFAULT_BUFFER,
                             .scheme = 0, .q_update = QUPDATE_TAIL };
    p->process = OL_BERNOULLI;
    p->nlen = 1;
    p->len[0] = SIM_DEFAULT_FLITS;
    p->prob[0] = 1.0;
    p->batch = OL_DEFAULT_BATCH;
    p->warmup_min = OL_DEFAULT_WARMUP_MIN;
    p->warmup_max = OL_DEFAULT_WARMUP_MAX;
    p->warmup_tol = OL_DEFAULT_WARMUP_TOL;
    p->window = OL_DEFAULT_WINDOW;
    p->drain_cap = OL_DEFAULT_DRAIN_CAP;
    p->accept_tol = OL_DEFAULT_ACCEPT_TOL;
    p->latency_limit = OL_DEFAULT_LATENCY_LIMIT;
}

int ol_params_check(const ol_params *p, char *err, size_t errlen)
{
    if (p->batch < OL_BATCH_MIN || p->batch > OL_BATCH_MAX)
        return snprintf(err, errlen, "batch %d: allowed [%d, %d]", p->batch, OL_BATCH_MIN, OL_BATCH_MAX), -FAULT_INPUT;
    if (p->warmup_min < 1 || p->warmup_max < p->warmup_min || p->warmup_max > OL_WARMUP_MAX)
        return snprintf(err, errlen, "warmup_min %d, warmup_max %d: allowed 1 <= min <= max <= %d", p->warmup_min,
                        p->warmup_max, OL_WARMUP_MAX), -FAULT_INPUT;
    if (!(p->warmup_tol >= 0 && p->warmup_tol <= 1))
        return snprintf(err, errlen, "warmup_tol %g: allowed [0, 1]", p->warmup_tol), -FAULT_INPUT;
    if (p->window < OL_WINDOW_MIN || p->window > OL_WINDOW_MAX)
        return snprintf(err, errlen, "window %d: allowed [%d, %d] batches", p->window, OL_WINDOW_MIN, OL_WINDOW_MAX),
               -FAULT_INPUT;
    if (p->drain_cap < 0 || p->drain_cap > OL_DRAIN_CAP_MAX)
        return snprintf(err, errlen, "drain_cap %lld: allowed [0, %d]", (long long)p->drain_cap, OL_DRAIN_CAP_MAX),
               -FAULT_INPUT;
    if (!(p->accept_tol >= 0 && p->accept_tol < 1))
        return snprintf(err, errlen, "accept_tol %g: allowed [0, 1)", p->accept_tol), -FAULT_INPUT;
    if (!(p->latency_limit >= OL_LATENCY_LIMIT_MIN && p->latency_limit <= OL_LATENCY_LIMIT_MAX))
        return snprintf(err, errlen, "latency_limit %g: allowed [%g, %g]", p->latency_limit, OL_LATENCY_LIMIT_MIN,
                        OL_LATENCY_LIMIT_MAX), -FAULT_INPUT;
    return 0;
}

double ol_mean_length(const ol_params *p)
{
    double m = 0;
    for (int k = 0; k < p->nlen; k++) m += p->len[k] * p->prob[k];
    return m;
}

int ol_parse_packet_mix(ol_params *p, const char *spec, char *err, size_t errlen)
{
    char q[QUOTE_BUF];
    int64_t v;
    if (parse_int(spec, 1, OLNET_MAX_FLITS, &v) == PARSE_OK) {
        p->nlen = 1;
        p->len[0] = (int)v;
        p->prob[0] = 1.0;
        return 0;
    }
    int nlen = 0, len[OL_MAX_LENGTHS];
    double prob[OL_MAX_LENGTHS], sum = 0;
    const char *s = spec;
    while (*s) {
        const char *end = strchr(s, ',');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        char item[64];
        if (n == 0 || n >= sizeof item || nlen == OL_MAX_LENGTHS) goto bad;
        memcpy(item, s, n);
        item[n] = '\0';
        char *colon = strchr(item, ':');
        if (!colon) goto bad;
        *colon = '\0';
        double pr;
        if (parse_int(item, 1, OLNET_MAX_FLITS, &v) != PARSE_OK) goto bad;
        if (parse_real(colon + 1, 0.0, 1.0, &pr) != PARSE_OK || pr <= 0) goto bad;
        len[nlen] = (int)v;
        prob[nlen++] = pr;
        sum += pr;
        s += n;
        if (*s == ',') {
            s++;
            if (!*s) goto bad;
        }
    }
    if (nlen == 0) goto bad;
    if (fabs(sum - 1.0) > 1e-9) {
        snprintf(err, errlen, "'%s': the probabilities sum to %g, not 1", quote_str(q, sizeof q, spec), sum);
        return -FAULT_INPUT;
    }
    p->nlen = nlen;
    memcpy(p->len, len, sizeof len);
    memcpy(p->prob, prob, sizeof prob);
    return 0;
bad:
    snprintf(err, errlen,
             "'%s': expected a length in [1, %d] or a mix LEN:PROB,... (at most %d lengths, each "
             "probability in (0, 1])",
             quote_str(q, sizeof q, spec), OLNET_MAX_FLITS, OL_MAX_LENGTHS);
    return -1;
}

uint64_t ol_point_seed(uint64_t seed, double rate)
{
    uint64_t s = seed ^ (uint64_t)llround(rate * 1e9) * 0x9e3779b97f4a7c15ull;
    return rng_splitmix64(&s);
}

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
static int64_t geometric_gap(olsrc *g)
{
    if (g->prate >= 1.0) return 1;
    double u = 1.0 - rng_unit(&g->r); /* in (0, 1] */
    double k = floor(log(u) / g->log_q);
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
            g->next[i] = t + geometric_gap(g);
            due_sift_down(g, 0);
            if (generate_one(g, n, i, t, tag)) return -1;
        }
        return 0;
    }
    for (int k = 0; k < g->nsend; k++) {
        int i = g->senders[k];
        g->acc[i] += g->prate;
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
    a->bcnt[pk->tag]++;
    a->net_sum += (double)(pk->t_done + 1 - pk->t_inj);
    a->hop_sum += olnet_packet_hops(n, id);
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
    int k = 0;
    double m = 0, m2 = 0;
    for (int b = 0; b < p->window; b++) {
        if (!a->bcnt[b]) continue;
        double x = a->bsum[b] / (double)a->bcnt[b];
        k++;
        double d = x - m;
        m += d / k;
        m2 += d * (x - m);
    }
    o->lat_ci95 = k >= 2 ? t975(k - 1) * sqrt(m2 / (k - 1)) / sqrt((double)k) : 0;
}

/* Step cycle t and account for the packets that finished in it. */
static int step(olnet *n, int64_t t, oltally *a, int64_t *left, int64_t *ejected_flits, double *bl, int64_t *bn,
                int64_t *ej_w)
{
    const int32_t *done;
    int nd;
    olnet_step(n, t, &done, &nd);
    for (int k = 0; k < nd; k++) {
        const olnet_packet *pk = olnet_packet_get(n, done[k]);
        *ejected_flits += pk->len;
        if (ej_w) ej_w[pk->src] += pk->len;
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
    if (e->left > 0 || e->full) sat |= OL_SAT_DRAIN;
    if (e->accepted < (1.0 - p->accept_tol) * e->offered) sat |= OL_SAT_ACCEPT;
    if (e->lat_avg > p->latency_limit) sat |= OL_SAT_LATENCY;
    if (p->per_flow && (double)e->backlog_max > ol_flow_limit(p, e->source_rate, e->window_cycles)) sat |= OL_SAT_FLOW;
    return sat;
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
    int full;            /* the sources outgrew memory or the packet cap */
    ol_evidence ev;      /* what the window measured, for ol_judge */
    ol_stop_fn stop;     /* looked at every OL_STOP_EVERY cycles, inside a batch too */
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
    olnet_free(r->n);
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
            g->next[i] = geometric_gap(g) - 1; /* the first success, from cycle 0 */
        }
    for (int k = 0; k < g->nsend; k++) g->due[k] = k;
    for (int k = g->nsend / 2 - 1; k >= 0; k--) due_sift_down(g, k);
    r->cap = alive_cap(nodes);
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
        if (generate(&r->g, r->n, r->t, tag) || olnet_packets_alive(r->n) > r->cap) {
            r->full = 1;
            return 0;
        }
        if (tag >= 0) {
            r->left += olnet_packets_alive(r->n) - before;
            *tagged += olnet_packets_alive(r->n) - before;
        }
        if (step(r->n, r->t, &r->a, &r->left, &r->ejected, bl, bn, r->ej_w)) return -1;
    }
    return 0;
}

/* Warm-up: batches until two successive mean latencies agree (out->steady)
 * or warmup_max.  0, 1 when stopped, -1 out of memory. */
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
        if (ol_warmup_steady(p, b, prev, mean)) {
            out->steady = 1;
            break;
        }
        prev = mean;
    }
    out->warmup_cycles = r->t;
    return 0;
}

/* The window: tag what is generated, count what is offered and accepted,
 * and judge the flows at its end.  0, 1 when stopped, -1 out of memory. */
static int run_window(olrun *r, ol_stop_fn stop, ol_point *out)
{
    const ol_params *p = r->p;
    int64_t gen0 = r->g.gen_flits, ej0 = r->ejected, t0 = r->t;
    for (int b = 0; b < p->window && !r->full; b++) {
        double bl = 0;
        int64_t bn = 0;
        if (run_batch(r, b, &out->tagged, &bl, &bn)) return -1;
        if (stopped_now(stop)) return 1;
    }
    double cycles = (double)(r->t - t0), nodes = r->g.s->nodes;
    out->offered = cycles > 0 ? (double)(r->g.gen_flits - gen0) / (nodes * cycles) : 0;
    out->accepted = cycles > 0 ? (double)(r->ejected - ej0) / (nodes * cycles) : 0;
    r->ev.backlog_max = backlog_max(&r->g, r->ej_w);
    r->ev.source_rate = r->g.prate;
    r->ev.window_cycles = cycles;
    return 0;
}

/* The drain: traffic goes on until every tagged packet is out, or the cap.
 * 0, 1 when stopped, -1 out of memory. */
static int run_drain(olrun *r, ol_stop_fn stop, ol_point *out)
{
    const ol_params *p = r->p;
    int64_t t1 = r->t;
    while (r->left > 0 && !r->full && r->t - t1 < p->drain_cap) {
        double bl = 0;
        int64_t bn = 0;
        if (generate(&r->g, r->n, r->t, -1) || olnet_packets_alive(r->n) > r->cap) {
            r->full = 1;
            break;
        }
        if (step(r->n, r->t, &r->a, &r->left, &r->ejected, &bl, &bn, NULL)) return -1;
        r->t++;
        if ((r->t - t1) % OL_STOP_EVERY == 0 && stopped_now(stop)) return 1;
    }
    out->drain_cycles = r->t - t1;
    return 0;
}

int ol_run_point(const ol_params *p, const synth *s, double rate, uint64_t seed, ol_stop_fn stop,
                 ol_point *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->rate = rate;
    int rc = ol_params_check(p, err, errlen);
    if (rc) return rc;
    olrun r = { .stop = stop };
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
        r.ev.offered = out->offered;
        r.ev.accepted = out->accepted;
        r.ev.lat_avg = out->lat_avg;
        r.ev.left = r.left;
        r.ev.full = r.full;
        out->saturated = ol_judge(p, &r.ev);
    } else if (rc < 0) {
        /* The phases fail only when the tally cannot grow. */
        snprintf(err, errlen, "out of memory after %lld cycles at rate %g", (long long)r.t, rate);
        rc = -FAULT_RESOURCE;
    }
    run_free(&r);
    return rc;
}
