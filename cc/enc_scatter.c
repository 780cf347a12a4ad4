/* Scatter (one-to-all personalised) under the encoding: a gene per
 * message (path, start step), the acceleration heuristic that pulls starts
 * forward where a node's ports allow, conflict counting and the mutation
 * that moves a message to its cheapest path and step (see encoding.h). */
#include "cc/enc_internal.h"

#include <string.h>

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

int enc_scatter_path(const cc_enc *e, const int *x, int m)
{
    return cc_paths_id(e->P, e->pb->msrc[m], e->pb->mdst[m], x[2 * m]);
}

/* SF: a message started at st needs len steps; keep it inside [0, S). */
static void clamp_start(const cc_enc *e, int *x, int m)
{
    if (!e->sf) return;
    int len = cc_paths_len(e->P, enc_scatter_path(e, x, m));
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

long enc_scatter_eval(cc_enc *e, int *x, rng *r)
{
    enc_clear(e);
    if (e->K) accelerate(e, x, r);
    long c = 0;
    for (int m = 0; m < e->M; m++) {
        clamp_start(e, x, m);
        int id = enc_scatter_path(e, x, m), st = x[2 * m + 1];
        c += enc_touch(e, id, st, +1);
        port_count(e, id, st, e->pb->msrc[m], e->pb->mdst[m], +1);
    }
    return c + enc_port_excess(e);
}

/* Best path for message m at step st given the current use (m removed). */
static int best_path(const cc_enc *e, int m, int st, rng *r, long *best_cost)
{
    int s = e->pb->msrc[m], d = e->pb->mdst[m], np = enc_npaths(e, s, d);
    int best = 0, ties = 0;
    long bc = -1;
    for (int k = 0; k < np; k++) {
        long c = enc_cost(e, cc_paths_id(e->P, s, d, k), st);
        if (bc < 0 || c < bc) { bc = c; best = k; ties = 1; }
        else if (c == bc && (int)rng_below(r, (uint32_t)(++ties)) == 0) best = k;
    }
    *best_cost = bc;
    return best;
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
            enc_touch(e, enc_scatter_path(e, x, m2), st, -1);
            port_add(e, m2, st, -1);
            c = placed_cost(e, m, st, r, &p) + placed_cost(e, m2, old, r, &p2);
            port_add(e, m2, st, +1);
            enc_touch(e, enc_scatter_path(e, x, m2), st, +1);
        } else c = placed_cost(e, m, st, r, &p);
        if (best < 0 || c < best) { best = c; bs = st; bp = p; bm2 = m2; bp2 = p2; ties = 1; }
        else if (c == best && (int)rng_below(r, (uint32_t)(++ties)) == 0) { bs = st; bp = p; bm2 = m2; bp2 = p2; }
    }
    if (bm2 >= 0) {
        enc_touch(e, enc_scatter_path(e, x, bm2), bs, -1);
        port_add(e, bm2, bs, -1);
        x[2 * bm2 + 1] = old;
        x[2 * bm2] = bp2;
        enc_touch(e, enc_scatter_path(e, x, bm2), old, +1);
        port_add(e, bm2, old, +1);
    }
    x[2 * m + 1] = bs;
    x[2 * m] = bp;
    port_add(e, m, bs, +1);
}

void enc_scatter_mutate(cc_enc *e, int *x, rng *r)
{
    int m = 0;
    for (int tries = 0; tries < 16; tries++) {
        int c = (int)rng_below(r, (uint32_t)(e->M));
        m = c;
        if (enc_in_conflict(e, enc_scatter_path(e, x, c), x[2 * c + 1])) break;
        if (e->K && !e->sf && e->recvs[x[2 * c + 1] * e->n + e->pb->mdst[c]] > e->K) break;
    }
    int s = e->pb->msrc[m];
    long bc;
    enc_touch(e, enc_scatter_path(e, x, m), x[2 * m + 1], -1);
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
        enc_touch(e, enc_scatter_path(e, x, m2), x[2 * m2 + 1], -1);
        int tmp = x[2 * m + 1]; x[2 * m + 1] = x[2 * m2 + 1]; x[2 * m2 + 1] = tmp;
        clamp_start(e, x, m);
        clamp_start(e, x, m2);
        x[2 * m2] = best_path(e, m2, x[2 * m2 + 1], r, &bc);
        enc_touch(e, enc_scatter_path(e, x, m2), x[2 * m2 + 1], +1);
        x[2 * m] = best_path(e, m, x[2 * m + 1], r, &bc);
    } else {
        x[2 * m] = best_path(e, m, x[2 * m + 1], r, &bc);
    }
    enc_touch(e, enc_scatter_path(e, x, m), x[2 * m + 1], +1);
}
