/* Lower bounds.  Every bound is "work that must be done" divided by "work
 * possible per step", rounded up:
 *   inform:    a node informs at most k others per step, so the informed set
 *              grows at most (1 + k_root), then x(1 + k_max) per step (WH OAB);
 *   inject / receive: a node sends / receives at most k messages per step;
 *   first-hop / last-hop: with the allowed routes a sender's messages must
 *              leave over particular channels, each carrying one per step —
 *              the least possible maximum load (an assignment problem solved
 *              exactly by augmenting paths).  This is why the mesh OAS from an
 *              edge node needs 6 steps with minimal routing, not ceil(15/3)=5;
 *   distance:  sum of shortest distances of all messages / number of channels;
 *   cut:       for a node set S, the messages from S to the rest all cross
 *              the channels leaving S; the tightest S over all subsets (n <= 20)
 *              or over BFS balls and index prefixes (a bisection of the built-in
 *              families) otherwise.  This covers the bisection bound;
 *   eccentricity (SF only): a message moves one hop per step;
 *   hop-sends (SF with K ports): every hop of a message is a send by the
 *              node it leaves, and node v makes at most min(K, out-degree)
 *              per step: sum of shortest distances (broadcast: deliveries,
 *              one hop each) / sum of min(K, out-degree).  One-port SF AAS of
 *              the 3-cube: 96 hops, 8 per step: 12, where inject gives 7. */
#include "cc/bounds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ceil_div(long a, long b) { return (int)((a + b - 1) / b); }

static void add(cc_bounds *out, const char *name, int value, const char *why);

/* SF, K ports: hops that must be sent / sends possible per step (see above). */
static void sf_hop_sends_bound(const cc_problem *pb, const cc_paths *P, cc_bounds *out)
{
    const cc_topo *t = pb->t;
    long hops = 0, per_step = 0;
    for (int m = 0; m < pb->nmsg; m++) hops += pb->broadcast ? 1 : P->dist[pb->msrc[m] * t->n + pb->mdst[m]];
    for (int v = 0; v < t->n; v++) {
        int k = cc_problem_kout(pb, v), d = cc_topo_outdeg(t, v);
        per_step += k < d ? k : d;
    }
    char why[160];
    snprintf(why, sizeof why, "%ld hops, each a send by the node it leaves; at most %ld sends per step (min(K, out-degree) per node)",
             hops, per_step);
    add(out, "hop-sends", ceil_div(hops, per_step), why);
}

static void add(cc_bounds *out, const char *name, int value, const char *why)
{
    if (out->n >= CC_MAX_BOUNDS) return;
    cc_bound *b = &out->b[out->n++];
    b->name = name;
    b->value = value;
    snprintf(b->why, sizeof b->why, "%s", why);
}

/* b-matching: can every item be given one allowed bin with at most cap items per bin? */
typedef struct {
    int nitem, nbin, cap;
    const char *allowed;  /* [nitem * nbin] */
    int *bin_of;          /* [nitem] */
    int *load;            /* [nbin] */
    char *seen;           /* [nbin] */
} bmatch;

static bool augment(bmatch *m, int item)
{
    for (int b = 0; b < m->nbin; b++) {
        if (!m->allowed[item * m->nbin + b] || m->seen[b]) continue;
        m->seen[b] = 1;
        if (m->load[b] < m->cap) { m->bin_of[item] = b; m->load[b]++; return true; }
        for (int j = 0; j < m->nitem; j++)
            if (m->bin_of[j] == b && augment(m, j)) { m->bin_of[item] = b; return true; }
    }
    return false;
}

/* Least cap for which a full assignment exists; -1 if some item has no bin. */
static int least_cap(int nitem, int nbin, const char *allowed, int *bin_of, int *load, char *seen)
{
    for (int i = 0; i < nitem; i++) {
        bool any = false;
        for (int b = 0; b < nbin; b++) any |= allowed[i * nbin + b] != 0;
        if (!any) return -1;
    }
    for (int cap = ceil_div(nitem, nbin); cap <= nitem; cap++) {
        bmatch m = { nitem, nbin, cap, allowed, bin_of, load, seen };
        memset(load, 0, (size_t)nbin * sizeof *load);
        for (int i = 0; i < nitem; i++) bin_of[i] = -1;
        bool ok = true;
        for (int i = 0; i < nitem && ok; i++) {
            memset(seen, 0, (size_t)nbin);
            ok = augment(&m, i);
        }
        if (ok) return cap;
    }
    return nitem;
}

/* The first-hop (last=false) or last-hop bound over all senders (receivers). */
static bool hop_bound(const cc_problem *pb, const cc_paths *P, bool last, int *best, int *who)
{
    const cc_topo *t = pb->t;
    int n = t->n;
    char *allowed = malloc((size_t)n * (t->nch + 1));
    int *bin_of = malloc((size_t)n * sizeof *bin_of), *load = malloc((size_t)(t->nch + 1) * sizeof *load);
    char *seen = malloc((size_t)t->nch + 1);
    int *items = malloc((size_t)n * sizeof *items);
    if (!allowed || !bin_of || !load || !seen || !items) {
        free(allowed); free(bin_of); free(load); free(seen); free(items);
        return false;
    }
    *best = 0;
    *who = -1;
    for (int v = 0; v < n; v++) {
        if (!(last ? pb->receiver[v] : pb->sender[v])) continue;
        int deg = last ? cc_topo_indeg(t, v) : cc_topo_outdeg(t, v);
        const int *chs = last ? t->in_ch + t->in_start[v] : t->out_ch + t->out_start[v];
        int ni = 0;
        for (int w = 0; w < n; w++)
            if (w != v && (last ? pb->sender[w] : pb->receiver[w])) items[ni++] = w;
        if (!ni) continue;
        memset(allowed, 0, (size_t)ni * deg);
        for (int i = 0; i < ni; i++) {
            int s = last ? items[i] : v, d = last ? v : items[i];
            for (int k = 0; k < cc_paths_count(P, s, d); k++) {
                int id = cc_paths_id(P, s, d, k), len = cc_paths_len(P, id);
                int c = last ? cc_paths_ch(P, id)[len - 1] : cc_paths_ch(P, id)[0];
                for (int b = 0; b < deg; b++) if (chs[b] == c) allowed[i * deg + b] = 1;
            }
        }
        int cap = least_cap(ni, deg, allowed, bin_of, load, seen);
        if (cap > *best) { *best = cap; *who = v; }
    }
    free(allowed); free(bin_of); free(load); free(seen); free(items);
    return true;
}

/* Cut bound over all subsets by Gray code, each flip updating the crossing
 * channel and message counts in O(n). */
static bool cut_exact(const cc_problem *pb, int *best, unsigned long *best_set)
{
    const cc_topo *t = pb->t;
    int n = t->n;
    char *ch = calloc((size_t)n * n, 1), *msg = calloc((size_t)n * n, 1), *in = calloc((size_t)n, 1);
    if (!ch || !msg || !in) { free(ch); free(msg); free(in); return false; }
    for (int c = 0; c < t->nch; c++) ch[t->ch_from[c] * n + t->ch_to[c]]++;
    for (int m = 0; m < pb->nmsg; m++) msg[pb->msrc[m] * n + pb->mdst[m]] = 1;
    long C = 0, M = 0;
    unsigned long set = 0;
    *best = 0;
    *best_set = 0;
    for (unsigned long i = 1; i < (1UL << n); i++) {
        int v = __builtin_ctzl(i);
        set ^= 1UL << v;
        if (set & (1UL << v)) {       /* v joins S */
            in[v] = 1;
            for (int u = 0; u < n; u++) {
                if (u == v) continue;
                if (in[u]) { C -= ch[u * n + v]; M -= msg[u * n + v]; }
                else { C += ch[v * n + u]; M += msg[v * n + u]; }
            }
        } else {                      /* v leaves S */
            in[v] = 0;
            for (int u = 0; u < n; u++) {
                if (u == v) continue;
                if (in[u]) { C += ch[u * n + v]; M += msg[u * n + v]; }
                else { C -= ch[v * n + u]; M -= msg[v * n + u]; }
            }
        }
        if (M > 0 && C > 0) {
            int b = ceil_div(M, C);
            if (b > *best) { *best = b; *best_set = set; }
        }
    }
    free(ch); free(msg); free(in);
    return true;
}

/* Cut bound for one subset given as a membership array. */
static int cut_of(const cc_problem *pb, const char *in, long *Mo, long *Co)
{
    const cc_topo *t = pb->t;
    long C = 0, M = 0;
    for (int c = 0; c < t->nch; c++) C += in[t->ch_from[c]] && !in[t->ch_to[c]];
    /* The messages are every (sender, receiver) pair with s != d, so those
     * leaving the set are its senders times the receivers outside it: O(n). */
    long sin = 0, rout = 0;
    for (int v = 0; v < t->n; v++) { sin += in[v] && pb->sender[v]; rout += !in[v] && pb->receiver[v]; }
    M = sin * rout;
    *Mo = M;
    *Co = C;
    return C > 0 && M > 0 ? ceil_div(M, C) : 0;
}

static bool cut_heuristic(const cc_problem *pb, const cc_paths *P, int *best, long *bM, long *bC)
{
    int n = pb->t->n;
    char *in = malloc((size_t)n);
    if (!in) return false;
    *best = 0;
    long M, C;
    for (int k = 1; k < n; k++) {         /* index prefixes: half-cubes, row blocks */
        for (int v = 0; v < n; v++) in[v] = v < k;
        for (int pass = 0; pass < 2; pass++) {
            int b = cut_of(pb, in, &M, &C);
            if (b > *best) { *best = b; *bM = M; *bC = C; }
            for (int v = 0; v < n; v++) in[v] = !in[v];
        }
    }
    for (int v = 0; v < n; v++)           /* balls around each node */
        for (int r = 0; r < n; r++) {
            int cnt = 0;
            for (int w = 0; w < n; w++) { in[w] = P->dist[v * n + w] <= r; cnt += in[w]; }
            if (cnt == n) break;
            int b = cut_of(pb, in, &M, &C);
            if (b > *best) { *best = b; *bM = M; *bC = C; }
        }
    free(in);
    return true;
}

/* The cut bound: exact over all node sets for small graphs, else the best
 * of index-prefix and ball cuts. */
static int cut_bound(const cc_problem *pb, const cc_paths *P, cc_bounds *out)
{
    const cc_topo *t = pb->t;
    int n = t->n;
    char why[200];
    if (n <= CC_CUT_EXACT_MAX) {
        int cb;
        unsigned long set;
        if (!cut_exact(pb, &cb, &set)) return CC_ENOMEM;
        char *in = calloc((size_t)n, 1);
        if (!in) return CC_ENOMEM;
        for (int v = 0; v < n; v++) in[v] = (set >> v) & 1;
        long M, C;
        cut_of(pb, in, &M, &C);
        free(in);
        int len = snprintf(why, sizeof why, "exact over all node sets: %ld messages cross %ld channels out of {", M, C);
        for (int v = 0; v < n && len < (int)sizeof why - 8; v++)
            if ((set >> v) & 1) len += snprintf(why + len, sizeof why - (size_t)len, "%s%s", len && why[len - 1] == '{' ? "" : ",", t->names[v]);
        if (len < (int)sizeof why - 2) snprintf(why + len, sizeof why - (size_t)len, "}");
        add(out, "cut", cb, why);
    } else {
        int cb;
        long M = 0, C = 1;
        if (!cut_heuristic(pb, P, &cb, &M, &C)) return CC_ENOMEM;
        snprintf(why, sizeof why, "best of index-prefix and ball cuts (P > %d): %ld messages cross %ld channels", CC_CUT_EXACT_MAX, M, C);
        add(out, "cut", cb, why);
    }
    return CC_OK;
}

/* Broadcast: the steps before the origin that needs most could have
 * informed every receiver, its own out-degree in the first step and at most
 * 1 + kmax times more nodes each later one. */
static void inform_bound(const cc_problem *pb, int kmax, cc_bounds *out)
{
    const cc_topo *t = pb->t;
    int n = t->n;
    char why[200];
    int best = 0, who = -1, need_best = 0;
    for (int o = 0; o < n; o++) {
        if (!pb->sender[o]) continue;
        int need = 1;
        for (int v = 0; v < n; v++) need += v != o && pb->receiver[v];
        long informed = 1;
        int s = 0;
        while (informed < need) {
            informed = s == 0 ? 1 + cc_problem_kout(pb, o) : informed * (1 + kmax);
            s++;
        }
        if (s > best) { best = s; who = o; need_best = need; }
    }
    snprintf(why, sizeof why, "origin %s: %d nodes to inform, at most 1+%d after step 1, then x%d per step",
             t->names[who], need_best, cc_problem_kout(pb, who), 1 + kmax);
    add(out, "inform", best, why);
}

/* The sender with most messages per output port (inject, personalised
 * traffic), or the receiver with most per input port (receive). */
static void port_bound(const cc_problem *pb, bool receive, cc_bounds *out)
{
    const cc_topo *t = pb->t;
    const bool *mine = receive ? pb->receiver : pb->sender, *theirs = receive ? pb->sender : pb->receiver;
    char why[200];
    int best = 0, who = -1, cnt_best = 0;
    for (int a = 0; a < t->n; a++) {
        if (!mine[a]) continue;
        int cnt = 0;
        for (int b = 0; b < t->n; b++) cnt += b != a && theirs[b];
        if (!cnt) continue;
        int b = ceil_div(cnt, receive ? cc_problem_kin(pb, a) : cc_problem_kout(pb, a));
        if (b > best) { best = b; who = a; cnt_best = cnt; }
    }
    snprintf(why, sizeof why, "node %s %s %d messages, at most %d per step", t->names[who],
             receive ? "receives" : "sends", cnt_best, receive ? cc_problem_kin(pb, who) : cc_problem_kout(pb, who));
    add(out, receive ? "receive" : "inject", best, why);
}

/* Personalised traffic over the channels: first and last hop (small
 * networks), the sum of distances, the cut. */
static int channel_bounds(const cc_problem *pb, const cc_paths *P, cc_bounds *out)
{
    const cc_topo *t = pb->t;
    int n = t->n;
    char why[200];
    int b, who = -1;
    if (n <= CC_HOP_BOUND_MAX_NODES && !hop_bound(pb, P, false, &b, &who)) return CC_ENOMEM;
    if (who >= 0) {
        snprintf(why, sizeof why, "node %s: least maximum load of its output channels over the allowed routes", t->names[who]);
        add(out, "first-hop", b, why);
    }
    if (n <= CC_HOP_BOUND_MAX_NODES && !hop_bound(pb, P, true, &b, &who)) return CC_ENOMEM;
    if (who >= 0) {
        snprintf(why, sizeof why, "node %s: least maximum load of its input channels over the allowed routes", t->names[who]);
        add(out, "last-hop", b, why);
    }
    long sum = 0;
    for (int m = 0; m < pb->nmsg; m++) sum += P->dist[pb->msrc[m] * n + pb->mdst[m]];
    snprintf(why, sizeof why, "sum of shortest distances %ld over %d channels", sum, t->nch);
    add(out, "distance", ceil_div(sum, t->nch), why);
    return cut_bound(pb, P, out) != CC_OK ? CC_ENOMEM : CC_OK;
}

/* Store-and-forward: the farthest message, and the sends per hop. */
static void sf_bounds(const cc_problem *pb, const cc_paths *P, cc_bounds *out)
{
    int n = pb->t->n, ecc = 0;
    for (int m = 0; m < pb->nmsg; m++) {
        int d = P->dist[pb->msrc[m] * n + pb->mdst[m]];
        if (d > ecc) ecc = d;
    }
    add(out, "eccentricity", ecc, "store-and-forward moves a message one hop per step");
    if (pb->ports > 0) sf_hop_sends_bound(pb, P, out);
}

int cc_bounds_compute(const cc_problem *pb, const cc_paths *P, cc_bounds *out)
{
    int n = pb->t->n;
    memset(out, 0, sizeof *out);
    int kmax = 1;
    for (int v = 0; v < n; v++) if (cc_problem_kout(pb, v) > kmax) kmax = cc_problem_kout(pb, v);
    if (pb->broadcast) inform_bound(pb, kmax, out);
    else port_bound(pb, false, out);
    port_bound(pb, true, out);
    if (!pb->broadcast && channel_bounds(pb, P, out) != CC_OK) return CC_ENOMEM;
    if (pb->sw == CC_SF) sf_bounds(pb, P, out);
    out->best = 0;
    for (int i = 0; i < out->n; i++)
        if (out->b[i].value > out->best) { out->best = out->b[i].value; out->binding = i; }
    return CC_OK;
}
