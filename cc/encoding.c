/* The encodings' genes, channel bookkeeping and interface (see
 * encoding.h; each collective's evaluation and mutation are in
 * enc_scatter.c and enc_broadcast.c).  All scratch space lives in the
 * cc_enc so one evaluation allocates nothing. */
#include "cc/enc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int enc_npaths(const cc_enc *e, int s, int d) { return cc_paths_count(e->P, s, d); }

/* Paths a gene may use between s and d: SF broadcasts move one hop per
 * transfer, so only the direct channel (the first, minimal, path). */
int enc_usable_paths(const cc_enc *e, int s, int d)
{
    if (e->bc && e->hop1) return e->P->dist[s * e->n + d] == 1 ? 1 : 0;
    return enc_npaths(e, s, d);
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
            if (enc_npaths(e, s, d) == 0) { rc = cc_fail(CC_EINPUT, err, errlen, "no path from %.200s to %.200s", e->t->names[s], e->t->names[d]); goto fail; }
            e->card[2 * m] = enc_npaths(e, s, d);
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

/* Add (+1) or remove (-1) a path's channels; returns the conflicts added
 * (for +1) or removed (for -1).  Hops past the last step are penalties. */
long enc_touch(cc_enc *e, int id, int st, int sign)
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
long enc_cost(const cc_enc *e, int id, int st)
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

long enc_port_excess(const cc_enc *e)
{
    if (!e->K) return 0;
    long c = 0;
    for (int i = 0; i < e->S * e->n; i++) {
        if (e->sends[i] > e->K) c += e->sends[i] - e->K;
        if (e->recvs[i] > e->K) c += e->recvs[i] - e->K;
    }
    return c;
}

void enc_clear(cc_enc *e)
{
    memset(e->use, 0, (size_t)e->S * e->nch * sizeof *e->use);
    if (e->K) {
        memset(e->sends, 0, (size_t)e->S * e->n * sizeof *e->sends);
        memset(e->recvs, 0, (size_t)e->S * e->n * sizeof *e->recvs);
    }
    e->penalty = 0;
}

bool enc_in_conflict(const cc_enc *e, int id, int st)
{
    int len = cc_paths_len(e->P, id);
    const int *ch = cc_paths_ch(e->P, id);
    for (int h = 0; h < len; h++) {
        int s = hop_step(e, st, h);
        if (s >= e->S || e->use[(size_t)s * e->nch + ch[h]] > 1) return true;
    }
    return false;
}

/* ---- interface ---------------------------------------------------------- */

void cc_enc_set_progress(cc_enc *e, cc_enc_progress_fn fn, void *ctx)
{
    e->progress = fn;
    e->progress_ctx = ctx;
}

static long eval_x(cc_enc *e, int *x, rng *r)
{
    return e->bc ? enc_broadcast_eval(e, x, r) : enc_scatter_eval(e, x, r);
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
        if (e->bc) enc_broadcast_mutate(e, x, r);
        else enc_scatter_mutate(e, x, r);
    }
}

int cc_enc_decode(cc_enc *e, const int *x, cc_schedule *out)
{
    int *nodes = e->cand;     /* n + M + 1 >= path nodes */
    for (int m = 0; m < e->M; m++) {
        int id, st, src;
        if (e->bc) {
            if (e->itime[e->pb->msrc[m] * e->n + e->pb->mdst[m]] > e->S) continue;   /* undelivered */
            id = enc_bc_path(e, x, m); st = x[3 * m + 2]; src = x[3 * m];
        } else {
            id = enc_scatter_path(e, x, m); st = x[2 * m + 1]; src = e->pb->msrc[m];
        }
        int len = cc_paths_len(e->P, id);
        const int *ch = cc_paths_ch(e->P, id);
        nodes[0] = src;
        for (int h = 0; h < len; h++) nodes[h + 1] = e->t->ch_to[ch[h]];
        if (cc_schedule_add(out, st, e->pb->msrc[m], len + 1, nodes) != CC_OK) return CC_ENOMEM;
    }
    return CC_OK;
}
