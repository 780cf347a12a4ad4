/* Encodings, restoration, acceleration, conflict counting and the tested
 * mutation; see encoding.h.  All scratch space lives in the cc_enc so one
 * evaluation allocates nothing. */
#include "cc/encoding.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cc_enc {
    const cc_problem *pb;
    const cc_paths *P;
    const cc_topo *t;
    int S, n, nch, M, gw, nvar, K;
    bool sf, bc;
    bool hop1;     /* broadcast deliveries only over one channel (SF, or asked for) */
    int *card;
    int *grp;      /* messages/deliveries of source (origin) v: grp[v] .. grp[v+1] */
    int *use;      /* [S*nch] channel use counts of the last evaluated x */
    int *sends, *recvs;   /* [S*n] */
    int *itime;    /* broadcast: [o*n+v] step in which v got o's message, -1 origin, S+1 never */
    int *order, *bstart, *list, *cand, *load;
    int *nl, *nb;  /* broadcast: informed list length per origin, now and before this step */
    long penalty;
    cc_enc_progress_fn progress;   /* called every CC_ENC_PROGRESS_EVERY evaluations, or NULL */
    void *progress_ctx;
    long nevals;
};

void cc_enc_free(cc_enc *e)
{
    if (!e) return;
    free(e->card); free(e->grp); free(e->use); free(e->sends); free(e->recvs);
    free(e->itime); free(e->order); free(e->bstart); free(e->list); free(e->cand); free(e->load); free(e->nl); free(e->nb);
    free(e);
}

int cc_enc_nvar(const cc_enc *e) { return e->nvar; }
const int *cc_enc_card(const cc_enc *e) { return e->card; }
int cc_enc_gene_width(const cc_enc *e) { return e->gw; }

static int npaths(const cc_enc *e, int s, int d) { return cc_paths_count(e->P, s, d); }

/* Paths a gene may use between s and d: SF broadcasts move one hop per
 * transfer, so only the direct channel (the first, minimal, path). */
static int usable_paths(const cc_enc *e, int s, int d)
{
    if (e->bc && e->hop1) return e->P->dist[s * e->n + d] == 1 ? 1 : 0;
    return npaths(e, s, d);
}

int cc_enc_new(const cc_problem *pb, const cc_paths *P, int S, bool neighbour_only, cc_enc **out, char *err, size_t errlen)
{
    int rc = CC_ENOMEM;
    *out = NULL;
    cc_enc *e = calloc(1, sizeof *e);
    if (!e) goto fail;
    e->pb = pb; e->P = P; e->t = pb->t;
    e->S = S; e->n = pb->t->n; e->nch = pb->t->nch; e->M = pb->nmsg;
    e->bc = pb->broadcast; e->sf = pb->sw == CC_SF; e->K = pb->ports;
    e->gw = e->bc ? 3 : 2;
    e->hop1 = e->bc && (e->sf || neighbour_only);
    e->nvar = e->M * e->gw;
    int n = e->n;
    e->card = malloc((size_t)e->nvar * sizeof *e->card);
    e->grp = calloc((size_t)n + 1, sizeof *e->grp);
    e->use = calloc((size_t)S * e->nch, sizeof *e->use);
    e->sends = calloc((size_t)S * n, sizeof *e->sends);
    e->recvs = calloc((size_t)S * n, sizeof *e->recvs);
    e->itime = malloc((size_t)n * n * sizeof *e->itime);
    e->order = malloc((size_t)(e->M + 1) * sizeof *e->order);
    e->bstart = malloc((size_t)(S + 2) * sizeof *e->bstart);
    e->list = malloc((size_t)n * n * sizeof *e->list);
    e->nl = malloc((size_t)n * sizeof *e->nl);
    e->nb = malloc((size_t)n * sizeof *e->nb);
    e->cand = malloc((size_t)(e->M + n + 1) * sizeof *e->cand);
    e->load = malloc((size_t)S * sizeof *e->load);
    if (!e->card || !e->grp || !e->use || !e->sends || !e->recvs || !e->itime || !e->order || !e->bstart || !e->list || !e->cand || !e->load || !e->nl || !e->nb) goto fail;
    for (int m = 0; m < e->M; m++) e->grp[pb->msrc[m] + 1]++;
    for (int v = 0; v < n; v++) e->grp[v + 1] += e->grp[v];
    for (int m = 0; m < e->M; m++) {
        int s = pb->msrc[m], d = pb->mdst[m];
        if (e->bc) {
            e->card[3 * m] = n;
            e->card[3 * m + 1] = P->maxcount > 0 ? P->maxcount : 1;
            e->card[3 * m + 2] = S;
        } else {
            if (npaths(e, s, d) == 0) { rc = cc_fail(CC_EINPUT, err, errlen, "no path from %.200s to %.200s", e->t->names[s], e->t->names[d]); goto fail; }
            e->card[2 * m] = npaths(e, s, d);
            e->card[2 * m + 1] = S;
        }
    }
    *out = e;
    return CC_OK;
fail:
    if (rc == CC_ENOMEM) cc_fail(CC_ENOMEM, err, errlen, "out of memory");
    cc_enc_free(e);
    return rc;
}

int cc_enc_steps(const cc_enc *e) { return e->S; }

int cc_enc_clone(const cc_enc *e, cc_enc **out, char *err, size_t errlen)
{
    return cc_enc_new(e->pb, e->P, e->S, e->hop1 && !e->sf, out, err, errlen);
}

void cc_enc_random(cc_enc *e, int *x, rng *r)
{
    for (int i = 0; i < e->nvar; i++) x[i] = (int)rng_below(r, (uint32_t)(e->card[i]));
}

/* ---- channel bookkeeping ---------------------------------------------- */

/* Step in which hop h of a transfer started at step st uses its channel. */
static inline int hop_step(const cc_enc *e, int st, int h) { return e->sf ? st + h : st; }

/* Add (+1) or remove (-1) a path's channels; returns the conflicts added
 * (for +1) or removed (for -1).  Hops past the last step are penalties. */
static long touch(cc_enc *e, int id, int st, int sign)
{
    int len = cc_paths_len(e->P, id);
    const int *ch = cc_paths_ch(e->P, id);
    long c = 0;
    for (int h = 0; h < len; h++) {
        int s = hop_step(e, st, h);
        if (s >= e->S) { c++; continue; }
        int *u = &e->use[(size_t)s * e->nch + ch[h]];
        if (sign > 0) { c += *u >= 1; (*u)++; }
        else { (*u)--; c += *u >= 1; }
    }
    return c;
}

/* Conflicts a path would create if added now (without adding it). */
static long cost(const cc_enc *e, int id, int st)
{
    int len = cc_paths_len(e->P, id);
    const int *ch = cc_paths_ch(e->P, id);
    long c = 0;
    for (int h = 0; h < len; h++) {
        int s = hop_step(e, st, h);
        c += s >= e->S ? 1 : e->use[(size_t)s * e->nch + ch[h]];
    }
    return c;
}

static void port_count(cc_enc *e, int id, int st, int src, int dst, int sign)
{
    if (!e->K) return;
    if (!e->sf) {
        e->sends[st * e->n + src] += sign;
        e->recvs[st * e->n + dst] += sign;
        return;
    }
    int len = cc_paths_len(e->P, id);
    const int *ch = cc_paths_ch(e->P, id);
    for (int h = 0; h < len; h++) {
        int s = st + h;
        if (s >= e->S) break;
        e->sends[s * e->n + e->t->ch_from[ch[h]]] += sign;
        e->recvs[s * e->n + e->t->ch_to[ch[h]]] += sign;
    }
}

static long port_excess(const cc_enc *e)
{
    if (!e->K) return 0;
    long c = 0;
    for (int i = 0; i < e->S * e->n; i++) {
        if (e->sends[i] > e->K) c += e->sends[i] - e->K;
        if (e->recvs[i] > e->K) c += e->recvs[i] - e->K;
    }
    return c;
}

static void clear(cc_enc *e)
{
    memset(e->use, 0, (size_t)e->S * e->nch * sizeof *e->use);
    if (e->K) {
        memset(e->sends, 0, (size_t)e->S * e->n * sizeof *e->sends);
        memset(e->recvs, 0, (size_t)e->S * e->n * sizeof *e->recvs);
    }
    e->penalty = 0;
}

/* ---- scatter ------------------------------------------------------------ */

static int scatter_path(const cc_enc *e, const int *x, int m)
{
    return cc_paths_id(e->P, e->pb->msrc[m], e->pb->mdst[m], x[2 * m]);
}

/* SF: a message started at st needs len steps; keep it inside [0, S). */
static void clamp_start(const cc_enc *e, int *x, int m)
{
    if (!e->sf) return;
    int len = cc_paths_len(e->P, scatter_path(e, x, m));
    int last = e->S - len;
    if (last < 0) last = 0;
    if (x[2 * m + 1] > last) x[2 * m + 1] = last;
}

/* Acceleration heuristic: no node can inject more than K messages a step, so
 * move a sender's excess messages to its least loaded steps before counting
 * conflicts. */
static void accelerate(cc_enc *e, int *x, rng *r)
{
    int *load = e->load;
    for (int v = 0; v < e->n; v++) {
        int a = e->grp[v], b = e->grp[v + 1];
        if (b - a <= e->K) continue;   /* cannot exceed the limit */
        memset(load, 0, (size_t)e->S * sizeof *load);
        for (int m = a; m < b; m++) load[x[2 * m + 1]]++;
        int off = (int)rng_below(r, (uint32_t)(b - a));
        for (int k = 0; k < b - a; k++) {
            int m = a + (k + off) % (b - a), st = x[2 * m + 1];
            if (load[st] <= e->K) continue;
            int best = st;
            for (int s = 0; s < e->S; s++) if (load[s] < load[best]) best = s;
            if (best == st) continue;
            load[st]--; load[best]++;
            x[2 * m + 1] = best;
        }
    }
}

static long scatter_eval(cc_enc *e, int *x, rng *r)
{
    clear(e);
    if (e->K) accelerate(e, x, r);
    long c = 0;
    for (int m = 0; m < e->M; m++) {
        clamp_start(e, x, m);
        int id = scatter_path(e, x, m), st = x[2 * m + 1];
        c += touch(e, id, st, +1);
        port_count(e, id, st, e->pb->msrc[m], e->pb->mdst[m], +1);
    }
    return c + port_excess(e);
}

/* Best path for message m at step st given the current use (m removed). */
static int best_path(const cc_enc *e, int m, int st, rng *r, long *best_cost)
{
    int s = e->pb->msrc[m], d = e->pb->mdst[m], np = npaths(e, s, d);
    int best = 0, ties = 0;
    long bc = -1;
    for (int k = 0; k < np; k++) {
        long c = cost(e, cc_paths_id(e->P, s, d, k), st);
        if (bc < 0 || c < bc) { bc = c; best = k; ties = 1; }
        else if (c == bc && (int)rng_below(r, (uint32_t)(++ties)) == 0) best = k;
    }
    *best_cost = bc;
    return best;
}

static bool in_conflict(const cc_enc *e, int id, int st)
{
    int len = cc_paths_len(e->P, id);
    const int *ch = cc_paths_ch(e->P, id);
    for (int h = 0; h < len; h++) {
        int s = hop_step(e, st, h);
        if (s >= e->S || e->use[(size_t)s * e->nch + ch[h]] > 1) return true;
    }
    return false;
}

/* A message of sender s other than m starting in step st, or -1. */
static int message_at(const cc_enc *e, const int *x, int s, int m, int st)
{
    for (int k = e->grp[s]; k < e->grp[s + 1]; k++)
        if (k != m && x[2 * k + 1] == st) return k;
    return -1;
}

/* Cost of message m (removed from the tables) at step st on its best route,
 * the receiver's port excess included. */
static long placed_cost(const cc_enc *e, int m, int st, rng *r, int *path)
{
    long bc;
    *path = best_path(e, m, st, r, &bc);
    return bc + (e->recvs[st * e->n + e->pb->mdst[m]] >= e->K);
}

static void port_add(cc_enc *e, int m, int st, int sign)
{
    e->sends[st * e->n + e->pb->msrc[m]] += sign;
    e->recvs[st * e->n + e->pb->mdst[m]] += sign;
}

/* WH K-port scatter: try message m (removed from the channel table) in every
 * step; where its sender's ports are full, the sender's message there swaps
 * into m's old step.  Channel conflicts and receive-port excess both count,
 * so a message can leave a receiver that is busy in its step. */
static void port_move(cc_enc *e, int *x, rng *r, int m)
{
    int s = e->pb->msrc[m], old = x[2 * m + 1], ties = 0, bs = old, bp = x[2 * m], bp2 = -1, bm2 = -1;
    long best = -1;
    port_add(e, m, old, -1);
    for (int st = 0; st < e->S; st++) {
        int m2 = e->sends[st * e->n + s] >= e->K ? message_at(e, x, s, m, st) : -1;
        int p, p2 = -1;
        long c;
        if (m2 >= 0) {
            touch(e, scatter_path(e, x, m2), st, -1);
            port_add(e, m2, st, -1);
            c = placed_cost(e, m, st, r, &p) + placed_cost(e, m2, old, r, &p2);
            port_add(e, m2, st, +1);
            touch(e, scatter_path(e, x, m2), st, +1);
        } else c = placed_cost(e, m, st, r, &p);
        if (best < 0 || c < best) { best = c; bs = st; bp = p; bm2 = m2; bp2 = p2; ties = 1; }
        else if (c == best && (int)rng_below(r, (uint32_t)(++ties)) == 0) { bs = st; bp = p; bm2 = m2; bp2 = p2; }
    }
    if (bm2 >= 0) {
        touch(e, scatter_path(e, x, bm2), bs, -1);
        port_add(e, bm2, bs, -1);
        x[2 * bm2 + 1] = old;
        x[2 * bm2] = bp2;
        touch(e, scatter_path(e, x, bm2), old, +1);
        port_add(e, bm2, old, +1);
    }
    x[2 * m + 1] = bs;
    x[2 * m] = bp;
    port_add(e, m, bs, +1);
}

static void scatter_mutate(cc_enc *e, int *x, rng *r)
{
    int m = 0;
    for (int tries = 0; tries < 16; tries++) {
        int c = (int)rng_below(r, (uint32_t)(e->M));
        m = c;
        if (in_conflict(e, scatter_path(e, x, c), x[2 * c + 1])) break;
        if (e->K && !e->sf && e->recvs[x[2 * c + 1] * e->n + e->pb->mdst[c]] > e->K) break;
    }
    int s = e->pb->msrc[m];
    long bc;
    touch(e, scatter_path(e, x, m), x[2 * m + 1], -1);
    double u = rng_unit(r);
    if (e->K && !e->sf && u < 0.5) {
        port_move(e, x, r, m);
    } else if (!e->K && u < 0.5) {
        /* All-port: channels alone limit a step, so test every (step, path). */
        int bs = x[2 * m + 1], bp = x[2 * m], ties = 0;
        long best = -1;
        for (int st = 0; st < e->S; st++) {
            x[2 * m + 1] = st;
            clamp_start(e, x, m);
            if (x[2 * m + 1] != st) continue;
            int p = best_path(e, m, st, r, &bc);
            if (best < 0 || bc < best) { best = bc; bs = st; bp = p; ties = 1; }
            else if (bc == best && (int)rng_below(r, (uint32_t)(++ties)) == 0) { bs = st; bp = p; }
        }
        x[2 * m + 1] = bs;
        x[2 * m] = bp;
    } else if (u < 0.75 && e->grp[s + 1] - e->grp[s] > 1) {
        /* Swap time slots with another message of the same sender (keeps the
         * sender's per-step load, so the port limit stays met). */
        int a = e->grp[s], cnt = e->grp[s + 1] - a, m2 = a + (int)rng_below(r, (uint32_t)(cnt));
        if (m2 == m) m2 = a + (m2 - a + 1) % cnt;
        touch(e, scatter_path(e, x, m2), x[2 * m2 + 1], -1);
        int tmp = x[2 * m + 1]; x[2 * m + 1] = x[2 * m2 + 1]; x[2 * m2 + 1] = tmp;
        clamp_start(e, x, m);
        clamp_start(e, x, m2);
        x[2 * m2] = best_path(e, m2, x[2 * m2 + 1], r, &bc);
        touch(e, scatter_path(e, x, m2), x[2 * m2 + 1], +1);
        x[2 * m] = best_path(e, m, x[2 * m + 1], r, &bc);
    } else {
        x[2 * m] = best_path(e, m, x[2 * m + 1], r, &bc);
    }
    touch(e, scatter_path(e, x, m), x[2 * m + 1], +1);
}

/* ---- broadcast ---------------------------------------------------------- */

/* Is v a usable source for delivery g at step st (informed earlier, has a
 * route, port free)? */
static bool good_source(const cc_enc *e, int o, int v, int d, int st)
{
    return v != d && e->itime[o * e->n + v] < st && usable_paths(e, v, d) > 0 &&
           (!e->K || e->sends[st * e->n + v] < e->K);
}

/* Restoration: an informed source for delivery (o -> d) at step st, chosen at
 * random among the nodes informed before st; -1 if there is none. */
static int restore_source(cc_enc *e, int o, int d, int st, const int *list, int ninformed, int pidx, rng *r)
{
    /* Among the informed nodes, the one whose route (the gene's path index,
     * modulo) adds the fewest conflicts so far; ties broken at random.  Paper
     * 002 picks at random; preferring free routes repairs trees that stay
     * conflict-free far more often. */
    int best = -1, ties = 0;
    long bc = -1;
    for (int i = 0; i < ninformed; i++) {
        int v = list[i];
        if (!good_source(e, o, v, d, st)) continue;
        int id = cc_paths_id(e->P, v, d, pidx % usable_paths(e, v, d));
        /* conflicts first, then length: a shorter route leaves channels free */
        long c = cost(e, id, st) * 64 + cc_paths_len(e->P, id);
        if (bc < 0 || c < bc) { bc = c; best = v; ties = 1; }
        else if (c == bc && (int)rng_below(r, (uint32_t)(++ties)) == 0) best = v;
    }
    return best;
}

static int bc_path(const cc_enc *e, const int *x, int g)
{
    return cc_paths_id(e->P, x[3 * g], e->pb->mdst[g], x[3 * g + 1]);
}

static long broadcast_eval(cc_enc *e, int *x, rng *r)
{
    clear(e);
    int n = e->n, S = e->S, M = e->M;
    long c = 0;
    /* Step by step over all origins at once, so that in each step every
     * origin's restoration sees the channels the others already took. */
    for (int i = 0; i < n * n; i++) e->itime[i] = S + 1;
    for (int o = 0; o < n; o++) {
        e->itime[o * n + o] = -1;
        e->list[o * n] = o;
        e->nl[o] = 1;
    }
    memset(e->bstart, 0, (size_t)(S + 2) * sizeof *e->bstart);
    for (int g = 0; g < M; g++) e->bstart[x[3 * g + 2] + 1]++;
    for (int s = 0; s < S; s++) e->bstart[s + 1] += e->bstart[s];
    for (int g = 0; g < M; g++) e->order[e->bstart[x[3 * g + 2]]++] = g;
    for (int s = S; s > 0; s--) e->bstart[s] = e->bstart[s - 1];
    e->bstart[0] = 0;
    int carry = 0;
    int *post = e->cand + n;      /* postponed deliveries, handled first next step */
    for (int st = 0; st < S; st++) {
        for (int o = 0; o < n; o++) e->nb[o] = e->nl[o];   /* informed before st */
        int np = 0, inbucket = e->bstart[st + 1] - e->bstart[st];
        int total = carry + inbucket, rot = inbucket ? (int)rng_below(r, (uint32_t)(inbucket)) : 0;
        for (int k = 0; k < total; k++) {
            /* the bucket is visited from a random rotation: no origin always first */
            int g = k < carry ? post[k] : e->order[e->bstart[st] + (k - carry + rot) % inbucket];
            int o = e->pb->msrc[g], d = e->pb->mdst[g], src = x[3 * g];
            if (!good_source(e, o, src, d, st)) src = restore_source(e, o, d, st, e->list + o * n, e->nb[o], x[3 * g + 1], r);
            if (src < 0) {
                if (st + 1 < S) { post[np++] = g; continue; }
                c += 2;   /* no informed source even in the last step: unreachable */
                x[3 * g + 2] = st;
                continue;
            }
            x[3 * g] = src;
            x[3 * g + 1] %= usable_paths(e, src, d);
            x[3 * g + 2] = st;
            e->itime[o * n + d] = st;
            e->list[o * n + e->nl[o]++] = d;
            c += touch(e, bc_path(e, x, g), st, +1);
            if (e->K) { e->sends[st * n + src]++; e->recvs[st * n + d]++; }
        }
        carry = np;
    }
    e->penalty = c;
    return c + port_excess(e);
}

static void broadcast_mutate(cc_enc *e, int *x, rng *r)
{
    int g = 0;
    for (int tries = 0; tries < 16; tries++) {
        g = (int)rng_below(r, (uint32_t)(e->M));
        int o = e->pb->msrc[g], d = e->pb->mdst[g];
        if (e->itime[o * e->n + d] > e->S) continue;    /* undelivered: not in use */
        if (in_conflict(e, bc_path(e, x, g), x[3 * g + 2])) break;
        if (e->K && e->recvs[x[3 * g + 2] * e->n + d] > e->K) break;
    }
    int o = e->pb->msrc[g], d = e->pb->mdst[g], st = x[3 * g + 2];
    double u = rng_unit(r);
    if (e->K && e->recvs[st * e->n + d] > e->K && u < 0.5) {
        /* K-port: the receiver takes too many in this step; move the
         * delivery to a step where its port is free (restoration then finds
         * an informed source there). */
        int free_steps = 0, pick = st;
        for (int t = 0; t < e->S; t++)
            if (e->recvs[t * e->n + d] < e->K && (int)rng_below(r, (uint32_t)(++free_steps)) == 0) pick = t;
        if (free_steps) {
            e->recvs[st * e->n + d]--;
            e->recvs[pick * e->n + d]++;
            x[3 * g + 2] = pick;
            return;
        }
    }
    if (e->itime[o * e->n + d] > e->S || u < 0.15) {
        /* Move it to another step; restoration repairs the tree next time. */
        x[3 * g + 2] = (int)rng_below(r, (uint32_t)(e->S));
        return;
    }
    touch(e, bc_path(e, x, g), st, -1);
    if (e->K) e->sends[st * e->n + x[3 * g]]--;
    int bsrc = x[3 * g], bp = x[3 * g + 1], ties = 0;
    long best = -1;
    bool all_sources = u < 0.6;
    for (int v = 0; v < e->n; v++) {
        if (!all_sources && v != x[3 * g]) continue;
        if (!good_source(e, o, v, d, st)) continue;
        for (int k = 0; k < usable_paths(e, v, d); k++) {
            int id = cc_paths_id(e->P, v, d, k);
            long c = cost(e, id, st) * 64 + cc_paths_len(e->P, id);
            if (best < 0 || c < best) { best = c; bsrc = v; bp = k; ties = 1; }
            else if (c == best && (int)rng_below(r, (uint32_t)(++ties)) == 0) { bsrc = v; bp = k; }
        }
    }
    x[3 * g] = bsrc;
    x[3 * g + 1] = bp;
    if (e->K) e->sends[st * e->n + bsrc]++;
    touch(e, bc_path(e, x, g), st, +1);
}

/* ---- interface ---------------------------------------------------------- */

void cc_enc_set_progress(cc_enc *e, cc_enc_progress_fn fn, void *ctx)
{
    e->progress = fn;
    e->progress_ctx = ctx;
}

static long eval_x(cc_enc *e, int *x, rng *r)
{
    return e->bc ? broadcast_eval(e, x, r) : scatter_eval(e, x, r);
}

long cc_enc_eval(cc_enc *e, int *x, rng *r)
{
    if (e->progress && ++e->nevals % CC_ENC_PROGRESS_EVERY == 0) e->progress(e->progress_ctx, e->nevals);
    return eval_x(e, x, r);
}

void cc_enc_mutate(cc_enc *e, int *x, rng *r)
{
    cc_enc_mutate_n(e, x, r, e->bc ? CC_ENC_MOVES_BC : CC_ENC_MOVES_SC);
}

void cc_enc_mutate_n(cc_enc *e, int *x, rng *r, int maxmoves)
{
    eval_x(e, x, r);     /* bring use[] and the repairs up to date (not counted: the algorithm's own calls are) */
    int moves = 1 + (int)rng_below(r, (uint32_t)(maxmoves < 1 ? 1 : maxmoves));
    for (int k = 0; k < moves; k++) {
        if (e->bc) broadcast_mutate(e, x, r);
        else scatter_mutate(e, x, r);
    }
}

int cc_enc_decode(cc_enc *e, const int *x, cc_schedule *out)
{
    int *nodes = e->cand;     /* n + M + 1 >= path nodes */
    for (int m = 0; m < e->M; m++) {
        int id, st, src;
        if (e->bc) {
            if (e->itime[e->pb->msrc[m] * e->n + e->pb->mdst[m]] > e->S) continue;   /* undelivered */
            id = bc_path(e, x, m); st = x[3 * m + 2]; src = x[3 * m];
        } else {
            id = scatter_path(e, x, m); st = x[2 * m + 1]; src = e->pb->msrc[m];
        }
        int len = cc_paths_len(e->P, id);
        const int *ch = cc_paths_ch(e->P, id);
        nodes[0] = src;
        for (int h = 0; h < len; h++) nodes[h + 1] = e->t->ch_to[ch[h]];
        if (cc_schedule_add(out, st, e->pb->msrc[m], len + 1, nodes) != CC_OK) return CC_ENOMEM;
    }
    return CC_OK;
}
