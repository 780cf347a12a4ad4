/* Broadcast under the encoding: a gene per delivery (source, path, step),
 * restoration of a source that is not yet informed to one that is, conflict
 * counting and the mutation (see encoding.h). */
#include "cc/enc_internal.h"

#include <string.h>

/* Is v a usable source for delivery g at step st (informed earlier, has a
 * route, port free)? */
static bool good_source(const cc_enc *e, int o, int v, int d, int st)
{
    return v != d && e->itime[o * e->n + v] < st && enc_usable_paths(e, v, d) > 0 &&
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
        int id = cc_paths_id(e->P, v, d, pidx % enc_usable_paths(e, v, d));
        /* conflicts first, then length: a shorter route leaves channels free */
        long c = enc_cost(e, id, st) * 64 + cc_paths_len(e->P, id);
        if (bc < 0 || c < bc) { bc = c; best = v; ties = 1; }
        else if (c == bc && (int)rng_below(r, (uint32_t)(++ties)) == 0) best = v;
    }
    return best;
}

int enc_bc_path(const cc_enc *e, const int *x, int g)
{
    return cc_paths_id(e->P, x[3 * g], e->pb->mdst[g], x[3 * g + 1]);
}

long enc_broadcast_eval(cc_enc *e, int *x, rng *r)
{
    enc_clear(e);
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
            x[3 * g + 1] %= enc_usable_paths(e, src, d);
            x[3 * g + 2] = st;
            e->itime[o * n + d] = st;
            e->list[o * n + e->nl[o]++] = d;
            c += enc_touch(e, enc_bc_path(e, x, g), st, +1);
            if (e->K) { e->sends[st * n + src]++; e->recvs[st * n + d]++; }
        }
        carry = np;
    }
    e->penalty = c;
    return c + enc_port_excess(e);
}

void enc_broadcast_mutate(cc_enc *e, int *x, rng *r)
{
    int g = 0;
    for (int tries = 0; tries < 16; tries++) {
        g = (int)rng_below(r, (uint32_t)(e->M));
        int o = e->pb->msrc[g], d = e->pb->mdst[g];
        if (e->itime[o * e->n + d] > e->S) continue;    /* undelivered: not in use */
        if (enc_in_conflict(e, enc_bc_path(e, x, g), x[3 * g + 2])) break;
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
    enc_touch(e, enc_bc_path(e, x, g), st, -1);
    if (e->K) e->sends[st * e->n + x[3 * g]]--;
    int bsrc = x[3 * g], bp = x[3 * g + 1], ties = 0;
    long best = -1;
    bool all_sources = u < 0.6;
    for (int v = 0; v < e->n; v++) {
        if (!all_sources && v != x[3 * g]) continue;
        if (!good_source(e, o, v, d, st)) continue;
        for (int k = 0; k < enc_usable_paths(e, v, d); k++) {
            int id = cc_paths_id(e->P, v, d, k);
            long c = enc_cost(e, id, st) * 64 + cc_paths_len(e->P, id);
            if (best < 0 || c < best) { best = c; bsrc = v; bp = k; ties = 1; }
            else if (c == best && (int)rng_below(r, (uint32_t)(++ties)) == 0) { bsrc = v; bp = k; }
        }
    }
    x[3 * g] = bsrc;
    x[3 * g + 1] = bp;
    if (e->K) e->sends[st * e->n + bsrc]++;
    enc_touch(e, enc_bc_path(e, x, g), st, +1);
}
